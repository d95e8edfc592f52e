"""/game show, /game abandon, /rules, and reminders in the game thread."""

from __future__ import annotations

import asyncio
import time

import discord

from tables.models import TableStatus
from tables.service import plain_wait
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, buttons, fresh, pinged, table_of
from tests.cogs.test_lobby import lobby_now, slash_answer
from tests.cogs.test_turns import start_two_humans


async def test_game_show_reposts_the_board_without_a_ping(world: Harness) -> None:
    table = await start_two_humans(world)
    old = world.board()
    result = await world.watcher.slash(world.thread(), "game show")
    new = world.board()
    assert slash_answer(result) == f"Here is the board again: {new.jump_url}"
    assert new.id != old.id and new.id == (await table_of(world)).board_message_id
    assert buttons(new) == buttons(old) and buttons(new)
    assert fresh(world, old).components == []
    assert pinged(world, new) == set()
    assert (await table_of(world)).version == table.version


async def test_game_show_outside_a_game(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "game show")
    assert slash_answer(result) == "No game is being played here."


async def test_abandon_is_for_the_host_or_a_server_manager(world: Harness) -> None:
    await start_two_humans(world)
    refused = await world.bob.slash(world.thread(), "game abandon")
    assert "host" in slash_answer(refused)
    assert (await table_of(world)).status is TableStatus.PLAYING
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    manager = world.guild.add_member(world.env.create_user("manager"), roles=[managers])
    done = await manager.slash(world.thread(), "game abandon")
    assert slash_answer(done) == "Table #1 was abandoned."
    table = await table_of(world)
    assert table.status is TableStatus.ABANDONED
    assert "abandoned" in world.board().content
    assert [m for m in world.thread().history() if m.components] == []


async def test_host_abandons_from_the_channel(world: Harness) -> None:
    await start_two_humans(world)
    done = await world.alice.slash(world.channel, "game abandon")
    assert slash_answer(done) == "Table #1 was abandoned."
    assert (await table_of(world)).status is TableStatus.ABANDONED


async def test_rules_summary(world: Harness) -> None:
    result = await world.watcher.slash(world.channel, "rules tomatoes")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "🍅 Diced Tomatoes"
    description = embed.description or ""
    for fact in ("seed", "set", "run", "harvest", "Karma", "final round", "1 per 3 red dice"):
        assert fact.lower() in description.lower()
    assert len(description) <= 4096


async def test_a_reminder_pings_the_player_in_the_thread(world: Harness) -> None:
    table = await start_two_humans(world)
    mover = table.seats[table.to_move[0]].user_id
    fired = await world.bot.tables.run_due(time.time() + 13 * 3600)
    assert fired >= 1
    await world.idle()
    reminder = world.board()
    assert reminder.id != table.board_message_id
    assert f"<@{mover}>" in reminder.content and "your turn" in reminder.content
    assert pinged(world, reminder) == {mover}


async def test_leaving_hands_the_seat_to_a_bot_who_plays_on(world: Harness) -> None:
    table = await start_two_humans(world)
    mover = table.to_move[0]
    leaver = world.alice if table.seats[mover].user_id == world.alice.id else world.bob
    result = await leaver.slash(world.thread(), "game leave")
    assert "a bot plays your seat" in slash_answer(result)
    await world.idle()
    now = await table_of(world)
    seat = now.seat_of(leaver.id)
    assert seat is not None and now.seats[seat].replaced and now.seats[seat].is_bot
    assert now.version > table.version, "the bot played the seat's turn"
    told = [m for m in world.thread().history() if "A bot now plays for" in m.content]
    assert len(told) == 1 and pinged(world, told[0]) == {leaver.id}, "the leaver is pinged once"
    stranger = await world.watcher.slash(world.thread(), "game leave")
    assert slash_answer(stranger) == "You are not seated at this table."

    back = await leaver.slash(world.thread(), "game rejoin")
    assert "is yours again" in slash_answer(back)
    await world.idle()
    again = await table_of(world)
    assert not again.seats[seat].is_bot and not again.seats[seat].replaced
    if seat in again.to_move:
        await world.idle()
        assert (await table_of(world)).version == again.version, "no bot moves for a rejoined seat"
    twice = await leaver.slash(world.thread(), "game rejoin")
    assert slash_answer(twice) == "No bot is playing your seat."


async def test_a_turn_clock_running_out_plays_the_default_and_says_so(world: Harness) -> None:
    table = await start_two_humans(world)
    seat = table.to_move[0]
    assert table.prompt_for(seat).default is not None, "rolling has a natural default"
    await world.bot.tables.run_due(time.time() + 25 * 3600)
    await world.idle()
    now = await table_of(world)
    assert now.version > table.version
    texts = [m.content for m in world.thread().history()]
    assert any("Time ran out for" in t for t in texts)
    assert any("rolls" in t for t in texts), "the default roll is shown on the board"


async def test_a_reminder_that_failed_is_sent_again(world: Harness) -> None:
    table = await start_two_humans(world)
    mover = table.seats[table.to_move[0]].user_id
    # The clocks fire from the test here, outside simcord's bot-owned work: the retry waits for real.
    world.bot.tables.idle_wait = plain_wait
    world.bot.get_cog("Games").presenter.keeper.retry_base = 0.05  # type: ignore[union-attr]
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=1)
    assert await world.bot.tables.run_due(time.time() + 13 * 3600) >= 1
    await world.idle()
    assert world.board().id == table.board_message_id, "the reminder failed"
    world.env.errors.clear()
    await asyncio.sleep(0.5)
    await world.idle()
    reminder = world.board()
    assert reminder.id != table.board_message_id and f"<@{mover}>" in reminder.content


async def test_game_info_names_a_bot_level_once_and_speaks_of_optional_choices_only_where_there_are(
    world: Harness,
) -> None:
    for game, optional in (("tomatoes", False), ("troyes", False), ("buttons", True)):
        await world.alice.slash(world.channel, f"play {game}")
        lobby = world.channel.last_message
        assert lobby is not None
        assert ("optional choices" in lobby.content) is optional, game
        await add_bot(world.alice, lobby, "easy")
        await world.alice.click(lobby_now(world, lobby), label="Start")
        thread = world.channel.threads[-1]
        info = slash_answer(await world.alice.slash(thread, "game info"))
        assert ("optional choices" in info) is optional, game
        assert "Bot (easy)" in info and "easy bot" not in info, info
