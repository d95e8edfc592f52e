"""Clocks for what is done to a table after its game, stored so a restart keeps them.

Today one chore: archive a finished game's thread a day after the final scores. Lobbies
nobody started expire after a week (counted from `Table.created_at`, no clock needed).
"""

from __future__ import annotations

import enum
from typing import Any

from tables.models import DAY, Table, TableStatus
from tables.service import TableService

ARCHIVE_AFTER = DAY
"""A finished game's thread is archived this long after the final scores."""
LOBBY_LIFETIME = 7 * DAY
"""A lobby nobody started is cancelled this long after it was opened."""


class ChoreKind(enum.StrEnum):
    """What a chore does."""

    ARCHIVE_THREAD = "archive_thread"


def lobby_expires_at(table: Table) -> float:
    """When a lobby nobody starts expires."""
    return table.created_at + LOBBY_LIFETIME


def lobby_expired(table: Table) -> bool:
    """Whether a cancelled lobby was cancelled because it expired (not by its host)."""
    return table.status is TableStatus.CANCELLED and table.updated_at >= lobby_expires_at(table)


_KINDS = frozenset(kind.value for kind in ChoreKind)


class Chores:
    """The stored chore clocks of every table."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def schedule(self, table_id: int, kind: ChoreKind, due_at: float) -> None:
        """Arm a chore once: a chore already armed keeps its time."""
        async with self.service.store.transaction() as db:
            await _write(
                db,
                "INSERT OR IGNORE INTO table_chores (table_id, kind, due_at) VALUES (?, ?, ?)",
                (table_id, kind.value, due_at),
            )

    async def due(self, now: float) -> list[tuple[int, ChoreKind]]:
        """Every chore due at `now`, earliest first."""
        async with (
            self.service.store.reading() as db,
            db.execute(
                "SELECT table_id, kind FROM table_chores WHERE due_at <= ? ORDER BY due_at, table_id", (now,)
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [(int(row[0]), ChoreKind(row[1])) for row in rows if row[1] in _KINDS]

    async def done(self, table_id: int, kind: ChoreKind) -> None:
        """Disarm a chore that was carried out (or has nothing left to do)."""
        async with self.service.store.transaction() as db:
            await _write(
                db, "DELETE FROM table_chores WHERE table_id = ? AND kind = ?", (table_id, kind.value)
            )

    async def expired_lobbies(self, now: float) -> list[Table]:
        """The lobbies opened more than LOBBY_LIFETIME ago."""
        lobbies = await self.service.store.find(statuses=(TableStatus.LOBBY,))
        return [table for table in lobbies if lobby_expires_at(table) <= now]


async def _write(db: Any, sql: str, params: tuple[Any, ...]) -> None:
    """Run one write statement and close its cursor (SQLite refuses a COMMIT while one is open)."""
    async with db.execute(sql, params):
        pass
