"""Fit the Buttons hard bot's WIN_ODDS: who wins, from the stars on the boards at a round's start.

Run by hand (not a test):
    .venv/bin/python bench/fit_buttons_odds.py --games 2500

Plays 2-player games between normal bots (seeds from 10,000 on, apart from the benches' seeds),
takes both boards at the start of every round, and fits a logistic regression of the result on
the differences of the features `engine.buttons.hard.log_odds` sums: stars, and windows of five
holding 1 to 4 stars. Every tenth position is held out to report the fit's log-loss next to the
coin flip's (0.693). Prints the weights to copy into WIN_ODDS.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from fitting import solve

from engine.buttons import RULES
from engine.buttons.hard import windows_holding
from engine.buttons.state import ButtonsState, Cell

FEATURES = ("stars", "windows with 1", "windows with 2", "windows with 3", "windows with 4")
FIRST_SEED = 10_000


def features(stars: Sequence[Cell]) -> list[float]:
    """Stars, then windows of five holding 1, 2, 3 and 4 of them."""
    return [float(len(set(stars))), *map(float, windows_holding(stars))]


def positions(games: int) -> list[tuple[list[float], float]]:
    """(seat 0's features minus seat 1's, seat 0's result) at every round start, and the mirror."""
    rows: list[tuple[list[float], float]] = []
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        state: ButtonsState = RULES.setup(2, None, seed)
        starts: list[list[float]] = []
        seen_round = 0
        while (outcome := RULES.outcome(state)) is None:
            if state.round != seen_round:
                seen_round = state.round
                mine, theirs = (features(board.stars) for board in state.boards)
                starts.append([a - b for a, b in zip(mine, theirs, strict=True)])
            prompt = RULES.prompts(state)[0]
            state = RULES.apply(state, prompt.seat, RULES.bot_action(state, prompt, "normal")).state
        won = 1.0 if outcome.winners == (0,) else 0.0 if outcome.winners == (1,) else 0.5
        for x in starts:
            rows.append((x, won))
            rows.append(([-v for v in x], 1.0 - won))
    return rows


def fit(rows: list[tuple[list[float], float]], ridge: float = 1e-3) -> list[float]:
    """Logistic regression without intercept (the model is symmetric), by Newton's method."""
    size = len(rows[0][0])
    weights = [0.0] * size
    for _ in range(25):
        grad = [ridge * w for w in weights]
        hess = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for x, y in rows:
            p = 1 / (1 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
            for i in range(size):
                grad[i] += (p - y) * x[i] / len(rows)
                for j in range(size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j] / len(rows)
        step = solve(hess, grad)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def log_loss(weights: list[float], rows: list[tuple[list[float], float]]) -> float:
    """Mean log-loss of the model's predictions."""
    total = 0.0
    for x, y in rows:
        p = 1 / (1 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2500)
    args = parser.parse_args(argv)
    rows = positions(args.games)
    # Both mirrors of a position go to the same side of the split.
    train = [row for k, row in enumerate(rows) if (k // 2) % 10]
    held = [row for k, row in enumerate(rows) if not (k // 2) % 10]
    weights = fit(train)
    print(f"{len(rows) // 2} positions from {args.games} games")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"{name:16} {weight:+.3f}")
    print(f"held-out log-loss {log_loss(weights, held):.4f} (a coin flip: {math.log(2):.4f})")
    print("WIN_ODDS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
