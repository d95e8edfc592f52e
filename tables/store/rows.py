"""The rows of a table as stored: its columns, the board ledger's row, log entries and events as JSON."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.codec import JSON
from engine.core import Action, Event
from engine.games import UnknownGame as EngineUnknownGame
from engine.games import get_rules
from engine.words import N_
from tables.errors import TableError
from tables.models import Deadline, DeadlineKind, SeatInfo, Table, TableStatus, Timing
from tables.shards import ShardSet

TABLE_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, host_id, "
    "status, options, seed, state, version, created_at, updated_at, timing, revision, language"
)
"""The columns `build_table` reads; the table's language is the last one."""


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


def events_json(events: Iterable[Event]) -> str:
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
    return dumps(compact)


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One table's row of the board ledger."""

    table_id: int
    lobby_message_id: int | None = None
    message_id: int | None = None
    """The current board message (whose buttons are live)."""
    version: int | None = None
    """The state version the board message shows; None before the first."""
    movers: tuple[int, ...] = ()
    """The seats the board message showed as to move (a turn change posts a new message)."""
    posting: int | None = None
    """Set while a board message is posted again for a version it already shows (a repost)."""
    retired: tuple[int, ...] = ()
    """Earlier board messages whose buttons are still to strip."""

    def behind(self, version: int) -> bool:
        """Whether the board is not known to show the game at `version`."""
        return (
            self.version is None or self.version < version or self.posting is not None or bool(self.retired)
        )


BOARD_COLUMNS = "table_id, lobby_message_id, message_id, version, movers, posting, retired"

BEHIND = (
    "t.status IN ('playing', 'finished') AND t.thread_id IS NOT NULL AND (b.version IS NULL "
    "OR b.version < t.version OR b.posting IS NOT NULL OR b.retired <> '[]')"
)
"""Tables whose board on Discord is not known to show the stored game (`t` tables, `b` boards)."""


def board_row(record: BoardRecord) -> tuple[Any, ...]:
    """The values of WRITE_BOARD: the table id, then the record's board columns."""
    return (
        record.table_id,
        record.message_id,
        record.version,
        json.dumps(list(record.movers)),
        record.posting,
        json.dumps(list(record.retired)),
    )


WRITE_BOARD = (
    "INSERT INTO boards (table_id, message_id, version, movers, posting, retired) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id, version = excluded.version,"
    " movers = excluded.movers, posting = excluded.posting, retired = excluded.retired"
)
"""Write a record's board columns, its lobby message left as it is (an upsert SQLite and PostgreSQL
both take: a table without a row, copied in by hand, still gets one)."""

WRITE_BOARD_LATER = (
    WRITE_BOARD + " WHERE boards.message_id = excluded.message_id"
    " AND (boards.version IS NULL OR boards.version <= excluded.version)"
)
"""WRITE_BOARD for a record an edit left waiting (Boards.board_later), written with a later move:
only while the ledger still names that message at no later version (a post or a repost written
meanwhile is newer news)."""


def build_record(row: Sequence[Any]) -> BoardRecord:
    """A BoardRecord from a row of BOARD_COLUMNS."""
    return BoardRecord(
        table_id=int(row[0]),
        lobby_message_id=row[1],
        message_id=row[2],
        version=row[3],
        movers=tuple(int(seat) for seat in json.loads(row[4])),
        posting=row[5],
        retired=tuple(int(message) for message in json.loads(row[6])),
    )


def dumps(value: Any) -> str:
    """Compact JSON, keys sorted."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def placeholders(rows: int, columns: int) -> str:
    """`(?, ?), (?, ?)` for a multi-row INSERT."""
    row = f"({', '.join('?' * columns)})"
    return ", ".join([row] * rows)


def fetch_all(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    """Every row of one query (on the database thread)."""
    return conn.execute(sql, params).fetchall()


TableRows = tuple[Sequence[Any], list[Any], list[Any], str | None, list[Any]]
"""A table's row with its seat rows, clock rows, seed salt and barred people, as read."""


def fetch_tables(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[TableRows]:
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


def build_table(
    row: Sequence[Any],
    seat_rows: Sequence[Any],
    deadline_rows: Sequence[Any],
    salt: str | None,
    barred_rows: Sequence[Any] = (),
) -> Table:
    """A Table from its rows as read by `fetch_tables`; TableError if its game or state cannot be read."""
    table_id = int(row[0])
    game = str(row[1])
    state = None
    if row[9] is not None:
        try:
            state = get_rules(game).decode(row[9])
        except (EngineUnknownGame, ModuleNotFoundError) as exc:
            raise TableError(N_("The game {game} is not installed here."), game=repr(game)) from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError(N_("This game's saved position cannot be read.")) from exc
    return Table(
        id=table_id,
        game=game,
        guild_id=int(row[2]),
        channel_id=int(row[3]),
        thread_id=row[4],
        host_id=int(row[5]),
        status=TableStatus(row[6]),
        options=json.loads(row[7]),
        seed=row[8],
        state=state,
        version=int(row[10]),
        created_at=float(row[11]),
        updated_at=float(row[12]),
        timing=Timing.from_json(json.loads(row[13])),
        revision=int(row[14]),
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
        language=str(row[-1]),
    )


def on_shards(shards: ShardSet | None, guild: str = "t.guild_id") -> tuple[str, tuple[int, ...]]:
    """A condition keeping rows whose `guild` (an expression) is on `shards` (None: all); its values."""
    if shards is None:
        return "", ()
    # (guild_id >> 22) % count, written with division: both SQLite and PostgreSQL take it.
    marks = ", ".join("?" for _ in shards.ids)
    return f" AND ({guild} / 4194304) % ? IN ({marks})", (shards.count, *sorted(shards.ids))
