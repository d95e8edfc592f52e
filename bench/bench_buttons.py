"""Buttons engine speed: time per step (p50/p99) and full games per second, for 2, 3 and 4 players.

Run by hand: .venv/bin/python bench/bench_buttons.py [--games 200] [--players 2 3 4]

"step" = one `Rules.apply` call (validation against the prompts, the copy, the rules and the
end check). Building the prompts and a greedy bot's choice are timed separately, per step.
Games per second: replaying recorded games through `apply` alone (the engine), and playing
them with random or greedy bots through `engine.play.run_game` (prompts + choice + apply).
CPU time is measured, so other processes on the machine do not inflate the figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import record_games, spread, time_steps

from engine.buttons import RULES


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    print(f"Buttons engine, {args.games} games per line (CPU time)")
    for players in args.players:
        for policy in ("random", "greedy"):
            records, wall = record_games(RULES, players, args.games, policy)
            steps = sum(len(r.moves) for r in records)
            applies, prompts, choices, engine = time_steps(RULES, records)
            print(
                f"{players}p {policy:6}: {steps / len(records):5.0f} steps/game | "
                f"apply {spread(applies)} | prompts {spread(prompts)} | greedy choice {spread(choices)}"
            )
            print(
                f"           games/s: engine alone {len(records) / engine:7.0f}, "
                f"with {policy} bots {len(records) / wall:6.1f}; steps/s engine {steps / engine:8.0f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
