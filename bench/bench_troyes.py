"""Troyes engine speed: time per step (apply, with its validation) and full bot games per second.

Run by hand: .venv/bin/python bench/bench_troyes.py [--games N]

Step times are given as CPU time of the thread (what the engine costs) and as wall time (which
also counts the moments the process was not scheduled, large on a loaded machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import spread

from engine.play import run_game
from engine.troyes import RULES


def step_times(seats: int, games: int, policy: str) -> tuple[list[float], list[float], list[float]]:
    """Seconds per apply() (CPU and wall) and per bot decision (CPU) over `games` full games."""
    applies: list[float] = []
    walls: list[float] = []
    decisions: list[float] = []
    for seed in range(games):
        state = RULES.setup(seats, seed=seed)
        while RULES.outcome(state) is None:
            (prompt,) = RULES.prompts(state)
            t0 = time.thread_time()
            action = RULES.bot_action(state, prompt, policy)
            t1 = time.thread_time()
            w1 = time.perf_counter()
            state = RULES.apply(state, prompt.seat, action).state
            w2 = time.perf_counter()
            t2 = time.thread_time()
            decisions.append(t1 - t0)
            applies.append(t2 - t1)
            walls.append(w2 - w1)
    return applies, walls, decisions


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    print(f"Troyes engine benchmark, {args.games} games per line")
    for policy in ("random", "greedy"):
        for seats in (2, 3, 4):
            applies, walls, decisions = step_times(seats, args.games, policy)
            print(
                f"{policy:6} {seats}p  steps/s {len(applies) / sum(applies):6.0f}  "
                f"apply cpu {spread(applies, ('p50', 'p99', 'max'), 'ms', '.3f')}, "
                f"wall {spread(walls, ('p99',), 'ms', '.3f')}  | "
                f"bot cpu {spread(decisions, ('p50', 'p99'), 'ms', '.3f')}  | "
                f"{len(applies) / args.games:.0f} steps/game"
            )
    for policy in ("random", "greedy"):
        for seats in (2, 3, 4):
            start = time.perf_counter()
            for seed in range(args.games):
                run_game(RULES, seats, seed, policies=[policy] * seats)
            elapsed = time.perf_counter() - start
            print(f"full games, {policy:6} {seats}p: {args.games / elapsed:6.1f} games/s")


if __name__ == "__main__":
    main()
