"""The store's connection: opening and migrating the file, transactions, one trip per unit of work, faults."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar, cast

import aiosqlite

from tables import ratings, results
from tables.database import check_folder_writable, damaged, is_lasting, open_error, prepare_folder
from tables.errors import DatabaseProblem, StoreOpenError, StorePaused, StoreUnavailable, TableError
from tables.migrations import MIGRATIONS, SCHEMA_VERSION
from tables.store.packing import played_moves
from tables.store.rows import TABLE_COLUMNS, BoardRecord, build_table, fetch_tables

log = logging.getLogger(__name__)

_T = TypeVar("_T")

_SHORT_BUSY_MS = 20
"""SQLite's own busy wait, with the connection lock held (reads, COMMIT); kept short."""


def _is_busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds the lock (worth waiting for)."""
    name = getattr(exc, "sqlite_errorname", "")
    return name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in str(exc)


class SchemaTooNew(StoreOpenError):
    """The database was written by a newer Meeple than this one."""


def schema_too_new(path: str, schema: int) -> SchemaTooNew:
    """The refusal of a database at `schema`, newer than this Meeple's."""
    return SchemaTooNew(
        DatabaseProblem.TOO_NEW,
        f"the database {path} has schema {schema}, newer than this Meeple's"
        f" {SCHEMA_VERSION}: run the newer Meeple that wrote it",
    )


class Connection:
    """One aiosqlite connection serving every table; every failure surfaces as StoreUnavailable."""

    def __init__(self, db: aiosqlite.Connection, path: str, *, busy_wait: float = 5.0) -> None:
        self._db = db
        self.path = path
        self.busy_wait = busy_wait
        """How long a write waits for another process's write lock before StoreUnavailable, in seconds."""
        # One connection serves every table, so statements of two transactions must not interleave.
        self._lock = asyncio.Lock()
        self._fault: str | None = None
        """The lasting database fault last logged, until a write succeeds again."""
        self._opened = False
        self._boards_later: dict[int, BoardRecord] = {}
        """Board ledger records waiting for their table's next save (tables/store/boards.py)."""

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Self:
        """Open (creating the file, and its folder if only that is missing), check and migrate the database.

        Every reason it cannot be used raises StoreOpenError with one line saying what and where.
        """
        text = str(path)
        if text != ":memory:":
            prepare_folder(Path(text))
            check_folder_writable(Path(text))
        try:
            db = await aiosqlite.connect(text, isolation_level=None)
        except sqlite3.Error as exc:
            raise open_error(text, exc) from exc
        store = cls(db, text, busy_wait=busy_timeout_ms / 1000)
        try:
            await store._prepare(busy_timeout_ms)
        except sqlite3.Error as exc:
            await db.close()
            raise open_error(text, exc) from exc
        except StoreOpenError:
            await db.close()
            raise
        except StoreUnavailable as exc:
            await db.close()
            cause = exc.__cause__
            if isinstance(cause, sqlite3.Error):
                raise open_error(text, cause, migrating=True) from cause
            raise
        except BaseException:
            await db.close()
            raise
        store._opened = True
        return store

    async def _prepare(self, busy_timeout_ms: int) -> None:
        db = self._db
        await _run(db, f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # quick_check reads every page: a damaged file is refused now, not in the middle of a game.
        async with db.execute("PRAGMA quick_check") as cursor:
            report = [str(row[0]) for row in await cursor.fetchall()]
        if report != ["ok"]:
            raise damaged(self.path, report)
        await _run(db, "PRAGMA journal_mode = WAL")
        await _run(db, "PRAGMA synchronous = NORMAL")
        await _run(db, "PRAGMA foreign_keys = ON")
        await self._migrate()
        # SQLite opens a write-protected file read-only without a word and fails at the first
        # write: write the schema number back (a no-op) so a read-only file is refused now.
        version = await self._user_version()
        await _run(db, "BEGIN IMMEDIATE")
        try:
            await _run(db, f"PRAGMA user_version = {version}")
        finally:
            if db.in_transaction:
                await _run(db, "ROLLBACK")
        # SQLite's own busy wait runs with the connection lock held, stalling every table:
        # keep it short from now on and wait for another process's write lock in `_begin`, unlocked.
        await _run(db, f"PRAGMA busy_timeout = {min(int(busy_timeout_ms), _SHORT_BUSY_MS)}")

    async def close(self) -> None:
        """Close the connection."""
        async with self._lock:
            await self._db.close()

    async def schema_version(self) -> int:
        """The database's PRAGMA user_version."""
        async with self._lock:
            return await self._user_version()

    async def _user_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self._user_version()
        if current > SCHEMA_VERSION:
            raise schema_too_new(self.path, current)
        for step in range(current, SCHEMA_VERSION):
            async with self.transaction() as db:
                for statement in _statements(MIGRATIONS[step]):
                    await _run(db, statement)
                await _run(db, f"PRAGMA user_version = {step + 1}")
        # One line at start, not one per step: a new database is simply made at the current schema.
        if current == 0:
            log.info("database %s created (schema %d)", self.path, SCHEMA_VERSION)
        elif current < SCHEMA_VERSION:
            log.info("database %s brought up to date: schema %d to %d", self.path, current, SCHEMA_VERSION)
        if current < SCHEMA_VERSION:
            games = await self.backfill_results()
            if games:
                log.info("database %s: results and ratings recorded for %d earlier games", self.path, games)

    async def backfill_results(self) -> int:
        """Give finished games without result rows theirs, then recompute the ratings; return how many."""
        found = await self._read(
            fetch_tables,
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'finished' "
            "AND id NOT IN (SELECT table_id FROM results) ORDER BY updated_at, id",
            (),
        )
        tables = []
        for parts in found:
            try:
                tables.append(build_table(*parts))
            except TableError as exc:
                log.error("table %s has no results: %s", parts[0][0], exc)

        def unit(conn: sqlite3.Connection) -> int:
            games = results.backfill(conn, tables, played_moves)
            if games:
                ratings.rebuild(conn)
            return games

        return await self._write(unit)

    async def read(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run `fn(connection, *args)`, reads only, in one trip to the database thread."""
        return await self._read(fn, *args)

    async def write(self, unit: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run `unit(connection)` as one transaction in one trip to the database thread."""
        return await self._write(unit)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; database errors become StoreUnavailable."""
        await self._begin()
        try:
            yield self._db
            await _run(self._db, "COMMIT")
        except BaseException as exc:
            # After a disk-full or I/O error SQLite may have rolled back already.
            if self._db.in_transaction:
                try:
                    await _run(self._db, "ROLLBACK")
                except sqlite3.Error as rollback:
                    log.warning("database %s: rollback failed: %s", self.path, rollback)
            if isinstance(exc, sqlite3.Error):
                raise self._failure(exc) from exc
            raise
        else:
            self._recovered()
        finally:
            self._lock.release()

    async def _begin(self) -> None:
        """Take the connection lock and BEGIN IMMEDIATE; while another process writes, wait unlocked."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_wait
        pause = 0.005
        while True:
            await self._lock.acquire()
            try:
                await _run(self._db, "BEGIN IMMEDIATE")
                return
            except sqlite3.Error as exc:
                self._lock.release()
                if not _is_busy(exc) or loop.time() >= deadline:
                    raise self._failure(exc) from exc
            except BaseException:
                self._lock.release()
                raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.1)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run reads under the connection lock; database errors become StoreUnavailable."""
        async with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise self._failure(exc) from exc

    def _failure(self, exc: sqlite3.Error) -> StoreUnavailable:
        """The refusal for a database error: busy is worth a retry; a lasting fault pauses the games."""
        if not is_lasting(exc):
            return StoreUnavailable()
        cause = f"{exc} ({getattr(exc, 'sqlite_errorname', 'SQLITE_ERROR')})"
        if self._fault != cause and self._opened:
            # Once per fault, not once per click (open reports its own failures in one line).
            log.error("database %s cannot be used: %s; games are paused until it is fixed", self.path, cause)
            self._fault = cause
        return StorePaused()

    def _recovered(self) -> None:
        if self._fault is not None:
            log.warning("database %s works again (after: %s); games go on", self.path, self._fault)
            self._fault = None

    # -- one trip to the database thread ---------------------------------------

    async def _on_thread(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run `fn(connection, *args)` on aiosqlite's worker thread: a whole unit of work in one trip."""
        # aiosqlite runs each of its own calls by queueing a function for its thread with
        # Connection._execute (0.22); it has no public name for that, so it is used here.
        db = cast(Any, self._db)
        return cast(_T, await db._execute(fn, db._conn, *args))

    async def _write(
        self,
        unit: Callable[[sqlite3.Connection], _T],
        *,
        one_statement: bool = False,
        bookkeeping: bool = False,
    ) -> _T:
        """Run `unit` inside BEGIN IMMEDIATE ... COMMIT in one trip to the database thread.

        Rolled back on any error; database errors become StoreUnavailable. While another
        process holds the write lock, the retry waits here with the connection lock released.
        A unit of `one_statement` runs without BEGIN and COMMIT: SQLite makes it a transaction.
        A `bookkeeping` write (the click journal's tiny rows) does not tell that a lasting fault
        is over: only a game's write does.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_wait
        pause = 0.005
        while True:
            await self._between_transactions()
            try:
                run = _as_statement if one_statement else _in_transaction
                result: _T = await self._on_thread(run, unit, self.path)
            except _Busy as busy:
                if loop.time() >= deadline:
                    raise self._failure(busy.error) from busy.error
            except sqlite3.Error as exc:
                raise self._failure(exc) from exc
            else:
                if not bookkeeping:
                    self._recovered()
                return result
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.1)

    async def _read(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run the reads of `fn(connection, *args)` in one trip; database errors become StoreUnavailable."""
        await self._between_transactions()
        try:
            return await self._on_thread(fn, *args)
        except sqlite3.Error as exc:
            raise self._failure(exc) from exc

    async def _between_transactions(self) -> None:
        """Wait while a `transaction()` or `reading()` block holds the connection across awaits.

        A one-trip unit takes no lock of its own: the database thread runs the queued units
        one after the other, each whole, so it can only interleave with a block that spans
        several trips. Holding a lock across the trip would add a turn of the event loop per
        save to every save queued behind it (a convoy under load).
        """
        while self._lock.locked():
            async with self._lock:
                pass


def _as_statement(conn: sqlite3.Connection, unit: Callable[[sqlite3.Connection], _T], path: str) -> _T:
    """A one-statement `unit` on the database thread, a transaction of its own (autocommit)."""
    try:
        return unit(conn)
    except sqlite3.Error as exc:
        if _is_busy(exc) and not conn.in_transaction:
            raise _Busy(exc) from exc
        raise


def _in_transaction(conn: sqlite3.Connection, unit: Callable[[sqlite3.Connection], _T], path: str) -> _T:
    """BEGIN IMMEDIATE, `unit`, COMMIT on the database thread; rolled back on any error."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        if _is_busy(exc):
            raise _Busy(exc) from exc
        raise
    try:
        result = unit(conn)
        conn.execute("COMMIT")
    except BaseException:
        # After a disk-full or I/O error SQLite may have rolled back already.
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error as rollback:
                log.warning("database %s: rollback failed: %s", path, rollback)
        raise
    return result


class _Busy(Exception):
    """BEGIN IMMEDIATE found another connection writing: worth waiting for, unlocked."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True, slots=True)
class _Done:
    """What a finished write statement reports."""

    rowcount: int
    lastrowid: int | None


async def _run(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> _Done:
    """Run one statement and close its cursor.

    A statement that returns rows (PRAGMA busy_timeout, journal_mode) stays in progress
    until its cursor is read to the end or closed, and SQLite refuses a COMMIT meanwhile
    ("cannot commit transaction - SQL statements in progress"); an unreferenced cursor is
    closed only when the garbage collector gets to it.
    """
    async with db.execute(sql, params) as cursor:
        return _Done(cursor.rowcount, cursor.lastrowid)


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
