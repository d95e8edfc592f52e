"""The table service: lobbies, seats, moves, undo, bots and turn clocks over a store, in parts.

`TableService` is the facade the cogs use; each job is a part of its own, sharing `TableCore`
(tables/service/core.py: the store, the settings, the per-table lock and cache):

    lobby.py    Lobby        create, join, leave, bots in seats, options, timing, cancel, start
    turns.py    Turns        act, undo, forced steps, clicks on older boards; `commit`, the one
                             apply-and-save unit every move goes through
    seats.py    Seats        a bot takes a seat over, the player reclaims it, abandoning
    clocks.py   Clocks       due reminders, timeouts, optional windows, held pings; the clock loop
    bots.py     BotRunner    one task per table playing its bots and standing answers
    delivery.py Delivery     listeners, and one delivery task per table
    board.py    BoardLedger  the thread and the lobby message (board messages: tables/store/boards.py)
    queries.py  Queries      reads: tables by id, channel, thread or user; log, actions, record
    plans.py                 pure helpers: the clocks a change arms, a seat swapped
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from functools import cached_property

from engine.core import DEFAULT_LEVEL, Action, Prompt, Record, Scalar
from tables.errors import StoreUnavailable, TableError
from tables.models import LoggedEvent, Table, TableStatus, Timing, Update
from tables.service.board import BoardLedger
from tables.service.bots import BotRunner
from tables.service.clocks import Clocks
from tables.service.core import IdleWait, TableCore, plain_wait, random_seed
from tables.service.delivery import Delivery, Listener
from tables.service.lobby import Lobby
from tables.service.queries import OPEN, Queries
from tables.service.seats import Seats
from tables.service.turns import Turns
from tables.store import ActionRow

__all__ = ["IdleWait", "Listener", "TableService", "plain_wait", "random_seed"]

log = logging.getLogger(__name__)


class TableService(TableCore):
    """Everything the cogs do to tables; one lock per table, the database as the truth.

    Three settings serve test harnesses; set them (as keywords or attributes) before start():
    `clock_loop=False` leaves the clocks to explicit run_due calls, `idle_wait` wraps the
    waits of long-lived helpers for their next turn (the board keeper's periodic sweep), and
    `new_seed` gives each started game its seed (reproducible games).

    Bots never give up while their game is in play: a failed move is retried after
    `retry_base` seconds, doubling up to `retry_cap`. Each table's updates are delivered to
    the listeners by a task of its own, so a slow table delays only itself.
    """

    # -- the parts, each made on first use ------------------------------------------

    @cached_property
    def delivery(self) -> Delivery:
        """The listeners and the per-table delivery tasks."""
        return Delivery()

    @cached_property
    def turns(self) -> Turns:
        """Moves and the apply-and-save unit."""
        return Turns(self, self.delivery)

    @cached_property
    def seats(self) -> Seats:
        """Seats changing hands."""
        return Seats(self, self.delivery)

    @cached_property
    def lobby(self) -> Lobby:
        """Tables before their game."""
        return Lobby(self, self.turns, self.seats)

    @cached_property
    def clocks(self) -> Clocks:
        """The turn clocks."""
        return Clocks(self, self.turns, self.seats, self.delivery)

    @cached_property
    def bots(self) -> BotRunner:
        """The bot tasks."""
        return BotRunner(self, self.turns, self.delivery)

    @cached_property
    def board(self) -> BoardLedger:
        """What the Discord side shows of each table."""
        return BoardLedger(self)

    @cached_property
    def queries(self) -> Queries:
        """Reads."""
        return Queries(self)

    def kick_bots(self, table: Table) -> None:
        """Start the table's bot task if a bot must move (call with the table's lock held)."""
        self.bots.kick(table)

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
            async with self.lock(table_id):
                try:
                    table = await self.load(table_id)
                except TableError as exc:
                    # One unreadable table must not stop the start-up.
                    log.error("table %d skipped: %s", table_id, exc)
                    continue
                self.kick_bots(table)
                if not table.may_move_unasked:
                    await self._unmark(table)
        if self.clock_loop:
            self.clocks.start()

    async def _unmark(self, table: Table) -> None:
        """Drop a start-up mark the game does not need (migration 10 set it on every game in play)."""
        try:
            await self.store.unmark_bot_to_move(table)
        except StoreUnavailable as exc:
            # Harmless: the game is only loaded again at the next start-up.
            log.warning("table %d: start-up mark kept (%s)", table.id, exc)

    async def close(self) -> None:
        """Stop the clock loop and the bot tasks, deliver pending updates, close the store."""
        if self.closed:
            return
        self.wake_sleepers()
        # Tasks are never cancelled inside a transaction: they see the stop flag and return.
        tasks = [t for t in (self.clocks.task, *self.bots.tasks()) if t is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        await self.clocks.release_leases()
        deliverers = self.delivery.tasks()
        if deliverers:
            _, late = await asyncio.wait(deliverers, timeout=5)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self.store.close()

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every Update (human, bot, timeout, undo, start, abandon) and Notice."""
        self.delivery.subscribe(listener)

    async def idle(self) -> None:
        """Wait until no bot move is pending and every update has been delivered (tests)."""
        while True:
            tasks = [t for t in (*self.bots.tasks(), *self.delivery.tasks()) if not t.done()]
            if not tasks:
                return
            # A listener may act and so wake a bot (and a bot's move is delivered): look again.
            await asyncio.gather(*tasks, return_exceptions=True)

    async def kick(self, table_id: int) -> None:
        """Let bots and standing answers move now if they can (after a standing answer changed)."""
        async with self.locked(table_id) as table:
            self.kick_bots(table)

    async def pause(self, seconds: float) -> bool:
        """Sleep `seconds` unless the service is closing; False means it is closing."""
        return await self.sleep(seconds)

    # -- lobby ------------------------------------------------------------

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
        language: str = "en",
    ) -> Table:
        """Open a lobby with the host in seat 0, speaking `language`; options are validated by the game."""
        return await self.lobby.create(
            game, guild_id, channel_id, (host_id, host_name), options, timing, language
        )

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a user in a lobby."""
        return await self.lobby.join(table_id, user_id, name)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a table: in a lobby the seat is freed (the host may hand over); in a game a bot takes it."""
        return await self.lobby.leave(table_id, user_id)

    async def add_bot(self, table_id: int, by_user: int, policy: str = DEFAULT_LEVEL) -> Table:
        """Seat a bot playing at one of the game's levels (or any of its policies) in a lobby (host only)."""
        return await self.lobby.add_bot(table_id, by_user, policy)

    async def remove_bot(self, table_id: int, by_user: int, seat: int, name: str | None = None) -> Table:
        """Remove a bot from a lobby seat (host only); `name`, if given, must still be that seat's."""
        return await self.lobby.remove_bot(table_id, by_user, seat, name)

    async def remove_player(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Free the lobby seat of another human (host only)."""
        return await self.lobby.remove_player(table_id, by_user, user_id)

    async def let_back(self, table_id: int, by_user: int, user_id: int) -> Table:
        """Let a player the host removed Join this lobby again (host only)."""
        return await self.lobby.let_back(table_id, by_user, user_id)

    async def set_options(self, table_id: int, by_user: int, options: Mapping[str, Scalar]) -> Table:
        """Change a lobby's game options (host only); unnamed options keep their defaults."""
        return await self.lobby.set_options(table_id, by_user, options)

    async def set_timing(self, table_id: int, by_user: int, timing: Timing) -> Table:
        """Change a table's turn clocks (host only; in the lobby or during the game)."""
        return await self.lobby.set_timing(table_id, by_user, timing)

    async def set_language(self, table_id: int, by_user: int, language: str) -> Table:
        """Change the language of a lobby's public posts and boards (host only)."""
        return await self.lobby.set_language(table_id, by_user, language)

    async def cancel(self, table_id: int, by_user: int, is_manager: bool = False) -> Table:
        """Cancel a lobby (host or server manager)."""
        return await self.lobby.cancel(table_id, by_user, is_manager)

    async def check_start(self, table_id: int, by_user: int) -> Table:
        """The lobby if `by_user` may start it now (host, enough seats), else the refusal."""
        return await self.lobby.check_start(table_id, by_user)

    async def start_game(self, table_id: int, by_user: int, *, thread_id: int | None = None) -> Update:
        """Start the game (host only, enough seats) with a seed from `new_seed`."""
        return await self.lobby.start_game(table_id, by_user, thread_id=thread_id)

    # -- turns ------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, action: Action) -> Update:
        """Play a human's move built for `version`; a seat a bot had taken over is reclaimed."""
        return await self.turns.act(table_id, user_id, version, action)

    async def choose(self, table_id: int, user_id: int, version: int, seat: int, index: int) -> Update:
        """Play option `index` of `seat`'s decision on a board built at `version` (a click), checked once."""
        return await self.turns.choose(table_id, user_id, version, seat, index)

    async def decision(
        self, table_id: int, user_id: int, version: int, seat: int | None = None
    ) -> tuple[Table, Prompt]:
        """The table and the user's own current decision (None: their seat's), for a step playing no move."""
        return await self.turns.decision(table_id, user_id, version, seat)

    async def undo(self, table_id: int, user_id: int, version: int, seat: int | None = None) -> Update:
        """Take back the user's own last move (BGA's policy, see Rules.can_undo); `seat`: the button's."""
        return await self.turns.undo(table_id, user_id, version, seat)

    # -- seats ------------------------------------------------------------

    async def reclaim(self, table_id: int, user_id: int) -> Table:
        """Take one's seat back from the bot that replaced one."""
        return await self.seats.reclaim(table_id, user_id)

    async def hand_to_bot(self, table_id: int, seat: int, idle_since: float) -> Table:
        """Hand a due seat to a bot now (a vote carried), unless its player moved since `idle_since`."""
        return await self.seats.hand_to_bot(table_id, seat, idle_since)

    async def abandon(self, table_id: int, by_user: int, is_manager: bool = False) -> Update:
        """End a game in progress without a result (host or server manager)."""
        return await self.seats.abandon(table_id, by_user, is_manager)

    # -- clocks ------------------------------------------------------------

    async def run_due(self, now: float | None = None) -> int:
        """Fire every clock due at `now` (default: the service clock); return how many fired."""
        return await self.clocks.run_due(now)

    async def hold_pings(self, table_id: int, seats: set[int]) -> Table:
        """Hold the turn pings of seats whose players are in quiet hours until those end (PING clocks)."""
        return await self.clocks.hold_pings(table_id, seats)

    # -- board ------------------------------------------------------------

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the game is played in."""
        return await self.board.set_thread(table_id, thread_id)

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the lobby message."""
        return await self.board.set_lobby_message(table_id, message_id)

    async def boards_behind(self) -> list[int]:
        """Ids of the games whose board on Discord is not known to show the stored game (the ledger)."""
        return await self.store.boards_behind(self.shards)

    async def boards_in_play(self, after: int = 0, limit: int = 100) -> list[tuple[int, int, int]]:
        """(id, thread, board message) of games in play, by id from `after` (the ledger, read)."""
        return await self.store.boards_in_play(after, limit, self.shards)

    # -- queries ------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """The table, or NoSuchTable."""
        return await self.queries.get(table_id)

    async def tables_in_channel(
        self, channel_id: int, statuses: tuple[TableStatus, ...] = OPEN
    ) -> list[Table]:
        """Tables created in a channel with one of `statuses` (open ones by default), oldest first."""
        return await self.queries.tables_in_channel(channel_id, statuses)

    async def table_for_thread(self, thread_id: int) -> Table | None:
        """The table played in a thread, if any (the latest one, whatever its status)."""
        return await self.queries.table_for_thread(thread_id)

    async def tables_of_user(self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN) -> list[Table]:
        """The tables where a user holds a seat, with one of `statuses`, oldest first."""
        return await self.queries.tables_of_user(user_id, statuses)

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        return await self.queries.finished_in_guild(guild_id, offset=offset, limit=limit)

    async def log(self, table_id: int) -> list[LoggedEvent]:
        """Every event of the game so far, in order (filter with Event.visible for a seat)."""
        return await self.queries.log(table_id)

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The game's action log with the events of each move (Store.actions, events included)."""
        return await self.queries.actions(table_id)

    async def record(self, table_id: int) -> Record:
        """The game's record (seed, options, moves with undos) for engine.core.replay."""
        return await self.queries.record(table_id)
