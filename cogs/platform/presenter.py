"""Shows table updates on Discord: decides, per table, between a new board message, an edit, and a kept image.

The parts it uses: `board` (what a board shows), `board_messages` (the board messages and their
ledger), `keeper` (background retries and the sweep), `notices` (the wording of notices),
`threads` (a thread archived or gone).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from cogs.games import get_ui
from cogs.platform import away, board, threads
from cogs.platform.board import Board, Step, awaited_seats, bots_move_next
from cogs.platform.board_messages import BoardMessages
from cogs.platform.drawing import DrawingPool
from cogs.platform.keeper import BoardKeeper
from cogs.platform.notices import notice_message
from cogs.platform.notify import Notifier
from engine.words import N_
from tables.errors import TableError
from tables.models import Notice, NoticeKind, Table, TableStatus, Update, UpdateKind
from tables.service import TableService

log = logging.getLogger("meeple.cogs.board")

PRESENTED_BY_HANDLERS = frozenset({UpdateKind.START, UpdateKind.MOVE, UpdateKind.UNDO})
"""Updates the interaction handlers show themselves (through the interaction response)."""


class Presenter:
    """Turns table updates into Discord messages in each game's thread, and keeps every board current.

    What each board message shows is kept in the board ledger (tables/store/boards.py, through
    BoardMessages): a new message is recorded once sent, an edit with the table's next move, so
    a crash or a failure at any point leaves the board behind, found again and mended by
    `flush` (see BoardMessages). A failed
    delivery is retried with a capped backoff; `keep_boards` (at start-up) also sweeps every
    table whose board is behind, then again every `sweep_interval` seconds (see BoardKeeper).
    """

    present_for = 300.0
    """Seconds after a player's own move during which they count as watching: no turn ping."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self._pending: dict[int, list[Step]] = {}
        self._log: dict[int, list[str]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._gone: set[int] = set()
        """Tables whose thread was deleted (or hidden from the bot): the sweep leaves them be."""
        self.drawing = DrawingPool()
        """Where board images are drawn: worker processes, started by `start_drawing`."""
        self._shown_keys: dict[int, object] = {}
        """Table -> GameUI.board_key of the image its board message carries (as far as this process knows)."""
        self._turned: set[int] = set()
        """Tables where a turn began since their board's image was drawn (a bot's, shown by an edit)."""
        self._moved_at: dict[tuple[int, int], float] = {}
        """(table, seat) -> when that seat's player last moved themselves (service clock)."""
        self.notify = Notifier(client, service, self.channel)
        """Routes pings by the players' settings: thread or DM, held over quiet hours."""
        self.messages = BoardMessages(client, service, self.channel)
        """Posts, edits and mends the board messages through the board ledger."""
        self.keeper = BoardKeeper(service, self._flush_reopening, self.notice, self._left_be)
        """Retries what failed in the background and sweeps the boards left behind."""

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def _left_be(self, table_id: int) -> bool:
        """Whether the sweep skips a table: its thread is gone, or its board is being shown."""
        return table_id in self._gone or self._lock(table_id).locked()

    async def listener(self, item: Update | Notice) -> None:
        """The table service's listener: show bot and timeout moves, and notices."""
        try:
            if isinstance(item, Notice):
                await self.notice(item)
            elif item.kind not in PRESENTED_BY_HANDLERS:
                await self.show(item)
        except Exception:
            log.exception("could not show an update of table %s; retrying later", item.table.id)
            if isinstance(item, Notice):
                self.keeper.resend(item)

    async def show(self, update: Update, interaction: discord.Interaction[Any] | None = None) -> None:
        """Show an update: edit the board within a turn, post a new one when the turn changes.

        A bot's step after which the same bot is still awaited is only queued: its whole turn
        is shown once, when it hands over (the keeper's sweep shows it if the bot stalls).
        """
        table = update.table
        if update.kind in (UpdateKind.MOVE, UpdateKind.UNDO) and update.seat is not None:
            self._moved_at[(table.id, update.seat)] = self.service.clock()
        self._pending.setdefault(table.id, []).append(board.step(get_ui(table.game), update))
        if board.bot_continues(update):
            return
        await self.flush(table.id, interaction)

    def _ping_seats(self, table: Table, fresh: set[int]) -> set[int]:
        """The seats to mention: newly awaited, and not moved themselves within `present_for` seconds.

        A player who just moved is watching the thread (a live game, or a solo one): their next
        turn needs no ping; once they are away, the turn pings them (and the reminders do).
        """
        now = self.service.clock()
        awaited = set(awaited_seats(table))
        return {
            seat
            for seat in fresh & awaited
            if now - self._moved_at.get((table.id, seat), float("-inf")) >= self.present_for
        }

    async def flush(self, table_id: int, interaction: discord.Interaction[Any] | None = None) -> None:
        """Bring the table's board on Discord up to date with the stored game; on failure retry later."""
        try:
            await self._flush_reopening(table_id, interaction)
        except Exception:
            self.keeper.keep(table_id, delay=self.keeper.retry_base)
            raise

    async def _flush_reopening(
        self, table_id: int, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """`_flush`; when Discord says the thread is archived (unknown to us), reopen it and retry once."""
        try:
            await self._flush(table_id, interaction)
        except discord.HTTPException as exc:
            if not await threads.reopen_refused(self, table_id, exc):
                raise
            await self._flush(table_id, interaction)

    def keep_boards(self) -> None:
        """Sweep now and then every sweep_interval seconds, until the service closes (idempotent)."""
        self.keeper.keep_boards()

    async def stop(self) -> None:
        """Stop the sweep and the retries, then the drawing workers (the cog unloads)."""
        await self.keeper.stop()
        await self.drawing.close()

    def start_drawing(self) -> None:
        """Start the drawing workers, so they are warm before the first board is asked for."""
        self.drawing.start()

    async def draw(self, table: Table, seat: int | None = None) -> bytes | None:
        """The table as `seat` sees it as an image file's bytes, drawn off the event loop; None without
        an image."""
        try:
            job = board.board_job(table, seat)
            return None if job is None else await self.drawing.draw(job)
        except (KeyError, LookupError, NotImplementedError):
            return None
        except Exception:
            # A drawing bug must not stop the game: the caption and buttons still go out.
            log.exception("table %s: could not draw the board", table.id)
            return None

    # -- bringing one board up to date -------------------------------------------

    async def _flush(self, table_id: int, interaction: discord.Interaction[Any] | None = None) -> None:
        """Always show the latest stored state.

        Updates are delivered in order, but a handler, the listener and the keeper may race,
        so the turn change is judged against what the board message is recorded to show,
        not against the update at hand.
        """
        async with self._lock(table_id):
            table = await self.service.get(table_id)
            if table.thread_id is None:
                return  # the start handler opens the thread, then flushes what waited
            steps = self._pending.get(table_id, [])
            if steps and table.version > max(step.version for step in steps):
                # Every commit is published, so a later update is on its way: show it all then,
                # once, instead of drawing a board that is already out of date.
                return
            steps = self._pending.pop(table_id, [])
            if table.status is TableStatus.ABANDONED:
                await self.messages.close(table, interaction)
                return
            record = await self.messages.record(table_id)
            shown = record.version if record.message_id is not None else None
            lines = [line for step in steps for line in step.lines]
            ended = table.status is TableStatus.FINISHED or table.outcome is not None
            current = shown == table.version and record.posting is None
            if current and (ended or not lines) and not record.retired:
                return
            thread = await self.channel(table.thread_id)
            if thread is None:
                if table_id not in self._gone:
                    self._gone.add(table_id)
                    log.warning(
                        "table %s: thread %s is gone; its board cannot be shown", table_id, table.thread_id
                    )
                    await threads.end_for_lost_thread(self, table)
                return
            self._gone.discard(table_id)
            await threads.reopen(thread)
            if await self.messages.may_have_stray(table, record):
                record = await self.messages.mend_interrupted_post(table, record, thread)
            if current and (ended or not lines):
                await self.messages.strip_retired(table, record, thread, interaction)
                return
            movers = frozenset(awaited_seats(table))
            unseen = [step for step in steps if shown is None or step.version > shown]
            fresh = set().union(*(step.new_to_move for step in unseen)) if unseen else set()
            began = any(step.turn_began for step in unseen)
            if shown is not None:
                turned = movers - frozenset(record.movers)
                fresh |= turned
                began = began or bool(turned)
            new_message = began or record.message_id is None or ended
            if new_message and not ended and record.message_id is not None and bots_move_next(table):
                # A bot's turn gets no message of its own: the board it hands over shows its move.
                new_message = False
            if ended and shown is not None:
                # The final message tells only what the last board did not already show.
                self._log[table_id] = [line for step in unseen for line in step.lines]
            elif new_message:
                self._log[table_id] = lines
            else:
                self._log.setdefault(table_id, []).extend(lines)
            key = get_ui(table.game).board_key(table.view(None))
            if new_message or (shown != table.version and self._redraws(table, unseen, key)):
                image = await self.draw(table)
            else:
                # Late log lines, or a step the caption and buttons say: Discord keeps the image.
                image = None
            route = self.notify.route(table, self._ping_seats(table, fresh))
            if route.held and new_message and not ended:
                await self.service.hold_pings(table_id, route.held)
            first = record.message_id is None
            message = board.compose(table, self._log[table_id], route.in_thread, image, first=first)
            message = await away.with_summary(self.service, table, message, self._log[table_id])
            if ended:
                await self.messages.finish(table, thread, message, interaction)
            elif new_message:
                await self.messages.post(table, thread, message, interaction)
                await self.notify.send_turn_dms(table_id, route.by_dm)
            else:
                await self.messages.edit(table, thread, message, interaction)
            if ended:
                self._shown_keys.pop(table_id, None)  # no edit follows the final board
                self._turned.discard(table_id)
            elif image is not None:
                self._shown_keys[table_id] = key
                self._turned.discard(table_id)
            elif began:
                self._turned.add(table_id)

    def _redraws(self, table: Table, unseen: Sequence[Step], key: object) -> bool:
        """Whether an edit within a turn uploads a new image: only when the board really changed.

        Kept: while bots alone are awaited (the board they hand over follows in seconds) or
        nobody is (only optional decisions are open: the next turn's board follows them) unless
        a turn began since the image (a bot's, which had no board of its own), after
        steps that logged nothing (a sub-decision: what it chose is in the caption and the
        buttons), and when the game's board_key of the view is the one already shown.
        """
        if not unseen or table.id not in self._shown_keys:
            return True  # what changed is not known here (a restart, a sweep): draw
        if bots_move_next(table):
            return False
        turned = table.id in self._turned or any(step.turn_began for step in unseen)
        if not awaited_seats(table) and not turned:
            return False
        if not any(step.lines or step.undo for step in unseen):
            return False
        return key != self._shown_keys[table.id]

    async def repost(self, table: Table) -> None:
        """Post the current board again as a new message (no ping) and retire the old one."""
        async with self._lock(table.id):
            table = await self.service.get(table.id)
            if table.thread_id is None:
                raise TableError(N_("This game has no thread yet."))
            thread = await self.channel(table.thread_id)
            if thread is None:
                raise TableError(N_("I cannot find this game's thread any more."))
            await threads.reopen(thread)
            record = await self.messages.record(table.id)
            if await self.messages.may_have_stray(table, record):
                record = await self.messages.mend_interrupted_post(table, record, thread)
            image = await self.draw(table)
            first = record.message_id is None
            message = board.compose(table, self._log.get(table.id, []), set(), image, first=first)
            await self.messages.post(table, thread, message, None)
            if image is not None:
                self._shown_keys[table.id] = get_ui(table.game).board_key(table.view(None))

    def caption(self, table: Table, question: str | None = None) -> str:
        """The current caption of a table's board, optionally asking another question."""
        return board.compose(table, self._log.get(table.id, []), set(), None, question).content

    def first_step(self, table: Table, page: int = 0) -> Board:
        """The board's caption and first-step components (one page of them), without the image."""
        return board.compose(table, self._log.get(table.id, []), set(), None, page=page)

    async def notice(self, notice: Notice) -> None:
        """Reminders ping the player in the thread; other notices are told to everyone."""
        # A player told of their move must find a board to play on, and the link must lead there.
        if notice.kind in (NoticeKind.REMINDER, NoticeKind.TURN) and await threads.board_restored(
            self, notice.table
        ):
            notice = replace(notice, table=await self.service.get(notice.table.id))
        if await self.notify.handles(notice):
            return
        by_dm = await self.notify.remind_by_dm(notice)
        table = notice.table
        if table.thread_id is None:
            return
        thread = await self.channel(table.thread_id)
        if thread is None:
            await threads.end_for_lost_thread(self, table)
            return
        await threads.reopen(thread)
        said = await notice_message(self.service, notice, by_dm)
        if said.view is not None:
            await thread.send(said.content, allowed_mentions=said.mentions, view=said.view)
        else:
            await thread.send(said.content, allowed_mentions=said.mentions)

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread by id, from the cache or the API; None when it is gone."""
        found = self.client.get_channel(channel_id)
        if found is not None:
            return found
        try:
            return await self.client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None
