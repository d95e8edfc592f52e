"""Databases as an older Meeple left them: a current one's games copied into an earlier schema."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

from tables.migrations import MIGRATIONS

UNDO_APART = next(i for i, step in enumerate(MIGRATIONS) if "CREATE TABLE undo_states" in step)
"""The schema before the step that moved undo snapshots out of the action log."""
BOARDS_APART = next(i for i, step in enumerate(MIGRATIONS) if "CREATE TABLE boards" in step)
"""The schema before the step that moved the board ledger out of `tables` into `boards`."""
BOARD_COLUMNS = {
    "lobby_message_id": "lobby_message_id",
    "board_message_id": "message_id",
    "board_version": "version",
    "board_movers": "movers",
    "board_posting": "posting",
    "board_retired": "retired",
}
"""The board ledger's columns as they were in `tables`, and as they are in `boards`."""


def board_columns_back(db: sqlite3.Connection) -> None:
    """Undo the step that moved the board ledger out of `tables` (a current database, made older)."""
    for old, new in BOARD_COLUMNS.items():
        kind = "TEXT NOT NULL DEFAULT '[]'" if new in ("movers", "retired") else "INTEGER"
        db.execute(f"ALTER TABLE tables ADD COLUMN {old} {kind}")
        db.execute(f"UPDATE tables SET {old} = (SELECT {new} FROM boards WHERE boards.table_id = tables.id)")
    db.execute("DROP TABLE boards")


def copy_into_schema(source: Path, target: Path, version: int) -> None:
    """Write `source`'s tables, seats, clocks and log into a new `target` of schema `version`.

    Columns the older schema lacks are left out; before UNDO_APART, undo snapshots go back
    into the log's `before` column and every game keeps its events (as that Meeple wrote them).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(target, isolation_level=None)
    try:
        for step in MIGRATIONS[:version]:
            old.executescript(step)
        old.execute(f"PRAGMA user_version = {version}")
        old.execute(f"ATTACH DATABASE '{source}' AS new")
        for name in ("tables", "seats", "deadlines"):
            kept = _columns(old, "main", name) & _columns(old, "new", name)
            listed = ", ".join(sorted(kept))
            old.execute(f"INSERT INTO main.{name} ({listed}) SELECT {listed} FROM new.{name}")
        if "board_message_id" in _columns(old, "main", "tables") and _columns(old, "new", "boards"):
            for column, source in BOARD_COLUMNS.items():
                old.execute(
                    f"UPDATE main.tables SET {column} = "
                    f"(SELECT b.{source} FROM new.boards b WHERE b.table_id = main.tables.id)"
                )
        kept = (_columns(old, "main", "actions") & _columns(old, "new", "actions")) - {"events"}
        listed = ", ".join(f"a.{c}" for c in sorted(kept))
        if "before" in _columns(old, "main", "actions"):
            old.execute(
                f"INSERT INTO main.actions ({', '.join(sorted(kept))}, events, before) "
                f"SELECT {listed}, a.events, u.state FROM new.actions a "
                "LEFT JOIN new.undo_states u ON u.table_id = a.table_id AND u.seq = a.seq"
            )
        else:
            old.execute(
                f"INSERT INTO main.actions ({', '.join(sorted(kept))}, events) "
                f"SELECT {listed}, a.events FROM new.actions a"
            )
        if "before" in _columns(old, "main", "actions"):
            # Games that ended: their packed moves back as log rows (events as written then: none kept).
            for table_id, packed in old.execute("SELECT table_id, moves FROM new.packed_logs").fetchall():
                text = zlib.decompress(packed).decode() if isinstance(packed, bytes) else packed
                old.executemany(
                    "INSERT INTO main.actions (table_id, seq, version, seat, action, events, source, "
                    "created_at, undone) VALUES (?, ?, ?, ?, ?, '[]', ?, ?, ?)",
                    [
                        (table_id, m[0], m[1], m[2], json.dumps(m[3]), m[4], m[5], m[6])
                        for m in json.loads(text)
                    ],
                )
        old.execute("DETACH DATABASE new")
    finally:
        old.close()


def _columns(db: sqlite3.Connection, schema: str, table: str) -> set[str]:
    return {str(row[1]) for row in db.execute(f"PRAGMA {schema}.table_info({table})")}
