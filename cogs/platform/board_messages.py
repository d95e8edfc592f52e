"""The board messages on Discord: posted, edited, finished, mended and stripped, kept in the board ledger.

The ledger (tables/store/boards.py, a table of its own) is this side's: a table's messages,
the version and movers its board shows, earlier boards whose buttons are still to strip.
A new board costs one write (sent, the boards it replaces stripped, then recorded); a click's
edit none of its own (its record goes with the table's next move, `Store.board_later`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import text
from cogs.platform.board import Board, awaited_seats
from tables import stats
from tables.errors import StoreUnavailable
from tables.models import Table
from tables.service import TableService
from tables.store import BoardRecord

log = logging.getLogger("meeple.cogs.board")


class BoardBehind(Exception):
    """A board could not be fully brought up to date; the keeper tries again."""


def board_link(table: Table, record: BoardRecord) -> str | None:
    """The address of a table's current board message, if one is recorded."""
    if table.thread_id is None or record.message_id is None:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.thread_id}/{record.message_id}"


async def link(service: TableService, table: Table) -> str | None:
    """The address of a table's current board message, read from the ledger."""
    return board_link(table, await service.store.board(table.id))


class BoardMessages:
    """Sends and edits a table's board messages, keeping the board ledger.

    A new board message is recorded once sent, after the boards it replaces lost their
    buttons. A message that got out unrecorded (the process stopped, or Discord failed us
    mid-send) is looked for and stripped by `mend_interrupted_post` when the board is next
    brought up to date: a post of a board the ledger already shows as current records its
    intent first (`BoardRecord.posting`); any other post leaves the board looking behind, so
    a table behind when this process started, or whose post failed here, is looked at.
    """

    strays_scanned = 25
    """How many recent thread messages an interrupted post is looked for in."""

    def __init__(
        self, client: discord.Client, service: TableService, channel: Callable[[int], Awaitable[Any]]
    ) -> None:
        self.client = client
        self.service = service
        self.channel = channel
        self._closed: set[int] = set()
        self._unsure: set[int] | None = None
        """Tables whose last post may have got out unrecorded (behind at start, or a failed post)."""

    async def record(self, table_id: int) -> BoardRecord:
        """A table's row of the board ledger."""
        return await self.service.store.board(table_id)

    async def _unsure_tables(self) -> set[int]:
        """The tables whose last post may have got out unrecorded (read once: those behind at start)."""
        if self._unsure is None:
            self._unsure = set(await self.service.boards_behind())
        return self._unsure

    async def may_have_stray(self, table: Table, record: BoardRecord) -> bool:
        """Whether a board message of this table may have been sent and never recorded."""
        return record.posting is not None or table.id in await self._unsure_tables()

    async def _send_board(
        self,
        table: Table,
        record: BoardRecord,
        thread: Any,
        kwargs: dict[str, Any],
        interaction: discord.Interaction[Any] | None,
    ) -> BoardRecord:
        """Send a new board message, strip the ones it replaces, then record it (one write)."""
        store = self.service.store
        if not record.behind(table.version):
            # The ledger shows this version as current: only a recorded intent finds a stray.
            record = replace(record, posting=table.version)
            await store.save_board(record)
        unsure = await self._unsure_tables()
        unsure.add(table.id)
        message = await thread.send(**kwargs)
        new_id = int(message.id)
        retired = list(record.retired)
        if record.message_id is not None and record.message_id != new_id and record.message_id not in retired:
            retired.append(record.message_id)
        left = tuple([m for m in retired if not await self._strip(table, thread, m, interaction)])
        record = replace(
            record,
            message_id=new_id,
            version=table.version,
            movers=awaited_seats(table),
            posting=None,
            retired=left,
        )
        await store.save_board(record)
        unsure.discard(table.id)
        if left:
            raise BoardBehind(f"table {table.id}: the buttons of an earlier board could not be removed")
        return record

    async def post(
        self,
        table: Table,
        thread: Any,
        board: Board,
        interaction: discord.Interaction[Any] | None,
        *,
        record: BoardRecord | None = None,
    ) -> None:
        """Post the board as a new message (after the fair-play line on the first), retiring the old."""
        record = record if record is not None else await self.record(table.id)
        kwargs: dict[str, Any] = {"content": board.content, "allowed_mentions": board.mentions()}
        file = board.file()
        if file is not None:
            kwargs["file"] = file
        view = board.view()
        if view is not None:
            kwargs["view"] = view
        first = record.message_id is None
        if first and (fair := text.commitment_line(table)) is not None:
            # Its own message, never edited (boards are): what it says stands as first posted.
            await thread.send(fair, allowed_mentions=discord.AllowedMentions.none())
        posted = await self._send_board(table, record, thread, kwargs, interaction)
        if first:
            # The lobby may still offer Start if the process stopped right after the game began.
            await self.refresh_lobby(table, posted)

    async def edit(
        self,
        table: Table,
        thread: Any,
        board: Board,
        interaction: discord.Interaction[Any] | None,
        *,
        record: BoardRecord | None = None,
    ) -> None:
        """Edit the board message in place (through the click's response when it is that message).

        A click's edit costs no write of its own: what it shows is recorded with the next move.
        """
        record = record if record is not None else await self.record(table.id)
        file = board.file()
        kwargs: dict[str, Any] = {
            "content": board.content,
            "view": board.view(),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if file is not None:
            kwargs["attachments"] = [file]
        assert record.message_id is not None
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == record.message_id
        ):
            await interaction.edit_original_response(**kwargs)
        else:
            try:
                await thread.get_partial_message(record.message_id).edit(**kwargs)
            except discord.NotFound:
                await self.post(table, thread, board, None, record=record)
                return
        shown = replace(record, version=max(table.version, record.version or 0), movers=awaited_seats(table))
        if interaction is not None:
            # A click's edit: the player's next move carries the record (lost in a crash, the
            # board only looks behind and is edited once more).
            self.service.store.board_later(shown)
        else:
            await self.service.store.save_board(shown)

    async def finish(
        self,
        table: Table,
        thread: Any,
        board: Board,
        interaction: discord.Interaction[Any] | None,
        *,
        record: BoardRecord | None = None,
    ) -> None:
        """Post the final message: scores, rating changes, the revealed seed, the last events."""
        record = record if record is not None else await self.record(table.id)
        ui = get_ui(table.game)
        outcome = table.outcome
        lines = []
        if outcome is not None:
            lines.append(text.final_text(ui, table, outcome))
            rated = text.rating_line(table.seats, await self._rating_moves(table.id), text.spoken(table))
            if rated is not None:
                lines.append(rated)
        revealed = text.seed_line(table)
        if revealed is not None:
            lines.append(revealed)
        # Under the scores only the last events: the caption's title line would say the game twice.
        events = board.content.partition("\n")[2]
        lines.append(events if outcome is not None else board.content)
        kwargs: dict[str, Any] = {
            "content": text.clip_content("\n\n".join(lines)),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        file = board.file()
        if file is not None:
            kwargs["file"] = file
        posted = await self._send_board(table, record, thread, kwargs, interaction)
        await self.refresh_lobby(table, posted)

    async def _rating_moves(self, table_id: int) -> dict[int, tuple[float, float]]:
        """How a finished game moved its people's ratings; none when the database cannot say now."""
        try:
            return await stats.rating_moves(self.service.store, table_id)
        except StoreUnavailable:
            # The scores matter more than the rating line: post them without it.
            log.warning("table %s: rating changes unreadable, final message posted without them", table_id)
            return {}

    async def close(self, table: Table, interaction: discord.Interaction[Any] | None) -> None:
        """Say once that the table was abandoned and strip its board's buttons."""
        if table.id in self._closed:
            return
        record = await self.record(table.id)
        thread = await self.channel(table.thread_id) if table.thread_id is not None else None
        if thread is not None:
            revealed = text.seed_line(table)
            said = text.spoken(table).gettext(
                "🛑 Table #{table} was abandoned; no result is recorded.", table=table.id
            )
            await thread.send(
                said + (f"\n{revealed}" if revealed else ""),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            if record.message_id is not None:
                await self._strip(table, thread, record.message_id, interaction)
        self._closed.add(table.id)
        await self.refresh_lobby(table, record)

    async def mend_interrupted_post(self, table: Table, record: BoardRecord, thread: Any) -> BoardRecord:
        """A board may have been posted when the process stopped or Discord failed: strip what got out.

        The message may or may not have been sent; if it was, it is among the thread's latest
        messages, ours, with components, newer than the recorded board.
        """
        me = self.client.user
        after = discord.Object(record.message_id) if record.message_id is not None else None
        stray = []
        async for message in thread.history(limit=self.strays_scanned, after=after):
            ours = me is not None and message.author.id == me.id
            if ours and message.components and message.id != record.message_id:
                stray.append(message.id)
        for message_id in stray:
            log.info("table %s: stripping message %s, a board sent but never recorded", table.id, message_id)
            await self._strip(table, thread, message_id, None)
        if self._unsure is not None:
            self._unsure.discard(table.id)
        if record.posting is None:
            return record
        record = replace(record, posting=None)
        await self.service.store.save_board(record)
        return record

    async def strip_retired(
        self, table: Table, record: BoardRecord, thread: Any, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Remove the buttons of the table's earlier board messages; what failed is tried again later."""
        left = tuple([m for m in record.retired if not await self._strip(table, thread, m, interaction)])
        if left != record.retired:
            await self.service.store.save_board(replace(record, retired=left))
        if left:
            raise BoardBehind(f"table {table.id}: the buttons of an earlier board could not be removed")

    async def _strip(
        self, table: Table, thread: Any, message_id: int, interaction: discord.Interaction[Any] | None
    ) -> bool:
        """Remove the buttons of one of the table's messages; False if worth trying again later."""
        try:
            if (
                interaction is not None
                and interaction.message is not None
                and interaction.message.id == message_id
            ):
                await interaction.edit_original_response(view=None)
            else:
                await thread.get_partial_message(message_id).edit(view=None)
        except discord.NotFound:
            return True  # deleted: no buttons left
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                log.info("table %s: could not strip the buttons of message %s yet", table.id, message_id)
                return False
            log.warning("table %s: cannot strip the buttons of message %s: %s", table.id, message_id, exc)
        return True

    async def refresh_lobby(self, table: Table, record: BoardRecord) -> None:
        """Bring the lobby message in line with the table (no Start button once it began)."""
        if record.lobby_message_id is None:
            return
        channel = await self.channel(table.channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(record.lobby_message_id).edit(
                content=text.lobby_text(get_ui(table.game), table), view=None
            )
        except discord.HTTPException:
            log.info("table %s: could not update the lobby message", table.id)
