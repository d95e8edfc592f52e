"""Board image speed: time to draw a board (p50/p95) beside the time to encode it (lossless WebP).

Run by hand: .venv/bin/python bench/bench_render.py [--boards 60] [--names latin|world]

For each game and player count, boards are taken evenly from seeded greedy-bot games.
"draw" = the game's `render` (Pillow image); "encode" = `renderers.encode` of that image
(palette reduction and lossless WebP at the renderer's effort); "total" is what `render_file` costs the
cog's worker thread.
The last column is the file size (p50 / max). CPU time, so other processes do not inflate it.
--names world seats players named in Korean, Polish, Danish, Chinese, emoji and Russian (their
runs drawn with DejaVu, Noto Sans CJK and Noto Color Emoji) instead of Latin names.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import percentile, spread

import renderers
from engine.games import GAMES, get_rules
from renderers import render
from renderers.playout import states

clock = time.process_time
CASES = tuple((game.id, game.sample_seats) for game in GAMES.values() if game.renderer is not None)
NAMES = {
    "latin": ("Ana", "Bartholomew", "Chloé", "Dmitri", "Eun-ji", "Farah"),
    "world": ("민지", "Zażółć", "Ærøskøbing", "王芳", "🍅Ann 👍🏽", "Наталья"),
}


def ms(values: list[float]) -> str:
    """p50 / p95 in milliseconds."""
    return spread(values, ("p50", "p95"), "ms", "5.1f")


def sample(game: str, players: int, boards: int) -> list[object]:
    """`boards` states spread over seeded bot games of `game`."""
    rules = get_rules(game)
    picked: list[object] = []
    seed = 1
    while len(picked) < boards:
        every = list(states(rules, players, seed))
        step = max(1, len(every) // 20)
        picked += [rules.view(s, None) for s in every[::step]]
        seed += 1
    return picked[:boards]


def main() -> None:
    """Print the figures for every game and player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--names", choices=sorted(NAMES), default="latin")
    args = parser.parse_args()
    names = NAMES[args.names]
    for game, counts in CASES:
        for players in counts:
            views = sample(game, players, args.boards)
            render(game, views[0], None, names[:players])  # warm the font and icon caches
            draw: list[float] = []
            encode: list[float] = []
            total: list[float] = []
            sizes: list[int] = []
            for view in views:
                start = clock()
                image = render(game, view, None, names[:players])
                drawn = clock()
                data = renderers.encode(game, image)
                done = clock()
                draw.append(drawn - start)
                encode.append(done - drawn)
                total.append(done - start)
                sizes.append(len(data))
            size = f"{percentile([float(s) for s in sizes], 0.5) / 1e3:.0f}/{max(sizes) / 1e3:.0f} kB"
            print(f"{game:9} {players}p  draw {ms(draw)} | encode {ms(encode)} | total {ms(total)} | {size}")


if __name__ == "__main__":
    main()
