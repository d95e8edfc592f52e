"""The store on PostgreSQL (asyncpg): the same schema, statements and units as SQLite's.

`PostgresStore` is a `Store` whose connection layer is an asyncpg pool: every read and write of
the store (and of tables.results, tables.ratings, tables.players, ...) is the one written for
SQLite. A unit of work is a plain function of a connection, run on aiosqlite's thread for
SQLite; here it runs on a worker thread of its own, given `_SyncConnection`, which sends each
statement (rewritten by tables/store/dialect.py) to its asyncpg connection on the event loop and
waits for the answer. So the SQL is written once, SQLite keeps its one trip per unit, and no
unit had to become a coroutine.

Several processes may share the database. Each save takes the table's advisory transaction
lock before its guarded UPDATE (`WHERE version = ? AND revision = ?`): a second process saving
the same table waits for the first to commit, then finds the version moved on and writes
nothing (`Store.save` returns False). A save that records a game's results also takes the
ratings' lock, since a rating is read, then written. Migrations run under a session lock, so
two processes starting at once do not both migrate.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import Any, Self, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from tables.errors import DatabaseProblem, StoreOpenError, StoreUnavailable
from tables.migrations import MIGRATIONS, POSTGRES_STEPS, SCHEMA_VERSION
from tables.store import BoardRecord, Store
from tables.store.connection import _statements, schema_too_new
from tables.store.dialect import Dialect, Statement, schema_statement
from tables.store.writes import _SavePlan

log = logging.getLogger(__name__)

_T = TypeVar("_T")

TABLE_LOCK_SPACE = 0
"""Advisory lock keys: (space, key) pairs. A table's lock is (0, table id)."""
RATINGS_LOCK = (1, 0)
"""Held by a save that records results, so two games ending at once do not lose a rating update."""
MIGRATION_LOCK = (1, 1)
"""Held while a process checks and migrates the schema."""

_FAULTS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # A connection the server cut while an operation was in flight (seen under load) is neither
    # of the above: the protocol refuses the next state change.
    asyncpg.exceptions.InternalClientError,
    OSError,
)
"""What a failing database raises: surfaced as StoreUnavailable, as SQLite's errors are."""
_OPEN_FAULTS: tuple[type[BaseException], ...] = (*_FAULTS, ValueError)
"""What connecting raises, a malformed URL included."""

_Con = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
"""A connection, or the pool's stand-in for one."""


def is_postgres_url(target: object) -> bool:
    """Whether MEEPLE_DB names a PostgreSQL database (a postgresql:// or postgres:// URL)."""
    return str(target).startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """The URL without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresStore(Store):
    """The tables' store on a PostgreSQL database shared by any number of Meeple processes."""

    def __init__(self, pool: asyncpg.Pool, url: str, *, pool_size: int) -> None:
        # Not Connection.__init__: that one wraps an aiosqlite connection.
        self.path = redacted(url)
        self.busy_wait = 0.0
        self._pool = pool
        self._dialect = Dialect()
        # A unit blocks its thread while its statements run on the loop: one thread per pooled
        # connection, so a unit holding a connection never waits for a thread.
        self._threads = ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="meeple-pg")
        self._fault: str | None = None
        self._opened = False
        self._boards_later: dict[int, BoardRecord] = {}

    @classmethod
    async def open(cls, path: Any, *, busy_timeout_ms: int = 5000, pool_size: int = 10) -> Self:
        """Connect to the database at the URL `path`, create or migrate its schema; StoreOpenError if not."""
        url = str(path)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except _OPEN_FAULTS as exc:
            raise StoreOpenError(
                DatabaseProblem.CANNOT_OPEN, f"cannot connect to the database {redacted(url)}: {exc}"
            ) from exc
        store = cls(pool, url, pool_size=pool_size)
        try:
            await store._prepare_schema()
        except asyncpg.PostgresError as exc:
            await store.close()
            raise StoreOpenError(
                DatabaseProblem.MIGRATION_FAILED,
                f"the database {store.path} could not be brought up to date: {exc}",
            ) from exc
        except BaseException:
            await store.close()
            raise
        store._opened = True
        return store

    async def _prepare_schema(self) -> None:
        async with self._pool.acquire() as con:
            await con.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
            try:
                migrated = await self._migrate_on(con)
            finally:
                await con.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
            await self._learn_schema(con)
        if migrated:
            games = await self.backfill_results()
            if games:
                log.info("database %s: results and ratings recorded for %d earlier games", self.path, games)

    async def _migrate_on(self, con: _Con) -> bool:
        """Bring the schema up to date; whether any step ran."""
        await con.execute("CREATE TABLE IF NOT EXISTS meeple_schema (version INTEGER NOT NULL)")
        current = await con.fetchval("SELECT max(version) FROM meeple_schema")
        current = 0 if current is None else int(current)
        if current > SCHEMA_VERSION:
            raise schema_too_new(self.path, current)
        for step in range(current, SCHEMA_VERSION):
            async with con.transaction():
                for statement in _statements(POSTGRES_STEPS.get(step, MIGRATIONS[step])):
                    await con.execute(schema_statement(statement))
                await con.execute("DELETE FROM meeple_schema")
                await con.execute("INSERT INTO meeple_schema (version) VALUES ($1)", step + 1)
        if current == 0:
            log.info("database %s created (schema %d)", self.path, SCHEMA_VERSION)
        elif current < SCHEMA_VERSION:
            log.info("database %s brought up to date: schema %d to %d", self.path, current, SCHEMA_VERSION)
        return current < SCHEMA_VERSION

    async def _learn_schema(self, con: _Con) -> None:
        """Read each table's primary key and which ids the database assigns, for the dialect."""
        rows = await con.fetch(
            "SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
            "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey) "
            "WHERE i.indisprimary AND c.relnamespace = current_schema()::regnamespace "
            "ORDER BY c.relname, array_position(i.indkey, a.attnum)"
        )
        keys: dict[str, list[str]] = {}
        for row in rows:
            keys.setdefault(str(row[0]), []).append(str(row[1]))
        generated = await con.fetch(
            "SELECT table_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES'"
        )
        self._dialect = Dialect(
            keys={table: tuple(columns) for table, columns in keys.items()},
            generated_ids=frozenset(str(row[0]) for row in generated),
        )

    async def after_copy(self) -> None:
        """Move each table's id sequence past the ids a copy wrote (`python -m tables.copy`).

        Rows inserted with their ids leave an identity column's sequence where it was, so the
        next new table would take a copied one's id.
        """
        async with self._pool.acquire() as con:
            for table in sorted(self._dialect.generated_ids):
                await con.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )

    async def close(self) -> None:
        """Write the board records still waiting, close the pool (waiting for the connections in use)
        and the worker threads."""
        await self.write_boards_waiting()
        await self._pool.close()
        self._threads.shutdown(wait=False)

    async def schema_version(self) -> int:
        """The schema number stored in `meeple_schema`."""
        value = await self._pool.fetchval("SELECT max(version) FROM meeple_schema")
        return 0 if value is None else int(value)

    # -- the connection layer Store's reads and Writes' writes run on ------------------

    async def _read(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run `fn(connection, *args)` in one read-only snapshot (so a table and its seats agree)."""
        try:
            async with (
                self._pool.acquire() as con,
                con.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await self._unit(con, fn, *args)
        except _FAULTS as exc:
            raise self._pg_failure(exc) from exc

    async def _write(
        self,
        unit: Callable[[sqlite3.Connection], _T],
        *,
        one_statement: bool = False,
        bookkeeping: bool = False,
    ) -> _T:
        """Run `unit(connection)` as one transaction, rolled back on any error."""
        try:
            async with self._pool.acquire() as con, con.transaction():
                result = await self._unit(con, unit)
        except _FAULTS as exc:
            raise self._pg_failure(exc) from exc
        if not bookkeeping:
            self._recovered()
        return result

    async def _unit(self, con: _Con, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a unit written for sqlite3 on a worker thread, its statements sent on `con` by the loop."""
        loop = asyncio.get_running_loop()
        adapter = cast(sqlite3.Connection, _SyncConnection(con, loop, self._dialect))
        done = loop.run_in_executor(self._threads, partial(fn, adapter, *args))
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            # The unit goes on in its thread: let it finish before its transaction is closed.
            with suppress(BaseException):
                await done
            raise

    def _apply_save(self, conn: sqlite3.Connection, plan: _SavePlan) -> None:
        """One save, under the table's advisory lock (and the ratings' lock when the game ends)."""
        conn.execute("SELECT pg_advisory_xact_lock(?, ?)", (TABLE_LOCK_SPACE, plan.table_id))
        if plan.saved is not None:
            conn.execute("SELECT pg_advisory_xact_lock(?, ?)", RATINGS_LOCK)
        super()._apply_save(conn, plan)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A transaction on one pooled connection, given as the aiosqlite calls the callers use."""
        try:
            async with self._pool.acquire() as con, con.transaction():
                yield cast(aiosqlite.Connection, _AsyncConnection(con, self._dialect))
        except _FAULTS as exc:
            raise self._pg_failure(exc) from exc

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Reads on one pooled connection, given as the aiosqlite calls the callers use."""
        try:
            async with self._pool.acquire() as con:
                yield cast(aiosqlite.Connection, _AsyncConnection(con, self._dialect))
        except _FAULTS as exc:
            raise self._pg_failure(exc) from exc

    def _pg_failure(self, exc: BaseException) -> StoreUnavailable:
        """The refusal for a database error: worth a retry (a lost connection, a conflict)."""
        cause = f"{type(exc).__name__}: {exc}"
        if self._fault != cause and self._opened:
            log.error("database %s failed: %s", self.path, cause)
            self._fault = cause
        return StoreUnavailable()


class _Cursor:
    """What a statement gave: the part of sqlite3.Cursor the units read."""

    def __init__(self, rows: Sequence[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    def close(self) -> None:
        self._rows = []

    def __iter__(self) -> Generator[Any]:
        yield from self.fetchall()


async def _run(con: _Con, statement: Statement, params: Sequence[Any]) -> _Cursor:
    """Send one statement; rows, row count and assigned id as sqlite3 would report them."""
    if statement.returns_rows:
        rows = await con.fetch(statement.text, *params)
        lastrowid = int(rows[0][0]) if statement.returns_id and rows else None
        return _Cursor([] if statement.returns_id else rows, len(rows), lastrowid)
    status = await con.execute(statement.text, *params)
    last = status.rsplit(" ", 1)[-1]
    return _Cursor([], int(last) if last.isdigit() else -1, None)


class _SyncConnection:
    """The part of sqlite3.Connection the store's units use, for a unit on a worker thread."""

    def __init__(self, con: _Con, loop: asyncio.AbstractEventLoop, dialect: Dialect) -> None:
        self._con = con
        self._loop = loop
        self._dialect = dialect

    def _call(self, work: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        """Run one statement on the loop and wait for it."""
        return self._call(_run(self._con, self._dialect.statement(sql), params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> _Cursor:
        """Run one statement for each row of parameters."""
        statement = self._dialect.statement(sql)
        rows = list(rows)
        if rows:
            self._call(self._con.executemany(statement.text, rows))
        return _Cursor([], len(rows), None)


class _AsyncConnection:
    """The part of aiosqlite.Connection tables.players, chores and votes use, on one asyncpg connection."""

    def __init__(self, con: _Con, dialect: Dialect) -> None:
        self._con = con
        self._dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Pending:
        """One statement: awaited, or entered with `async with`, it gives its cursor."""
        return _Pending(_run(self._con, self._dialect.statement(sql), params))


class _Pending:
    """A statement sent when awaited or entered, as aiosqlite's `execute` gives one."""

    def __init__(self, work: Coroutine[Any, Any, _Cursor]) -> None:
        self._work = work

    def __await__(self) -> Generator[Any, None, _AsyncCursor]:
        return self._cursor().__await__()

    async def _cursor(self) -> _AsyncCursor:
        return _AsyncCursor(await self._work)

    async def __aenter__(self) -> _AsyncCursor:
        return await self._cursor()

    async def __aexit__(self, *exc: object) -> None:
        return None


class _AsyncCursor:
    """aiosqlite's cursor calls over a finished statement."""

    def __init__(self, cursor: _Cursor) -> None:
        self._cursor = cursor
        self.rowcount = cursor.rowcount
        self.lastrowid = cursor.lastrowid

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()
