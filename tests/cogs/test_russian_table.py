"""Issue 36: a Russian table's board says its buttons, question and log lines in Russian."""

from __future__ import annotations

from engine.words import words
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, table_of
from tests.cogs.test_lobby import lobby_now, slash_answer

RU = words("ru")


async def test_a_russian_tables_board_speaks_russian(world: Harness) -> None:
    await world.alice.slash(world.channel, "play buttons", language="ru")
    lobby = world.channel.last_message
    assert lobby is not None
    await world.bob.click(lobby, label=RU.gettext("Join"))
    await world.alice.click(lobby_now(world, lobby), label=RU.gettext("Start"))
    await world.idle()
    table = await table_of(world)
    assert table.language == "ru"
    board = world.board()
    log, question = board.content.splitlines()[-2:]
    # Each as locales/ru says it: the log line (Rules.describe), the question (GameUI.question), the button.
    assert log.startswith("-# • Начинается раунд 1; первым ходит"), board.content
    assert question == "**bob**: брось кубики (6) или откажись.", board.content
    assert list(buttons(board)) == ["Бросить кубики"]
    await world.bob.click(board, label="Бросить кубики")
    await world.idle()
    rolled = [line for line in world.board().content.splitlines() if line.startswith("-# • ")][-1]
    assert rolled.startswith("-# • bob бросает: белый "), world.board().content
    # The private log page is in the reader's words: bob's client is in English.
    page = slash_answer(await world.bob.slash(world.thread(), "game log"))
    assert "bob rolls: white " in page and "бросает" not in page, page
