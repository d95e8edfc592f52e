"""Issue 36: each game's buttons, selects and questions are said in the Words the platform hands them."""

from __future__ import annotations

import gettext
import re

import pytest

from cogs.games import get_ui
from engine.games import get_rules
from engine.rng import Rng
from engine.words import Words

FIELD = re.compile(r"(\{[^}]*\})")
NAMES = ["Анна", "Борис", "민지", "王芳"]
"""Players' names with no Latin letter, so any Latin word left in a label is untranslated."""


def _pseudo(template: str) -> str:
    """The template with each Latin letter outside its {fields} turned into its fullwidth form."""
    parts = FIELD.split(template)
    return "".join(
        part if FIELD.fullmatch(part) else re.sub(r"[A-Za-z]", lambda m: chr(ord(m[0]) + 0xFEE0), part)
        for part in parts
    )


class _Pseudo(Words):
    """A language that writes every catalog message in fullwidth letters."""

    def __init__(self) -> None:
        super().__init__("xx", gettext.NullTranslations())

    def gettext(self, message: str, /, **fields: object) -> str:
        return _pseudo(message).format_map(fields) if fields else _pseudo(message)

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        return _pseudo(singular if count == 1 else plural).format_map({"count": count, **fields})


def _latin(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.mark.parametrize("game_id", ["tomatoes", "buttons", "troyes"])
def test_every_label_and_question_of_random_games_is_in_the_table_s_language(game_id: str) -> None:
    rules, ui, words = get_rules(game_id), get_ui(game_id), _Pseudo()
    seats = 3
    for seed in range(2):
        state = rules.setup(seats, None, seed)
        rng = Rng.from_seed(seed)
        while prompts := rules.prompts(state):
            prompt = prompts[0]
            view = rules.view(state, None)
            said = [ui.question(view, prompt, NAMES[:seats], words=words)]
            for action in prompt.options:
                choice = ui.choice(view, prompt, action, NAMES[:seats], words=words)
                said += [choice.group_label, choice.label, choice.alone_label or "", choice.menu or ""]
            for text in said:
                assert not _latin(text), f"{text!r}: {_latin(text)} not in the table's language"
            policy = "random" if rng.below(3) == 0 else "greedy"
            state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, policy)).state
