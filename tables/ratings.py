"""OpenSkill ratings per game and per server, updated by each finished game and rebuilt from the results.

Run `python -m tables.ratings rebuild [--db PATH]` to recompute every rating from the stored
results (after a change of the settings below, or to count games finished before results were kept).

What counts (see README, "Ratings"): every finished game of two or more seats with a person in
it. Each person's rating moves; a bot plays at the fixed rating of its level and never moves, so a
game against bots counts for the people in it (and is marked as such: `Rating.bot_games`). A
person whose seat a bot was playing when the game ended (they left, or were away too long)
forfeited: they are ranked last, whatever the bot made of their seat.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sqlite3
import sys
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine.core import DEFAULT_LEVEL
from engine.words import count
from tables.results import ResultRow, all_results

MODEL = PlackettLuce()
"""Plackett-Luce, OpenSkill's model for free-for-all games of any number of players (mu 25, sigma 25/3)."""

BOT_SIGMA = 1.0
BOT_RATINGS: Mapping[str, float] = {"random": 10.0, "easy": 17.0, "normal": 25.0, "hard": 31.0}
"""The fixed mu of each bot level (sigma BOT_SIGMA): a new player is rated like a normal bot."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating in one game on one server."""

    mu: float
    sigma: float
    """The uncertainty: high for a newcomer, shrinking with every game."""
    games: int = 0
    """Rated games played."""
    bot_games: int = 0
    """Of those, games with at least one bot seated from the lobby."""

    @property
    def conservative(self) -> float:
        """mu - 3 sigma (OpenSkill's ordinal): the rating the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)
"""The rating of someone who has played no rated game."""


@dataclass(frozen=True, slots=True)
class Change:
    """A person's rating after one rated game."""

    table_id: int
    seat: int
    guild_id: int
    game: str
    user_id: int
    rating: Rating
    vs_bots: bool
    ended_at: float


def bot_rating(level: str | None) -> tuple[float, float]:
    """The fixed (mu, sigma) of a bot level (an unknown level plays like the default one)."""
    mu = BOT_RATINGS.get(level or DEFAULT_LEVEL, BOT_RATINGS[DEFAULT_LEVEL])
    return mu, BOT_SIGMA


def is_rated(rows: Sequence[ResultRow]) -> bool:
    """Whether a finished game moves ratings: two or more seats, at least one of them a person's."""
    return len(rows) >= 2 and any(row.is_human for row in rows)


def rate(rows: Sequence[ResultRow], current: Mapping[int, Rating]) -> list[Change]:
    """The people's ratings after one game, from their ratings before it (by user id); bots stay fixed."""
    if not is_rated(rows):
        return []
    last = max(row.rank for row in rows) + 1
    teams = []
    for row in rows:
        if row.user_id is not None:
            before = current.get(row.user_id, NEW)
            teams.append([MODEL.rating(mu=before.mu, sigma=before.sigma)])
        else:
            mu, sigma = bot_rating(row.bot)
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    ranks: list[float] = [float(last if row.forfeited else row.rank) for row in rows]
    after = MODEL.rate(teams, ranks=ranks)
    vs_bots = any(not row.is_human for row in rows)
    changes = []
    for row, team in zip(rows, after, strict=True):
        if row.user_id is None:
            continue
        before = current.get(row.user_id, NEW)
        rating = Rating(team[0].mu, team[0].sigma, before.games + 1, before.bot_games + int(vs_bots))
        changes.append(
            Change(row.table_id, row.seat, row.guild_id, row.game, row.user_id, rating, vs_bots, row.ended_at)
        )
    return changes


# -- in the database ---------------------------------------------------------------


def rate_game(db: sqlite3.Connection, rows: Sequence[ResultRow]) -> list[Change]:
    """Move the ratings of one game's people, inside the transaction that wrote its results."""
    if not is_rated(rows):
        return []
    guild_id, game = rows[0].guild_id, rows[0].game
    current = {}
    for row in rows:
        if row.user_id is not None:
            found = rating_of(db, guild_id, game, row.user_id)
            if found is not None:
                current[row.user_id] = found
    changes = rate(rows, current)
    _write(db, changes)
    return changes


def rebuild(db: sqlite3.Connection) -> tuple[int, int]:
    """Recompute every rating from the stored results, in their recorded order; return (games, people)."""
    _exec(db, "DELETE FROM rating_history")
    _exec(db, "DELETE FROM ratings")
    current: dict[tuple[int, str, int], Rating] = {}
    changes: list[Change] = []
    games = 0
    for _, group in itertools.groupby(all_results(db), key=lambda row: row.table_id):
        rows = list(group)
        guild_id, game = rows[0].guild_id, rows[0].game
        mine = {key[2]: rating for key, rating in current.items() if key[:2] == (guild_id, game)}
        done = rate(rows, mine)
        if done:
            games += 1
        for change in done:
            current[(change.guild_id, change.game, change.user_id)] = change.rating
        changes.extend(done)
    _write(db, changes)
    return games, len(current)


def rating_of(db: sqlite3.Connection, guild_id: int, game: str, user_id: int) -> Rating | None:
    """A person's current rating in a game on a server, or None before their first rated game."""
    with closing(
        db.execute(
            "SELECT mu, sigma, games, bot_games FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
    ) as cur:
        row = cur.fetchone()
    return None if row is None else Rating(float(row[0]), float(row[1]), int(row[2]), int(row[3]))


def history(db: sqlite3.Connection, guild_id: int, game: str, user_id: int) -> list[Change]:
    """A person's rating after each of their rated games, oldest first."""
    with closing(
        db.execute(
            "SELECT h.table_id, h.seat, h.mu, h.sigma, h.vs_bots, h.ended_at FROM rating_history h "
            "WHERE h.guild_id = ? AND h.game = ? AND h.user_id = ? "
            "ORDER BY (SELECT MIN(id) FROM results r WHERE r.table_id = h.table_id)",
            (guild_id, game, user_id),
        )
    ) as cur:
        rows = cur.fetchall()
    changes = []
    for games, row in enumerate(rows, start=1):
        rating = Rating(float(row[2]), float(row[3]), games)
        changes.append(
            Change(int(row[0]), int(row[1]), guild_id, game, user_id, rating, bool(row[4]), float(row[5]))
        )
    return changes


def table_moves(db: sqlite3.Connection, table_id: int) -> dict[int, tuple[float, float]]:
    """How one finished game moved its people's ratings: (mu before, mu after) by seat, none if unrated.

    "Before" is the rating the person's `history` holds just ahead of this game, or a newcomer's.
    """
    with closing(
        db.execute(
            "SELECT seat, guild_id, game, user_id FROM rating_history WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    ) as cur:
        seats = cur.fetchall()
    moves = {}
    for seat, guild_id, game, user_id in seats:
        past = history(db, guild_id, game, user_id)
        at = next(i for i, change in enumerate(past) if change.table_id == table_id)
        before = past[at - 1].rating.mu if at else NEW.mu
        moves[int(seat)] = (before, past[at].rating.mu)
    return moves


def leaderboard(
    db: sqlite3.Connection, guild_id: int, game: str, *, limit: int, offset: int = 0
) -> list[tuple[int, Rating]]:
    """A server's rated people in a game, best conservative rating first: (user id, rating)."""
    with closing(
        db.execute(
            "SELECT user_id, mu, sigma, games, bot_games FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
    ) as cur:
        rows = cur.fetchall()
    return [(int(r[0]), Rating(float(r[1]), float(r[2]), int(r[3]), int(r[4]))) for r in rows]


def rated_count(db: sqlite3.Connection, guild_id: int, game: str) -> int:
    """How many people have a rating in a game on a server."""
    with closing(
        db.execute("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
    ) as cur:
        row = cur.fetchone()
    return int(row[0]) if row else 0


def _write(db: sqlite3.Connection, changes: Iterable[Change]) -> None:
    changes = list(changes)
    with closing(
        db.executemany(
            "INSERT INTO rating_history (table_id, seat, guild_id, game, user_id, mu, sigma, vs_bots, "
            "ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    c.table_id,
                    c.seat,
                    c.guild_id,
                    c.game,
                    c.user_id,
                    c.rating.mu,
                    c.rating.sigma,
                    int(c.vs_bots),
                    c.ended_at,
                )
                for c in changes
            ],
        )
    ):
        pass
    with closing(
        db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, bot_games) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games, bot_games = excluded.bot_games",
            [
                (
                    c.guild_id,
                    c.game,
                    c.user_id,
                    c.rating.mu,
                    c.rating.sigma,
                    c.rating.games,
                    c.rating.bot_games,
                )
                for c in changes
            ],
        )
    ):
        pass


def _exec(db: sqlite3.Connection, sql: str) -> None:
    with closing(db.execute(sql)):
        pass


# -- the command -------------------------------------------------------------------


async def _rebuild_file(path: str) -> str:
    from tables.store import Store  # the store imports this module for its save hook

    store = await Store.open(path)
    try:
        backfilled = await store.backfill_results()
        games, people = await store.write(rebuild)
    finally:
        await store.close()
    earlier = (
        f" ({count(backfilled, 'earlier finished game', 'earlier finished games')} got their results first)"
        if backfilled
        else ""
    )
    rated = count(games, "rated game", "rated games")
    return f"rebuilt the ratings of {count(people, 'player', 'players')} from {rated} in {path}{earlier}"


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m tables.ratings rebuild [--db PATH]`: recompute every rating from the stored results."""
    parser = argparse.ArgumentParser(prog="python -m tables.ratings", description=main.__doc__)
    parser.add_argument("command", choices=["rebuild"])
    parser.add_argument(
        "--db",
        default=os.environ.get("MEEPLE_DB", "data/meeple.sqlite3"),
        help="the SQLite file (default: $MEEPLE_DB)",
    )
    args = parser.parse_args(argv)
    from tables.errors import StoreOpenError, StoreUnavailable

    try:
        print(asyncio.run(_rebuild_file(args.db)))
    except (StoreOpenError, StoreUnavailable) as exc:
        print(f"cannot rebuild: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
