"""The board messages on Discord: posted through the ledger, edited, finished, mended, stripped."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import text
from cogs.platform.board import Board, awaited_seats
from tables import stats
from tables.errors import StoreUnavailable
from tables.models import Table
from tables.service import TableService

log = logging.getLogger("meeple.cogs.board")


class BoardBehind(Exception):
    """A board could not be fully brought up to date; the keeper tries again."""


class BoardMessages:
    """Sends and edits a table's board messages, recording each in the board ledger first.

    A new message is announced before it is sent and recorded right after (the service's
    board_posting, board_posted), so a message that got out unrecorded is found again and
    stripped by `mend_interrupted_post`; earlier boards lose their buttons (`strip_retired`).
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

    async def _send_board(self, table: Table, thread: Any, kwargs: dict[str, Any]) -> Table:
        """Send a new board message through the outbox: intent stored, sent, id stored."""
        await self.service.board_posting(table.id, table.version)
        message = await thread.send(**kwargs)
        return await self.service.board_posted(table.id, int(message.id), table.version, awaited_seats(table))

    async def post(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Post the board as a new message (after the fair-play line on the first), retiring the old."""
        kwargs: dict[str, Any] = {"content": board.content, "allowed_mentions": board.mentions()}
        file = board.file()
        if file is not None:
            kwargs["file"] = file
        view = board.view()
        if view is not None:
            kwargs["view"] = view
        first = table.board_message_id is None
        if first and (fair := text.commitment_line(table)) is not None:
            # Its own message, never edited (boards are): what it says stands as first posted.
            await thread.send(fair, allowed_mentions=discord.AllowedMentions.none())
        posted = await self._send_board(table, thread, kwargs)
        await self.strip_retired(posted, thread, interaction)
        if first:
            # The lobby may still offer Start if the process stopped right after the game began.
            await self.refresh_lobby(posted)

    async def edit(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Edit the board message in place (through the click's response when it is that message)."""
        file = board.file()
        kwargs: dict[str, Any] = {
            "content": board.content,
            "view": board.view(),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if file is not None:
            kwargs["attachments"] = [file]
        assert table.board_message_id is not None
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == table.board_message_id
        ):
            await interaction.edit_original_response(**kwargs)
        else:
            try:
                await thread.get_partial_message(table.board_message_id).edit(**kwargs)
            except discord.NotFound:
                await self.post(table, thread, board, None)
                return
        await self.service.board_shown(table.id, table.version, awaited_seats(table))

    async def finish(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Post the final message: scores, rating changes, the revealed seed, the last events."""
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
        posted = await self._send_board(table, thread, kwargs)
        await self.strip_retired(posted, thread, interaction)
        await self.refresh_lobby(posted)

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
            if table.board_message_id is not None:
                await self._strip(table, thread, table.board_message_id, interaction)
        self._closed.add(table.id)
        await self.refresh_lobby(table)

    async def mend_interrupted_post(self, table: Table, thread: Any) -> Table:
        """A board was being posted when the process stopped or Discord failed: strip what got out.

        The message may or may not have been sent; if it was, it is among the thread's latest
        messages, ours, with components, newer than the recorded board.
        """
        me = self.client.user
        after = discord.Object(table.board_message_id) if table.board_message_id is not None else None
        stray = []
        async for message in thread.history(limit=self.strays_scanned, after=after):
            ours = me is not None and message.author.id == me.id
            if ours and message.components and message.id != table.board_message_id:
                stray.append(message.id)
        for message_id in stray:
            log.info("table %s: stripping message %s, a board sent but never recorded", table.id, message_id)
            await self._strip(table, thread, message_id, None)
        return await self.service.board_mended(table.id)

    async def strip_retired(
        self, table: Table, thread: Any, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Remove the buttons of the table's earlier board messages; what failed is tried again later."""
        done = []
        for message_id in table.board_retired:
            if await self._strip(table, thread, message_id, interaction):
                done.append(message_id)
        if done:
            await self.service.board_mended(table.id, tuple(done))
        if len(done) < len(table.board_retired):
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

    async def refresh_lobby(self, table: Table) -> None:
        """Bring the lobby message in line with the table (no Start button once it began)."""
        if table.lobby_message_id is None:
            return
        channel = await self.channel(table.channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(table.lobby_message_id).edit(
                content=text.lobby_text(get_ui(table.game), table), view=None
            )
        except discord.HTTPException:
            log.info("table %s: could not update the lobby message", table.id)
