"""Learn each game's fixed palette (renderers/palettes/<game>.png) from boards of seeded bot games.

Run by hand after a renderer's colours change: .venv/bin/python scripts/learn_palettes.py [game ...]
(every game's palette unless some are named).

The kit's named colours are entries of every palette; the rest of the 256 entries are learnt (octree)
from boards spread over games of every player count, so antialiased edges find a close match.
A renderer that sets PALETTE_MIXES (Troyes) gets a short palette instead: its fills, and the half-way
mix of the commonest pairs of fills meeting at an edge, so that every edge pixel snaps to one of three
steps (smaller files, issue 33).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections import Counter

from PIL import Image, ImageChops

from engine.games import GAMES as REGISTERED
from engine.games import get_rules
from renderers import image_file, module, palette, render
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
    return image_file.palette_image(colours[:256])


RGB = tuple[int, int, int]
FILL_PIXELS = 200
"""A colour is a fill if at least this many pixels of the sample boards lie inside an area of it."""
EDGE_ERROR = 300
"""How far (squared RGB distance) an edge pixel may lie from the line between two fills to count."""


def filled(image: Image.Image) -> Counter[RGB]:
    """Colour -> pixels of it whose four neighbours share it (inside a fill or a stroke, not on an edge)."""
    apart: Image.Image | None = None
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        diff = ImageChops.difference(image, ImageChops.offset(image, dx, dy)).convert("L")
        apart = diff if apart is None else ImageChops.lighter(apart, diff)
    assert apart is not None
    marked = Image.new("RGB", image.size, (1, 2, 3))
    marked.paste(image, (0, 0), apart.point(lambda v: 255 if v == 0 else 0))
    found: Counter[RGB] = Counter({colour: n for n, colour in marked.getcolors(1 << 24) or []})
    found.pop((1, 2, 3), None)
    return found


def _between(colour: RGB, a: RGB, b: RGB) -> float:
    """The squared distance from `colour` to the segment from `a` to `b`."""
    ab = [y - x for x, y in zip(a, b, strict=True)]
    t = sum((p - x) * v for p, x, v in zip(colour, a, ab, strict=True)) / sum(v * v for v in ab)
    t = min(1.0, max(0.0, t))
    return sum((p - (x + t * v)) ** 2 for p, x, v in zip(colour, a, ab, strict=True))


def learn_mixes(game: str, seats: range, pairs: int) -> Image.Image:
    """The named colours and the boards' fills, then the half-way mixes of the `pairs` commonest edges."""
    images = boards(game, seats)
    inside: Counter[RGB] = Counter()
    every: Counter[RGB] = Counter()
    for image in images:
        inside.update(filled(image))
        every.update({colour: n for n, colour in image.getcolors(1 << 24) or []})
    fills = named_colours()
    fills += [c for c, n in inside.most_common() if n >= FILL_PIXELS and c not in fills]
    edges: Counter[tuple[RGB, RGB]] = Counter()
    known = set(fills)
    for colour, n in every.items():
        if colour in known or n < 3:
            continue
        error, pair = min(
            (_between(colour, a, b), (a, b)) for i, a in enumerate(fills) for b in fills[i + 1 :]
        )
        if error < EDGE_ERROR:
            edges[pair] += n
    colours = list(fills)
    for (a, b), _ in edges.most_common(pairs):
        half = palette.mix(a, b, 0.5)
        if half not in colours:
            colours.append(half)
    return image_file.palette_image(colours[:256])


def main() -> None:
    """Write every game's palette under renderers/palettes/."""
    image_file.PALETTE_DIR.mkdir(exist_ok=True)
    chosen = set(sys.argv[1:]) or {game for game, _ in GAMES}
    for game, seats in GAMES:
        if game not in chosen:
            continue
        path = image_file.PALETTE_DIR / f"{game}.png"
        pairs = getattr(module(game), "PALETTE_MIXES", None)
        (learn(game, seats) if pairs is None else learn_mixes(game, seats, pairs)).save(path)
        print(f"{path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
