"""The table service: lobbies, seats, moves, undo, bots and turn clocks over a store."""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, Literal, Protocol, TypeVar

from engine import commitment as commit
from engine.core import (
    DEFAULT_LEVEL,
    UNDO,
    Action,
    BadOptions,
    EngineError,
    Move,
    Prompt,
    Record,
    Scalar,
    Transition,
    advance,
)
from engine.games import UnknownGame as EngineUnknownGame
from engine.games import get_rules
from engine.words import count
from tables.errors import (
    AlreadySeated,
    BadTableOptions,
    GameNotRunning,
    IllegalMove,
    LobbyClosed,
    LobbyFull,
    NoSuchTable,
    NotAllowed,
    NotEnoughPlayers,
    NothingToUndo,
    NotHost,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    StoreUnavailable,
    TableError,
    UnknownBot,
    UnknownGame,
)
from tables.models import (
    Deadline,
    DeadlineKind,
    LoggedEvent,
    Notice,
    NoticeKind,
    SeatInfo,
    Table,
    TableStatus,
    Timing,
    Update,
    UpdateKind,
)
from tables.players import Players
from tables.store import ActionRow, NewAction, Store
from tables.waits import (
    answers_itself,
    auto_answer,
    defer_for_quiet,
    held_pings,
    optional_deadlines,
    remind_after_ping,
)

log = logging.getLogger(__name__)

Listener = Callable[[Update | Notice], Awaitable[None]]
"""An async callback receiving every Update and Notice, in order."""

_T = TypeVar("_T")


class IdleWait(Protocol):
    """Awaits `awaitable` on the service's behalf, where the service sits idle until more work comes.

    A test harness that joins all running work (simcord's `Env.external_wait`) uses it to
    tell a waiting-for-input task from a stuck one; `reason` names the wait.
    """

    def __call__(self, awaitable: Awaitable[_T], reason: str, /) -> Awaitable[_T]: ...


async def plain_wait(awaitable: Awaitable[_T], reason: str, /) -> _T:
    """The default IdleWait: just await."""
    return await awaitable


OPEN = (TableStatus.LOBBY, TableStatus.PLAYING)

MAX_FORCED_STEPS = 16
"""A bound on the one-option steps played in a row after a move (a game keeps each turn finite)."""
_PRIORITY = {
    DeadlineKind.REPLACE: 0,
    DeadlineKind.TIMEOUT: 1,
    DeadlineKind.OPTIONAL: 2,
    DeadlineKind.PING: 3,
    DeadlineKind.REMIND: 4,
}


def random_seed() -> int:
    """A game's seed: 63 bits, unguessable, so no player can foresee the dice."""
    return secrets.randbits(63)


class TableService:
    """Everything the cogs do to tables; one lock per table, the database as the truth.

    Three settings serve test harnesses; set them (as keywords or attributes) before start():
    `clock_loop=False` leaves the clocks to explicit run_due calls, `idle_wait` wraps the
    waits of long-lived helpers for their next turn (the board keeper's periodic sweep), and
    `new_seed` gives each started game its seed (reproducible games).

    Bots never give up while their game is in play: a failed move is retried after
    `retry_base` seconds, doubling up to `retry_cap`. Each table's updates are delivered to
    the listeners by a task of its own, so a slow table delays only itself.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 1.5,
        poll_interval: float = 30.0,
        replacement_bot: str = DEFAULT_LEVEL,
        retry_base: float = 1.0,
        retry_cap: float = 30.0,
        clock_loop: bool = True,
        idle_wait: IdleWait = plain_wait,
        new_seed: Callable[[], int] = random_seed,
    ) -> None:
        self.store = store
        self.clock = clock
        self.bot_delay = bot_delay
        self.poll_interval = poll_interval
        self.replacement_bot = replacement_bot
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.clock_loop = clock_loop
        """Whether start() starts the loop firing due clocks (else only run_due fires them)."""
        self.idle_wait = idle_wait
        """How long-lived helpers await their next turn (see the class docstring)."""
        self.new_seed = new_seed
        """Where each started game's seed comes from (`random_seed` outside tests)."""
        self._cache: dict[int, Table] = {}
        # The encoded snapshot of each cached state, by table: (version, JSON). Saves encoding
        # a state twice: once as the new snapshot, again as the next move's undo snapshot.
        self._snapshots: dict[int, tuple[int, str]] = {}
        # The prompts of past states, by (table, version), as replayed for clicks on older boards.
        self._past_prompts: dict[tuple[int, int], tuple[Prompt, ...]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        # Per table: the updates not yet delivered, and the task delivering them (while any).
        self._outbox: dict[int, collections.deque[Update | Notice]] = {}
        self._deliverers: dict[int, asyncio.Task[None]] = {}
        self._clock_task: asyncio.Task[None] | None = None
        self._sleepers: set[asyncio.Future[None]] = set()
        self._closed = False
        self._started = False
        self.players = Players(store)
        """Player settings: quiet hours, how to be told, standing answers (tables.players)."""

    # -- life cycle ----------------------------------------------------------

    async def start(self) -> None:
        """Resume: schedule the bots and standing answers games wait on; start the clock loop (if any).

        Only those games are loaded now; every other one is loaded on its first use (a click,
        a command, a clock, the board keeper), so start-up takes the same time however many
        games are stored.
        """
        self._started = True
        await self.players.load()
        for table_id in await self.store.bot_to_move():
            async with self._lock(table_id):
                try:
                    table = await self._load(table_id)
                except TableError as exc:
                    # One unreadable table must not stop the start-up.
                    log.error("table %d skipped: %s", table_id, exc)
                    continue
                self._kick_bots(table)
                if not table.may_move_unasked:
                    await self._unmark(table)
        if self.clock_loop and self._clock_task is None:
            self._clock_task = asyncio.create_task(self._clock_loop(), name="tables-clock")

    async def _unmark(self, table: Table) -> None:
        """Drop a start-up mark the game does not need (migration 10 set it on every game in play)."""
        try:
            await self.store.unmark_bot_to_move(table)
        except StoreUnavailable as exc:
            # Harmless: the game is only loaded again at the next start-up.
            log.warning("table %d: start-up mark kept (%s)", table.id, exc)

    async def close(self) -> None:
        """Stop the clock loop and the bot tasks, deliver pending updates, close the store."""
        if self._closed:
            return
        self._closed = True
        for waker in list(self._sleepers):
            _wake(waker)
        # Tasks are never cancelled inside a transaction: they see the stop flag and return.
        tasks = [t for t in (self._clock_task, *self._bot_tasks.values()) if t is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        deliverers = list(self._deliverers.values())
        if deliverers:
            _, late = await asyncio.wait(deliverers, timeout=5)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self.store.close()

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._closed

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every Update (human, bot, timeout, undo, start, abandon) and Notice."""
        self._listeners.append(listener)

    async def idle(self) -> None:
        """Wait until no bot move is pending and every update has been delivered (tests)."""
        while True:
            tasks = [t for t in (*self._bot_tasks.values(), *self._deliverers.values()) if not t.done()]
            if not tasks:
                return
            # A listener may act and so wake a bot (and a bot's move is delivered): look again.
            await asyncio.gather(*tasks, return_exceptions=True)

    async def run_due(self, now: float | None = None) -> int:
        """Fire every clock due at `now` (default: the service clock); return how many fired."""
        now = self.clock() if now is None else now
        due = await self.store.due(now)
        # Per seat the strongest clock goes first; the weaker ones then find the seat moved on.
        due.sort(key=lambda item: (item[0], item[1].seat, _PRIORITY[item[1].kind]))
        fired = 0
        for table_id, deadline in due:
            try:
                if await self._fire(table_id, deadline, now):
                    fired += 1
            except StoreUnavailable:
                log.warning("table %d: clock %s not fired, the store failed", table_id, deadline.kind)
            except TableError as exc:
                log.error("table %d: clock %s not fired: %s", table_id, deadline.kind, exc)
            except Exception:
                # It stays armed: the next round of the clock loop tries again.
                log.exception("table %d: clock %s failed", table_id, deadline.kind)
        return fired

    # -- lobby ---------------------------------------------------------------

    async def create(
        self,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, Scalar] | None = None,
        *,
        timing: Timing | None = None,
    ) -> Table:
        """Open a lobby with the host in seat 0; options are validated by the game."""
        try:
            rules = get_rules(game)
        except (EngineUnknownGame, ModuleNotFoundError):
            raise UnknownGame() from None
        resolved = _resolve(rules, options or {})
        now = self.clock()
        table = Table(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status=TableStatus.LOBBY,
            seats=(SeatInfo(user_id=host_id, bot=None, name=host_name),),
            options=resolved,
            created_at=now,
            updated_at=now,
            timing=_checked(timing or Timing()),
        )
        table = await self.store.insert_table(table)
        self._cache[table.id] = table
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a user in a lobby."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise AlreadySeated()
            if any(barred == user_id for barred, _ in table.barred):
                raise NotAllowed("The host removed you from this table; only they can let you back in.")
            if len(table.seats) >= table.rules.max_players:
                raise LobbyFull()
            seat = SeatInfo(user_id=user_id, bot=None, name=name)
            return await self._save(table, replace(table, seats=(*table.seats, seat)))

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a table: in a lobby the seat is freed (the host hands over, or the lobby is
        cancelled if no human is left); in a game a bot takes the seat over."""
        async with self._lock(table_id):
            table = await self._load(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if table.status is TableStatus.LOBBY:
                seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
                new = replace(table, seats=seats)
                if user_id == table.host_id:
                    heirs = [s.user_id for s in seats if s.user_id is not None and not s.is_bot]
                    if heirs:
                        new = replace(new, host_id=heirs[0])
                    else:
                        new = replace(new, status=TableStatus.CANCELLED)
                return await self._save(table, new)
            if table.status is not TableStatus.PLAYING:
                raise GameNotRunning()
            if table.seats[seat].is_bot:
                return table
            return await self._replace_seat(table, seat)

    async def add_bot(self, table_id: int, by_user: int, policy: str = DEFAULT_LEVEL) -> Table:
        """Seat a bot playing at one of the game's levels (or any of its policies) in a lobby (host only)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _require_host(table, by_user)
            if policy not in table.rules.levels() and policy not in table.rules.bots():
                raise UnknownBot()
            if len(table.seats) >= table.rules.max_players:
                raise LobbyFull()
            # The level is shown next to the name (cogs), so the name only tells bots apart.
            taken = {s.name for s in table.seats}
            name = next(n for k in range(1, 99) if (n := "Bot" if k == 1 else f"Bot {k}") not in taken)
            seat = SeatInfo(user_id=None, bot=policy, name=name)
            return await self._save(table, replace(table, seats=(*table.seats, seat)))

    async def remove_bot(self, table_id: int, by_user: int, seat: int, name: str | None = None) -> Table:
        """Remove a bot from a lobby seat (host only); `name`, if given, must still be that seat's."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _require_host(table, by_user)
            if not 0 <= seat < len(table.seats) or not table.seats[seat].is_bot:
                raise NotAllowed("That seat is not taken by a bot.")
            if name is not None and table.seats[seat].name != name:
                raise NotAllowed("That bot is no longer in that seat: look at the lobby again.")
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            return await self._save(table, replace(table, seats=seats))

    async def remove_player(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Free the lobby seat of another human (host only)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _require_host(table, by_user)
            seat = table.seat_of(user_id)
            if seat is None or table.seats[seat].is_bot:
                raise NotAllowed("That player is not seated at this table.")
            if user_id == by_user:
                raise NotAllowed("You cannot remove yourself: press **Leave** or **Cancel**.")
            seats = tuple(s for i, s in enumerate(table.seats) if i != seat)
            # Barred until the host lets them back (let_back): else Join would undo the removal at once.
            barred = (*table.barred, (user_id, table.seats[seat].name))
            return await self._save(table, replace(table, seats=seats, barred=barred))

    async def let_back(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Let a player the host removed Join this lobby again (host only)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _require_host(table, by_user)
            barred = tuple(entry for entry in table.barred if entry[0] != user_id)
            if barred == table.barred:
                raise NotAllowed("That player was not removed from this table.")
            return await self._save(table, replace(table, barred=barred))

    async def set_options(self, table_id: int, by_user: int, options: Mapping[str, Scalar]) -> Table:
        """Change a lobby's game options (host only); unnamed options keep their defaults."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _require_host(table, by_user)
            resolved = _resolve(table.rules, options)
            return await self._save(table, replace(table, options=resolved))

    async def set_timing(self, table_id: int, by_user: int, timing: Timing) -> Table:
        """Change a table's turn clocks (host only; in the lobby or during the game)."""
        async with self._lock(table_id):
            table = await self._load(table_id)
            _require_host(table, by_user)
            if not table.status.is_open:
                raise GameNotRunning()
            new = replace(table, timing=_checked(timing))
            if table.status is TableStatus.PLAYING:
                # Re-arm every clock under the new settings, counted from now.
                now = self.clock()
                fresh = set(new.to_move)
                new = replace(new, deadlines=_plan(table, new, now, fresh))
            return await self._save(table, new)

    async def cancel(self, table_id: int, by_user: int, is_manager: bool = False) -> Table:
        """Cancel a lobby (host or server manager)."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            if by_user != table.host_id and not is_manager:
                raise NotAllowed("Only the host or a server manager can cancel this table.")
            return await self._save(table, replace(table, status=TableStatus.CANCELLED))

    async def check_start(self, table_id: int, by_user: int) -> Table:
        """The lobby if `by_user` may start it now (host, enough seats), else the refusal."""
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _check_start(table, by_user)
            return table

    async def start_game(self, table_id: int, by_user: int, *, thread_id: int | None = None) -> Update:
        """Start the game (host only, enough seats) with a seed from `new_seed`.

        `thread_id`, the game's thread, is recorded in the same transaction: the game is
        never in play without the thread it is shown in.
        """
        async with self._lock(table_id):
            table = await self._lobby(table_id)
            _check_start(table, by_user)
            rules = table.rules
            seed = self.new_seed()
            salt = commit.new_salt()
            try:
                state = rules.setup(len(table.seats), table.options, seed)
            except BadOptions as exc:
                raise BadTableOptions(str(exc)) from exc
            playing = replace(table, status=TableStatus.PLAYING, seed=seed, salt=salt)
            if thread_id is not None:
                playing = replace(playing, thread_id=thread_id)
            update = await self._commit(
                table,
                playing,
                None,
                Transition(state, rules.opening(state)),
                UpdateKind.START,
                None,
                source="",
            )
            self._after(update)
            return update

    # -- play ----------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, action: Action) -> Update:
        """Play a human's move built for `version`; a seat a bot had taken over is reclaimed."""
        async with self._lock(table_id):
            table = await self._playing(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            info = table.seats[seat]
            prompt = table.prompt_for(seat)
            if not table.shows_current_prompt(seat, version) and not await self._still_offered(
                table, seat, version, action
            ):
                raise StaleVersion()
            if prompt is None:
                raise NotYourTurn()
            if action not in prompt.options:
                raise IllegalMove()
            try:
                transition = table.rules.apply(table.state, seat, action)
            except EngineError as exc:
                raise IllegalMove() from exc
            base = table
            reclaimed = info.is_bot
            if reclaimed:
                base = _set_seat(table, seat, replace(info, bot=None, replaced=False))
            update = await self._commit(
                table, base, seat, transition, UpdateKind.MOVE, action, source="human"
            )
            update = await self._play_forced(update)
            if reclaimed:
                self._publish(Notice(NoticeKind.RECLAIMED, update.table, seat, user_id))
            self._after(update)
            return update

    async def option_at(self, table_id: int, version: int, seat: int, index: int) -> Action | None:
        """Option `index` of `seat`'s decision on a board built at `version`, if act may still play it.

        A board whose decision for the seat is unchanged offers the current prompt's option;
        an older one offers what the seat was asked then (replayed from the log), when
        `_still_offered` says it stands. None: the click is out of date.
        """
        table = await self._load(table_id)
        current = table.prompt_for(seat)
        if current is not None and table.shows_current_prompt(seat, version):
            return current.options[index] if 0 <= index < len(current.options) else None
        rows = await self.store.actions(table_id) if 0 <= version < table.version else []
        then = await self._prompt_at(table, version, seat, rows)
        if then is None or not 0 <= index < len(then.options):
            return None
        action = then.options[index]
        return action if await self._still_offered(table, seat, version, action, rows) else None

    async def _still_offered(
        self, table: Table, seat: int, version: int, action: Action, rows: list[ActionRow] | None = None
    ) -> bool:
        """Whether a click built at an older `version` for `action` may be played now.

        Yes when the seat's decision now is of the same kind and still offers that option (the
        moves in between, by others, left it standing), and the seat has not moved since the
        click's board (so no one acts twice on one decision).
        """
        prompt = table.prompt_for(seat)
        if not 0 <= version < table.version or prompt is None or action not in prompt.options:
            return False
        rows = await self.store.actions(table.id) if rows is None else rows
        if any(row.seat == seat and row.version >= version for row in rows):
            return False
        then = await self._prompt_at(table, version, seat, rows)
        return then is not None and then.kind == prompt.kind and action in then.options

    async def _prompt_at(self, table: Table, version: int, seat: int, rows: list[ActionRow]) -> Prompt | None:
        """`seat`'s prompt when the game stood at `version` (older than now), replayed from the log."""
        if not 0 <= version < table.version or table.seed is None:
            return None
        key = (table.id, version)
        prompts = self._past_prompts.get(key)
        if prompts is None:
            rules = table.rules
            history = [rules.setup(len(table.seats), table.options, table.seed)]
            for row in rows:
                if history[-1].version >= version:
                    break
                history, _ = advance(rules, history, row.seat, row.action)
            state = history[-1]
            if state.version != version:
                return None
            prompts = () if rules.outcome(state) is not None else tuple(rules.prompts(state))
            if len(self._past_prompts) >= 64:
                self._past_prompts.clear()
            self._past_prompts[key] = prompts
        return next((p for p in prompts if p.seat == seat), None)

    async def undo(self, table_id: int, user_id: int, version: int) -> Update:
        """Take back the user's own last move (BGA's policy, see Rules.can_undo)."""
        async with self._lock(table_id):
            table = await self._playing(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if version != table.version:
                raise StaleVersion()
            rules = table.rules
            if table.seats[seat].is_bot or not rules.can_undo(table.state, seat):
                raise NothingToUndo()
            target = await self.store.undo_target(table.id)
            if target is None or target.seat != seat or target.before is None:
                raise NothingToUndo()
            try:
                transition = rules.undo(table.state, seat, rules.decode(target.before))
            except EngineError as exc:
                raise NothingToUndo() from exc
            update = await self._commit(
                table, table, seat, transition, UpdateKind.UNDO, UNDO, source="human", undoes=target.seq
            )
            self._after(update)
            return update

    async def reclaim(self, table_id: int, user_id: int) -> Table:
        """Take one's seat back from the bot that replaced one."""
        async with self._lock(table_id):
            table = await self._playing(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            info = table.seats[seat]
            if not info.replaced:
                raise NotAllowed("No bot is playing your seat.")
            now = self.clock()
            to_move = seat in table.to_move
            new = _set_seat(
                table, seat, replace(info, bot=None, replaced=False, idle_since=now if to_move else None)
            )
            new = replace(new, deadlines=_plan(table, new, now, {seat}))
            saved = await self._save(table, new)
            self._publish(Notice(NoticeKind.RECLAIMED, saved, seat, user_id))
            return saved

    async def hand_to_bot(self, table_id: int, seat: int, idle_since: float) -> Table:
        """Hand a due seat to a bot now (a vote carried: tables/votes.py), unless its player
        moved since `idle_since`; the player takes it back by playing a move, as after a timeout."""
        async with self._lock(table_id):
            table = await self._playing(table_id)
            info = table.seats[seat] if 0 <= seat < len(table.seats) else None
            if info is None or info.is_bot or info.idle_since != idle_since or seat not in table.to_move:
                raise NotAllowed("That player has played since: the vote is over.")
            return await self._replace_seat(table, seat)

    async def abandon(self, table_id: int, by_user: int, is_manager: bool = False) -> Update:
        """End a game in progress without a result (host or server manager)."""
        async with self._lock(table_id):
            table = await self._playing(table_id)
            if by_user != table.host_id and not is_manager:
                raise NotAllowed("Only the host or a server manager can abandon this game.")
            return await self._abandon(table)

    # -- messages ------------------------------------------------------------

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the game is played in."""
        return await self._set_fields(table_id, thread_id=thread_id)

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the lobby message."""
        return await self._set_fields(table_id, lobby_message_id=message_id)

    async def set_board_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the latest board message (whose buttons are live), showing the current version."""
        return await self._set_board(
            table_id, lambda t: replace(t, board_message_id=message_id, board_version=t.version)
        )

    # The board outbox: the intent to post is recorded before the message is sent, its id
    # right after, so a crash in between is found again (Table.board_posting) and mended.

    async def board_posting(self, table_id: int, version: int) -> Table:
        """Record that a new board message showing `version` is about to be sent."""
        return await self._set_board(table_id, lambda t: replace(t, board_posting=version))

    async def board_posted(
        self, table_id: int, message_id: int, version: int, movers: tuple[int, ...]
    ) -> Table:
        """Record the new board message; the previous one joins those whose buttons are to strip."""

        def posted(table: Table) -> Table:
            retired = table.board_retired
            old = table.board_message_id
            if old is not None and old != message_id and old not in retired:
                retired = (*retired, old)
            return replace(
                table,
                board_message_id=message_id,
                board_version=version,
                board_movers=movers,
                board_posting=None,
                board_retired=retired,
            )

        return await self._set_board(table_id, posted)

    async def board_shown(self, table_id: int, version: int, movers: tuple[int, ...]) -> Table:
        """Record that the board message was edited to show `version`."""
        return await self._set_board(
            table_id,
            lambda t: replace(t, board_version=max(version, t.board_version or 0), board_movers=movers),
        )

    async def board_mended(self, table_id: int, stripped: tuple[int, ...] = ()) -> Table:
        """Record that an interrupted post was cleaned up and that `stripped` messages lost their buttons."""
        return await self._set_board(
            table_id,
            lambda t: replace(
                t, board_posting=None, board_retired=tuple(m for m in t.board_retired if m not in stripped)
            ),
        )

    async def boards_behind(self) -> list[int]:
        """Ids of the games whose board on Discord is not known to show the stored game."""
        return await self.store.boards_behind()

    async def boards_in_play(self, after: int = 0, limit: int = 100) -> list[tuple[int, int, int]]:
        """(id, thread, board message) of games in play, by id from `after` (read, not loaded)."""
        return await self.store.boards_in_play(after, limit)

    # -- queries -------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table, or NoSuchTable."""
        return await self._load(table_id)

    async def tables_in_channel(
        self, channel_id: int, statuses: tuple[TableStatus, ...] = OPEN
    ) -> list[Table]:
        """Tables created in a channel with one of `statuses` (open ones by default), oldest first."""
        return await self.store.find(statuses=statuses, channel_id=channel_id)

    async def table_for_thread(self, thread_id: int) -> Table | None:
        """The table played in a thread, if any (the latest one, whatever its status)."""
        found = await self.store.find(statuses=tuple(TableStatus), thread_id=thread_id)
        return found[-1] if found else None

    async def tables_of_user(self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN) -> list[Table]:
        """The tables where a user holds a seat, with one of `statuses`, oldest first."""
        return await self.store.find(statuses=statuses, user_id=user_id)

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        return await self.store.finished_in_guild(guild_id, offset=offset, limit=limit)

    async def log(self, table_id: int) -> list[LoggedEvent]:
        """Every event of the game so far, in order (filter with Event.visible for a seat)."""
        rows = await self.actions(table_id)
        return [LoggedEvent(row.version, row.seat, event) for row in rows for event in row.events]

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The game's action log with the events of each move (Store.actions, events included)."""
        table = await self._load(table_id)
        rows = await self.store.actions(table_id)
        if all(row.events_kept for row in rows):
            return rows
        # A game that ended keeps its moves only: they give the same events again from the seed.
        rules = table.rules
        assert table.seed is not None
        history = [rules.setup(len(table.seats), table.options, table.seed)]
        replayed = []
        for row in rows:
            history, events = advance(rules, history, row.seat, row.action)
            replayed.append(replace(row, events=events, events_kept=True))
        return replayed

    async def record(self, table_id: int) -> Record:
        """The game's record (seed, options, moves with undos) for engine.core.replay."""
        table = await self._load(table_id)
        if table.seed is None:
            raise GameNotRunning()
        moves = tuple(Move(row.seat, row.action) for row in await self.store.actions(table_id))
        return Record(table.game, len(table.seats), dict(table.options), table.seed, moves)

    # -- internals: loading and saving -----------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _load(self, table_id: int) -> Table:
        cached = self._cache.get(table_id)
        if cached is not None:
            return cached
        table = await self.store.load(table_id)
        if table is None:
            raise NoSuchTable()
        if table.status.is_open:
            # A writer that committed meanwhile has already put the newer table here.
            cached = self._cache.setdefault(table_id, table)
            if cached is table and self._started:
                # First use since start-up: its bots resume, as the games loaded at start did.
                self._kick_bots(table)
            return cached
        return table

    async def _lobby(self, table_id: int) -> Table:
        table = await self._load(table_id)
        if table.status is not TableStatus.LOBBY:
            raise LobbyClosed()
        return table

    async def _playing(self, table_id: int) -> Table:
        table = await self._load(table_id)
        if table.status is not TableStatus.PLAYING:
            raise GameNotRunning()
        return table

    async def _save(
        self,
        old: Table,
        new: Table,
        *,
        append: tuple[NewAction, ...] = (),
        undoes: int | None = None,
        drop_undo: bool = False,
        now: float | None = None,
    ) -> Table:
        """Write `new` over `old` (guarded); the cache follows only a successful commit."""
        now = self.clock() if now is None else now
        new = replace(new, revision=old.revision + 1, updated_at=now)
        if not new.status.is_open:
            new = replace(new, deadlines=())
        else:
            # The order the store reads them back in, so cache and database compare equal.
            new = replace(new, deadlines=tuple(sorted(new.deadlines, key=lambda d: (d.seat, d.kind.value))))
        snapshot = None if new.state is None else self._encoded(new)
        try:
            saved = await self.store.save(
                old, new, append=append, mark_undone=undoes, drop_undo_snapshots=drop_undo, snapshot=snapshot
            )
        except StoreUnavailable:
            self._forget(old.id)
            raise
        if not saved:
            self._forget(old.id)
            raise StaleVersion()
        if new.status.is_open:
            self._cache[new.id] = new
            if snapshot is not None:
                self._snapshots[new.id] = (new.version, snapshot)
        else:
            self._forget(new.id)
        return new

    def _encoded(self, table: Table) -> str:
        """The JSON snapshot of a table's state, encoded once per version."""
        known = self._snapshots.get(table.id)
        if known is not None and known[0] == table.version:
            return known[1]
        return table.rules.encode(table.state)

    def _forget(self, table_id: int) -> None:
        self._cache.pop(table_id, None)
        self._snapshots.pop(table_id, None)

    async def _set_board(self, table_id: int, change: Callable[[Table], Table]) -> Table:
        """Write what a table's board message shows: no revision bump, the game is untouched."""
        async with self._lock(table_id):
            table = await self._load(table_id)
            new = change(table)
            try:
                await self.store.save_board(new)
            except StoreUnavailable:
                self._forget(table_id)
                raise
            if new.status.is_open:
                self._cache[table_id] = new
            return new

    async def _set_fields(self, table_id: int, **fields: Any) -> Table:
        async with self._lock(table_id):
            table = await self._load(table_id)
            return await self._save(table, replace(table, **fields))

    async def _commit(
        self,
        old: Table,
        base: Table,
        seat: int | None,
        transition: Transition[Any],
        kind: UpdateKind,
        action: Action | None,
        *,
        source: str,
        undoes: int | None = None,
        now: float | None = None,
    ) -> Update:
        """Save a new game state with its log entry, seats and clocks; return the Update."""
        now = self.clock() if now is None else now
        rules = old.rules
        state = transition.state
        outcome = rules.outcome(state)
        before_prompts = {p.seat: p for p in old.prompts}
        after_prompts = {} if outcome is not None else {p.seat: p for p in rules.prompts(state)}
        self_acted = kind in (UpdateKind.MOVE, UpdateKind.UNDO)
        seats = []
        for index, info in enumerate(base.seats):
            prompt_version = info.prompt_version
            if index == seat or before_prompts.get(index) != after_prompts.get(index):
                prompt_version = state.version
            idle_since = info.idle_since
            if info.is_bot:
                idle_since = None
            elif self_acted and index == seat:
                idle_since = now if index in after_prompts else None
            elif index in after_prompts and idle_since is None:
                idle_since = now
            seats.append(replace(info, prompt_version=prompt_version, idle_since=idle_since))
        new = replace(
            base,
            state=state,
            version=state.version,
            seats=tuple(seats),
            status=TableStatus.FINISHED if outcome is not None else TableStatus.PLAYING,
        )
        fresh = set(after_prompts) - set(before_prompts)
        if seat is not None:
            fresh.add(seat)
        new = replace(new, deadlines=_plan(old, new, now, fresh))
        newly = set(after_prompts) - set(before_prompts) - ({seat} if seat is not None else set())
        new = replace(new, deadlines=(*new.deadlines, *held_pings(new, newly, now, self.players)))
        append: tuple[NewAction, ...] = ()
        drop_undo = False
        if action is not None and seat is not None:
            before = None
            if kind is not UpdateKind.UNDO:
                # Keep the state each still-undoable move was played on; no more (see Rules.undo).
                drop_undo = state.undo_depth <= 1
                before = self._encoded(old) if state.undo_depth > 0 else None
            append = (NewAction(old.version, seat, action, transition.events, source, now, before),)
        saved = await self._save(old, new, append=append, undoes=undoes, drop_undo=drop_undo, now=now)
        return Update(
            kind=kind,
            table=saved,
            seat=seat,
            action=action,
            events=tuple(LoggedEvent(old.version, seat, e) for e in transition.events),
            new_to_move=tuple(sorted(set(after_prompts) - set(before_prompts))),
            prompts=tuple(after_prompts.values()),
            outcome=outcome,
        )

    async def _play_forced(self, update: Update, now: float | None = None) -> Update:
        """Play every step that leaves a person nothing to decide, each recorded (source "auto").

        Such a step is the next prompt (not optional) of the person who just moved, with a single
        option: Diced Tomatoes' end of turn with no die and no karma left to use, the cell of
        a Buttons roll that fits only one. A turn handed to someone else still waits for their
        first click. The returned update holds `update` and those steps.
        """
        merged = update
        for _ in range(MAX_FORCED_STEPS):
            table = merged.table
            prompt = next(
                (
                    p
                    for p in table.prompts
                    if p.seat == update.seat
                    and len(p.options) == 1
                    and not p.optional
                    and not table.is_bot(p.seat)
                ),
                None,
            )
            if prompt is None:
                break
            action = prompt.options[0]
            transition = table.rules.apply(table.state, prompt.seat, action)
            step = await self._commit(
                table, table, prompt.seat, transition, UpdateKind.MOVE, action, source="auto", now=now
            )
            awaited = {p.seat for p in step.prompts}
            merged = replace(
                step,
                kind=merged.kind,
                seat=merged.seat,
                action=merged.action,
                events=merged.events + step.events,
                new_to_move=tuple(sorted((set(merged.new_to_move) | set(step.new_to_move)) & awaited)),
            )
        return merged

    def _after(self, update: Update) -> None:
        """Publish an update and let bots move next (called with the table's lock held)."""
        self._publish(update)
        self._kick_bots(update.table)

    async def _abandon(self, table: Table, now: float | None = None) -> Update:
        new = await self._save(table, replace(table, status=TableStatus.ABANDONED), drop_undo=True, now=now)
        update = Update(UpdateKind.ABANDON, new)
        self._publish(update)
        return update

    async def _replace_seat(self, table: Table, seat: int, now: float | None = None) -> Table:
        """Hand a human's seat to a bot; with no active human left the game is abandoned."""
        now = self.clock() if now is None else now
        info = table.seats[seat]
        new = _set_seat(table, seat, replace(info, bot=self.replacement_bot, replaced=True, idle_since=None))
        if not any(s.user_id is not None and not s.is_bot for s in new.seats):
            return (await self._abandon(table, now)).table
        new = replace(new, deadlines=_plan(table, new, now, set()))
        saved = await self._save(table, new, now=now)
        self._publish(Notice(NoticeKind.REPLACED, saved, seat, info.user_id))
        self._kick_bots(saved)
        return saved

    # -- internals: clocks -------------------------------------------------------

    async def _fire(self, table_id: int, deadline: Deadline, now: float) -> bool:
        async with self._lock(table_id):
            try:
                table = await self._load(table_id)
            except NoSuchTable:
                return False
            current = table.deadline(deadline.seat, deadline.kind)
            if current is None or current.due_at > now or table.status is not TableStatus.PLAYING:
                return False
            seat = current.seat
            info = table.seats[seat]
            deferred = defer_for_quiet(table, current, now, self.players)
            if deferred is not None:
                await self._save(table, deferred, now=now)
                return False
            if current.kind is DeadlineKind.OPTIONAL:
                return await self._fire_optional(table, current, now)
            if current.kind is DeadlineKind.PING:
                kept = remind_after_ping(_without(table, current), seat, now)
                if seat not in table.to_move or info.is_bot:
                    await self._save(table, kept, now=now)
                    return False
                saved = await self._save(table, kept, now=now)
                self._publish(Notice(NoticeKind.TURN, saved, seat, info.user_id))
                return True
            if current.kind is DeadlineKind.REPLACE:
                await self._replace_seat(table, seat, now)
                return True
            if current.kind is DeadlineKind.TIMEOUT:
                prompt = table.prompt_for(seat)
                if prompt is None or prompt.default is None or info.is_bot:
                    await self._save(table, _without(table, current), now=now)
                    return False
                transition = table.rules.apply(table.state, seat, prompt.default)
                update = await self._commit(
                    table,
                    table,
                    seat,
                    transition,
                    UpdateKind.TIMEOUT_MOVE,
                    prompt.default,
                    source="timeout",
                    now=now,
                )
                update = await self._play_forced(update, now)
                self._publish(Notice(NoticeKind.TIMED_OUT, update.table, seat, info.user_id))
                self._after(update)
                return True
            every = table.timing.remind_every
            kept = _without(table, current)
            if every is not None:
                later = Deadline(
                    seat, DeadlineKind.REMIND, max(current.due_at, now) + every, current.count + 1
                )
                kept = replace(kept, deadlines=(*kept.deadlines, later))
            saved = await self._save(table, kept, now=now)
            self._publish(Notice(NoticeKind.REMINDER, saved, seat, info.user_id, current.count + 1))
            return True

    async def hold_pings(self, table_id: int, seats: set[int]) -> Table:
        """Hold the turn pings of seats whose players are in quiet hours until those end (PING clocks)."""
        async with self._lock(table_id):
            table = await self._load(table_id)
            if table.status is not TableStatus.PLAYING:
                return table
            now = self.clock()
            armed = {d.seat for d in table.deadlines if d.kind is DeadlineKind.PING}
            wanted = set(table.to_move) & seats - armed
            held = held_pings(table, wanted, now, self.players)
            if not held:
                return table
            return await self._save(table, replace(table, deadlines=(*table.deadlines, *held)), now=now)

    async def _fire_optional(self, table: Table, deadline: Deadline, now: float) -> bool:
        """The window for an optional decision closed: take its default (decline)."""
        seat = deadline.seat
        prompt = table.prompt_for(seat)
        if prompt is None or not prompt.optional or prompt.default is None or table.is_bot(seat):
            await self._save(table, _without(table, deadline), now=now)
            return False
        transition = table.rules.apply(table.state, seat, prompt.default)
        update = await self._commit(
            table, table, seat, transition, UpdateKind.TIMEOUT_MOVE, prompt.default, source="window", now=now
        )
        self._after(update)
        return True

    async def _clock_loop(self) -> None:
        while not self._closed:
            delay = self.poll_interval
            try:
                await self.run_due()
                upcoming = await self.store.next_due()
                if upcoming is not None:
                    delay = min(delay, max(min(1.0, delay), upcoming - self.clock()))
            except Exception:
                log.exception("clock loop failed; retrying")
            if not await self._sleep(delay):
                return

    # -- internals: bots and delivery ------------------------------------------

    def _kick_bots(self, table: Table) -> None:
        """Start the bot task of a table if a bot must move (call with the table's lock held)."""
        if self._closed or table.status is not TableStatus.PLAYING:
            return
        if not any(table.is_bot(p.seat) or self._auto(table, p) for p in table.prompts):
            return
        task = self._bot_tasks.get(table.id)
        if task is None or task.done():
            self._bot_tasks[table.id] = asyncio.create_task(self._run_bots(table.id), name=f"bots-{table.id}")

    async def _run_bots(self, table_id: int) -> None:
        """Play the bot seats of a table until a human must move; retry failures while it is in play."""
        failures = 0
        delay = self._bot_pause(failures)
        try:
            while await self._sleep(delay):
                try:
                    moved = await self._bot_move(table_id)
                except NoSuchTable:
                    return
                except (StoreUnavailable, StaleVersion) as exc:
                    failures += 1
                    delay = self._bot_pause(failures)
                    log.warning(
                        "table %d: bot move not saved (%s); retry %d in %.1f s",
                        table_id,
                        type(exc).__name__,
                        failures,
                        delay,
                    )
                    continue
                except Exception:
                    failures += 1
                    delay = self._bot_pause(failures)
                    log.exception("table %d: bot move failed; retry %d in %.1f s", table_id, failures, delay)
                    continue
                if moved is None:
                    return
                failures = 0
                if moved is False:
                    # The table moved on while the bot thought: think again on the new state at once.
                    delay = 0.0
                else:
                    # The pause is for people to follow a bot: its turn is shown once, so its
                    # steps after the first follow at once (see Presenter.show).
                    continuing = any(p.seat == moved.seat for p in moved.prompts)
                    delay = 0.0 if continuing else self._bot_pause(failures)
        finally:
            if self._bot_tasks.get(table_id) is asyncio.current_task():
                del self._bot_tasks[table_id]

    async def _bot_move(self, table_id: int) -> Update | Literal[False] | None:
        """Let one bot seat think on a snapshot without the lock, then play it if still asked.

        The others keep answering their simultaneous decisions meanwhile. The move is played
        only if the bot's decision is the one it thought about (the rule a human's board
        follows, `Table.shows_current_prompt`). Returns None when no bot must move, False when
        the thought went stale (nothing played), and the saved move's Update.
        """
        async with self._lock(table_id):
            seen = await self._load(table_id)
            prompt = self._bot_prompt(seen)
            if prompt is None:
                return None
            # A person's standing answer to an optional decision (tables.waits) needs no thought.
            standing = auto_answer(seen, prompt, self.players)
        if standing is not None:
            action = standing
        else:
            policy = seen.seats[prompt.seat].bot or DEFAULT_LEVEL
            # A hard bot thinks for up to a couple of seconds: off the event loop and off the lock.
            action = await asyncio.to_thread(seen.rules.bot_action, seen.state, prompt, policy)
        async with self._lock(table_id):
            table = await self._load(table_id)
            if not self._still_asked(table, seen.version, prompt):
                return False
            transition = table.rules.apply(table.state, prompt.seat, action)
            source = "bot" if standing is None else "standing"
            update = await self._commit(
                table, table, prompt.seat, transition, UpdateKind.BOT_MOVE, action, source=source
            )
            self._publish(update)
        return update

    def _auto(self, table: Table, prompt: Prompt) -> bool:
        """Whether a human's optional decision is answered by their standing answer (tables.waits)."""
        return answers_itself(table, prompt, self.players)

    def _bot_prompt(self, table: Table) -> Prompt | None:
        """The first open decision a bot or a standing answer plays, if the game is in play."""
        if table.status is not TableStatus.PLAYING:
            return None
        return next((p for p in table.prompts if table.is_bot(p.seat) or self._auto(table, p)), None)

    def _still_asked(self, table: Table, version: int, prompt: Prompt) -> bool:
        """Whether an answer worked out for `prompt` at `version` may still be played now."""
        seat = prompt.seat
        return (
            table.status is TableStatus.PLAYING
            and (table.is_bot(seat) or self._auto(table, prompt))
            and table.prompt_for(seat) == prompt
            and table.shows_current_prompt(seat, version)
        )

    async def kick(self, table_id: int) -> None:
        """Let bots and standing answers move now if they can (after a standing answer changed)."""
        async with self._lock(table_id):
            self._kick_bots(await self._load(table_id))

    def _bot_pause(self, failures: int) -> float:
        """The wait before a bot's next try: its delay, or a capped backoff after failures."""
        if failures == 0:
            return self.bot_delay
        return float(min(self.retry_base * 2 ** (failures - 1), self.retry_cap))

    async def pause(self, seconds: float) -> bool:
        """Sleep `seconds` unless the service is closing; False means it is closing."""
        return await self._sleep(seconds)

    async def _sleep(self, seconds: float) -> bool:
        """Sleep unless the service is closing; False means stop.

        A bare future and a timer, no helper task: a harness that tells idle waits from stuck
        ones (simcord's external_wait) sees only the calling task wait.
        """
        if self._closed:
            return False
        if seconds <= 0:
            await asyncio.sleep(0)
            return not self._closed
        loop = asyncio.get_running_loop()
        waker: asyncio.Future[None] = loop.create_future()
        timer = loop.call_later(seconds, _wake, waker)
        self._sleepers.add(waker)
        try:
            await waker
        finally:
            timer.cancel()
            self._sleepers.discard(waker)
        return not self._closed

    def _publish(self, item: Update | Notice) -> None:
        table_id = item.table.id
        self._outbox.setdefault(table_id, collections.deque()).append(item)
        if table_id not in self._deliverers:
            self._deliverers[table_id] = asyncio.create_task(
                self._deliver(table_id), name=f"tables-deliver-{table_id}"
            )

    async def _deliver(self, table_id: int) -> None:
        """Hand a table's updates to the listeners in order; return once none is left."""
        pending = self._outbox[table_id]
        try:
            while pending:
                item = pending.popleft()
                for listener in list(self._listeners):
                    try:
                        await listener(item)
                    except Exception:
                        log.exception("table %d: listener failed on %s", table_id, type(item).__name__)
        finally:
            del self._deliverers[table_id]
            if not pending:
                del self._outbox[table_id]


def _wake(waker: asyncio.Future[None]) -> None:
    if not waker.done():
        waker.set_result(None)


def _require_host(table: Table, user_id: int) -> None:
    if user_id != table.host_id:
        raise NotHost()


def _check_start(table: Table, user_id: int) -> None:
    _require_host(table, user_id)
    rules = table.rules
    if len(table.seats) < rules.min_players:
        raise NotEnoughPlayers(
            f"{rules.name} needs at least {count(rules.min_players, 'player', 'players')}."
        )


def _resolve(rules: Any, options: Mapping[str, Scalar]) -> dict[str, Scalar]:
    try:
        resolved: dict[str, Scalar] = rules.resolve_options(options)
    except BadOptions as exc:
        raise BadTableOptions(str(exc)) from exc
    return resolved


def _checked(timing: Timing) -> Timing:
    for key, value in timing.to_json().items():
        if key != "pace" and value is not None and not (isinstance(value, float | int) and value > 0):
            raise BadTableOptions("Every turn clock must be a positive duration or off.")
    return timing


def _set_seat(table: Table, seat: int, info: SeatInfo) -> Table:
    seats = list(table.seats)
    seats[seat] = info
    return replace(table, seats=tuple(seats))


def _without(table: Table, deadline: Deadline) -> Table:
    kept = tuple(d for d in table.deadlines if not (d.seat == deadline.seat and d.kind is deadline.kind))
    return replace(table, deadlines=kept)


def _optional(table: Table, seat: int) -> bool:
    prompt = table.prompt_for(seat)
    return prompt is not None and prompt.optional


def _plan(old: Table, new: Table, now: float, fresh: set[int]) -> tuple[Deadline, ...]:
    """The clocks of `new`: restarted for `fresh` seats, kept for seats still waiting."""
    if new.status is not TableStatus.PLAYING:
        return ()
    timing = new.timing
    planned: list[Deadline] = []
    for seat in new.to_move:
        info = new.seats[seat]
        if info.is_bot or info.user_id is None:
            continue
        if seat in fresh:
            # An optional decision is never reminded: its window closes it (tables.waits).
            if timing.remind_after is not None and not _optional(new, seat):
                planned.append(Deadline(seat, DeadlineKind.REMIND, now + timing.remind_after))
            if timing.timeout_after is not None:
                planned.append(Deadline(seat, DeadlineKind.TIMEOUT, now + timing.timeout_after))
        else:
            planned.extend(d for d in old.deadlines if d.seat == seat and d.kind is not DeadlineKind.REPLACE)
        if timing.replace_after is not None and info.idle_since is not None:
            planned.append(Deadline(seat, DeadlineKind.REPLACE, info.idle_since + timing.replace_after))
    planned.extend(optional_deadlines(new, planned, now))
    return tuple(planned)
