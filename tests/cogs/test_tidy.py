"""A tidy server: archived threads reopened for a move, a deleted thread ends its game, the
thread limit said clearly, finished games' threads archived a day later, lobbies expire."""

from __future__ import annotations

import time
from typing import Any

import pytest
from simcord.backend.errors import BackendError

from tables.models import DAY, TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, play_greedily, play_option, table_of
from tests.cogs.test_lobby import lobby_now, open_table, private_answer
from tests.cogs.test_turns import start_two_humans

ARCHIVED = 50083
"""Discord's error code: the thread is archived (no message may be sent or edited in it)."""


def archived(world: Harness, thread_id: int) -> bool:
    """Whether Discord holds the thread as archived."""
    metadata = world.env.backend.get_channel(thread_id).thread_metadata
    return bool(metadata is not None and metadata.archived)


def archive_as_moderator(world: Harness, thread_id: int) -> None:
    """Archive a thread as a moderator (or Discord's inactivity timer) would."""
    world.env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": True})


@pytest.fixture
def archived_threads_refuse_messages(world: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Discord: sending or editing a message in an archived thread fails (50083)."""
    backend = world.env.backend
    create, edit = backend.create_message, backend.edit_message

    def refuse(channel_id: int) -> None:
        if archived(world, channel_id) if backend.get_channel(channel_id).is_thread else False:
            raise BackendError(400, ARCHIVED, "Thread is archived")

    def create_message(channel_id: int, *args: Any, **kwargs: Any) -> Any:
        refuse(channel_id)
        return create(channel_id, *args, **kwargs)

    def edit_message(channel_id: int, *args: Any, **kwargs: Any) -> Any:
        refuse(channel_id)
        return edit(channel_id, *args, **kwargs)

    monkeypatch.setattr(backend, "create_message", create_message)
    monkeypatch.setattr(backend, "edit_message", edit_message)


async def test_a_move_in_an_archived_thread_still_posts(
    world: Harness, archived_threads_refuse_messages: None
) -> None:
    table = await start_two_humans(world)
    metadata = world.env.backend.get_channel(table.thread_id).thread_metadata
    assert metadata.auto_archive_duration == 10080, "the longest auto-archive Discord allows"
    archive_as_moderator(world, table.thread_id)
    await world.env.settle()
    seat = table.to_move[0]
    mover = world.alice if table.seats[seat].user_id == world.alice.id else world.bob
    prompt = table.prompt_for(seat)
    action = table.rules.bot_action(table.state, prompt, "greedy")
    await play_option(world, mover, world.board(), seat, prompt.options.index(action))
    await world.idle()
    now = await table_of(world)
    assert now.version > table.version
    assert not archived(world, table.thread_id), "the thread was reopened"
    assert now.board_version == now.version, "the board shows the move"
    assert world.env.errors == []


async def test_a_thread_archived_unseen_is_reopened_when_discord_refuses_the_post(
    world: Harness, archived_threads_refuse_messages: None
) -> None:
    table = await start_two_humans(world)
    # Archived with no update reaching the bot: its cached thread still says open.
    world.env.backend.get_channel(table.thread_id).thread_metadata.archived = True
    seat = table.to_move[0]
    mover = world.alice if table.seats[seat].user_id == world.alice.id else world.bob
    prompt = table.prompt_for(seat)
    action = table.rules.bot_action(table.state, prompt, "greedy")
    await play_option(world, mover, world.board(), seat, prompt.options.index(action))
    await world.idle()
    now = await table_of(world)
    assert not archived(world, table.thread_id) and now.board_version == now.version


async def test_a_deleted_thread_ends_its_game_once_with_a_word_in_the_channel(world: Harness) -> None:
    table = await start_two_humans(world)
    world.env.backend.delete_channel(table.thread_id)
    await world.idle()
    now = await table_of(world)
    assert (
        now.status is TableStatus.ABANDONED and now.outcome is None
    ) or now.status is TableStatus.ABANDONED
    said = [m for m in world.channel.history() if "was deleted" in m.content]
    assert (
        len(said) == 1 and f"table #{table.id}" in said[0].content and "without a result" in said[0].content
    )
    lobby = next(m for m in world.channel.history() if m.id == table.lobby_message_id)
    assert "abandoned" in lobby.content
    # Later attempts to show the game (the board keeper, a restart) say nothing more.
    await world.bot.get_cog("Games").presenter.flush(table.id)  # type: ignore[union-attr]
    await world.restart()
    await world.idle()
    assert len([m for m in world.channel.history() if "was deleted" in m.content]) == 1


async def test_the_thread_limit_is_said_clearly_and_the_lobby_stays(world: Harness) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    world.env.inject_error(
        "POST",
        "/channels/*/messages/*/threads",
        status=400,
        code=160006,
        message="Maximum number of active threads reached",
    )
    result = await world.alice.click(lobby_now(world, lobby), label="Start")
    answer = private_answer(result)
    assert "limit of active threads" in answer and "Start" in answer
    assert (await table_of(world)).status is TableStatus.LOBBY
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    assert (await table_of(world)).status is TableStatus.PLAYING


async def test_a_finished_games_thread_is_archived_a_day_later_across_a_restart(world: Harness) -> None:
    lobby = await open_table(world, golden=False)
    await world.alice.click(lobby, label="Start")
    ended = time.time()
    assert await play_greedily(world, moves=10_000) > 0
    table = await table_of(world)
    assert table.status is TableStatus.FINISHED and not archived(world, table.thread_id)
    await world.restart()
    upkeep = world.bot.get_cog("Upkeep")
    assert await upkeep.tidy(ended + DAY - 600) == 0  # type: ignore[union-attr]
    assert not archived(world, table.thread_id)
    assert await upkeep.tidy(time.time() + DAY + 1) == 1  # type: ignore[union-attr]
    await world.env.settle()
    assert archived(world, table.thread_id)
    assert await upkeep.tidy(time.time() + DAY + 2) == 0, "once"  # type: ignore[union-attr]


async def test_a_lobby_nobody_starts_expires_after_a_week(world: Harness) -> None:
    lobby = await open_table(world)
    table = await table_of(world)
    expires = int(table.created_at + 7 * DAY)
    assert f"expires <t:{expires}:R>" in lobby.content
    upkeep = world.bot.get_cog("Upkeep")
    world.bot.tables.clock = lambda: table.created_at + 6 * DAY
    assert await upkeep.tidy() == 0  # type: ignore[union-attr]
    assert (await table_of(world)).status is TableStatus.LOBBY
    world.bot.tables.clock = lambda: table.created_at + 7 * DAY + 1
    assert await upkeep.tidy() == 1  # type: ignore[union-attr]
    await world.env.settle()
    assert (await table_of(world)).status is TableStatus.CANCELLED
    message = lobby_now(world, lobby)
    assert "expired: nobody started it within a week" in message.content and buttons(message) == {}
