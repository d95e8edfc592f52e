"""Troyes bot time per move, by level and table size: wall clock and CPU time, p50/p95/max.

Run by hand (not a test), alone on the machine for the wall-clock figures, for example:
    .venv/bin/python bench/bench_troyes_bots.py --games 6 --players 2,3,4

Each game seats one hard bot (its seat turning with the seed), one easy bot from three players
on, and normal bots; every decision is timed by level. The CPU time (this thread's) is what a
move costs on an idle core; the wall clock is what a table waits, load included. The hard
bot's search stops at its wall-clock budget (engine/troyes/rules.py HARD_BUDGET).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Sequence

from timing import nearest_rank

from engine.troyes import RULES


def seats_of(players: int, seed: int) -> tuple[str, ...]:
    """The levels at a table: one hard bot, an easy one from three players on, normal ones."""
    levels = ["hard", "normal", "easy", "normal"][:players]
    shift = seed % players
    return tuple(levels[shift:] + levels[:shift])


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per table size")
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    args = parser.parse_args(argv)

    wall: dict[tuple[int, str], list[float]] = defaultdict(list)
    cpu: dict[tuple[int, str], list[float]] = defaultdict(list)
    for players in (int(p) for p in args.players.split(",")):
        for seed in range(args.seed, args.seed + args.games):
            levels = seats_of(players, seed)
            state = RULES.setup(players, None, seed)
            while RULES.outcome(state) is None:
                prompt = RULES.prompts(state)[0]
                level = levels[prompt.seat]
                start, start_cpu = time.perf_counter(), time.thread_time()
                action = RULES.bot_action(state, prompt, level)
                cpu[(players, level)].append(time.thread_time() - start_cpu)
                wall[(players, level)].append(time.perf_counter() - start)
                state = RULES.apply(state, prompt.seat, action).state

    print(f"Troyes bots, {args.games} games per table size from seed {args.seed}")
    print(f"\n{'players level':16} {'moves':>6} {'wall p50':>9} {'p95':>8} {'max':>8}", end="")
    print(f" {'cpu p50':>8} {'p95':>8}")
    for key in sorted(wall):
        players, level = key
        w, c = wall[key], cpu[key]
        print(
            f"{players}p {level:12} {len(w):6d} {nearest_rank(w, 0.5) * 1e3:7.1f}ms"
            f" {nearest_rank(w, 0.95) * 1e3:6.0f}ms {max(w) * 1e3:6.0f}ms"
            f" {nearest_rank(c, 0.5) * 1e3:6.1f}ms {nearest_rank(c, 0.95) * 1e3:6.0f}ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
