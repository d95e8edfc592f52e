"""After Discord refuses a move's board (403 or 5xx), the player is told the truth: the move
stands and the board comes by itself; then it does, with no command."""

from __future__ import annotations

from tests.cogs.conftest import Harness
from tests.cogs.helpers import table_of
from tests.cogs.test_lobby import private_answer
from tests.cogs.test_turns import mover_and_other, start_two_humans


async def test_a_move_whose_board_discord_refused_is_answered_truthfully_and_the_board_heals(
    world: Harness,
) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    # The edit through the click fails as a 5xx does once discord.py's own retries are spent.
    world.env.inject_error("PATCH", "/webhooks/*", status=403, times=1)
    result = await mover.click(world.board(), label="Roll the dice")
    said = private_answer(result)
    assert "/game show" not in said, said
    assert "played" in said and "by itself" in said, said
    played = await table_of(world)
    assert played.version > table.version
    world.env.errors.clear()
    await world.env.advance_time(2.0)  # the board keeper's retry (1 s after the failure)
    await world.idle()
    healed = await table_of(world)
    assert healed.board_version == healed.version and not healed.board_behind, healed
