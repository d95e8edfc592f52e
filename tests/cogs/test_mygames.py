"""/games: the asker's open tables here, their own moves first, with links; lobbies too."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.mygames import movers, waiting_since
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import play_option, with_board
from tests.cogs.test_lobby import lobby_now, slash_answer


async def open_game(world: Harness, host: Any, guest: Any, game: str = "tomatoes", start: bool = True) -> Any:
    """`host` opens a table of `game`, `guest` joins, and the host starts it (unless not `start`)."""
    result = await host.slash(world.channel, f"play {game}")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None
    await guest.click(lobby, label="Join")
    if start:
        await host.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    tables = await world.bot.tables.tables_in_channel(world.channel.id, tuple(TableStatus))
    return await with_board(world, tables[-1])


def thread_of(world: Harness, table: Any) -> Any:
    """The simulated thread of a table's game."""
    return next(t for t in world.channel.threads if t.id == table.thread_id)


def board_of(world: Harness, table: Any) -> discord.Message:
    """A table's current board message, as Discord holds it."""
    return next(m for m in thread_of(world, table).history() if m.id == table.board_message_id)


def listed_ids(answer: str) -> list[int]:
    """The table numbers an answer lists, in order."""
    return [int(n) for n in re.findall(r"\*\* #(\d+)", answer)]


async def test_games_lists_your_moves_first_with_links_then_lobbies(world: Harness) -> None:
    service = world.bot.tables
    first = await open_game(world, world.alice, world.bob)
    second = await open_game(world, world.bob, world.alice, "buttons")
    third = await open_game(world, world.alice, world.carol)
    lobby = await open_game(world, world.carol, world.alice, "buttons", start=False)
    # Make alice's move due at exactly one of the games she waits on longest, and not at another.
    for table in (first, second, third):
        table = await with_board(world, await service.get(table.id))
        for _ in range(6):
            mover = table.seats[movers(table)[0]].user_id
            wanted = world.alice.id if table.id != second.id else world.bob.id
            if mover == wanted:
                break
            user = next(u for u in (world.alice, world.bob, world.carol) if u.id == mover)
            board = board_of(world, table)
            prompt = table.prompt_for(movers(table)[0])
            action = table.rules.bot_action(table.state, prompt, "greedy")
            await play_option(world, user, board, prompt.seat, prompt.options.index(action))
            await world.idle()
            table = await with_board(world, await service.get(table.id))
    tables = {t.id: await with_board(world, t) for t in await service.tables_of_user(world.alice.id)}
    mine = [
        t
        for t in tables.values()
        if t.status is TableStatus.PLAYING and t.seats[movers(t)[0]].user_id == world.alice.id
    ]
    others = [t for t in tables.values() if t.status is TableStatus.PLAYING and t not in mine]
    assert mine and others, "the test needs both kinds"

    result = await world.alice.slash(world.channel, "games")
    answer = slash_answer(result)
    mine.sort(key=waiting_since)
    others.sort(key=waiting_since)
    assert listed_ids(answer) == [t.id for t in mine] + [t.id for t in others] + [lobby.id]
    for table in mine:
        line = next(line for line in answer.splitlines() if f"#{table.id} " in line)
        assert "**your move**" in line and f"[board]({table.board_link()})" in line
        assert f"<t:{int(waiting_since(table))}:R>" in line
    for table in others:
        line = next(line for line in answer.splitlines() if f"#{table.id} " in line)
        assert "your move" not in line and "to move: " in line
        assert table.board_link() is not None and table.board_link() in line
        assert thread_of(world, table).last_message.id == table.board_message_id, (
            "the link is the current board"
        )
    lobby_line = next(line for line in answer.splitlines() if f"#{lobby.id} " in line)
    assert "lobby" in lobby_line and str(lobby.lobby_message_id) in lobby_line


async def test_games_when_you_have_none(world: Harness) -> None:
    await open_game(world, world.alice, world.bob)
    result = await world.watcher.slash(world.channel, "games")
    assert slash_answer(result) == "You have no open table in this server. Open one with `/play`."


async def test_host_removes_a_player_from_the_lobby(world: Harness) -> None:
    lobby_table = await open_game(world, world.alice, world.bob, start=False)
    lobby = next(m for m in world.channel.history() if m.id == lobby_table.lobby_message_id)
    await world.carol.click(lobby_now(world, lobby), label="Join")
    removal = next(
        c
        for row in lobby_now(world, lobby).components
        for c in getattr(row, "children", [])
        if isinstance(c, discord.SelectMenu) and "Remove" in (c.placeholder or "")
    )
    assert {o.value for o in removal.options} == {str(world.bob.id), str(world.carol.id)}, "not the host"
    refused = await world.bob.select(
        lobby_now(world, lobby), [str(world.carol.id)], custom_id=removal.custom_id
    )
    assert "host" in refused.followups[0].content
    assert (await world.bot.tables.get(lobby_table.id)).seat_of(world.carol.id) is not None
    await world.alice.select(lobby_now(world, lobby), [str(world.bob.id)], custom_id=removal.custom_id)
    table = await world.bot.tables.get(lobby_table.id)
    assert table.seat_of(world.bob.id) is None and table.seat_of(world.carol.id) is not None
    content = lobby_now(world, lobby).content
    assert f"<@{world.bob.id}>" not in content and f"<@{world.carol.id}>" in content
    # The seat is free again, for anyone but bob (tests/cogs/test_lobby.py: bob is told, and let back).
    await world.watcher.click(lobby_now(world, lobby), label="Join")
    assert (await world.bot.tables.get(lobby_table.id)).seat_of(world.watcher.id) is not None
