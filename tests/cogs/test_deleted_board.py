"""A board message a moderator deletes during a person's turn is posted again: by the next
reminder (whose link then leads to it) or by the upkeep's board rounds, with no command."""

from __future__ import annotations

import time
from typing import Any

from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, components, table_of
from tests.cogs.test_turns import start_two_humans


def moderator_deletes(world: Harness, message: Any) -> None:
    """Delete a message as a moderator would (the bot hears nothing: it has no message intent)."""
    world.env.backend.delete_message(message.channel.id, message.id)


def live_boards(world: Harness) -> list[Any]:
    """The thread's messages that still carry turn buttons."""
    return [
        m
        for m in world.thread().history()
        if any(
            c.custom_id.startswith("mp:act:")
            or c.custom_id.startswith("mp:grp:")
            or c.custom_id.startswith("mp:pick:")
            for c in components(m)
        )
    ]


async def test_the_next_reminder_posts_a_deleted_board_again_and_links_to_it(world: Harness) -> None:
    table = await start_two_humans(world)
    mover = table.seats[table.to_move[0]].user_id
    board = world.board()
    assert board.id == table.board_message_id
    moderator_deletes(world, board)
    assert live_boards(world) == []

    assert await world.bot.tables.run_due(time.time() + 13 * 3600) >= 1
    await world.idle()
    after = await table_of(world)
    assert after.board_message_id not in (None, board.id)
    assert [m.id for m in live_boards(world)] == [after.board_message_id]
    reminder = world.board()
    assert f"<@{mover}>" in reminder.content
    link = after.board_link()
    assert link is not None and link in reminder.content, reminder.content
    assert str(board.id) not in reminder.content


async def test_the_upkeep_rounds_post_a_deleted_board_again(world: Harness) -> None:
    table = await start_two_humans(world)
    moderator_deletes(world, world.board())
    upkeep: Any = world.bot.get_cog("Upkeep")
    assert await upkeep.check_boards() == 1
    await world.idle()
    after = await table_of(world)
    assert after.board_message_id != table.board_message_id
    assert [m.id for m in live_boards(world)] == [after.board_message_id]
    assert buttons(world.board())
    # A board that is there is left alone: one request each, nothing posted.
    assert await upkeep.check_boards() == 0
    assert (await table_of(world)).board_message_id == after.board_message_id
