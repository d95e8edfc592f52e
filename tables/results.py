"""Finished games as result rows, one per seat: written with the final save, read for stats and history."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from engine.core import level_name
from tables.models import Table, TableStatus

log = logging.getLogger(__name__)

_COLUMNS = (
    "table_id, seat, game, guild_id, user_id, bot, replaced, name, rank, score, breakdown, options, "
    "players, started_at, ended_at, moves"
)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """How one seat of a finished game ended."""

    table_id: int
    seat: int
    game: str
    guild_id: int
    user_id: int | None
    """The player's user id; None for a bot seated in the lobby."""
    bot: str | None
    """The level of the bot that played the seat at the end (a lobby bot, or one standing in)."""
    replaced: bool
    """A bot was playing this human's seat at the end (the player left or was away too long)."""
    name: str
    rank: int
    """1 for the winners; ties share a rank."""
    score: int
    breakdown: dict[str, int]
    options: dict[str, Any]
    players: int
    started_at: float
    ended_at: float
    moves: int
    """Moves that stand in the record (undone moves and undo requests not counted)."""

    @property
    def is_human(self) -> bool:
        """Whether a person holds this seat (even if a bot finished it for them)."""
        return self.user_id is not None

    @property
    def forfeited(self) -> bool:
        """Whether the person had left the game to a bot when it ended (counted as last)."""
        return self.user_id is not None and self.replaced

    @property
    def won(self) -> bool:
        """Whether this seat won a game of two or more players, by its own play."""
        return self.rank == 1 and self.players >= 2 and not self.forfeited


MoveCounter = Callable[[sqlite3.Connection, int], int]
"""How many moves a stored game has (not taken back), from its log as the store keeps it."""


def on_saved(
    db: sqlite3.Connection, old: Table, new: Table, count_moves: MoveCounter
) -> tuple[ResultRow, ...]:
    """Record what a save means for results, inside its transaction; return the rows written.

    A game that starts gets its start time; a game that this save finishes gets its result rows.
    Any other save (an abandoned game included) writes nothing.
    """
    if old.status is TableStatus.LOBBY and new.status is TableStatus.PLAYING:
        _run(db, "UPDATE tables SET started_at = ? WHERE id = ?", (new.updated_at, new.id))
        return ()
    if new.status is not TableStatus.FINISHED or old.status is TableStatus.FINISHED:
        return ()
    return write_results(db, new, count_moves)


def write_results(db: sqlite3.Connection, table: Table, count_moves: MoveCounter) -> tuple[ResultRow, ...]:
    """Write one row per seat of a finished table, unless it has rows already; return those written."""
    with closing(db.execute("SELECT 1 FROM results WHERE table_id = ? LIMIT 1", (table.id,))) as cur:
        if cur.fetchone() is not None:
            return ()
    outcome = table.outcome
    if table.status is not TableStatus.FINISHED or outcome is None:
        return ()
    with closing(db.execute("SELECT started_at, created_at FROM tables WHERE id = ?", (table.id,))) as cur:
        found = cur.fetchone()
    started = float(found[0] if found and found[0] is not None else table.created_at)
    moves = count_moves(db, table.id)
    rows = tuple(
        ResultRow(
            table_id=table.id,
            seat=index,
            game=table.game,
            guild_id=table.guild_id,
            user_id=seat.user_id,
            bot=level_name(seat.bot) if seat.bot is not None else None,
            replaced=seat.user_id is not None and seat.replaced,
            name=seat.name,
            rank=outcome.ranks[index],
            score=outcome.scores[index],
            breakdown=dict(outcome.breakdown[index]) if index < len(outcome.breakdown) else {},
            options=dict(table.options),
            players=len(table.seats),
            started_at=started,
            ended_at=table.updated_at,
            moves=moves,
        )
        for index, seat in enumerate(table.seats)
    )
    insert_rows(db, rows)
    return rows


def insert_rows(db: sqlite3.Connection, rows: Sequence[ResultRow]) -> None:
    """Store result rows as they are (a (table, seat) that has one already is refused: IntegrityError)."""
    with closing(
        db.executemany(
            f"INSERT INTO results ({_COLUMNS}) VALUES ({', '.join('?' for _ in range(16))})",
            [_to_db(row) for row in rows],
        )
    ):
        pass


def backfill(db: sqlite3.Connection, tables: Sequence[Table], count_moves: MoveCounter) -> int:
    """Write the rows of finished tables that have none (ended before results were kept); return how many."""
    done = 0
    for table in sorted(tables, key=lambda t: (t.updated_at, t.id)):
        if write_results(db, table, count_moves):
            done += 1
    return done


# -- reads -------------------------------------------------------------------


def game_results(db: sqlite3.Connection, table_id: int) -> tuple[ResultRow, ...]:
    """The rows of one finished game, by seat (empty if it has none)."""
    return _select(db, "table_id = ? ORDER BY seat", (table_id,))


def player_games(
    db: sqlite3.Connection, guild_id: int, user_id: int, game: str | None = None
) -> tuple[ResultRow, ...]:
    """Every row of the games a player sat at in a server (all their tables' seats), oldest game first."""
    where = "guild_id = ? AND user_id = ?" + (" AND game = ?" if game is not None else "")
    params: tuple[Any, ...] = (guild_id, user_id) + ((game,) if game is not None else ())
    return _select(
        db,
        f"table_id IN (SELECT table_id FROM results WHERE {where}) ORDER BY ended_at, table_id, seat",
        params,
    )


def games_played(db: sqlite3.Connection, guild_id: int, user_id: int) -> dict[str, int]:
    """How many finished games of each game a player has in a server, most played first."""
    with closing(
        db.execute(
            "SELECT game, COUNT(*) AS n FROM results WHERE guild_id = ? AND user_id = ? GROUP BY game "
            "ORDER BY n DESC, game",
            (guild_id, user_id),
        )
    ) as cur:
        return {str(row[0]): int(row[1]) for row in cur.fetchall()}


def all_results(db: sqlite3.Connection) -> tuple[ResultRow, ...]:
    """Every result row, in the order the games were recorded (the ratings' order)."""
    return _select(
        db,
        "TRUE ORDER BY (SELECT MIN(id) FROM results first WHERE first.table_id = results.table_id), seat",
        (),
    )


def _select(db: sqlite3.Connection, where: str, params: Sequence[Any]) -> tuple[ResultRow, ...]:
    with closing(db.execute(f"SELECT {_COLUMNS} FROM results WHERE {where}", params)) as cur:
        return tuple(_from_db(row) for row in cur.fetchall())


def _to_db(row: ResultRow) -> tuple[Any, ...]:
    return (
        row.table_id,
        row.seat,
        row.game,
        row.guild_id,
        row.user_id,
        row.bot,
        int(row.replaced),
        row.name,
        row.rank,
        row.score,
        json.dumps(row.breakdown, sort_keys=True),
        json.dumps(row.options, sort_keys=True),
        row.players,
        row.started_at,
        row.ended_at,
        row.moves,
    )


def _from_db(row: Sequence[Any]) -> ResultRow:
    return ResultRow(
        table_id=int(row[0]),
        seat=int(row[1]),
        game=str(row[2]),
        guild_id=int(row[3]),
        user_id=row[4],
        bot=row[5],
        replaced=bool(row[6]),
        name=str(row[7]),
        rank=int(row[8]),
        score=int(row[9]),
        breakdown=json.loads(row[10]),
        options=json.loads(row[11]),
        players=int(row[12]),
        started_at=float(row[13]),
        ended_at=float(row[14]),
        moves=int(row[15]),
    )


def _run(db: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> None:
    with closing(db.execute(sql, params)):
        pass
