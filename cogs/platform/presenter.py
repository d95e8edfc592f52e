"""Posts and edits board messages from table updates: one place for every board on Discord."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from cogs.games import get_ui
from cogs.games.base import GameUI
from cogs.platform import away, text, threads, votes
from cogs.platform.drawing import DrawingPool, DrawJob
from cogs.platform.layout import Row, main_rows
from cogs.platform.notify import Notifier
from cogs.platform.notify import where as where_is
from cogs.platform.views import build_view
from engine.core import Prompt
from tables import stats
from tables.errors import NoSuchTable, StoreUnavailable, TableError
from tables.models import Notice, NoticeKind, Table, TableStatus, Update, UpdateKind
from tables.service import TableService

log = logging.getLogger("meeple.cogs.board")

PRESENTED_BY_HANDLERS = frozenset({UpdateKind.START, UpdateKind.MOVE, UpdateKind.UNDO})
"""Updates the interaction handlers show themselves (through the interaction response)."""


@dataclass(frozen=True, slots=True)
class _Step:
    """One update waiting to be shown: its version, log lines, and whether it began a turn."""

    version: int
    lines: tuple[str, ...]
    turn_began: bool
    new_to_move: frozenset[int]
    undo: bool = False
    """A move taken back: the board goes back whatever the log says."""


class BoardBehind(Exception):
    """A board could not be fully brought up to date; the keeper tries again."""


def _step(ui: GameUI, update: Update) -> _Step:
    table = update.table
    rules = table.rules
    names = text.shown_names(table)
    lines = []
    began = update.kind is UpdateKind.START
    for logged in update.events:
        began = began or ui.starts_turn(logged.event)
        if logged.event.visible(None):
            line = rules.describe(logged.event, names)
            if line:
                lines.append(text.discord_escape_log(line))
    fresh = set(update.new_to_move)
    if began:
        fresh |= set(table.to_move)
    return _Step(table.version, tuple(lines), began, frozenset(fresh), update.kind is UpdateKind.UNDO)


def _bot_continues(update: Update) -> bool:
    """Whether a bot moved and is still the one awaited: the middle of a bot's turn."""
    if update.kind is not UpdateKind.BOT_MOVE or update.seat is None or update.outcome is not None:
        return False
    table = update.table
    return table.is_bot(update.seat) and awaited_seats(table) == (update.seat,)


@dataclass(frozen=True, slots=True)
class Board:
    """A board message ready to send: caption, image, components."""

    content: str
    png: bytes | None
    rows: list[Row]
    ping_ids: tuple[int, ...]

    def file(self) -> discord.File | None:
        """The image as an upload, or None when the game has no renderer."""
        return discord.File(io.BytesIO(self.png), filename="board.png") if self.png is not None else None

    def view(self) -> discord.ui.View | None:
        """The components, or None when nobody human is to move."""
        return build_view(self.rows) if self.rows else None

    def mentions(self) -> discord.AllowedMentions:
        """Ping exactly the players newly to move; never roles, everyone or spectators."""
        users = [discord.Object(uid) for uid in self.ping_ids]
        return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def board_job(table: Table, seat: int | None = None) -> DrawJob | None:
    """What drawing the table as `seat` sees it (None: a spectator) needs; None when the game has no image."""
    try:
        from renderers import has_renderer  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    if not has_renderer(table.game) or table.state is None:
        return None
    view = table.view(seat)
    extra = {} if seat is None else get_ui(table.game).render_options(view, seat, table.prompt_for(seat))
    return DrawJob(table.game, view, seat, tuple(text.names_of(table)), dict(extra))


def render_board(table: Table, seat: int | None = None) -> bytes | None:
    """The table as `seat` sees it (None: a spectator); None when the game has no renderer. Blocking."""
    try:
        job = board_job(table, seat)
        return None if job is None else job.draw()
    except (KeyError, LookupError, NotImplementedError):
        return None
    except Exception:
        # A drawing bug must not stop the game: the caption and buttons still go out.
        log.exception("table %s: could not draw the board", table.id)
        return None


def awaited_seats(table: Table) -> tuple[int, ...]:
    """The seats the game waits for: an open prompt that is not optional (Prompt.optional).

    Only these count as "to move" for the board: a change among them posts a new message and
    pings; an optional decision (Buttons' gold die for the non-rollers) edits the board quietly.
    """
    return tuple(sorted({p.seat for p in table.prompts if not p.optional}))


def bots_move_next(table: Table) -> bool:
    """Whether only bots are awaited (a person's optional decision aside): their move shows next."""
    movers = awaited_seats(table)
    return bool(movers) and all(table.is_bot(seat) for seat in movers)


def human_prompts(table: Table) -> list[Prompt]:
    """The open prompts a person answers with buttons (a seat a bot stands in for included)."""
    return [p for p in table.prompts if not table.is_bot(p.seat) or table.seats[p.seat].replaced]


def compose(
    table: Table,
    lines: Sequence[str],
    ping_seats: set[int],
    png: bytes | None,
    question: str | None = None,
    page: int = 0,
) -> Board:
    """The caption and components of a table's current board."""
    ui = get_ui(table.game)
    names = text.names_of(table)
    state = table.state
    rules = table.rules
    prompts = human_prompts(table)
    view = table.view(None)
    shown = text.shown_names(table)
    questions = [question] if question is not None else [ui.question(view, p, shown) for p in prompts]
    undo_seats = [
        seat
        for seat, info in enumerate(table.seats)
        if not info.is_bot and table.status is TableStatus.PLAYING and rules.can_undo(state, seat)
    ]
    private = rules.hidden_information and table.status is TableStatus.PLAYING
    rows = (
        main_rows(table.id, table.version, ui, view, prompts, names, undo_seats, page, private)
        if prompts or private
        else []
    )
    awaited = awaited_seats(table)
    ping_ids = tuple(
        info.user_id
        for seat, info in enumerate(table.seats)
        if seat in ping_seats and seat in awaited and not info.is_bot and info.user_id is not None
    )
    content = text.board_text(ui, table, lines, "\n".join(questions), ping_ids)
    return Board(content, png, rows, ping_ids)


class Presenter:
    """Turns table updates into Discord messages in each game's thread, and keeps every board current.

    What each board message shows is stored with the game (see TableService.board_posting):
    a new message is announced before it is sent and recorded right after, so a crash or a
    failure at any point is found again and mended by `flush`. A failed delivery is retried
    with a capped backoff; `keep_boards` (at start-up) also sweeps every table whose board is
    behind, then again every `sweep_interval` seconds.
    """

    retry_base = 1.0
    """Seconds before the first retry of a failed delivery (doubling up to retry_cap)."""
    retry_cap = 60.0
    sweep_interval = 30.0
    strays_scanned = 25
    """How many recent thread messages an interrupted post is looked for in."""
    present_for = 300.0
    """Seconds after a player's own move during which they count as watching: no turn ping."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self._pending: dict[int, list[_Step]] = {}
        self._log: dict[int, list[str]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._closed: set[int] = set()
        self._keepers: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._notices: set[asyncio.Task[None]] = set()
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

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

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
                task = asyncio.create_task(self._resend(item), name=f"meeple-notice-{item.table.id}")
                self._notices.add(task)
                task.add_done_callback(self._notices.discard)

    async def show(self, update: Update, interaction: discord.Interaction[Any] | None = None) -> None:
        """Show an update: edit the board within a turn, post a new one when the turn changes.

        A bot's step after which the same bot is still awaited is only queued: its whole turn
        is shown once, when it hands over (the keeper's sweep shows it if the bot stalls).
        """
        table = update.table
        if update.kind in (UpdateKind.MOVE, UpdateKind.UNDO) and update.seat is not None:
            self._moved_at[(table.id, update.seat)] = self.service.clock()
        self._pending.setdefault(table.id, []).append(_step(get_ui(table.game), update))
        if _bot_continues(update):
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
            self.keep(table_id, delay=self.retry_base)
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

    # -- the board keeper ------------------------------------------------------

    def keep(self, table_id: int, delay: float = 0.0) -> None:
        """Bring a table's board up to date in the background, retrying with a capped backoff."""
        if self.service.closed:
            return
        task = self._keepers.get(table_id)
        if task is None or task.done():
            self._keepers[table_id] = asyncio.create_task(
                self._keep(table_id, delay), name=f"meeple-board-{table_id}"
            )

    async def _keep(self, table_id: int, delay: float) -> None:
        failures = 0
        try:
            while await self.service.idle_wait(self.service.pause(delay), "board keeper: waiting to retry"):
                try:
                    await self._flush_reopening(table_id)
                    return
                except NoSuchTable:
                    return
                except Exception as exc:
                    failures += 1
                    delay = min(self.retry_base * 2 ** (failures - 1), self.retry_cap)
                    log.warning(
                        "table %s: board not brought up to date (%s: %s); retry %d in %.0f s",
                        table_id,
                        type(exc).__name__,
                        exc,
                        failures,
                        delay,
                    )
        finally:
            if self._keepers.get(table_id) is asyncio.current_task():
                del self._keepers[table_id]

    async def _resend(self, notice: Notice) -> None:
        """Send a notice that failed again, with a capped backoff, while its game is in play."""
        failures = 0
        delay = self.retry_base
        while await self.service.idle_wait(self.service.pause(delay), "board keeper: waiting to resend"):
            try:
                if (await self.service.get(notice.table.id)).status is not TableStatus.PLAYING:
                    return
                await self.notice(notice)
                return
            except NoSuchTable:
                return
            except Exception as exc:
                failures += 1
                delay = min(self.retry_base * 2**failures, self.retry_cap)
                log.warning(
                    "table %s: %s notice not sent (%s); retry in %.0f s",
                    notice.table.id,
                    notice.kind,
                    exc,
                    delay,
                )

    async def sweep(self) -> list[int]:
        """Start bringing up to date every table whose board is behind; return their ids."""
        behind = await self.service.boards_behind()
        for table_id in behind:
            if table_id not in self._gone and not self._lock(table_id).locked():
                self.keep(table_id)
        return behind

    def keep_boards(self) -> None:
        """Sweep now and then every sweep_interval seconds, until the service closes (idempotent)."""
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_loop(), name="meeple-board-sweep")

    async def _sweep_loop(self) -> None:
        while not self.service.closed:
            try:
                await self.sweep()
            except Exception:
                log.exception("the board sweep failed; trying again later")
            wait = self.service.pause(self.sweep_interval)
            if not await self.service.idle_wait(wait, "board keeper: waiting for the next sweep"):
                return

    async def stop(self) -> None:
        """Stop the sweep and the retries, then the drawing workers (the cog unloads)."""
        tasks = [
            t
            for t in (self._sweeper, *self._keepers.values(), *self._notices)
            if t is not None and not t.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.drawing.close()

    def start_drawing(self) -> None:
        """Start the drawing workers, so they are warm before the first board is asked for."""
        self.drawing.start()

    async def draw(self, table: Table, seat: int | None = None) -> bytes | None:
        """The table as `seat` sees it as PNG bytes, drawn off the event loop; None without an image."""
        try:
            job = board_job(table, seat)
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
                await self._close_board(table, interaction)
                return
            shown = table.board_version if table.board_message_id is not None else None
            lines = [line for step in steps for line in step.lines]
            ended = table.status is TableStatus.FINISHED or table.outcome is not None
            current = shown == table.version and table.board_posting is None
            if current and (ended or not lines) and not table.board_retired:
                return
            thread = await self.channel(table.thread_id)
            if thread is None:
                if table_id not in self._gone:
                    self._gone.add(table_id)
                    log.warning(
                        "table %s: thread %s is gone; its board cannot be shown", table_id, table.thread_id
                    )
                    await self._say_thread_gone(table)
                return
            self._gone.discard(table_id)
            await threads.reopen(thread)
            if table.board_posting is not None:
                table = await self._mend_interrupted_post(table, thread)
            if current and (ended or not lines):
                await self._strip_retired(table, thread, interaction)
                return
            movers = frozenset(awaited_seats(table))
            unseen = [step for step in steps if shown is None or step.version > shown]
            fresh = set().union(*(step.new_to_move for step in unseen)) if unseen else set()
            began = any(step.turn_began for step in unseen)
            if shown is not None:
                turned = movers - frozenset(table.board_movers)
                fresh |= turned
                began = began or bool(turned)
            new_message = began or table.board_message_id is None or ended
            if new_message and not ended and table.board_message_id is not None and bots_move_next(table):
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
                png = await self.draw(table)
            else:
                # Late log lines, or a step the caption and buttons say: Discord keeps the image.
                png = None
            route = self.notify.route(table, self._ping_seats(table, fresh))
            if route.held and new_message and not ended:
                await self.service.hold_pings(table_id, route.held)
            board = compose(table, self._log[table_id], route.in_thread, png)
            board = await away.with_summary(self.service, table, board, self._log[table_id])
            if ended:
                await self._finish(table, thread, board, interaction)
            elif new_message:
                await self._post(table, thread, board, interaction)
                await self.notify.send_turn_dms(table_id, route.by_dm)
            else:
                await self._edit(table, thread, board, interaction)
            if ended:
                self._shown_keys.pop(table_id, None)  # no edit follows the final board
                self._turned.discard(table_id)
            elif png is not None:
                self._shown_keys[table_id] = key
                self._turned.discard(table_id)
            elif began:
                self._turned.add(table_id)

    def _redraws(self, table: Table, unseen: Sequence[_Step], key: object) -> bool:
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
                raise TableError("This game has no thread yet.")
            thread = await self.channel(table.thread_id)
            if thread is None:
                raise TableError("I cannot find this game's thread any more.")
            await threads.reopen(thread)
            if table.board_posting is not None:
                table = await self._mend_interrupted_post(table, thread)
            png = await self.draw(table)
            board = compose(table, self._log.get(table.id, []), set(), png)
            await self._post(table, thread, board, None)
            if png is not None:
                self._shown_keys[table.id] = get_ui(table.game).board_key(table.view(None))

    def caption(self, table: Table, question: str | None = None) -> str:
        """The current caption of a table's board, optionally asking another question."""
        return compose(table, self._log.get(table.id, []), set(), None, question).content

    def first_step(self, table: Table, page: int = 0) -> Board:
        """The board's caption and first-step components (one page of them), without the image."""
        return compose(table, self._log.get(table.id, []), set(), None, page=page)

    async def notice(self, notice: Notice) -> None:
        """Reminders ping the player in the thread; other notices are told to everyone."""
        if notice.kind in (NoticeKind.REMINDER, NoticeKind.TURN):
            # A player told of their move must find a board to play on, and the link must lead there.
            notice = replace(notice, table=await threads.board_restored(self, notice.table))
        if await self.notify.handles(notice):
            return
        by_dm = await self.notify.remind_by_dm(notice)
        table = notice.table
        if table.thread_id is None:
            return
        thread = await self.channel(table.thread_id)
        if thread is None:
            await self._say_thread_gone(table)
            return
        await threads.reopen(thread)
        seat = table.seats[notice.seat]
        name = text.seat_name(seat)
        mentions = discord.AllowedMentions.none()
        view = None
        if notice.kind is NoticeKind.REMINDER and notice.user_id is not None:
            # The game's name too: a player at several tables knows which one at a glance.
            content = f"⏰ <@{notice.user_id}>, it is your turn in {where_is(table)}"
            vote, view = await votes.reminder_vote(self.service, table, notice.seat)
            content += vote + (by_dm or "")
            if by_dm != "":  # "": told by DM, the thread's copy (with the vote) pings nobody
                mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
        elif notice.kind is NoticeKind.TIMED_OUT:
            content = f"⌛ Time ran out for **{name}**: the default move was played."
        elif notice.kind is NoticeKind.REPLACED and notice.user_id is not None:
            # Once, so the player knows their seat goes on without them and how to come back.
            content = (
                f"🤖 A bot now plays for **{text.discord_escape(seat.name)}** (<@{notice.user_id}>) in table"
                f" #{table.id}; `/game rejoin` or a button on your turn takes the seat back."
            )
            mentions = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
        elif notice.kind is NoticeKind.REPLACED:
            content = f"🤖 A bot now plays for **{text.discord_escape(seat.name)}**."
        else:
            content = f"👋 **{text.discord_escape(seat.name)}** is back and plays their seat again."
        if view is not None:
            await thread.send(content, allowed_mentions=mentions, view=view)
        else:
            await thread.send(content, allowed_mentions=mentions)

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread by id, from the cache or the API; None when it is gone."""
        found = self.client.get_channel(channel_id)
        if found is not None:
            return found
        try:
            return await self.client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None

    # -- message operations --------------------------------------------------

    async def _send_board(self, table: Table, thread: Any, kwargs: dict[str, Any]) -> Table:
        """Send a new board message through the outbox: intent stored, sent, id stored."""
        await self.service.board_posting(table.id, table.version)
        message = await thread.send(**kwargs)
        return await self.service.board_posted(table.id, int(message.id), table.version, awaited_seats(table))

    async def _post(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
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
        await self._strip_retired(posted, thread, interaction)
        if first:
            # The lobby may still offer Start if the process stopped right after the game began.
            await self._refresh_lobby(posted)

    async def _edit(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
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
                await self._post(table, thread, board, None)
                return
        await self.service.board_shown(table.id, table.version, awaited_seats(table))

    async def _finish(
        self, table: Table, thread: Any, board: Board, interaction: discord.Interaction[Any] | None
    ) -> None:
        ui = get_ui(table.game)
        outcome = table.outcome
        lines = []
        if outcome is not None:
            lines.append(text.final_text(ui, table, outcome))
            rated = text.rating_line(table.seats, await self._rating_moves(table.id))
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
        await self._strip_retired(posted, thread, interaction)
        await self._refresh_lobby(posted)

    async def _rating_moves(self, table_id: int) -> dict[int, tuple[float, float]]:
        """How a finished game moved its people's ratings; none when the database cannot say now."""
        try:
            return await stats.rating_moves(self.service.store, table_id)
        except StoreUnavailable:
            # The scores matter more than the rating line: post them without it.
            log.warning("table %s: rating changes unreadable, final message posted without them", table_id)
            return {}

    async def _close_board(self, table: Table, interaction: discord.Interaction[Any] | None) -> None:
        if table.id in self._closed:
            return
        thread = await self.channel(table.thread_id) if table.thread_id is not None else None
        if thread is not None:
            revealed = text.seed_line(table)
            await thread.send(
                f"🛑 Table #{table.id} was abandoned; no result is recorded."
                + (f"\n{revealed}" if revealed else ""),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            if table.board_message_id is not None:
                await self._strip(table, thread, table.board_message_id, interaction)
        self._closed.add(table.id)
        await self._refresh_lobby(table)

    async def _say_thread_gone(self, table: Table) -> None:
        """The game's thread is gone: end the game as abandoned and say so in the channel, once."""
        await threads.end_for_lost_thread(self, table)

    async def _mend_interrupted_post(self, table: Table, thread: Any) -> Table:
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

    async def _strip_retired(
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

    async def _refresh_lobby(self, table: Table) -> None:
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
