"""SQLite persistence of tables, seats, the action log and the turn clocks (aiosqlite)."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from engine.codec import JSON
from engine.core import Action, Event
from engine.games import UnknownGame as EngineUnknownGame
from engine.games import get_rules
from tables import clicks, ratings, results
from tables.database import check_folder_writable, damaged, is_lasting, open_error, prepare_folder
from tables.errors import DatabaseProblem, StoreOpenError, StorePaused, StoreUnavailable, TableError
from tables.migrations import MIGRATIONS, SCHEMA_VERSION
from tables.models import Deadline, DeadlineKind, SeatInfo, Table, TableStatus, Timing

log = logging.getLogger(__name__)

_T = TypeVar("_T")

_TABLE_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_id, "
    "status, options, seed, state, version, created_at, updated_at, timing, revision, "
    "board_version, board_movers, board_posting, board_retired"
)

_BEHIND = (
    "status IN ('playing', 'finished') AND thread_id IS NOT NULL AND (board_version IS NULL "
    "OR board_version < version OR board_posting IS NOT NULL OR board_retired <> '[]')"
)
"""Tables whose board on Discord is not known to show the stored game (see Store.boards_behind)."""


_SHORT_BUSY_MS = 20
"""SQLite's own busy wait, with the connection lock held (reads, COMMIT); kept short."""


def _is_busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection holds the lock (worth waiting for)."""
    name = getattr(exc, "sqlite_errorname", "")
    return name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in str(exc)


class _Stale(Exception):
    """Raised inside a transaction to roll it back when the guarded row did not match."""


class SchemaTooNew(StoreOpenError):
    """The database was written by a newer Meeple than this one."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of a table's action log."""

    seq: int
    version: int
    """The state version the action was played on."""
    seat: int
    action: Action
    events: tuple[Event, ...]
    source: str
    """Who chose it: "human", "bot" or "timeout"."""
    created_at: float
    undone: bool = False
    before: str | None = None
    """Snapshot of the state it was played on, kept while undo may return to it."""
    events_kept: bool = True
    """False once the game ended: its events are no longer stored (a replay gives them)."""


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to append to the log in the same transaction as the new snapshot."""

    version: int
    seat: int
    action: Action
    events: tuple[Event, ...]
    source: str
    created_at: float
    before: str | None = None


def event_to_json(event: Event) -> dict[str, JSON]:
    """JSON form of an engine event."""
    return {
        "kind": event.kind,
        "data": dict(event.data),
        "visible_to": None if event.visible_to is None else sorted(event.visible_to),
        "checkpoint": event.checkpoint,
    }


def event_from_json(data: dict[str, Any]) -> Event:
    """Inverse of `event_to_json`."""
    visible = data.get("visible_to")
    return Event(
        data["kind"],
        data.get("data", {}),
        None if visible is None else frozenset(visible),
        bool(data.get("checkpoint", False)),
    )


class Store:
    """The SQLite database behind the tables; every failure surfaces as StoreUnavailable."""

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

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = 5000) -> Store:
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
            raise SchemaTooNew(
                DatabaseProblem.TOO_NEW,
                f"the database {self.path} has schema {current}, newer than this Meeple's"
                f" {SCHEMA_VERSION}: run the newer Meeple that wrote it",
            )
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
            _fetch_tables,
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = 'finished' "
            "AND id NOT IN (SELECT table_id FROM results) ORDER BY updated_at, id",
            (),
        )
        tables = []
        for parts in found:
            try:
                tables.append(_build(*parts))
            except TableError as exc:
                log.error("table %s has no results: %s", parts[0][0], exc)

        def unit(conn: sqlite3.Connection) -> int:
            games = results.backfill(conn, tables, _played_moves)
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
        # No await from here to the queueing of the unit: no block can begin in between.

    # -- writes --------------------------------------------------------------

    async def insert_table(self, table: Table) -> Table:
        """Store a new table (its id is ignored) and return it with its id."""
        row = (
            table.game,
            table.guild_id,
            table.channel_id,
            table.thread_id,
            table.lobby_message_id,
            table.board_message_id,
            table.host_id,
            table.status.value,
            _dumps(dict(table.options)),
            table.seed,
            None if table.state is None else table.rules.encode(table.state),
            table.version,
            table.created_at,
            table.updated_at,
            _dumps(table.timing.to_json()),
            table.revision,
            *_board_columns(table),
        )

        def unit(conn: sqlite3.Connection) -> int:
            table_id = conn.execute(
                "INSERT INTO tables (game, guild_id, channel_id, thread_id, lobby_message_id, "
                "board_message_id, host_id, status, options, seed, state, version, created_at, "
                "updated_at, timing, revision, board_version, board_movers, board_posting, board_retired) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            ).lastrowid
            assert table_id is not None
            self._write_seats(conn, table_id, table.seats, False)
            self._write_deadlines(conn, table_id, table.deadlines)
            return table_id

        return _with_id(table, await self._write(unit))

    async def save(
        self,
        old: Table,
        new: Table,
        *,
        append: Sequence[NewAction] = (),
        mark_undone: int | None = None,
        drop_undo_snapshots: bool = False,
        snapshot: str | None = None,
    ) -> bool:
        """Write `new` over `old` in one transaction, with its log entries; False if `old` is stale.

        The write is guarded by `WHERE id = ? AND version = ? AND revision = ?`: if another
        writer got there first nothing is written. `new.revision` must be `old.revision + 1`.
        `snapshot` is `new.state` already encoded, if the caller has it. Everything is encoded
        here first, then written in one trip to the database thread. A game that ends drops
        its undo snapshots and its logged events (the moves stay: replaying them from the
        seed gives the events again, see `Store.actions`).
        """
        if snapshot is None and new.state is not None:
            snapshot = new.rules.encode(new.state)
        click = clicks.current.get()
        if click is not None and (click.closed or click.table_id != old.id):
            click = None
        if not any(entry.source == "human" for entry in append):
            click = None  # only a person's move is the click's outcome (not a bot's, nor a lobby change)
        plan = _SavePlan(
            table_id=old.id,
            table_row=(
                new.thread_id,
                new.lobby_message_id,
                new.board_message_id,
                new.host_id,
                new.status.value,
                _dumps(dict(new.options)),
                new.seed,
                snapshot,
                new.version,
                new.updated_at,
                _dumps(new.timing.to_json()),
                new.revision,
                *_board_columns(new),
                int(new.may_move_unasked),
                old.id,
                old.version,
                old.revision,
            ),
            actions=tuple(
                (
                    entry.version,
                    entry.seat,
                    _dumps(entry.action.to_json()),
                    _events_json(entry.events),
                    entry.created_at,
                    entry.source,
                    entry.before,
                )
                for entry in append
            ),
            mark_undone=mark_undone,
            drop_undo=drop_undo_snapshots or not new.status.is_open,
            compact=not new.status.is_open and new.seed is not None,
            seats=new.seats if new.seats != old.seats else None,
            fewer_seats=len(new.seats) < len(old.seats),
            salt=new.salt if new.salt is not None and new.salt != old.salt else None,
            deadlines=new.deadlines if new.deadlines != old.deadlines else None,
            barred=new.barred if new.barred != old.barred else None,
            saved=(old, new) if old.status is not new.status else None,
            click=None if click is None else click.id,
        )
        try:
            await self._write(lambda conn: self._apply_save(conn, plan))
        except _Stale:
            return False
        if click is not None:
            click.closed = True
        return True

    def _apply_save(self, conn: sqlite3.Connection, plan: _SavePlan) -> None:
        """The statements of one save, on the database thread inside its transaction."""
        table_id = plan.table_id
        done = conn.execute(
            "UPDATE tables SET thread_id = ?, lobby_message_id = ?, board_message_id = ?, host_id = ?, "
            "status = ?, options = ?, seed = ?, state = ?, version = ?, updated_at = ?, timing = ?, "
            "revision = ?, board_version = ?, board_movers = ?, board_posting = ?, board_retired = ?, "
            "bot_to_move = ? WHERE id = ? AND version = ? AND revision = ?",
            plan.table_row,
        )
        if done.rowcount != 1:
            raise _Stale
        if plan.drop_undo:
            conn.execute("DELETE FROM undo_states WHERE table_id = ?", (table_id,))
        if plan.mark_undone is not None:
            conn.execute(
                "UPDATE actions SET undone = 1 WHERE table_id = ? AND seq = ?", (table_id, plan.mark_undone)
            )
            conn.execute(
                "DELETE FROM undo_states WHERE table_id = ? AND seq = ?", (table_id, plan.mark_undone)
            )
        for version, seat, action, events, created_at, source, before in plan.actions:
            conn.execute(
                "INSERT INTO actions (table_id, seq, version, seat, action, events, created_at, source) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM actions WHERE table_id = ?",
                (table_id, version, seat, action, events, created_at, source, table_id),
            )
            if before is not None and not plan.compact:
                conn.execute(
                    "INSERT INTO undo_states (table_id, seq, state) "
                    "SELECT ?, MAX(seq), ? FROM actions WHERE table_id = ?",
                    (table_id, before, table_id),
                )
        # A game this save ends gets its results and ratings here, before its log is packed.
        if plan.saved is not None:
            finished = results.on_saved(conn, *plan.saved, _played_moves)
            if finished:
                ratings.rate_game(conn, finished)
        if plan.compact:
            _pack_log(conn, table_id)
        if plan.seats is not None:
            self._write_seats(conn, table_id, plan.seats, plan.fewer_seats)
        if plan.barred is not None:
            conn.execute("DELETE FROM barred WHERE table_id = ?", (table_id,))
            conn.executemany(
                "INSERT INTO barred (table_id, user_id, name) VALUES (?, ?, ?)",
                [(table_id, user_id, name) for user_id, name in plan.barred],
            )
        if plan.deadlines is not None:
            self._write_deadlines(conn, table_id, plan.deadlines)
        if plan.salt is not None:
            conn.execute(
                "INSERT OR REPLACE INTO seed_salts (table_id, salt) VALUES (?, ?)", (table_id, plan.salt)
            )
        if plan.click is not None:
            # The click that made this move is done with it: a crash can no longer leave it unanswered.
            conn.execute("DELETE FROM pending_clicks WHERE id = ?", (plan.click,))

    # Each statement lets go of the interpreter lock while SQLite runs it, and the database
    # thread must win the lock back from the drawing and bot threads: few statements, then,
    # one multi-row INSERT rather than one per row.

    def _write_seats(
        self, conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatInfo], fewer: bool
    ) -> None:
        """Write the seats over the stored ones (`fewer`: the table has fewer seats than stored)."""
        if fewer:
            conn.execute("DELETE FROM seats WHERE table_id = ? AND seat >= ?", (table_id, len(seats)))
        if seats:
            rows = [
                (table_id, i, s.user_id, s.bot, s.name, int(s.replaced), s.idle_since, s.prompt_version)
                for i, s in enumerate(seats)
            ]
            conn.execute(
                "INSERT OR REPLACE INTO seats (table_id, seat, user_id, bot, name, replaced, idle_since, "
                f"prompt_version) VALUES {_placeholders(len(rows), 8)}",
                [value for row in rows for value in row],
            )

    def _write_deadlines(
        self, conn: sqlite3.Connection, table_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        conn.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        if deadlines:
            conn.execute(
                "INSERT INTO deadlines (table_id, seat, kind, due_at, count) "
                f"VALUES {_placeholders(len(deadlines), 5)}",
                [value for d in deadlines for value in (table_id, d.seat, d.kind.value, d.due_at, d.count)],
            )

    async def save_board(self, table: Table) -> None:
        """Write only what the table's board message shows (no version guard: the game is untouched)."""
        row = (table.board_message_id, *_board_columns(table), table.id)

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE tables SET board_message_id = ?, board_version = ?, board_movers = ?, "
                "board_posting = ?, board_retired = ? WHERE id = ?",
                row,
            )

        await self._write(unit, one_statement=True)

    # -- the journal of acknowledged clicks (tables/clicks.py) -----------------------

    async def journal_click(self, click: clicks.PendingClick) -> None:
        """Store an acknowledged click until it is done (one statement)."""
        row = (click.id, click.application_id, click.token, click.table_id, int(click.move), click.created_at)

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO pending_clicks"
                " (id, application_id, token, table_id, move, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )

        await self._write(unit, one_statement=True, bookkeeping=True)

    async def close_click(self, click_id: int) -> None:
        """Forget a journalled click: it was answered, or it can no longer be."""

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM pending_clicks WHERE id = ?", (click_id,))

        await self._write(unit, one_statement=True, bookkeeping=True)

    async def journalled_clicks(self) -> list[clicks.PendingClick]:
        """Every click acknowledged and not done, oldest first."""
        rows = await self._read(
            _fetch_all,
            "SELECT id, application_id, token, table_id, move, created_at FROM pending_clicks"
            " ORDER BY created_at, id",
            (),
        )
        return [
            clicks.PendingClick(
                int(r[0]), int(r[1]), str(r[2]), None if r[3] is None else int(r[3]), bool(r[4]), float(r[5])
            )
            for r in rows
        ]

    async def unmark_bot_to_move(self, table: Table) -> None:
        """Clear the start-up mark of a game that, as saved, waits on nobody but people."""
        row = (table.id, table.version, table.revision)

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE tables SET bot_to_move = 0 WHERE id = ? AND version = ? AND revision = ?", row
            )

        await self._write(unit, one_statement=True)

    # -- reads ---------------------------------------------------------------

    async def boards_behind(self) -> list[int]:
        """Ids of the games (in play or just finished) whose board is not known to be up to date."""
        rows = await self._read(_fetch_all, f"SELECT id FROM tables WHERE {_BEHIND} ORDER BY id", ())
        return [int(row[0]) for row in rows]

    async def boards_in_play(self, after: int = 0, limit: int = 100) -> list[tuple[int, int, int]]:
        """(id, thread, board message) of the games in play with a board message, by id above `after`."""
        rows = await self._read(
            _fetch_all,
            "SELECT id, thread_id, board_message_id FROM tables WHERE status = 'playing'"
            " AND thread_id IS NOT NULL AND board_message_id IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
            (after, limit),
        )
        return [(int(row[0]), int(row[1]), int(row[2])) for row in rows]

    async def bot_to_move(self) -> list[int]:
        """Ids of the games in play where a bot or a standing answer may move (as of their last save)."""
        rows = await self._read(
            _fetch_all, "SELECT id FROM tables WHERE bot_to_move = 1 AND status = 'playing' ORDER BY id", ()
        )
        return [int(row[0]) for row in rows]

    async def load(self, table_id: int) -> Table | None:
        """The stored table, or None."""
        found = await self._read(
            _fetch_tables, f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        return _build(*found[0]) if found else None

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        where = "guild_id = ? AND status = 'finished'"
        counted = await self._read(_fetch_all, f"SELECT COUNT(*) FROM tables WHERE {where}", (guild_id,))
        query = (
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {where} "
            "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
        )
        found = await self._read(_fetch_tables, query, (guild_id, limit, offset))
        return [_build(*rows) for rows in found], int(counted[0][0]) if counted else 0

    async def find(
        self,
        *,
        statuses: Sequence[TableStatus],
        channel_id: int | None = None,
        thread_id: int | None = None,
        user_id: int | None = None,
    ) -> list[Table]:
        """Tables with one of `statuses`, filtered by channel, thread or seated user; oldest first."""
        clauses = [f"status IN ({', '.join('?' for _ in statuses)})"]
        params: list[Any] = [s.value for s in statuses]
        if channel_id is not None:
            clauses.append("channel_id = ?")
            params.append(channel_id)
        if thread_id is not None:
            clauses.append("thread_id = ?")
            params.append(thread_id)
        if user_id is not None:
            clauses.append("id IN (SELECT table_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        query = f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {' AND '.join(clauses)} ORDER BY id"
        tables = []
        for found in await self._read(_fetch_tables, query, params):
            try:
                tables.append(_build(*found))
            except TableError as exc:
                # One unreadable table must not hide the others (or stop the start-up).
                log.error("table %s skipped: %s", found[0][0], exc)
        return tables

    async def due(self, now: float) -> list[tuple[int, Deadline]]:
        """Every armed clock due at `now`, earliest first, as (table id, deadline)."""
        rows = await self._read(
            _fetch_all,
            "SELECT table_id, seat, kind, due_at, count FROM deadlines WHERE due_at <= ? "
            "ORDER BY due_at, table_id, seat",
            (now,),
        )
        return [(int(r[0]), Deadline(int(r[1]), DeadlineKind(r[2]), float(r[3]), int(r[4]))) for r in rows]

    async def next_due(self) -> float | None:
        """When the earliest armed clock is due, if any."""
        rows = await self._read(_fetch_all, "SELECT MIN(due_at) FROM deadlines", ())
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def actions(self, table_id: int) -> list[ActionRow]:
        """A table's whole action log, in order (undo entries and undone moves included).

        A game that ended keeps its moves but not their events (`ActionRow.events_kept` is
        False): replaying the moves from the seed gives them again (TableService.log does).
        """
        rows, packed = await self._read(_fetch_log, table_id)
        if packed is not None:
            text = zlib.decompress(packed).decode() if isinstance(packed, bytes) else str(packed)
            return [
                ActionRow(
                    seq=int(m[0]),
                    version=int(m[1]),
                    seat=int(m[2]),
                    action=Action.from_json(m[3]),
                    events=(),
                    source=str(m[4]),
                    created_at=float(m[5]),
                    undone=bool(m[6]),
                    events_kept=False,
                )
                for m in sorted(json.loads(text), key=lambda m: int(m[0]))
            ]
        return [
            ActionRow(
                seq=int(r[0]),
                version=int(r[1]),
                seat=int(r[2]),
                action=Action.from_json(json.loads(r[3])),
                events=tuple(event_from_json(e) for e in json.loads(r[4])),
                source=str(r[5]),
                created_at=float(r[6]),
                undone=bool(r[7]),
                before=r[8],
            )
            for r in rows
        ]

    async def undo_target(self, table_id: int) -> ActionRow | None:
        """The latest move not yet taken back, if its undo snapshot is still kept."""
        rows = await self._read(
            _fetch_all,
            "SELECT a.seq, a.version, a.seat, a.action, a.source, a.created_at, u.state FROM actions a "
            "JOIN undo_states u ON u.table_id = a.table_id AND u.seq = a.seq "
            "WHERE a.table_id = ? AND a.undone = 0 ORDER BY a.seq DESC LIMIT 1",
            (table_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return ActionRow(
            seq=int(r[0]),
            version=int(r[1]),
            seat=int(r[2]),
            action=Action.from_json(json.loads(r[3])),
            events=(),
            source=str(r[4]),
            created_at=float(r[5]),
            before=r[6],
        )


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


def _pack_log(conn: sqlite3.Connection, table_id: int) -> None:
    """Move a game's log into one compressed row of packed_logs: its moves, without their events."""
    rows = conn.execute(
        "SELECT seq, version, seat, action, source, created_at, undone FROM actions "
        "WHERE table_id = ? ORDER BY seq",
        (table_id,),
    ).fetchall()
    # The action column is JSON already: spliced in as it is.
    text = ",".join(f"[{r[0]},{r[1]},{r[2]},{r[3]},{json.dumps(r[4])},{r[5]!r},{r[6]}]" for r in rows)
    conn.execute(
        "INSERT OR REPLACE INTO packed_logs (table_id, moves) VALUES (?, ?)",
        (table_id, zlib.compress(f"[{text}]".encode(), 9)),
    )
    conn.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))


def _fetch_log(conn: sqlite3.Connection, table_id: int) -> tuple[list[Any], bytes | str | None]:
    """A table's log rows (with their undo snapshots), or its packed moves once the game ended."""
    packed = conn.execute("SELECT moves FROM packed_logs WHERE table_id = ?", (table_id,)).fetchone()
    if packed is not None:
        return [], packed[0]
    rows = conn.execute(
        "SELECT a.seq, a.version, a.seat, a.action, a.events, a.source, a.created_at, a.undone, u.state "
        "FROM actions a LEFT JOIN undo_states u ON u.table_id = a.table_id AND u.seq = a.seq "
        "WHERE a.table_id = ? ORDER BY a.seq",
        (table_id,),
    ).fetchall()
    return rows, None


def _played_moves(conn: sqlite3.Connection, table_id: int) -> int:
    """How many moves a game has, not counting undos and the moves they took back."""
    rows, packed = _fetch_log(conn, table_id)
    if packed is None:
        entries = [(json.loads(row[3]), row[7]) for row in rows]
    else:
        text = zlib.decompress(packed).decode() if isinstance(packed, bytes) else str(packed)
        entries = [(entry[3], entry[6]) for entry in json.loads(text)]
    return sum(1 for action, undone in entries if not undone and action.get("kind") != "undo")


def _fetch_all(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    return conn.execute(sql, params).fetchall()


_TableRows = tuple[Sequence[Any], list[Any], list[Any], str | None, list[Any]]
"""A table's row with its seat rows, clock rows, seed salt and barred people, as read."""


def _fetch_tables(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[_TableRows]:
    """The rows of the tables `sql` selects, each with its seats, clocks and seed salt."""
    found = []
    for row in conn.execute(sql, params).fetchall():
        seats = conn.execute(
            "SELECT user_id, bot, name, replaced, idle_since, prompt_version FROM seats "
            "WHERE table_id = ? ORDER BY seat",
            (row[0],),
        ).fetchall()
        deadlines = conn.execute(
            "SELECT seat, kind, due_at, count FROM deadlines WHERE table_id = ? ORDER BY seat, kind",
            (row[0],),
        ).fetchall()
        salt = conn.execute("SELECT salt FROM seed_salts WHERE table_id = ?", (row[0],)).fetchone()
        barred = conn.execute(
            "SELECT user_id, name FROM barred WHERE table_id = ? ORDER BY rowid", (row[0],)
        ).fetchall()
        found.append((row, seats, deadlines, None if salt is None else str(salt[0]), barred))
    return found


def _build(
    row: Sequence[Any],
    seat_rows: Sequence[Any],
    deadline_rows: Sequence[Any],
    salt: str | None,
    barred_rows: Sequence[Any] = (),
) -> Table:
    table_id = int(row[0])
    game = str(row[1])
    state = None
    if row[11] is not None:
        try:
            state = get_rules(game).decode(row[11])
        except (EngineUnknownGame, ModuleNotFoundError) as exc:
            raise TableError(f"The game {game!r} is not installed here.") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError("This game's saved position cannot be read.") from exc
    return Table(
        id=table_id,
        game=game,
        guild_id=int(row[2]),
        channel_id=int(row[3]),
        thread_id=row[4],
        lobby_message_id=row[5],
        board_message_id=row[6],
        host_id=int(row[7]),
        status=TableStatus(row[8]),
        options=json.loads(row[9]),
        seed=row[10],
        state=state,
        version=int(row[12]),
        created_at=float(row[13]),
        updated_at=float(row[14]),
        timing=Timing.from_json(json.loads(row[15])),
        revision=int(row[16]),
        board_version=row[17],
        board_movers=tuple(int(seat) for seat in json.loads(row[18])),
        board_posting=row[19],
        board_retired=tuple(int(message) for message in json.loads(row[20])),
        seats=tuple(
            SeatInfo(
                user_id=s[0],
                bot=s[1],
                name=str(s[2]),
                replaced=bool(s[3]),
                idle_since=s[4],
                prompt_version=int(s[5]),
            )
            for s in seat_rows
        ),
        deadlines=tuple(
            Deadline(int(d[0]), DeadlineKind(d[1]), float(d[2]), int(d[3])) for d in deadline_rows
        ),
        salt=salt,
        barred=tuple((int(user_id), str(name)) for user_id, name in barred_rows),
    )


@dataclass(frozen=True, slots=True)
class _SavePlan:
    """One save, every value encoded: what `Store._apply_save` writes on the database thread."""

    table_id: int
    table_row: tuple[Any, ...]
    """The UPDATE's values, ending with the guard (id, old version, old revision)."""
    actions: tuple[tuple[Any, ...], ...]
    """(version, seat, action, events, created_at, source, undo snapshot or None) per new entry."""
    mark_undone: int | None
    drop_undo: bool
    compact: bool
    """The game ended: its log is packed (moves kept, not their events)."""
    seats: Sequence[SeatInfo] | None
    fewer_seats: bool
    salt: str | None
    """The seed's salt, when it is new."""
    deadlines: Sequence[Deadline] | None
    barred: Sequence[tuple[int, str]] | None
    saved: tuple[Table, Table] | None = None
    """(old, new) when the save changes the table's status: results may follow (tables/results.py)."""
    click: int | None = None
    """The journalled click (tables/clicks.py) this move closes: its row goes in the same transaction."""


class _Busy(Exception):
    """BEGIN IMMEDIATE found another connection writing: worth waiting for, unlocked."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


def _placeholders(rows: int, columns: int) -> str:
    """`(?, ?), (?, ?)` for a multi-row INSERT."""
    row = f"({', '.join('?' * columns)})"
    return ", ".join([row] * rows)


def _dumps(value: Any) -> str:
    """Compact JSON, keys sorted."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _events_json(events: Iterable[Event]) -> str:
    """The logged events, without the fields that hold their default (see `event_from_json`)."""
    compact: list[dict[str, JSON]] = []
    for event in events:
        entry: dict[str, JSON] = {"kind": event.kind}
        if event.data:
            entry["data"] = dict(event.data)
        if event.visible_to is not None:
            entry["visible_to"] = sorted(event.visible_to)
        if event.checkpoint:
            entry["checkpoint"] = True
        compact.append(entry)
    return _dumps(compact)


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


async def _run_many(db: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    """Run one statement for each of `rows` and close its cursor."""
    async with db.executemany(sql, rows):
        pass


def _board_columns(table: Table) -> tuple[Any, ...]:
    return (
        table.board_version,
        json.dumps(list(table.board_movers)),
        table.board_posting,
        json.dumps(list(table.board_retired)),
    )


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def _with_id(table: Table, table_id: int) -> Table:
    return replace(table, id=table_id)
