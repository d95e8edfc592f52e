"""Game threads over days: reopened before a post, archived after the game, ended when deleted."""

from __future__ import annotations

import logging
from typing import Any

import discord

from engine.words import Words, words
from tables.errors import GameNotRunning, TableError
from tables.models import Table, TableStatus

log = logging.getLogger("meeple.cogs.threads")

TOO_MANY_THREADS = 160006
"""Discord's error code: the server has reached its limit of active threads."""
THREAD_ARCHIVED = 50083
"""Discord's error code: the thread is archived (no message may be sent or edited in it)."""
UNKNOWN_MESSAGE = 10008
"""Discord's error code: the message does not exist (a moderator deleted it)."""


async def reopen(thread: Any) -> None:
    """Unarchive a game thread before posting or editing in it (Discord refuses edits in an archived one)."""
    if getattr(thread, "archived", False):
        await thread.edit(archived=False)


async def reopen_refused(presenter: Any, table_id: int, exc: discord.HTTPException) -> bool:
    """After Discord refused a post or an edit because the game's thread is archived (which the
    cached thread did not say), unarchive it; True when it is open again and worth a retry."""
    if exc.code != THREAD_ARCHIVED:
        return False
    table = await presenter.service.get(table_id)
    if table.thread_id is None:
        return False
    try:
        thread = await presenter.client.fetch_channel(table.thread_id)
        await thread.edit(archived=False)
    except discord.HTTPException as again:
        log.warning("table %s: could not reopen its archived thread: %s", table_id, again)
        return False
    return True


async def archive(thread: Any) -> None:
    """Archive a game thread (its messages stay readable; a new post reopens it)."""
    if not getattr(thread, "archived", False):
        await thread.edit(archived=True)


async def end_for_lost_thread(presenter: Any, table: Table) -> bool:
    """A game's thread was deleted: end the game as abandoned (no result) and say so in the
    channel it was opened from. Once: False when the game was not in play any more."""
    if table.status is not TableStatus.PLAYING or table.thread_id is None:
        return False
    try:
        await presenter.client.fetch_channel(table.thread_id)
    except discord.NotFound:
        pass  # deleted: end the game
    except discord.HTTPException as exc:
        # Hidden from the bot (permissions) or Discord failing: not a reason to end a game.
        log.warning("table %s: cannot reach thread %s: %s", table.id, table.thread_id, exc)
        return False
    else:
        return False
    try:
        await presenter.service.abandon(table.id, table.host_id)
    except GameNotRunning:
        return False
    except TableError as exc:
        log.warning("table %s: could not end the game of a deleted thread: %s", table.id, exc)
        return False
    log.info("table %s: its thread %s is gone; the game was ended", table.id, table.thread_id)
    channel = await presenter.channel(table.channel_id)
    if channel is None:
        return True
    try:
        await channel.send(
            words(table.language).gettext(
                "🛑 The thread of table #{table} was deleted, so its game ended without a result.",
                table=table.id,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException as exc:
        log.info("table %s: could not say that its thread is gone: %s", table.id, exc)
    return True


async def board_deleted(presenter: Any, table: Table) -> bool:
    """Whether the game's current board message is gone from its thread (Discord: Unknown Message).

    The bot hears of no deletion (that event needs the guild messages intent, which Meeple does
    not ask for), so it looks: at a reminder, a held turn ping, and the upkeep's board rounds.
    """
    if table.status is not TableStatus.PLAYING or table.thread_id is None:
        return False
    record = await presenter.messages.record(table.id)
    if record.message_id is None or record.posting is not None:
        return False  # no board yet, or a post under way: the board keeper mends it
    return await message_deleted(presenter, table.thread_id, record.message_id)


async def message_deleted(presenter: Any, thread_id: int, message_id: int) -> bool:
    """Whether Discord says the message is gone from the thread (one request; False when unsure)."""
    thread = await presenter.channel(thread_id)
    if thread is None:
        return False  # the thread itself is gone: that ends the game elsewhere
    try:
        await thread.fetch_message(message_id)
    except discord.NotFound as exc:
        return exc.code == UNKNOWN_MESSAGE
    except discord.HTTPException as exc:
        log.info("thread %s: could not look at message %s: %s", thread_id, message_id, exc)
    return False


async def board_restored(presenter: Any, table: Table) -> bool:
    """Post the board again if a moderator deleted it (so links point at a board); whether it was."""
    if not await board_deleted(presenter, table):
        return False
    log.info("table %s: its board message was deleted; posting it again", table.id)
    await presenter.repost(table)
    return True


def too_many_threads(w: Words) -> str:
    """The answer when Discord refuses a new thread because the server has too many active ones."""
    return w.gettext(
        "This server has reached Discord's limit of active threads, so the game has not started. A"
        " moderator can archive some threads (finished games' threads are archived a day after their"
        " end); then press **Start** again."
    )
