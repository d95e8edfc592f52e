"""Votes on a reminder: the other humans hand a long-due seat to a bot; a tie or a move does not."""

from __future__ import annotations

import time
from typing import Any

import discord

from tables.models import Timing
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, fresh, play_option, table_of, user_of
from tests.cogs.test_away import start_three_humans
from tests.cogs.test_lobby import private_answer

LATER = 13 * 3600
"""Past the default reminder time (12 hours)."""
VOTE = "Vote: a bot plays now"


def fake_clock(world: Harness, now: float) -> None:
    """Set the table service's clock (the vote checks how long the seat has been due)."""
    world.bot.tables.clock = lambda: now


async def remind(world: Harness) -> tuple[Any, discord.Message]:
    """Let the reminder time pass; return the table and the reminder message."""
    now = time.time() + LATER
    fake_clock(world, now)
    assert await world.bot.tables.run_due(now) >= 1
    await world.idle()
    reminder = world.board()
    table = await table_of(world)
    # The reminder names the table and its game, with the link to the board.
    assert f"it is your turn in table #{table.id} (Diced Tomatoes): {table.board_link()}" in reminder.content
    return table, reminder


def others(world: Harness, table: Any) -> tuple[Any, list[Any]]:
    """The member due to move and the other seated members."""
    seat = table.to_move[0]
    mover = user_of(world, table.seats[seat].user_id)
    return mover, [user_of(world, s.user_id) for i, s in enumerate(table.seats) if i != seat]


async def test_a_tie_does_not_carry_a_majority_does_and_votes_survive_a_restart(world: Harness) -> None:
    table = await start_three_humans(world)
    # No default move after a day here: the seat stays due long enough for a second reminder.
    await world.bot.tables.set_timing(table.id, world.alice.id, Timing(timeout_after=None))
    table, reminder = await remind(world)
    seat = table.to_move[0]
    mover, (first, second) = others(world, table)
    assert VOTE in buttons(reminder) and "0 of 2" in reminder.content and "2 needed" in reminder.content

    own = await mover.click(reminder, label=VOTE)
    assert "your seat" in private_answer(own)
    stranger = await world.watcher.click(reminder, label=VOTE)
    assert "Only the other players" in private_answer(stranger)

    assert "counts" in private_answer(await first.click(reminder, label=VOTE))
    reminder = fresh(world, reminder)
    assert "1 of 2" in reminder.content and VOTE in buttons(reminder), "a tie does not carry"
    twice = await first.click(reminder, label=VOTE)
    assert private_answer(twice) == "You have already voted: your vote still counts, once."
    assert not (await table_of(world)).seats[seat].is_bot
    # The next day's reminder shows the votes so far.
    assert await world.bot.tables.run_due(time.time() + LATER + 25 * 3600) >= 1
    await world.idle()
    assert "it is your turn" in world.board().content and "1 of 2" in world.board().content

    await world.restart()
    fake_clock(world, time.time() + LATER)
    again = await first.click(fresh(world, reminder), label=VOTE)
    assert "already voted" in private_answer(again)
    assert "1 of 2" in fresh(world, reminder).content, "one vote per player, kept across the restart"
    await second.click(fresh(world, reminder), label=VOTE)
    await world.idle()
    now = await table_of(world)
    assert now.seats[seat].is_bot and now.seats[seat].replaced
    reminder = fresh(world, reminder)
    assert "2 of 2 voted: a bot plays for" in reminder.content and VOTE not in buttons(reminder)
    assert any("A bot now plays for" in m.content for m in world.thread().history())


async def test_a_majority_of_three_is_two(world: Harness) -> None:
    from tests.cogs.test_lobby import lobby_now, open_table

    lobby = await open_table(world)
    for user in (world.bob, world.carol, world.watcher):
        await user.click(lobby_now(world, lobby), label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    table, reminder = await remind(world)
    seat = table.to_move[0]
    _, voters = others(world, table)
    assert "2 needed" in reminder.content
    await voters[0].click(reminder, label=VOTE)
    assert not (await table_of(world)).seats[seat].is_bot
    await voters[1].click(fresh(world, reminder), label=VOTE)
    await world.idle()
    assert (await table_of(world)).seats[seat].replaced, "2 of 3 is a majority"


async def test_a_move_by_the_player_ends_the_vote(world: Harness) -> None:
    await start_three_humans(world)
    table, reminder = await remind(world)
    seat = table.to_move[0]
    mover, (first, second) = others(world, table)
    await first.click(reminder, label=VOTE)
    prompt = table.prompt_for(seat)
    board = next(m for m in world.thread().history() if m.id == table.board_message_id)
    action = table.rules.bot_action(table.state, prompt, "greedy")
    await play_option(world, mover, board, seat, prompt.options.index(action))
    await world.idle()
    late = await second.click(fresh(world, reminder), label=VOTE)
    assert "the vote is over" in private_answer(late)
    now = await table_of(world)
    assert not now.seats[seat].is_bot and now.seat_of(mover.id) == seat
    reminder = fresh(world, reminder)
    assert "Vote over" in reminder.content and VOTE not in buttons(reminder)
