"""A player's record in one game on one server, from the result rows of the games they sat at."""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tables import ratings, results
from tables.ratings import Change, Rating
from tables.results import ResultRow
from tables.store import Store


@dataclass(frozen=True, slots=True)
class Opponent:
    """Someone a player has met: how often, and how often the player finished ahead."""

    user_id: int
    name: str
    games: int
    ahead: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Games, wins, scores and streaks of one player (solo games count in games and scores only)."""

    games: int
    solo_games: int
    bot_games: int
    """Games with a bot seated from the lobby."""
    wins: int
    average_score: float
    best_score: int
    longest_streak: int
    """The most games of two or more players won in a row."""
    opponents: tuple[Opponent, ...]
    """The people met most often, most first (at most three)."""

    @property
    def win_rate(self) -> float | None:
        """Wins per game of two or more players, or None without such games."""
        versus = self.games - self.solo_games
        return self.wins / versus if versus else None


def player_stats(rows: Sequence[ResultRow], user_id: int) -> PlayerStats | None:
    """The record of `user_id` over `rows` (every seat of their games, oldest first); None without games."""
    mine: list[ResultRow] = []
    met: Counter[int] = Counter()
    ahead: Counter[int] = Counter()
    names: dict[int, str] = {}
    bot_games = 0
    for _, group in itertools.groupby(rows, key=lambda row: row.table_id):
        seats = list(group)
        me = next((row for row in seats if row.user_id == user_id), None)
        if me is None:
            continue
        mine.append(me)
        bot_games += any(not row.is_human for row in seats)
        for other in seats:
            if other.user_id is None or other.user_id == user_id:
                continue
            met[other.user_id] += 1
            names[other.user_id] = other.name
            if _standing(me, len(seats)) < _standing(other, len(seats)):
                ahead[other.user_id] += 1
    if not mine:
        return None
    streak = longest = 0
    for row in mine:
        if row.players < 2:
            continue
        streak = streak + 1 if row.won else 0
        longest = max(longest, streak)
    favourites = sorted(met, key=lambda uid: (-met[uid], -ahead[uid], uid))[:3]
    return PlayerStats(
        games=len(mine),
        solo_games=sum(1 for row in mine if row.players < 2),
        bot_games=bot_games,
        wins=sum(1 for row in mine if row.won),
        average_score=sum(row.score for row in mine) / len(mine),
        best_score=max(row.score for row in mine),
        longest_streak=longest,
        opponents=tuple(Opponent(uid, names[uid], met[uid], ahead[uid]) for uid in favourites),
    )


def _standing(row: ResultRow, seats: int) -> int:
    """A seat's place for comparisons: its rank, or behind everyone when its player forfeited."""
    return seats + 1 if row.forfeited else row.rank


# -- read from a store (what the cogs call) -------------------------------------------


@dataclass(frozen=True, slots=True)
class Report:
    """What /stats shows of one player in one game on one server."""

    stats: PlayerStats | None
    rating: Rating | None
    history: tuple[Change, ...]
    """The rating after each rated game, oldest first."""


async def report(store: Store, guild_id: int, user_id: int, game: str) -> Report:
    """A player's record and rating in a game on a server."""

    def read(db: sqlite3.Connection) -> Report:
        rows = results.player_games(db, guild_id, user_id, game)
        rating = ratings.rating_of(db, guild_id, game, user_id)
        history = ratings.history(db, guild_id, game, user_id)
        return Report(player_stats(rows, user_id), rating, tuple(history))

    return await store.read(read)


async def games_played(store: Store, guild_id: int, user_id: int) -> dict[str, int]:
    """How many finished games of each game a player has on a server, most played first."""
    return await store.read(results.games_played, guild_id, user_id)


async def rating_moves(store: Store, table_id: int) -> dict[int, tuple[float, float]]:
    """How a finished game moved its people's ratings: (mu before, mu after) by seat."""
    return await store.read(ratings.table_moves, table_id)


async def leaderboard(
    store: Store, guild_id: int, game: str, page: int, per_page: int
) -> tuple[list[tuple[int, Rating]], int]:
    """One page of a server's best players of a game, and how many are rated in all."""

    def read(db: sqlite3.Connection) -> tuple[list[tuple[int, Rating]], int]:
        rows = ratings.leaderboard(db, guild_id, game, limit=per_page, offset=page * per_page)
        return rows, ratings.rated_count(db, guild_id, game)

    return await store.read(read)
