"""Every prompt of random Diced Tomatoes games fits Discord's component limits, on every page and step."""

from __future__ import annotations

import itertools
from typing import Any

import discord
import pytest

from cogs.games import get_ui
from cogs.platform import ids
from cogs.platform.layout import (
    clip,
    group_entries,
    group_rows,
    groups_of,
    main_entries,
    main_rows,
    page_count,
)
from cogs.platform.views import build_view
from engine.core import Prompt
from engine.games import get_rules
from engine.rng import Rng

BIG_TABLE = 2**53
"""A table id far larger than any real one, so custom_ids are as long as they will ever be."""
NAMES = ["Ann", "Bartholomew the Magnificent", "张伟🍅", "x" * 32, "Dee", "Émile"]

VARIANTS = [
    dict(zip(("golden_hybrid", "dicey_rules", "karma_overload", "pick_colours"), flags, strict=True))
    for flags in itertools.product((True, False), repeat=4)
]


def check_message(rows: list[Any]) -> None:
    """The components of one message, as discord.py sends them, within Discord's limits."""
    payload = build_view(rows).to_components()
    assert 1 <= len(payload) <= 5, "at most 5 rows"
    seen: set[str] = set()
    for row in payload:
        children = row["components"]
        selects = [c for c in children if c["type"] == discord.ComponentType.select.value]
        assert len(children) <= 5 and (not selects or len(children) == 1), "5 buttons, or one select, a row"
        for child in children:
            custom_id = child["custom_id"]
            assert len(custom_id) <= 100 and custom_id not in seen and ids.parse(custom_id) is not None
            seen.add(custom_id)
            if child["type"] == discord.ComponentType.button.value:
                assert 1 <= len(child["label"]) <= 80
            else:
                assert 1 <= len(child["options"]) <= 25 and len(child.get("placeholder", "")) <= 150
                values = [o["value"] for o in child["options"]]
                assert len(set(values)) == len(values)
                for option in child["options"]:
                    assert 1 <= len(option["label"]) <= 100 and len(option["value"]) <= 100
                    ref = ids.parse(custom_id)
                    assert isinstance(ref, ids.PickRef)
                    assert ids.parse_value(ref.table, ref.version, option["value"]) is not None


def check_prompt(
    view: Any, prompts: tuple[Prompt, ...], version: int, names: list[str], game: str = "tomatoes"
) -> int:
    """Check the first step (every page) and the second step of every group (every page)."""
    ui = get_ui(game)
    undo = [prompts[0].seat]
    entries = main_entries(BIG_TABLE, version, ui, view, prompts, names)
    for page in range(page_count(entries)):
        rows = main_rows(BIG_TABLE, version, ui, view, prompts, names, undo, page)
        check_message(rows)
    views = 1
    for prompt in prompts:
        reached = {
            e.ref.index for e in entries if isinstance(e.ref, ids.ActRef) and e.ref.seat == prompt.seat
        }
        for group in groups_of(ui, view, prompt, names):
            pages = group_pages(group, version)
            for rows in pages:
                check_message(rows)
                views += 1
            labels = {b.label for rows in pages for row in rows if isinstance(row, tuple) for b in row}
            labels |= {
                o.label for rows in pages for row in rows if not isinstance(row, tuple) for o in row.options
            }
            if group.budget is not None and len(group.members) > 1:
                assert {clip(c.label, 80) for _, c in group.members} <= labels, "each label on a page"
            reached.update(i for i, _ in group.members)
        assert reached == set(range(len(prompt.options))), "every option is reachable"
    return views


def group_pages(group: Any, version: int) -> list[list[Any]]:
    """Every page of a group's second step, following its "More" arrows."""
    if group.budget is None:
        members = group_entries(BIG_TABLE, version, group)
        return [group_rows(BIG_TABLE, version, group, page) for page in range(page_count(members))]
    pages = [group_rows(BIG_TABLE, version, group, 0)]
    while "More" in [b.label for b in pages[-1][-1]]:
        pages.append(group_rows(BIG_TABLE, version, group, len(pages)))
    return pages


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_every_prompt_of_random_games_fits(players: int) -> None:
    rules = get_rules("tomatoes")
    names = NAMES[:players]
    checked = 0
    for game in range(2):
        options = VARIANTS[(players * 2 + game) % len(VARIANTS)]
        state = rules.setup(players, options, seed=1000 * players + game)
        rng = Rng.from_seed(players, game)
        for _ in range(3000):
            prompts = rules.prompts(state)
            if not prompts:
                break
            checked += check_prompt(rules.view(state, None), prompts, state.version + 10**6, names)
            prompt = prompts[0]
            policy = "random" if rng.below(3) == 0 else "greedy"
            action = rules.bot_action(state, prompt, policy)
            state = rules.apply(state, prompt.seat, action).state
        assert rules.outcome(state) is not None, "the game ended"
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_prompt_of_random_buttons_games_fits(players: int) -> None:
    rules = get_rules("buttons")
    names = NAMES[:players]
    checked = 0
    state = rules.setup(players, {}, seed=77 + players)
    rng = Rng.from_seed(players)
    for _ in range(5000):
        prompts = rules.prompts(state)
        if not prompts:
            break
        checked += check_prompt(rules.view(state, None), prompts, state.version + 10**6, names, "buttons")
        prompt = prompts[rng.below(len(prompts))]
        policy = "random" if rng.below(3) == 0 else "greedy"
        state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, policy)).state
    assert rules.outcome(state) is not None, "the game ended"
    assert checked > 50


def test_a_crowded_prompt_pages_within_the_budget() -> None:
    """A group with more choices than the menu budget: short pages of distinct labels, with arrows."""
    ui = get_ui("tomatoes")
    rules = get_rules("tomatoes")
    state = rules.setup(6, {}, seed=3)
    while not any(a.kind == "set_value" for p in rules.prompts(state) for a in p.options):
        prompt = rules.prompts(state)[0]
        state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, "random")).state
    state.players[state.active].karma = 12
    prompt = rules.prompts(state)[0]
    fake = Prompt(prompt.seat, prompt.kind, prompt.options * 10, context=prompt.context)
    names = NAMES
    view = rules.view(state, None)
    for group in groups_of(ui, view, fake, names):
        for rows in group_pages(group, 1):
            check_message(rows)
            assert sum(len(row) for row in rows if isinstance(row, tuple)) <= 10
    biggest = max(groups_of(ui, view, fake, names), key=lambda g: len(g.members))
    assert len(biggest.members) > 100
    pages = group_pages(biggest, 1)
    assert [b.label for b in pages[0][-1]][-2:] == ["Back", "More"]
    assert [b.label for b in pages[-1][-1]][-2:] == ["Back", "Previous"]
    shown = [
        b.label for rows in pages for row in rows for b in row if b.label not in ("Back", "More", "Previous")
    ]
    assert len(shown) == len(set(shown)) == len({c.label for _, c in biggest.members}), "each label once"
