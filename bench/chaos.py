"""Chaos run: the real bot.py killed with SIGKILL (at Start, at stored moves, while boards are
posted or edited, while clicks are answered, at random) over full games, restarted, played on.

Usage: .venv/bin/python bench/chaos.py [--kills 100] [--per-game 4] [--lanes 2] [--seed 1]
                                       [--minutes 60] [--only acked,post]

Each lane is its own fake Discord (127.0.0.1) and bot.py; games cycle through every game on
Discord. Prints: games finished, moves lost, moves doubled, boards behind the stored version
10 s after a restart, live duplicate boards, and one line per failure with the seed and game
index that reproduce it (same seed and game index: same game, seating and kill instants).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.chaos import KILL_KINDS, Figures, GameRun, plan_kinds  # noqa: E402
from tests.e2e.lane import Lane, games_on_discord  # noqa: E402


async def lane_run(number: int, args: argparse.Namespace, quota: list[int], stop_at: float) -> Figures:
    """Play games on one lane until the kill quota is used up or time runs out."""
    import random

    games = games_on_discord()
    total = Figures()
    with tempfile.TemporaryDirectory(prefix=f"chaos-lane{number}-") as tmp:
        lane = Lane(Path(tmp))
        await lane.open()
        try:
            index = number
            while quota[0] > 0 and time.monotonic() < stop_at:
                count = min(args.per_game, quota[0])
                quota[0] -= count
                rng = random.Random(f"{args.seed}:{index}")
                spec = games[index % len(games)]
                kinds = plan_kinds(rng, count, args.only)
                label = f"seed={args.seed} game={index}"
                print(f"{label} {spec.game}: kills {kinds}", flush=True)
                run = GameRun(lane, spec, kinds, rng, label, lambda line: print(line, flush=True))
                try:
                    figures = await run.run(min(stop_at, time.monotonic() + args.game_limit))
                except (AssertionError, TimeoutError) as error:
                    run.fail(f"harness step failed: {str(error).splitlines()[0][:200]}")
                    figures = run.figures
                    lane.fake.release_all()
                    if lane.bot is None or lane.bot.proc is None or lane.bot.proc.returncode is not None:
                        await lane.start_bot()
                total.add(figures)
                # A kill that never came (the game got stuck first) goes back to the quota.
                quota[0] += count - figures.kills
                index += args.lanes
        finally:
            await lane.close()
        total.failures += [f"lane {number} fake Discord: {p}" for p in lane.fake.problems]
    return total


async def run(args: argparse.Namespace) -> Figures:
    """Run the lanes side by side and add up their figures."""
    quota = [args.kills]
    stop_at = time.monotonic() + args.minutes * 60
    results = await asyncio.gather(*(lane_run(n, args, quota, stop_at) for n in range(args.lanes)))
    total = Figures()
    for figures in results:
        total.add(figures)
    return total


def main() -> None:
    """Parse the arguments, run, print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=100, help="kills in all (those made, not planned)")
    parser.add_argument("--per-game", type=int, default=4, help="kills per game")
    parser.add_argument("--lanes", type=int, default=2, help="fakes and bots run side by side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=60, help="stop starting games after this")
    parser.add_argument("--game-limit", type=float, default=300, help="seconds one game may take")
    parser.add_argument(
        "--only",
        type=lambda text: tuple(text.split(",")),
        default=KILL_KINDS,
        help=f"kill only at these instants, comma-separated (of {', '.join(KILL_KINDS)})",
    )
    args = parser.parse_args()
    unknown = set(args.only) - set(KILL_KINDS)
    if unknown:
        parser.error(f"unknown kill instants: {', '.join(sorted(unknown))}")
    started = time.monotonic()
    figures = asyncio.run(run(args))
    print(f"\n== chaos: {time.monotonic() - started:.0f} s, {args.lanes} lane(s), seed {args.seed} ==")
    print(figures.summary())
    for line in figures.failures:
        print("  " + line)
    print("goals met" if figures.goals_met else "goals NOT met")
    sys.exit(0 if figures.goals_met else 1)


if __name__ == "__main__":
    main()
