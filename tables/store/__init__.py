"""SQLite persistence of tables, seats, the action log and the turn clocks (aiosqlite).

`Store` is what the rest imports; it is built in layers, each a module of this package:

    connection.py  Connection  open, check and migrate the file; transactions, one trip per unit
    writes.py      Writes      insert, the guarded save (its plan, then its statements), small writes
    boards.py      Boards      the board ledger (Discord's messages of a table), its own table `boards`
    __init__.py    Store       the reads: a table, tables found by channel, thread or user, clocks due,
                               the action log, the click journal
    rows.py                    the columns, the board ledger's row, log entries and events as JSON
    packing.py                 a finished game's log packed into one row, and read back
    postgres.py PostgresStore  the same Store on PostgreSQL (asyncpg): only the connection layer differs
    dialect.py                 the SQLite statements rewritten for PostgreSQL

`open_store` opens either, from MEEPLE_DB: a file path (SQLite) or a postgresql:// URL.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core import Action
from tables import clicks
from tables.errors import TableError
from tables.models import Deadline, DeadlineKind, Table, TableStatus
from tables.shards import LEASE_SECONDS, Lease, ShardSet, held_shards, plan_leases
from tables.store.boards import Boards
from tables.store.connection import Connection, SchemaTooNew
from tables.store.packing import fetch_log, log_rows
from tables.store.rows import (
    TABLE_COLUMNS,
    ActionRow,
    BoardRecord,
    NewAction,
    build_table,
    event_from_json,
    event_to_json,
    fetch_all,
    fetch_tables,
    on_shards,
)

log = logging.getLogger(__name__)


__all__ = [
    "ActionRow",
    "BoardRecord",
    "Connection",
    "NewAction",
    "SchemaTooNew",
    "Store",
    "event_from_json",
    "event_to_json",
    "open_store",
]


async def open_store(target: str | Path) -> Store:
    """Open the database MEEPLE_DB names: a postgresql:// URL on PostgreSQL, anything else a SQLite file."""
    from tables.store.postgres import PostgresStore, is_postgres_url

    if is_postgres_url(target):
        return await PostgresStore.open(str(target))
    return await Store.open(target)


class Store(Boards):
    """The SQLite database behind the tables; every failure surfaces as StoreUnavailable."""

    async def journalled_clicks(self, shards: ShardSet | None = None) -> list[clicks.PendingClick]:
        """Every click acknowledged and not done, oldest first (those `shards` receive, if given).

        A click belongs to the shard of its table's server, else of the server it came from; a
        click from a direct message (no server) to shard 0, which Discord sends them to.
        """
        where, params = on_shards(shards, "COALESCE(t.guild_id, c.guild_id, 0)")
        rows = await self._read(
            fetch_all,
            "SELECT c.id, c.application_id, c.token, c.table_id, c.move, c.created_at, c.guild_id,"
            " c.language, c.command"
            " FROM pending_clicks c LEFT JOIN tables t ON t.id = c.table_id"
            f" WHERE 1 = 1{where} ORDER BY c.created_at, c.id",
            params,
        )
        return [
            clicks.PendingClick(
                int(r[0]),
                int(r[1]),
                str(r[2]),
                None if r[3] is None else int(r[3]),
                bool(r[4]),
                float(r[5]),
                None if r[6] is None else int(r[6]),
                None if r[7] is None else str(r[7]),
                None if r[8] is None else str(r[8]),
            )
            for r in rows
        ]

    # -- reads ---------------------------------------------------------------

    async def bot_to_move(self) -> list[int]:
        """Ids of the games in play where a bot or a standing answer may move (as of their last save)."""
        rows = await self._read(
            fetch_all, "SELECT id FROM tables WHERE bot_to_move = 1 AND status = 'playing' ORDER BY id", ()
        )
        return [int(row[0]) for row in rows]

    async def load(self, table_id: int) -> Table | None:
        """The stored table, or None."""
        found = await self._read(
            fetch_tables, f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        return build_table(*found[0]) if found else None

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        where = "guild_id = ? AND status = 'finished'"
        counted = await self._read(fetch_all, f"SELECT COUNT(*) FROM tables WHERE {where}", (guild_id,))
        query = (
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE {where} "
            "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
        )
        found = await self._read(fetch_tables, query, (guild_id, limit, offset))
        return [build_table(*rows) for rows in found], int(counted[0][0]) if counted else 0

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
        query = f"SELECT {TABLE_COLUMNS} FROM tables WHERE {' AND '.join(clauses)} ORDER BY id"
        tables = []
        for found in await self._read(fetch_tables, query, params):
            try:
                tables.append(build_table(*found))
            except TableError as exc:
                # One unreadable table must not hide the others (or stop the start-up).
                log.error("table %s skipped: %s", found[0][0], exc)
        return tables

    async def due(self, now: float, shards: ShardSet | None = None) -> list[tuple[int, Deadline]]:
        """Every armed clock due at `now`, earliest first, as (table id, deadline); of `shards` if given."""
        where, params = on_shards(shards)
        rows = await self._read(
            fetch_all,
            "SELECT d.table_id, d.seat, d.kind, d.due_at, d.count FROM deadlines d"
            f" JOIN tables t ON t.id = d.table_id WHERE d.due_at <= ?{where}"
            " ORDER BY d.due_at, d.table_id, d.seat",
            (now, *params),
        )
        return [(int(r[0]), Deadline(int(r[1]), DeadlineKind(r[2]), float(r[3]), int(r[4]))) for r in rows]

    async def next_due(self, shards: ShardSet | None = None) -> float | None:
        """When the earliest armed clock is due, if any (of `shards`' tables, if given)."""
        where, params = on_shards(shards)
        rows = await self._read(
            fetch_all,
            f"SELECT MIN(d.due_at) FROM deadlines d JOIN tables t ON t.id = d.table_id WHERE 1 = 1{where}",
            params,
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def claim_clock_leases(
        self, home: ShardSet, me: str, now: float, ttl: float = LEASE_SECONDS
    ) -> frozenset[int]:
        """Renew and take clock leases as `plan_leases` says, in one transaction; the shards `me` now holds.

        Each write is made over the row as read (its generation), so two processes that read the
        same lapsed lease cannot both take it.
        """

        def unit(conn: sqlite3.Connection) -> frozenset[int]:
            found = conn.execute(
                "SELECT shard, holder, expires_at, wanted_by, generation FROM clock_leases"
            ).fetchall()
            rows = {int(r[0]): Lease(int(r[0]), str(r[1]), float(r[2]), r[3], int(r[4])) for r in found}
            written = []
            for lease in plan_leases(rows, home, me, now, ttl):
                values = (lease.holder, lease.expires_at, lease.wanted_by, lease.generation, lease.shard)
                if lease.shard in rows:
                    cursor = conn.execute(
                        "UPDATE clock_leases SET holder = ?, expires_at = ?, wanted_by = ?, generation = ?"
                        " WHERE shard = ? AND generation = ?",
                        (*values, rows[lease.shard].generation),
                    )
                else:
                    cursor = conn.execute(
                        "INSERT INTO clock_leases (holder, expires_at, wanted_by, generation, shard)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (shard) DO NOTHING",
                        values,
                    )
                if cursor.rowcount == 1:
                    written.append(lease)
            return held_shards(written, me, now)

        return await self._write(unit)

    async def release_clock_leases(self, me: str) -> None:
        """Give up every lease `me` holds (a clean stop): the other processes take them at once."""

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE clock_leases SET expires_at = 0, generation = generation + 1 WHERE holder = ?", (me,)
            )

        await self._write(unit, one_statement=True)

    async def actions(self, table_id: int) -> list[ActionRow]:
        """A table's whole action log, in order (undo entries and undone moves included).

        A game that ended keeps its moves but not their events (`ActionRow.events_kept` is
        False): replaying the moves from the seed gives them again (TableService.log does).
        """
        rows, packed = await self._read(fetch_log, table_id)
        return log_rows(rows, packed)

    async def undo_target(self, table_id: int) -> ActionRow | None:
        """The latest move not yet taken back, if its undo snapshot is still kept."""
        rows = await self._read(
            fetch_all,
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
