"""Replay animations: build time, size and frame count of a whole game's GIF, from its record.

Run by hand: .venv/bin/python bench/bench_replay.py [--seeds 3]

The cases are the ones issue 15 names: a 4-player Troyes game and a 6-player Diced Tomatoes
game, played by normal-level bots. "build" is `renderers.replay.animation` end to end (replay
through the engine, drawing every turn, palette, GIF encoding); the goal is under 10 s and
under 8 MB (Discord's attachment limit for everyone). Wall time, and CPU time beside it, since
other processes on the machine stretch the wall time.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games import GAMES, get_rules
from engine.play import run_game
from renderers.replay import animation, frames_of, turns

CASES = tuple((game.id, game.seats) for game in GAMES.values() if game.renderer is not None)
NAMES = ("Ana", "Bartholomew", "Chloé", "Dmitri", "Eun-ji", "Farah")
LIMIT_BYTES = 8 * 1024 * 1024
LIMIT_SECONDS = 10.0


def main() -> None:
    """Print one line per game and seed, then the worst case per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--webp", action="store_true", help="also time animated WebP on the same frames")
    args = parser.parse_args()
    animation(run_game(get_rules("tomatoes"), 2, 0).record, NAMES[:2])  # warm fonts and palettes
    for game, players in CASES:
        worst_wall = worst_size = 0.0
        for seed in range(1, args.seeds + 1):
            record = run_game(get_rules(game), players, seed).record
            wall, cpu = time.perf_counter(), time.process_time()
            built = animation(record, NAMES[:players])
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            worst_wall, worst_size = max(worst_wall, wall), max(worst_size, len(built.data))
            print(
                f"{game:8} {players}p seed {seed}: {len(record.moves):4} moves, {built.frames:3} frames "
                f"of {built.size[0]}x{built.size[1]}, {len(built.data) / 1e6:5.2f} MB, "
                f"build {wall:5.2f} s wall ({cpu:5.2f} s CPU), {1000 * wall / built.frames:4.0f} ms/frame"
            )
            if args.webp:
                compare_webp(record, players)
        verdict = "ok" if worst_wall < LIMIT_SECONDS and worst_size < LIMIT_BYTES else "OVER THE GOAL"
        print(f"{game:8} {players}p worst: {worst_size / 1e6:.2f} MB, {worst_wall:.2f} s -> {verdict}")


def compare_webp(record: object, players: int) -> None:
    """Encode the same frames as animated WebP (lossless fast and slow, lossy) and print size and time."""
    frames = [frame.convert("RGB") for frame in frames_of(record.game, turns(record), NAMES[:players])]  # type: ignore[arg-type]
    settings = (
        ("lossless, method 0", {"lossless": True, "method": 0, "quality": 0}),
        ("lossless, method 4", {"lossless": True, "method": 4, "quality": 50}),
        ("lossy q80, method 0", {"quality": 80, "method": 0}),
    )
    for label, options in settings:
        buffer = io.BytesIO()
        wall = time.perf_counter()
        frames[0].save(
            buffer, format="WEBP", save_all=True, append_images=frames[1:], duration=1200, **options
        )
        wall = time.perf_counter() - wall
        print(f"    WebP {label:20}: {len(buffer.getvalue()) / 1e6:5.2f} MB, encode {wall:5.2f} s")


if __name__ == "__main__":
    main()
