"""A click's refusals are worded in the clicker's language: words(interaction.locale), by refusal kind."""

from __future__ import annotations

import gettext

import pytest

from cogs.platform import answers
from engine.words import Words
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons
from tests.cogs.test_lobby import private_answer
from tests.cogs.test_turns import mover_and_other, start_two_humans


class Marked(Words):
    """English, each message marked with the language it was asked in (a stand-in catalog)."""

    def gettext(self, message: str, /, **fields: object) -> str:
        return f"[{self.language}] " + super().gettext(message, **fields)


async def test_refusals_of_a_click_are_worded_in_the_clickers_locale(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def marked(locale: str | None = "en") -> Words:
        asked.append(str(locale))
        return Marked(str(locale), gettext.NullTranslations())

    monkeypatch.setattr(answers, "words", marked)
    table = await start_two_humans(world)
    _, other = mover_and_other(world, table)
    board = world.board()
    first = next(iter(buttons(board)))
    refused = await other.click(board, label=first)
    assert asked, "the refusal went through the language layer"
    assert private_answer(refused) == f"[{asked[-1]}] It is not your turn."
    watcher = await world.watcher.click(board, label=first)
    assert private_answer(watcher) == (
        f"[{asked[-1]}] You are not playing at this table, but you are welcome to watch."
    )
