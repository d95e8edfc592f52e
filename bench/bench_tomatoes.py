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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import record_games, spread, time_steps

from engine.tomatoes import RULES

POINTS = ("p50", "p99", "max")


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
            records, wall = record_games(RULES, args.players, args.games, policy)
            rates.append(len(records) / wall)
        steps = sum(len(r.moves) for r in records)
        applies, prompts, choices, engine = time_steps(RULES, records)
        print(f"\n{policy} bots: {steps / len(records):.0f} steps per game")
        print(
            f"  full games with bots (run_game):   {max(rates):8.1f} games/s best of {len(rates)}, "
            f"median {statistics.median(rates):.1f}"
        )
        print(
            f"  engine only (apply, replayed):     {len(records) / engine:8.1f} games/s, "
            f"{len(applies) / engine:8.0f} steps/s"
        )
        print(f"  apply per step:        {spread(applies, (*POINTS, 'mean'))}")
        print(f"  prompts per step:      {spread(prompts, POINTS)}")
        print(f"  greedy choice per step:{spread(choices, POINTS)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
