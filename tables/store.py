"""SQLite persistence of tables, seats, the action log and the turn clocks (aiosqlite)."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiosqlite

from engine.codec import JSON
from engine.core import Action, Event
from engine.games import UnknownGame as EngineUnknownGame
from engine.games import get_rules
from tables.database import check_folder_writable, damaged, is_lasting, open_error, prepare_folder
from tables.errors import DatabaseProblem, StoreOpenError, StorePaused, StoreUnavailable, TableError
from tables.models import Deadline, DeadlineKind, SeatInfo, Table, TableStatus, Timing

log = logging.getLogger(__name__)

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, seats and the action log.
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tables_by_channel ON tables (channel_id, status);
    CREATE INDEX tables_by_thread ON tables (thread_id);
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        bot TEXT,
        name TEXT NOT NULL,
        replaced INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # 2: turn clocks, undo snapshots and a write counter against lost updates.
    """
    ALTER TABLE tables ADD COLUMN timing TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN idle_since REAL;
    ALTER TABLE seats ADD COLUMN prompt_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE actions ADD COLUMN source TEXT NOT NULL DEFAULT 'human';
    ALTER TABLE actions ADD COLUMN before TEXT;
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE deadlines (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat, kind)
    );
    CREATE INDEX deadlines_by_due ON deadlines (due_at);
    """,
    # 3: the shown board as state (an outbox): what the board message shows, a post in flight,
    # and earlier boards whose buttons are still to strip. Boards of existing tables count as
    # shown, except a game in play that never recorded one.
    """
    ALTER TABLE tables ADD COLUMN board_version INTEGER;
    ALTER TABLE tables ADD COLUMN board_movers TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN board_posting INTEGER;
    ALTER TABLE tables ADD COLUMN board_retired TEXT NOT NULL DEFAULT '[]';
    UPDATE tables SET board_version = version WHERE board_message_id IS NOT NULL OR status <> 'playing';
    """,
    # 4: Buttons games begun before "one black die per exit" became the rule (the seed's) keep
    # the two dice per exit of 2-player games they were started with, so their records replay.
    """
    UPDATE tables SET options = json_set(options, '$.two_dice_2p', json('true'))
        WHERE game = 'buttons' AND status <> 'lobby' AND json_type(options, '$.two_dice_2p') IS NULL;
    UPDATE tables SET state = json_set(state, '$.two_dice_2p', json('true'))
        WHERE game = 'buttons' AND state IS NOT NULL AND json_type(state, '$.two_dice_2p') IS NULL;
    UPDATE actions SET before = json_set(before, '$.two_dice_2p', json('true'))
        WHERE before IS NOT NULL AND json_type(before, '$.two_dice_2p') IS NULL
        AND table_id IN (SELECT id FROM tables WHERE game = 'buttons');
    """,
    # 5: the secret salt hashed with each game's seed into the commitment its first board shows.
    # Games begun before get one now: their commitment appears from the next board on.
    """
    CREATE TABLE IF NOT EXISTS seed_salts (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        salt TEXT NOT NULL
    );
    INSERT OR IGNORE INTO seed_salts (table_id, salt)
        SELECT id, lower(hex(randomblob(32))) FROM tables WHERE seed IS NOT NULL;
    """,
    # 6: votes to hand a long-due seat to a bot (tables/votes.py), and clocks for chores done
    # after a game, such as archiving its thread a day after the final scores (tables/chores.py).
    """
    CREATE TABLE IF NOT EXISTS seat_votes (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        voter_id INTEGER NOT NULL,
        idle_since REAL NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seat, voter_id)
    );
    CREATE TABLE IF NOT EXISTS table_chores (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (table_id, kind)
    );
    CREATE INDEX IF NOT EXISTS table_chores_by_due ON table_chores (due_at);
    """,
    # 7: player settings (time zone, quiet hours, how to be told, standing answer to optional
    # decisions) and standing answers set for one table (tables.players).
    """
    CREATE TABLE IF NOT EXISTS players (
        user_id INTEGER PRIMARY KEY,
        time_zone TEXT NOT NULL DEFAULT 'UTC',
        quiet_start INTEGER,
        quiet_end INTEGER,
        notify TEXT NOT NULL DEFAULT 'thread',
        standing TEXT NOT NULL DEFAULT 'ask',
        dm_failed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS seat_answers (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
)
"""Schema steps; step i brings PRAGMA user_version from i to i + 1. Only ever append."""

SCHEMA_VERSION = len(MIGRATIONS)

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
            log.info("database %s migrated to schema %d", self.path, step + 1)

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

    # -- writes --------------------------------------------------------------

    async def insert_table(self, table: Table) -> Table:
        """Store a new table (its id is ignored) and return it with its id."""
        async with self.transaction() as db:
            done = await _run(
                db,
                "INSERT INTO tables (game, guild_id, channel_id, thread_id, lobby_message_id, "
                "board_message_id, host_id, status, options, seed, state, version, created_at, "
                "updated_at, timing, revision, board_version, board_movers, board_posting, board_retired) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.game,
                    table.guild_id,
                    table.channel_id,
                    table.thread_id,
                    table.lobby_message_id,
                    table.board_message_id,
                    table.host_id,
                    table.status.value,
                    json.dumps(dict(table.options), sort_keys=True),
                    table.seed,
                    None if table.state is None else table.rules.encode(table.state),
                    table.version,
                    table.created_at,
                    table.updated_at,
                    json.dumps(table.timing.to_json()),
                    table.revision,
                    *_board_columns(table),
                ),
            )
            table_id = done.lastrowid
            assert table_id is not None
            await self._write_seats(db, table_id, table.seats)
            await self._write_deadlines(db, table_id, table.deadlines)
        return _with_id(table, table_id)

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
        `snapshot` is `new.state` already encoded, if the caller has it.
        """
        try:
            async with self.transaction() as db:
                if not await self._update_table(db, old, new, snapshot):
                    raise _Stale
                await self._write_log(db, new, append, mark_undone, drop_undo_snapshots)
                if new.seats != old.seats:
                    await self._write_seats(db, new.id, new.seats)
                if new.deadlines != old.deadlines:
                    await self._write_deadlines(db, new.id, new.deadlines)
                if new.salt is not None and new.salt != old.salt:
                    await _run(
                        db,
                        "INSERT OR REPLACE INTO seed_salts (table_id, salt) VALUES (?, ?)",
                        (new.id, new.salt),
                    )
        except _Stale:
            return False
        return True

    async def _write_log(
        self,
        db: aiosqlite.Connection,
        new: Table,
        append: Sequence[NewAction],
        mark_undone: int | None,
        drop_undo_snapshots: bool,
    ) -> None:
        if drop_undo_snapshots:
            await _run(
                db, "UPDATE actions SET before = NULL WHERE table_id = ? AND before IS NOT NULL", (new.id,)
            )
        if mark_undone is not None:
            await _run(
                db,
                "UPDATE actions SET undone = 1, before = NULL WHERE table_id = ? AND seq = ?",
                (new.id, mark_undone),
            )
        if append:
            await self._append_actions(db, new.id, append)

    async def _update_table(
        self, db: aiosqlite.Connection, old: Table, new: Table, snapshot: str | None = None
    ) -> bool:
        if snapshot is None and new.state is not None:
            snapshot = new.rules.encode(new.state)
        done = await _run(
            db,
            "UPDATE tables SET thread_id = ?, lobby_message_id = ?, board_message_id = ?, host_id = ?, "
            "status = ?, options = ?, seed = ?, state = ?, version = ?, updated_at = ?, timing = ?, "
            "revision = ?, board_version = ?, board_movers = ?, board_posting = ?, board_retired = ? "
            "WHERE id = ? AND version = ? AND revision = ?",
            (
                new.thread_id,
                new.lobby_message_id,
                new.board_message_id,
                new.host_id,
                new.status.value,
                json.dumps(dict(new.options), sort_keys=True),
                new.seed,
                snapshot,
                new.version,
                new.updated_at,
                json.dumps(new.timing.to_json()),
                new.revision,
                *_board_columns(new),
                old.id,
                old.version,
                old.revision,
            ),
        )
        return done.rowcount == 1

    async def _append_actions(
        self, db: aiosqlite.Connection, table_id: int, entries: Iterable[NewAction]
    ) -> None:
        for entry in entries:
            await _run(
                db,
                "INSERT INTO actions (table_id, seq, version, seat, action, events, created_at, source, "
                "before) SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ? "
                "FROM actions WHERE table_id = ?",
                (
                    table_id,
                    entry.version,
                    entry.seat,
                    json.dumps(entry.action.to_json(), sort_keys=True),
                    json.dumps([event_to_json(e) for e in entry.events], sort_keys=True),
                    entry.created_at,
                    entry.source,
                    entry.before,
                    table_id,
                ),
            )

    async def _write_seats(self, db: aiosqlite.Connection, table_id: int, seats: Sequence[SeatInfo]) -> None:
        await _run(db, "DELETE FROM seats WHERE table_id = ?", (table_id,))
        await _run_many(
            db,
            "INSERT INTO seats (table_id, seat, user_id, bot, name, replaced, idle_since, prompt_version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (table_id, i, s.user_id, s.bot, s.name, int(s.replaced), s.idle_since, s.prompt_version)
                for i, s in enumerate(seats)
            ],
        )

    async def _write_deadlines(
        self, db: aiosqlite.Connection, table_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        await _run(db, "DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        await _run_many(
            db,
            "INSERT INTO deadlines (table_id, seat, kind, due_at, count) VALUES (?, ?, ?, ?, ?)",
            [(table_id, d.seat, d.kind.value, d.due_at, d.count) for d in deadlines],
        )

    async def save_board(self, table: Table) -> None:
        """Write only what the table's board message shows (no version guard: the game is untouched)."""
        async with self.transaction() as db:
            await _run(
                db,
                "UPDATE tables SET board_message_id = ?, board_version = ?, board_movers = ?, "
                "board_posting = ?, board_retired = ? WHERE id = ?",
                (table.board_message_id, *_board_columns(table), table.id),
            )

    # -- reads ---------------------------------------------------------------

    async def boards_behind(self) -> list[int]:
        """Ids of the games (in play or just finished) whose board is not known to be up to date."""
        async with (
            self.reading() as db,
            db.execute(f"SELECT id FROM tables WHERE {_BEHIND} ORDER BY id") as cur,
        ):
            rows = await cur.fetchall()
        return [int(row[0]) for row in rows]

    async def load(self, table_id: int) -> Table | None:
        """The stored table, or None."""
        async with self.reading() as db:
            async with db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            return await self._build(db, row)

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        where = "guild_id = ? AND status = 'finished'"
        async with self.reading() as db:
            async with db.execute(f"SELECT COUNT(*) FROM tables WHERE {where}", (guild_id,)) as cur:
                row = await cur.fetchone()
            total = int(row[0]) if row else 0
            query = (
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {where} "
                "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
            )
            async with db.execute(query, (guild_id, limit, offset)) as cur:
                rows = await cur.fetchall()
            return [await self._build(db, row) for row in rows], total

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
        async with self.reading() as db:
            async with db.execute(query, params) as cur:
                rows = await cur.fetchall()
            tables = []
            for row in rows:
                try:
                    tables.append(await self._build(db, row))
                except TableError as exc:
                    # One unreadable table must not hide the others (or stop the start-up).
                    log.error("table %s skipped: %s", row[0], exc)
            return tables

    async def due(self, now: float) -> list[tuple[int, Deadline]]:
        """Every armed clock due at `now`, earliest first, as (table id, deadline)."""
        async with (
            self.reading() as db,
            db.execute(
                "SELECT table_id, seat, kind, due_at, count FROM deadlines WHERE due_at <= ? "
                "ORDER BY due_at, table_id, seat",
                (now,),
            ) as cur,
        ):
            rows = await cur.fetchall()
        return [(int(r[0]), Deadline(int(r[1]), DeadlineKind(r[2]), float(r[3]), int(r[4]))) for r in rows]

    async def next_due(self) -> float | None:
        """When the earliest armed clock is due, if any."""
        async with self.reading() as db, db.execute("SELECT MIN(due_at) FROM deadlines") as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def actions(self, table_id: int) -> list[ActionRow]:
        """A table's whole action log, in order (undo entries and undone moves included)."""
        async with (
            self.reading() as db,
            db.execute(
                "SELECT seq, version, seat, action, events, source, created_at, undone, before "
                "FROM actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ) as cur,
        ):
            rows = await cur.fetchall()
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
        async with (
            self.reading() as db,
            db.execute(
                "SELECT seq, version, seat, action, source, created_at, before FROM actions "
                "WHERE table_id = ? AND undone = 0 AND before IS NOT NULL ORDER BY seq DESC LIMIT 1",
                (table_id,),
            ) as cur,
        ):
            r = await cur.fetchone()
        if r is None:
            return None
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

    async def _build(self, db: aiosqlite.Connection, row: Sequence[Any]) -> Table:
        table_id = int(row[0])
        async with db.execute(
            "SELECT user_id, bot, name, replaced, idle_since, prompt_version FROM seats "
            "WHERE table_id = ? ORDER BY seat",
            (table_id,),
        ) as cur:
            seat_rows = await cur.fetchall()
        async with db.execute(
            "SELECT seat, kind, due_at, count FROM deadlines WHERE table_id = ? ORDER BY seat, kind",
            (table_id,),
        ) as cur:
            deadline_rows = await cur.fetchall()
        async with db.execute("SELECT salt FROM seed_salts WHERE table_id = ?", (table_id,)) as cur:
            salt_row = await cur.fetchone()
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
            salt=None if salt_row is None else str(salt_row[0]),
        )


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
