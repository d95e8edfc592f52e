"""Clicks and slash commands a restart cut short: journalled before they are acknowledged,
answered after the restart.

Discord gives a click 3 s to be acknowledged and then 15 minutes of follow-ups through the
interaction's token. A click is written to the journal (tables/clicks.py) before the handler
acknowledges it; the move it stores deletes the row in its own transaction, and any other
click's row goes once it is answered. The next process answers each row still there, privately,
while the token is good, and deletes it. The answer is in the language the row keeps: the one the
clicker reads private answers in (text.reader), English for a row older than that column. Tokens
are never logged.

A slash command that defers is journalled the same way (`journalled_command`, around its defer and
its answer): a process killed in between leaves its user looking at "thinking" until Discord gives
up, so the next one answers it (NOT_FINISHED names the command), which replaces that message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord

from cogs.platform.ids import ActRef, PickRef, Ref, UndoRef
from cogs.platform.text import reader
from cogs.platform.translator import NAME_CONTEXT, valid_name
from engine.words import N_, words
from tables import clicks
from tables.clicks import ANSWER_WINDOW, PendingClick
from tables.errors import StoreUnavailable
from tables.shards import ShardSet
from tables.store import Store

log = logging.getLogger("meeple.cogs.clicks")

JOURNAL_WAIT = 1.0
"""Seconds the acknowledgement waits for the journal's write (Discord allows 3 s in all)."""
ANSWER_MARGIN = 30.0
"""Seconds before the end of Discord's window when an owed answer is no longer tried."""
NOT_PLAYED = N_("Not played: Meeple restarted before your move was saved. Press it again.")
NOT_DONE = N_("Meeple restarted before it finished your click. If nothing changed, press it again.")
NOT_FINISHED = N_("Meeple restarted before it finished {command}. If nothing changed, run it again.")
"""A cut slash command's answer: true whether or not what it changes was stored before the crash."""


def plays_a_move(ref: Ref, values: Sequence[str]) -> bool:
    """Whether a click stores a move when it succeeds (a choice, a select of a choice, or undo)."""
    if isinstance(ref, PickRef):
        return len(values) == 1 and values[0].startswith("a")
    return isinstance(ref, ActRef | UndoRef)


@contextlib.asynccontextmanager
async def journalled(
    interaction: discord.Interaction[Any], ref: Ref | None, values: Sequence[str], *, other: bool = False
) -> AsyncIterator[PendingClick | None]:
    """Keep the click in the journal while it is handled (see the module docstring).

    `ref` is the parsed table component (None: malformed, answered at once, not journalled);
    `other` journals a component of another kind (a leaderboard page), which plays no move.
    """
    service = getattr(interaction.client, "tables", None)
    if (ref is None and not other) or service is None or service.closed:
        yield None
        return
    table_id = ref.table if ref is not None else None
    pending = _pending(interaction, table_id, ref is not None and plays_a_move(ref, values))
    async with _kept(service.store, pending) as click:
        mark = clicks.current.set(click)
        try:
            yield click
        finally:
            clicks.current.reset(mark)


@contextlib.asynccontextmanager
async def journalled_command(interaction: discord.Interaction[Any]) -> AsyncIterator[PendingClick | None]:
    """Keep a slash command in the journal from before its defer to after its answer.

    Its row is not the one a stored move deletes (`clicks.current` stays unset): a command's
    "thinking" message waits for an answer whatever it stored, so the row stays until then, and
    the answer after a restart (NOT_FINISHED) holds whether the change was stored or not.
    """
    service = getattr(interaction.client, "tables", None)
    if service is None or service.closed:
        yield None
        return
    pending = _pending(interaction, None, False, command=command_name(interaction))
    async with _kept(service.store, pending) as click:
        yield click


def command_name(interaction: discord.Interaction[Any]) -> str:
    """The command, with its slash, in the words its user's client shows ("/play tomatoes")."""
    command = interaction.command
    parts = command.qualified_name.split() if command is not None else ["?"]
    w = words(str(interaction.locale))
    shown = []
    for part in parts:
        # As the translator names it when the tree is synced (cogs/platform/translator.py).
        local = w.pgettext(NAME_CONTEXT, part).lower()
        shown.append(local if valid_name(local) else part)
    return "/" + " ".join(shown)


def _pending(
    interaction: discord.Interaction[Any], table_id: int | None, move: bool, *, command: str | None = None
) -> PendingClick:
    """The row of an interaction about to be acknowledged."""
    return PendingClick(
        interaction.id,
        interaction.application_id,
        interaction.token,
        table_id,
        move,
        time.time(),  # Discord's window runs on real time, whatever clock the tables keep
        interaction.guild_id,
        # Read now: the next process has only the row (the locale comes with the interaction).
        reader(interaction).language,
        command,
    )


@contextlib.asynccontextmanager
async def _kept(store: Store, pending: PendingClick) -> AsyncIterator[PendingClick | None]:
    """Journal `pending` (waiting at most JOURNAL_WAIT), and delete its row when the block is done."""
    write = asyncio.ensure_future(store.journal_click(pending))
    click: PendingClick | None = pending
    done, _ = await asyncio.wait({write}, timeout=JOURNAL_WAIT)
    if write in done and write.exception() is not None:
        # Unjournalled, the click still works; only a crash now would leave it unanswered.
        failure = type(write.exception()).__name__
        log.warning("%s not journalled: %s", _what(pending), failure)
        click = None
    try:
        yield click
    finally:
        if click is not None and not click.closed:
            await _close(store, click, write)


def _what(click: PendingClick) -> str:
    """A journalled interaction in a log line (never its token)."""
    if click.command is not None:
        return f"command {click.id} ({click.command})"
    return f"click {click.id} (table {click.table_id})"


async def _close(store: Store, click: PendingClick, write: asyncio.Future[None]) -> None:
    """Delete a finished click's row (after its journal write, if that was slow)."""
    with contextlib.suppress(Exception):
        await write
    try:
        await store.close_click(click.id)
        click.closed = True
    except Exception as exc:  # a paused store, or one closed by a shutdown meanwhile
        # The next start-up answers it: harmless ("if the board did not change, press again").
        failure = type(exc).__name__
        log.warning("%s left in the journal: %s", _what(click), failure)


async def owed(store: Store, shards: ShardSet | None = None) -> list[PendingClick]:
    """The clicks the last process acknowledged and never finished (read before any new click).

    With shards, only those its shards received: another process's clicks may be in flight.
    """
    try:
        return await store.journalled_clicks(shards)
    except StoreUnavailable as exc:
        log.warning("the journal of clicks could not be read: %s", type(exc).__name__)
        return []


def owed_answer(click: PendingClick) -> str:
    """What a restart tells the person whose click or command it cut short, in their language."""
    w = words(click.language)  # None, a row journalled before the column: English
    if click.command is not None:
        return w.gettext(NOT_FINISHED, command=click.command)
    return w.gettext(NOT_PLAYED if click.move else NOT_DONE)


async def answer_owed(client: discord.Client, store: Store, owed_clicks: Sequence[PendingClick]) -> int:
    """Tell each person whose click or command a restart cut short to try again; return how many were told."""
    told = 0
    for click in owed_clicks:
        age = time.time() - click.created_at
        if age < ANSWER_WINDOW - ANSWER_MARGIN:
            webhook = discord.Webhook.from_state(
                data={"id": click.application_id, "type": 3, "token": click.token},
                state=client._connection,
            )
            try:
                # A deferred command's first follow-up replaces its "thinking" message.
                await webhook.send(owed_answer(click), ephemeral=True)
                told += 1
                log.info("%s: told it was cut short by a restart", _what(click))
            except discord.HTTPException as exc:
                log.info("%s: could not be answered after the restart (%s)", _what(click), exc.status)
        try:
            await store.close_click(click.id)
        except StoreUnavailable as exc:
            log.warning("click %s left in the journal: %s", click.id, type(exc).__name__)
    return told
