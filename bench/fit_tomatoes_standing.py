"""Fit the hard Diced Tomatoes bot's standing model (engine/tomatoes/standing.py) to real results.

Run by hand (not a test), for example:
    .venv/bin/python bench/fit_tomatoes_standing.py --games 3000

Plays normal-v-normal 2-player games (seeds from --first on), keeps the position at the start of
every turn, and fits by least squares the final margin of the player to move on the difference
of the two players' features (and a constant: the edge of moving) over the first four fifths of
the games. Prints the weights to paste as WEIGHTS and the R² on those games and on the last
fifth, held out.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from fitting import solve

from engine.rng import Rng
from engine.tomatoes import RULES
from engine.tomatoes.bots import GreedyBot, bot_view
from engine.tomatoes.standing import FEATURES, features
from engine.tomatoes.state import Phase

Row = tuple[list[float], float]


def positions(seed: int) -> list[Row]:
    """A normal-v-normal game's turn starts: the players' feature differences, the mover's final margin."""
    bot = GreedyBot()
    state = RULES.setup(2, None, seed)
    seen: list[tuple[int, list[float]]] = []
    while (outcome := RULES.outcome(state)) is None:
        prompt = RULES.prompts(state)[0]
        if state.phase is Phase.ROLL:
            mover = prompt.seat
            mine, theirs = features(state, mover), features(state, 1 - mover)
            seen.append((mover, [a - b for a, b in zip(mine, theirs, strict=True)]))
        action = bot.choose(bot_view(state), prompt, Rng(0))
        state = RULES.apply(state, prompt.seat, action).state
    scores = outcome.scores
    return [(x, float(scores[mover] - scores[1 - mover])) for mover, x in seen]


def least_squares(rows: Sequence[Row]) -> list[float]:
    """Weights (and a constant last) minimising the squared error, by the normal equations."""
    size = len(rows[0][0]) + 1
    matrix = [[0.0] * size for _ in range(size)]
    vector = [0.0] * size
    for x, y in rows:
        full = [*x, 1.0]
        for i in range(size):
            if full[i]:
                row = matrix[i]
                for j in range(size):
                    row[j] += full[i] * full[j]
                vector[i] += full[i] * y
    for i in range(size):
        matrix[i][i] += 1e-9 * len(rows)  # a feature that never varies stays solvable
    return solve(matrix, vector)


def r_squared(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """The share of the margin's variance the weights explain."""
    mean = sum(y for _, y in rows) / len(rows)
    total = sum((y - mean) ** 2 for _, y in rows)
    error = sum((y - sum(w * v for w, v in zip(weights, [*x, 1.0], strict=True))) ** 2 for x, y in rows)
    return 1 - error / total


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--first", type=int, default=200_000, help="first seed (away from the bench's)")
    args = parser.parse_args(argv)
    games = [positions(seed) for seed in range(args.first, args.first + args.games)]
    cut = len(games) * 4 // 5
    train = [row for game in games[:cut] for row in game]
    test = [row for game in games[cut:] for row in game]
    weights = least_squares(train)
    fit, held_out = r_squared(train, weights), r_squared(test, weights)
    print(f"{len(train)} positions, R² {fit:.3f}, held out {held_out:.3f}\n")
    for name, weight in zip((*FEATURES, "constant"), weights, strict=True):
        print(f"{name:10} {weight:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
