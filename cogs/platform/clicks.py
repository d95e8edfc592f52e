"""Clicks a restart cut short: journalled before they are acknowledged, answered after the restart.

Discord gives a click 3 s to be acknowledged and then 15 minutes of follow-ups through the
interaction's token. A click is written to the journal (tables/clicks.py) before the handler
acknowledges it; the move it stores deletes the row in its own transaction, and any other
click's row goes once it is answered. The next process answers each row still there, privately,
while the token is good, and deletes it. The answer is in the language the row keeps: the one the
clicker reads private answers in (text.reader), English for a row older than that column. Tokens
are never logged.
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
    store: Store = service.store
    table_id = ref.table if ref is not None else None
    pending = PendingClick(
        interaction.id,
        interaction.application_id,
        interaction.token,
        table_id,
        ref is not None and plays_a_move(ref, values),
        time.time(),  # Discord's window runs on real time, whatever clock the tables keep
        interaction.guild_id,
        # Read now: the next process has only the row (the locale comes with the interaction).
        reader(interaction).language,
    )
    write = asyncio.ensure_future(store.journal_click(pending))
    click: PendingClick | None = pending
    done, _ = await asyncio.wait({write}, timeout=JOURNAL_WAIT)
    if write in done and write.exception() is not None:
        # Unjournalled, the click still works; only a crash now would leave it unanswered.
        failure = type(write.exception()).__name__
        log.warning("click %s (table %s) not journalled: %s", pending.id, table_id, failure)
        click = None
    mark = clicks.current.set(click)
    try:
        yield click
    finally:
        clicks.current.reset(mark)
        if click is not None and not click.closed:
            await _close(store, click, write)


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
        log.warning("click %s (table %s) left in the journal: %s", click.id, click.table_id, failure)


async def owed(store: Store, shards: ShardSet | None = None) -> list[PendingClick]:
    """The clicks the last process acknowledged and never finished (read before any new click).

    With shards, only those its shards received: another process's clicks may be in flight.
    """
    try:
        return await store.journalled_clicks(shards)
    except StoreUnavailable as exc:
        log.warning("the journal of clicks could not be read: %s", type(exc).__name__)
        return []


async def answer_owed(client: discord.Client, store: Store, owed_clicks: Sequence[PendingClick]) -> int:
    """Tell each player whose click a restart cut short to press again; return how many were told."""
    told = 0
    for click in owed_clicks:
        age = time.time() - click.created_at
        if age < ANSWER_WINDOW - ANSWER_MARGIN:
            webhook = discord.Webhook.from_state(
                data={"id": click.application_id, "type": 3, "token": click.token},
                state=client._connection,
            )
            w = words(click.language)  # None, a row journalled before the column: English
            try:
                await webhook.send(w.gettext(NOT_PLAYED if click.move else NOT_DONE), ephemeral=True)
                told += 1
                log.info("click %s (table %s): told it was cut short by a restart", click.id, click.table_id)
            except discord.HTTPException as exc:
                log.info(
                    "click %s (table %s): could not be answered after the restart (%s)",
                    click.id,
                    click.table_id,
                    exc.status,
                )
        try:
            await store.close_click(click.id)
        except StoreUnavailable as exc:
            log.warning("click %s left in the journal: %s", click.id, type(exc).__name__)
    return told
