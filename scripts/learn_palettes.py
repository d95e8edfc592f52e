"""Learn each game's fixed PNG palette (renderers/palettes/<game>.png) from boards of seeded bot games.

Run by hand after a renderer's colours change: .venv/bin/python scripts/learn_palettes.py

The kit's named colours are entries of every palette; the rest of the 256 entries are learnt (octree)
from boards spread over games of every player count, so antialiased edges find a close match.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from engine.games import GAMES as REGISTERED
from engine.games import get_rules
from renderers import palette, png, render
from renderers.playout import states

GAMES = tuple(
    (game.id, range(get_rules(game.id).min_players, get_rules(game.id).max_players + 1))
    for game in REGISTERED.values()
    if game.renderer is not None
)
NAMES = ("Ana", "Bartholomew", "Chloé", "Dmitri", "Eun-ji", "Farah")
BOARDS_PER_TABLE = 3


def named_colours() -> list[tuple[int, int, int]]:
    """Every RGB constant of renderers.palette, in order."""
    found: list[tuple[int, int, int]] = []
    for value in vars(palette).values():
        rgb = isinstance(value, tuple) and len(value) == 3 and all(isinstance(c, int) for c in value)
        if rgb and value not in found:
            found.append(value)
    return found


def boards(game: str, seats: range) -> list[Image.Image]:
    """A few boards of each player count, spread over a seeded game, as a seat and a spectator see them."""
    rules = get_rules(game)
    drawn = []
    for players in seats:
        every = list(states(rules, players, 900 + players))
        for index in range(BOARDS_PER_TABLE):
            state = every[(len(every) - 1) * index // (BOARDS_PER_TABLE - 1)]
            viewer = None if index % 2 else 0
            drawn.append(render(game, rules.view(state, viewer), viewer, NAMES[:players]))
    return drawn


def learn(game: str, seats: range) -> Image.Image:
    """The palette image for `game`: the named colours, then the commonest others."""
    images = boards(game, seats)
    strip = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)))
    y = 0
    for image in images:
        strip.paste(image, (0, y))
        y += image.height
    named = named_colours()
    learnt = strip.quantize(256 - len(named), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = learnt.getpalette() or []
    extra = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, min(len(flat), 3 * 256) - 2, 3)]
    colours = named + [c for c in extra if c not in named]
    return png.palette_image(colours[:256])


def main() -> None:
    """Write every game's palette under renderers/palettes/."""
    png.PALETTE_DIR.mkdir(exist_ok=True)
    for game, seats in GAMES:
        path = png.PALETTE_DIR / f"{game}.png"
        learn(game, seats).save(path)
        print(f"{path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
