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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.buttons import RULES
from engine.core import Record
from engine.play import run_game

clock = time.process_time


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def micro(values: list[float]) -> str:
    """p50 / p99 in microseconds."""
    return f"p50 {percentile(values, 0.5) * 1e6:6.1f} us  p99 {percentile(values, 0.99) * 1e6:7.1f} us"


def play(players: int, games: int, policy: str) -> tuple[list[Record], float]:
    """Play games with one policy for every seat; return the records and the CPU time."""
    start = clock()
    records = [run_game(RULES, players, seed, policies=[policy] * players).record for seed in range(games)]
    return records, clock() - start


def replay_steps(records: list[Record]) -> tuple[list[float], list[float], list[float], float]:
    """Replay records timing apply, prompts and a greedy choice per step; also the apply-only total."""
    applies: list[float] = []
    prompts: list[float] = []
    choices: list[float] = []
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
    return applies, prompts, choices, sum(applies)


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    print(f"Buttons engine, {args.games} games per line (CPU time)")
    for players in args.players:
        for policy in ("random", "greedy"):
            records, wall = play(players, args.games, policy)
            steps = sum(len(r.moves) for r in records)
            applies, prompts, choices, engine = replay_steps(records)
            print(
                f"{players}p {policy:6}: {steps / len(records):5.0f} steps/game | "
                f"apply {micro(applies)} | prompts {micro(prompts)} | greedy choice {micro(choices)}"
            )
            print(
                f"           games/s: engine alone {len(records) / engine:7.0f}, "
                f"with {policy} bots {len(records) / wall:6.1f}; steps/s engine {steps / engine:8.0f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
