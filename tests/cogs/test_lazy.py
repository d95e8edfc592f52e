"""A game left out at start-up is loaded on its first click and plays on like any other."""

from __future__ import annotations

from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, play_greedily, table_of
from tests.cogs.test_recovery import assert_one_live_board
from tests.cogs.test_turns import mover_and_other, start_two_humans


async def test_a_game_loaded_on_its_first_click_after_a_restart_plays_on(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    board = world.board()
    await world.restart()
    # No bot must move in it: start-up left it on disk.
    assert table.id not in world.bot.tables._cache
    assert "Roll the dice" in buttons(board)

    await mover.click(world.board(), label="Roll the dice")
    await world.idle()
    after = await table_of(world)
    assert after.version > table.version
    assert table.id in world.bot.tables._cache
    await assert_one_live_board(world)
    assert await play_greedily(world, moves=8) == 8
    await assert_one_live_board(world)
