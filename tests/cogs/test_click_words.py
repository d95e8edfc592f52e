"""A click's refusals are worded in the clicker's language (cogs.platform.text.reader), by refusal kind."""

from __future__ import annotations

import gettext
from typing import Any

import pytest

from cogs import play
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

    def marked(interaction: Any) -> Words:
        asked.append(str(interaction.locale))
        return Marked(str(interaction.locale), gettext.NullTranslations())

    for module in (answers, play):
        monkeypatch.setattr(module, "reader", marked)
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
