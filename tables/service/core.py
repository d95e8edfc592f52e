"""The service's shared core: settings, the per-table lock and cache, the guarded save, sleeping."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Protocol, TypeVar

from engine.core import DEFAULT_LEVEL
from tables.errors import GameNotRunning, LobbyClosed, NoSuchTable, StaleVersion, StoreUnavailable
from tables.models import Table, TableStatus
from tables.players import Players
from tables.shards import ShardSet
from tables.store import NewAction, Store

log = logging.getLogger(__name__)

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


def random_seed() -> int:
    """A game's seed: 63 bits, unguessable, so no player can foresee the dice."""
    return secrets.randbits(63)


class TableCore:
    """What every part of the service shares: the store, the settings, a lock and a cached table per table.

    The database is the truth: the cache is updated only after a commit (`save`).
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
        shards: ShardSet | None = None,
        holder: str | None = None,
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
        self.shards = shards
        """The shards this process holds (None: every table is this process's, today's single process)."""
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process's name in the clock leases (tables/shards.py)."""
        self.players = Players(store)
        """Player settings: quiet hours, how to be told, standing answers (tables.players)."""
        self._cache: dict[int, Table] = {}
        # The encoded snapshot of each cached state, by table: (version, JSON). Saves encoding
        # a state twice: once as the new snapshot, again as the next move's undo snapshot.
        self._snapshots: dict[int, tuple[int, str]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._sleepers: set[asyncio.Future[None]] = set()
        self._closed = False
        self._started = False

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._closed

    def owns(self, table: Table) -> bool:
        """Whether the table's server is on one of this process's shards (its bot seats play here)."""
        return self.shards is None or self.shards.holds(table.guild_id)

    def kick_bots(self, table: Table) -> None:
        """Start the table's bot task if a bot must move (the service's bot runner; lock held)."""
        raise NotImplementedError

    # -- the per-table lock and cache --------------------------------------------

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock every change of the table is made under."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    @asynccontextmanager
    async def locked(self, table_id: int, status: TableStatus | None = None) -> AsyncIterator[Table]:
        """Hold the table's lock and give its current state; `status`, if given, is required."""
        async with self.lock(table_id):
            table = await self.load(table_id)
            if status is TableStatus.LOBBY and table.status is not status:
                raise LobbyClosed()
            if status is TableStatus.PLAYING and table.status is not status:
                raise GameNotRunning()
            yield table

    async def load(self, table_id: int) -> Table:
        """The table, from the cache while it is open, else from the store (or NoSuchTable)."""
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
                self.kick_bots(table)
            return cached
        return table

    def keep(self, table: Table) -> None:
        """Cache a table just written (an insert, or a board change saved)."""
        if table.status.is_open:
            self._cache[table.id] = table

    async def save(
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
        snapshot = None if new.state is None else self.encoded(new)
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

    def encoded(self, table: Table) -> str:
        """The JSON snapshot of a table's state, encoded once per version."""
        known = self._snapshots.get(table.id)
        if known is not None and known[0] == table.version:
            return known[1]
        return table.rules.encode(table.state)

    def _forget(self, table_id: int) -> None:
        """Drop a table from the cache (a failed or stale write: the database is read again)."""
        self._cache.pop(table_id, None)
        self._snapshots.pop(table_id, None)

    # -- sleeping until the service closes ------------------------------------------

    async def sleep(self, seconds: float) -> bool:
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

    def wake_sleepers(self) -> None:
        """Mark the service closed and end every sleep at once."""
        self._closed = True
        for waker in list(self._sleepers):
            _wake(waker)


def _wake(waker: asyncio.Future[None]) -> None:
    """End a sleep."""
    if not waker.done():
        waker.set_result(None)
