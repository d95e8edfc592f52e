"""Issue 36: every word a board draws comes from the language it is drawn in (renderers' `language`)."""

from __future__ import annotations

import gettext
import re
from typing import Any

import pytest

import renderers
from engine.games import get_rules
from engine.words import Words
from renderers import buttons, tomatoes, troyes
from renderers.playout import states


class _Recording(Words):
    """English that remembers every text it gave out, so a drawn word it never gave shows."""

    def __init__(self) -> None:
        super().__init__("en", gettext.NullTranslations())
        self.given: set[str] = set()

    def gettext(self, message: str, /, **fields: object) -> str:
        said = super().gettext(message, **fields)
        self.given.add(said)
        return said

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        said = super().ngettext(singular, plural, count, **fields)
        self.given.add(said)
        return said

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        said = super().pgettext(context, message, **fields)
        self.given.add(said)
        return said


_ROMAN = {"I", "II", "III"}


@pytest.mark.parametrize(
    ("game_id", "module"), [("tomatoes", tomatoes), ("buttons", buttons), ("troyes", troyes)]
)
def test_every_word_a_board_draws_came_from_its_language(game_id: str, module: Any) -> None:
    rules = get_rules(game_id)
    names = ["Ann", "Bob", "Cy"]
    for seats in (1, 3) if rules.min_players == 1 else (3,):
        every = list(states(rules, seats, 7))
        for state in [*every[:: max(1, len(every) // 12)], every[-1]]:
            said = _Recording()
            canvas = module.draw(rules.view(state, 0), 0, names[:seats], w=said)
            for drawn in canvas.drawn:
                text = drawn.cut_from or drawn.text
                if not re.search(r"[A-Za-z]{2}", text) or text in names or text.startswith("die "):
                    continue  # digits, signs, a colour's letter, a die face, a player's name
                if text in _ROMAN:
                    continue  # Troyes' card levels, numbers the same in every language
                for part in re.split(r" · |, ", text.rstrip(",")):
                    # Parts a line joins with a separator (Troyes' title and score) each said alone.
                    assert any(part in given for given in said.given), (
                        f"{part!r} of {text!r} was not said in the board's language"
                    )


@pytest.mark.parametrize("game_id", ["tomatoes", "buttons", "troyes"])
def test_each_renderer_takes_the_table_s_language(game_id: str) -> None:
    rules = get_rules(game_id)
    state = rules.setup(2, None, 3)
    image = renderers.render(game_id, rules.view(state, None), None, ["Ann", "Bob"], language="ko")
    assert image.width > 0
