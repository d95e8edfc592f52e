"""The rows of a table as stored: its columns, the board ledger's columns, log entries and events as JSON."""

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

TABLE_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_id, "
    "status, options, seed, state, version, created_at, updated_at, timing, revision, "
    "board_version, board_movers, board_posting, board_retired, language"
)
"""The columns `build_table` reads; the table's language is the last one."""

BEHIND = (
    "status IN ('playing', 'finished') AND thread_id IS NOT NULL AND (board_version IS NULL "
    "OR board_version < version OR board_posting IS NOT NULL OR board_retired <> '[]')"
)
"""Tables whose board on Discord is not known to show the stored game (see Store.boards_behind)."""


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


def board_columns(table: Table) -> tuple[Any, ...]:
    """The board ledger's columns of a table: version shown, movers, posting, retired messages."""
    return (
        table.board_version,
        json.dumps(list(table.board_movers)),
        table.board_posting,
        json.dumps(list(table.board_retired)),
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
    if row[11] is not None:
        try:
            state = get_rules(game).decode(row[11])
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
        language=str(row[-1]),
    )
