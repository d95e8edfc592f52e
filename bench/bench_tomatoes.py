"""Diced Tomatoes engine speed: time per step (p50/p99) and full games per second.

Run by hand: .venv/bin/python bench/bench_tomatoes.py [--games 200] [--players 4]

"step" = one `Rules.apply` call: validation (`is_offered`, a direct check of the one action),
the copy, the rules and the end check. Building prompts for the caller and the bot's
choice are timed separately. Games per second are given three ways: replaying recorded games
through `apply` only (the engine alone), and playing them with random or greedy bots through
`engine.play.run_game` (prompts + bot choice + apply every step).

All times are CPU time of this process (time.process_time), so other work on the machine
does not inflate them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Record
from engine.play import run_game
from engine.tomatoes import RULES


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def micro(values: list[float]) -> str:
    """p50 / p99 / max in microseconds."""
    return (
        f"p50 {percentile(values, 0.5) * 1e6:7.1f} us  p99 {percentile(values, 0.99) * 1e6:7.1f} us  "
        f"max {max(values) * 1e6:8.1f} us"
    )


def record_games(players: int, games: int, policy: str) -> tuple[list[Record], float]:
    """Play games with one bot policy for every seat; return the records and the wall time."""
    start = time.process_time()
    records = [run_game(RULES, players, seed, policies=[policy] * players).record for seed in range(games)]
    return records, time.process_time() - start


def time_steps(records: list[Record]) -> tuple[list[float], list[float], list[float], float]:
    """Replay records timing apply, prompts and a greedy choice per step; return the engine-only time."""
    applies: list[float] = []
    prompts: list[float] = []
    choices: list[float] = []
    engine_total = 0.0
    clock = time.process_time  # CPU time: other processes on the machine do not inflate it
    for record in records:
        state = RULES.setup(record.seats, record.options, record.seed)
        for move in record.moves:
            t0 = clock()
            found = RULES.prompts(state)
            t1 = clock()
            RULES.bot_action(state, found[0], "greedy")
            t2 = clock()
            state = RULES.apply(state, move.seat, move.action).state
            t3 = clock()
            prompts.append(t1 - t0)
            choices.append(t2 - t1)
            applies.append(t3 - t2)
            engine_total += t3 - t2
    return applies, prompts, choices, engine_total


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3, help="full-game runs per policy")
    args = parser.parse_args()

    print(f"Diced Tomatoes, {args.players} players, {args.games} games per policy (default options)")
    for policy in ("random", "greedy"):
        # The machine may be shared: several runs, the best is the least disturbed.
        rates = []
        for _ in range(max(1, args.runs)):
            records, wall = record_games(args.players, args.games, policy)
            rates.append(len(records) / wall)
        steps = sum(len(r.moves) for r in records)
        applies, prompts, choices, engine = time_steps(records)
        print(f"\n{policy} bots: {steps / len(records):.0f} steps per game")
        print(
            f"  full games with bots (run_game):   {max(rates):8.1f} games/s best of {len(rates)}, "
            f"median {statistics.median(rates):.1f}"
        )
        print(
            f"  engine only (apply, replayed):     {len(records) / engine:8.1f} games/s, "
            f"{len(applies) / engine:8.0f} steps/s"
        )
        print(f"  apply per step:        {micro(applies)}  mean {statistics.fmean(applies) * 1e6:6.1f} us")
        print(f"  prompts per step:      {micro(prompts)}")
        print(f"  greedy choice per step:{micro(choices)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
