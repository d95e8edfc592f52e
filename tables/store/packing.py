"""The action log read back: live rows with their events, or a finished game's packed moves."""

from __future__ import annotations

import json
import sqlite3
import zlib
from typing import Any

from engine.core import Action
from tables.store.rows import ActionRow, event_from_json


def pack_log(conn: sqlite3.Connection, table_id: int) -> None:
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


def fetch_log(conn: sqlite3.Connection, table_id: int) -> tuple[list[Any], bytes | str | None]:
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


def played_moves(conn: sqlite3.Connection, table_id: int) -> int:
    """How many moves a game has, not counting undos and the moves they took back."""
    rows, packed = fetch_log(conn, table_id)
    if packed is None:
        entries = [(json.loads(row[3]), row[7]) for row in rows]
    else:
        entries = [(entry[3], entry[6]) for entry in unpacked(packed)]
    return sum(1 for action, undone in entries if not undone and action.get("kind") != "undo")


def log_rows(rows: list[Any], packed: bytes | str | None) -> list[ActionRow]:
    """The ActionRows of what `fetch_log` read: the live log, or the packed moves without events."""
    if packed is not None:
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
            for m in sorted(unpacked(packed), key=lambda m: int(m[0]))
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


def unpacked(packed: bytes | str) -> list[Any]:
    """The moves of a packed log, as written by `pack_log` (older ones were stored uncompressed)."""
    if isinstance(packed, bytes):
        # Logs packed by schema step 8 on PostgreSQL are plain JSON in bytea (SQLite's are text).
        text = packed.decode() if packed.startswith(b"[") else zlib.decompress(packed).decode()
    else:
        text = str(packed)
    moves: list[Any] = json.loads(text)
    return moves
