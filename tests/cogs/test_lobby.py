"""Lobby flows through Discord: /play, Join, Leave, Add bot, Start, Cancel."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.games.buttons import UI as BUTTONS_UI
from cogs.platform.text import lobby_text
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, buttons, components, pinged

LOBBY_BUTTONS = {"Join", "Leave", "Start", "Cancel"}


async def open_table(world: Harness, **options: Any) -> discord.Message:
    """/play tomatoes by alice; returns the lobby message."""
    result = await world.alice.slash(world.channel, "play tomatoes", **options)
    assert result.ephemeral, "the host's confirmation is private"
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and "Diced Tomatoes" in lobby.content
    return lobby


def lobby_now(world: Harness, lobby: discord.Message) -> discord.Message:
    """The lobby message as it stands now."""
    return next(m for m in world.channel.history() if m.id == lobby.id)


def private_answer(result: Any) -> str:
    """The one ephemeral answer a click got (a direct reply, or a follow-up after deferring)."""
    answers = [*result.followups] if result.followups else [result.response]
    assert len(answers) == 1 and answers[0] is not None, answers
    assert answers[0].ephemeral
    return str(answers[0].content)


def slash_answer(result: Any) -> str:
    """What a deferred slash command answered (the follow-up replaces the "thinking" message)."""
    assert result.ephemeral
    message = result.followups[0] if result.followups else result.response
    assert message is not None
    return str(message.content)


async def test_play_opens_a_lobby_with_its_buttons_and_options(world: Harness) -> None:
    lobby = await open_table(world, golden=False, pick_colours=True)
    assert set(buttons(lobby)) == LOBBY_BUTTONS
    assert f"<@{world.alice.id}> (host)" in lobby.content
    assert "Sunny Golden Hybrid" not in lobby.content and "pick dice colours" in lobby.content
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert table.options["golden_hybrid"] is False and table.options["pick_colours"] is True
    assert table.lobby_message_id == lobby.id
    assert pinged(world, lobby) == set(), "the lobby pings nobody"


async def test_add_bot_asks_for_the_level_and_the_lobby_shows_it(world: Harness) -> None:
    lobby = await open_table(world)
    select = next(c for c in components(lobby) if isinstance(c, discord.SelectMenu))
    assert [o.value for o in select.options] == ["easy", "normal", "hard"]
    await add_bot(world.alice, lobby, "hard")
    await add_bot(world.alice, lobby_now(world, lobby), "easy")
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert [s.bot for s in table.seats] == [None, "hard", "easy"]
    content = lobby_now(world, lobby).content
    assert "Bot (hard)" in content and "Bot 2 (easy)" in content


async def test_join_and_leave(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    assert f"<@{world.bob.id}>" in lobby_now(world, lobby).content
    again = await world.bob.click(lobby_now(world, lobby), label="Join")
    assert private_answer(again) == "You are already seated at this table."
    await world.bob.click(lobby_now(world, lobby), label="Leave")
    assert f"<@{world.bob.id}>" not in lobby_now(world, lobby).content
    stranger = await world.carol.click(lobby_now(world, lobby), label="Leave")
    assert private_answer(stranger) == "You are not seated at this table."


async def test_a_full_lobby_refuses_another_player(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    for _ in range(4):
        await add_bot(world.alice, lobby_now(world, lobby))
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert len(table.seats) == 6
    full = await world.carol.click(lobby_now(world, lobby), label="Join")
    assert private_answer(full) == "This table is full."
    extra_bot = await add_bot(world.alice, lobby_now(world, lobby))
    assert private_answer(extra_bot) == "This table is full."
    assert "Seats (6/6)" in lobby_now(world, lobby).content


async def test_only_the_host_adds_bots_starts_or_cancels(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    refused = await add_bot(world.bob, lobby_now(world, lobby))
    assert private_answer(refused).startswith("Only the host")
    for label in ("Start", "Cancel"):
        refused = await world.bob.click(lobby_now(world, lobby), label=label)
        assert private_answer(refused).startswith("Only the host")
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert table.status is TableStatus.LOBBY and len(table.seats) == 2
    assert world.channel.threads == [], "no game thread for a refused start"


async def test_host_cancels_and_the_buttons_go(world: Harness) -> None:
    lobby = await open_table(world)
    await world.alice.click(lobby, label="Cancel")
    now = lobby_now(world, lobby)
    assert "cancelled" in now.content
    assert buttons(now) == {}


async def test_start_opens_a_thread_with_the_first_board(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    thread = world.thread()
    assert thread.name == "🍅 Diced Tomatoes #1"
    now = lobby_now(world, lobby)
    assert buttons(now) == {} and f"<#{thread.id}>" in now.content
    board = world.board()
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert table.thread_id == thread.id and table.board_message_id == board.id
    mover = table.seats[table.to_move[0]].user_id
    assert f"<@{mover}>" in board.content
    assert pinged(world, board) == {mover}, "exactly the player to move is pinged"
    assert buttons(board), "the player to move has buttons"


async def test_play_inside_a_thread_is_refused(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    result = await world.alice.slash(world.thread(), "play tomatoes")
    assert result.ephemeral
    assert "not a thread" in slash_answer(result)


async def test_lobby_buttons_work_after_a_restart(world: Harness) -> None:
    lobby = await open_table(world)
    await world.restart()
    await world.bob.click(lobby_now(world, lobby), label="Join")
    assert f"<@{world.bob.id}>" in lobby_now(world, lobby).content
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert world.thread().name == "🍅 Diced Tomatoes #1"
    assert buttons(world.board())


async def test_no_thread_permission_leaves_the_lobby_open(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013, times=None)
    result = await world.alice.click(lobby_now(world, lobby), label="Start")
    assert "Create Public Threads" in private_answer(result)
    assert "has not started" in private_answer(result)
    table = (await world.bot.tables.tables_in_channel(world.channel.id, tuple(TableStatus)))[0]
    assert table.status is TableStatus.LOBBY and table.thread_id is None
    assert set(buttons(lobby_now(world, lobby))) == LOBBY_BUTTONS
    world.env.errors.clear()
    world.env.backend.faults.clear()
    # Permission granted: Start works from the same lobby.
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert (await world.bot.tables.get(table.id)).status is TableStatus.PLAYING
    assert buttons(world.board())


async def test_a_discord_outage_at_start_is_said_as_such_and_quickly(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=503, code=0, times=None)
    started = asyncio.get_running_loop().time()
    result = await world.alice.click(lobby_now(world, lobby), label="Start")
    answer = private_answer(result)
    assert "server error 503" in answer and "permission" not in answer, answer
    assert asyncio.get_running_loop().time() - started < 10
    table = (await world.bot.tables.tables_in_channel(world.channel.id, tuple(TableStatus)))[0]
    assert table.status is TableStatus.LOBBY
    assert await world.bot.tables.boards_behind() == []
    world.env.errors.clear()
    world.env.backend.faults.clear()


async def test_the_lobby_counts_the_players_it_needs_and_shows_no_empty_line(world: Harness) -> None:
    service = world.bot.tables
    table = await service.create("buttons", world.channel.guild.id, world.channel.id, world.alice.id, "Alice")
    assert "Needs 1 more player." in lobby_text(BUTTONS_UI, table)

    class NoOptions(type(BUTTONS_UI)):  # type: ignore[misc]
        def option_summary(self, options: Any, *, words: Any = None) -> str:
            return ""

    lines = lobby_text(NoOptions(), table).splitlines()
    assert lines[1].startswith("**Seats"), "no empty '-#' line when a game has nothing to say of its options"


async def test_a_host_who_leaves_hands_the_lobby_over_and_the_new_host_is_told(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Leave")
    assert f"<@{world.bob.id}> (host)" in lobby_now(world, lobby).content
    told = world.channel.last_message
    assert told is not None and told.id != lobby.id and "you are now the host" in told.content
    assert pinged(world, told) == {world.bob.id}, "only the new host is pinged"
    await world.bob.click(lobby_now(world, lobby), label="Leave")
    assert world.channel.last_message.id == told.id, "a lobby nobody is left in says nothing more"


def host_select(lobby: discord.Message) -> discord.SelectMenu:
    """The host's "Remove a player or bot" select of a lobby message."""
    return next(
        c
        for c in components(lobby)
        if isinstance(c, discord.SelectMenu) and "Remove" in (c.placeholder or "")
    )


async def test_the_host_removes_a_bot_from_the_lobby(world: Harness) -> None:
    lobby = await open_table(world)
    await add_bot(world.alice, lobby, "hard")
    await add_bot(world.alice, lobby_now(world, lobby), "easy")
    select = host_select(lobby_now(world, lobby))
    assert [(o.label, o.value) for o in select.options] == [
        ("Remove Bot (hard)", "bot:1:Bot"),
        ("Remove Bot 2 (easy)", "bot:2:Bot 2"),
    ]
    await world.alice.select(lobby_now(world, lobby), ["bot:1:Bot"], custom_id=select.custom_id)
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    assert [s.name for s in table.seats] == ["alice", "Bot 2"]
    content = lobby_now(world, lobby).content
    assert "Bot 2 (easy)" in content and "Bot (hard)" not in content
    # A select drawn before (seat 1 was the hard bot) cannot remove Bot 2: tests/tables/test_lobby.py.


async def test_a_removed_player_is_told_privately_and_may_join_only_once_let_back(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    select = host_select(lobby_now(world, lobby))
    removed = await world.alice.select(
        lobby_now(world, lobby), [str(world.bob.id)], custom_id=select.custom_id
    )
    assert not removed.followups, "the host's click just updates the lobby"
    dms = world.bob.user.dm_channel.history()
    assert dms and "removed you" in dms[-1].content and "table #1" in dms[-1].content
    refused = await world.bob.click(lobby_now(world, lobby), label="Join")
    assert "removed you" in private_answer(refused)
    select = host_select(lobby_now(world, lobby))
    assert "let a removed player back" in (select.placeholder or "")
    assert [(o.label, o.value) for o in select.options] == [("Let bob join again", f"back:{world.bob.id}")]
    await world.alice.select(lobby_now(world, lobby), [f"back:{world.bob.id}"], custom_id=select.custom_id)
    assert "let you back" in world.bob.user.dm_channel.history()[-1].content
    await world.bob.click(lobby_now(world, lobby), label="Join")
    assert f"<@{world.bob.id}>" in lobby_now(world, lobby).content


async def test_the_host_hears_when_a_removed_player_cannot_be_told(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    world.env.inject_error(
        "POST",
        f"/channels/{world.bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send",
        times=None,
    )
    select = host_select(lobby_now(world, lobby))
    removed = await world.alice.select(
        lobby_now(world, lobby), [str(world.bob.id)], custom_id=select.custom_id
    )
    assert "could not tell" in private_answer(removed)
    assert f"<@{world.bob.id}>" not in lobby_now(world, lobby).content


async def test_the_first_board_says_the_order_of_play_and_who_began(world: Harness) -> None:
    from tests.cogs.helpers import play_greedily

    lobby = await open_table(world)
    await add_bot(world.alice, lobby, "easy")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    table = (await world.bot.tables.tables_in_channel(world.channel.id))[0]
    start = table.rules.setup(2, table.options, table.seed)
    began = ["**alice**", "**Bot (easy)**"][table.rules.prompts(start)[0].seat]
    boards = [m for m in world.thread().history() if "Diced Tomatoes** · table" in m.content]
    line = f"🪑 Order of play: **alice** → **Bot (easy)**, then round again; {began} began."
    assert line in boards[0].content.splitlines(), boards[0].content
    await play_greedily(world, moves=6)
    later = [m for m in world.thread().history() if "Diced Tomatoes** · table" in m.content][1:]
    assert later and all("Order of play" not in m.content for m in later), "said once, on the first board"


async def test_the_final_message_does_not_repeat_what_the_last_board_showed(
    world: Harness, monkeypatch: Any
) -> None:
    from cogs.platform import board as board_module
    from tests.cogs.helpers import play_greedily

    presenter = world.bot.get_cog("Games").presenter
    original = presenter.show

    async def show(update: Any, interaction: Any = None) -> None:
        table = update.table
        if table.status is TableStatus.FINISHED:
            # The update the last board already shows comes again (a retried delivery) with the final one.
            stored = await world.bot.tables.get(table.id)
            board = world.board()
            lines = tuple(
                line.removeprefix("-# • ") for line in board.content.splitlines() if line.startswith("-# • ")
            )
            assert stored.board_version is not None and lines
            again = board_module.Step(stored.board_version, lines, False, frozenset())
            presenter._pending.setdefault(table.id, []).insert(0, again)
        await original(update, interaction)

    monkeypatch.setattr(presenter, "show", show)
    lobby = await open_table(world, golden=False)
    await add_bot(world.alice, lobby)
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert await play_greedily(world, moves=10_000) > 0
    messages = world.thread().history()
    final, before = messages[-1].content, messages[-2].content
    assert "final scores" in final
    shown_before = {line.removeprefix("-# • ") for line in before.splitlines() if line.startswith("-# • ")}
    (told,) = presenter._log.values()  # every event line of the final message (its caption shows 10)
    assert told and not shown_before & set(told), shown_before & set(told)


def test_each_play_command_offers_its_games_short_options_within_discords_limits() -> None:
    from cogs.games import UIS
    from cogs.platform.lobby import option_help, play_command
    from engine.games import get_rules

    for ui in UIS.values():
        command = play_command(ui)
        offered = [spec for spec in get_rules(command.name).option_specs if spec.short]
        assert [p.name for p in command.parameters] == [spec.short for spec in offered] + ["pace", "language"]
        for spec, parameter in zip(offered, command.parameters, strict=False):
            described = option_help(spec).message
            assert parameter.description == described, "described whole, never cut by discord.py"
            assert len(parameter.description) <= 100 and not parameter.required
            assert parameter.default == spec.default
