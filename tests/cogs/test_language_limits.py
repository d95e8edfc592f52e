"""Every button label and select option the layout builds, in every language, within Discord's limits
(80 characters a label, 100 an option, 25 options a select), over the prompts of random games of
every game: the first step (every page) and the second step of every group (every page)."""

from __future__ import annotations

import gettext
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.games import get_ui
from cogs.platform.layout import group_entries, group_rows, groups_of, main_entries, main_rows, page_count
from engine.core import Prompt
from engine.games import GAMES, get_rules
from engine.rng import Rng
from engine.words import LANGUAGES, Words, words
from tests.cogs.test_limits import BIG_TABLE, NAMES, check_message

STEPS = 200
"""Prompts checked at most per game and seat count (a Troyes game has about a thousand)."""


class Stretched(gettext.NullTranslations):
    """A language whose every message is three times as long as the English (its {fields} kept):
    what the layout must keep within the limits whatever a translator writes."""

    def gettext(self, message: str) -> str:
        return " ".join([message] * 3)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


def language(name: str) -> Words:
    """The Words of a real language, or of the stretched one."""
    return Words("ru", Stretched()) if name == "stretched" else words(name)


def random_prompts(game: str, players: int, seed: int) -> Iterator[tuple[Any, tuple[Prompt, ...], int]]:
    """(spectators' view, open prompts, version) along a seeded game of random and greedy moves."""
    rules = get_rules(game)
    state = rules.setup(players, {}, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(5000):
        prompts = tuple(rules.prompts(state))
        if not prompts:
            return
        yield rules.view(state, None), prompts, state.version
        prompt = prompts[rng.below(len(prompts))]
        policy = "random" if rng.below(3) == 0 else "greedy"
        state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, policy)).state


def group_pages(group: Any, version: int, w: Words) -> list[list[Any]]:
    """Every page of a group's second step, following its "More" arrows (in `w`'s words)."""
    if group.budget is None:
        members = group_entries(BIG_TABLE, version, group)
        return [group_rows(BIG_TABLE, version, group, page, w) for page in range(page_count(members))]
    pages = [group_rows(BIG_TABLE, version, group, 0, w)]
    while w.gettext("More") in [b.label for b in pages[-1][-1]]:
        pages.append(group_rows(BIG_TABLE, version, group, len(pages), w))
    return pages


def check_screens(game: str, view: Any, prompts: tuple[Prompt, ...], version: int, w: Words) -> int:
    """Check every screen of one moment of a game; return how many were checked."""
    ui = get_ui(game)
    names = NAMES[: GAMES[game].seats]
    # Undo for every seat (its label names the player) and "My hand": the most controls a board has.
    undo = list(range(min(3, len(names))))
    entries = main_entries(BIG_TABLE, version, ui, view, prompts, names, w)
    screens = 0
    for page in range(page_count(entries)):
        check_message(main_rows(BIG_TABLE, version, ui, view, prompts, names, undo, page, True, w))
        screens += 1
    for prompt in prompts:
        for group in groups_of(ui, view, prompt, names, w):
            for rows in group_pages(group, version, w):
                check_message(rows)
                screens += 1
    return screens


@pytest.mark.parametrize("name", [*(lang for lang in LANGUAGES if lang != "en"), "stretched"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_label_and_option_of_random_games_fits_discord_in_every_language(game: str, name: str) -> None:
    w = language(name)
    started = time.perf_counter()
    screens = prompts_seen = 0
    for players in sorted({GAMES[game].seats, max(2, min(3, GAMES[game].seats))}):
        for step, (view, prompts, version) in enumerate(random_prompts(game, players, seed=36 + players)):
            if step == STEPS:
                break
            screens += check_screens(game, view, prompts, version + 10**6, w)
            prompts_seen += 1
    assert prompts_seen > 100 and screens >= prompts_seen
    assert time.perf_counter() - started < 20
