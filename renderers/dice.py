"""Dice faces: a colour, pips of a shape, an outline and a letter, so colour is never alone."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import palette
from renderers.initials import initial
from renderers.palette import RGB
from renderers.shapes import SCALE, star_points, supersampled
from renderers.text import DEJAVU, font, runs, stamp


class PipShape(enum.Enum):
    """How a die's pips are drawn."""

    ROUND = "round"
    SQUARE = "square"
    DIAMOND = "diamond"
    STAR = "star"


@dataclass(frozen=True, slots=True)
class DieStyle:
    """Everything that tells one kind of die from another."""

    name: str
    fill: RGB
    pip: RGB
    edge: RGB
    edge_ratio: float
    """Outline thickness as a fraction of the die's size."""
    pip_shape: PipShape


RED = DieStyle(
    "red",
    palette.DIE_RED,
    palette.PIP_LIGHT,
    palette.mix(palette.DIE_RED, (0, 0, 0), 0.45),
    0.04,
    PipShape.ROUND,
)
BLACK = DieStyle("black", palette.DIE_BLACK, palette.PIP_LIGHT, palette.DIE_EDGE_LIGHT, 0.07, PipShape.SQUARE)
GOLD = DieStyle("gold", palette.DIE_GOLD, palette.PIP_DARK, palette.DIE_EDGE_GOLD, 0.07, PipShape.DIAMOND)

# Pip centres on a 3x3 grid (0, 1, 2 on each axis) for each face value.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((2, 0), (0, 2)),
    3: ((2, 0), (1, 1), (0, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def pip_centres(value: int) -> tuple[tuple[int, int], ...]:
    """The grid cells (column, row) holding a pip on the face `value` (1 to 6)."""
    return _PIPS[value]


def _pip(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, style: DieStyle) -> None:
    box = (cx - r, cy - r, cx + r, cy + r)
    if style.pip_shape is PipShape.ROUND:
        draw.ellipse(box, fill=style.pip)
    elif style.pip_shape is PipShape.SQUARE:
        s = r * 0.86
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=style.pip)
    elif style.pip_shape is PipShape.DIAMOND:
        s = r * 1.2
        draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=style.pip)
    else:
        draw.polygon(star_points(cx, cy, r * 1.7, 0.5), fill=style.pip)


@lru_cache(maxsize=512)
def die(value: int, style: DieStyle, size: int, letter: str | None = None) -> Image.Image:
    """An RGBA die face `size` pixels square; value 0 is a blank face showing `letter` (by default its
    colour's English initial). The letter is part of the cache key: a Russian "К" is never served an "R"."""
    s = size * SCALE
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    edge = max(SCALE, round(s * style.edge_ratio))
    draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.18, fill=style.edge)
    draw.rounded_rectangle((edge, edge, s - 1 - edge, s - 1 - edge), radius=s * 0.18 - edge, fill=style.fill)
    if value:
        step = s * 0.27
        for col, row in pip_centres(value):
            _pip(draw, s / 2 + (col - 1) * step, s / 2 + (row - 1) * step, s * 0.085, style)
    else:
        _letter(big, letter if letter is not None else initial(style.name), round(s * 0.5), style.pip)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _letter(face: Image.Image, letter: str, size: int, ink: RGB) -> None:
    """`letter` centred on a blank face: Latin and Cyrillic in DejaVu Sans exactly as ever, a Korean
    syllable through the font chain's runs (DejaVu has no Hangul)."""
    centre = (face.width / 2, face.height / 2)
    pieces = runs(letter)
    if len(pieces) <= 1 and all(run.font is DEJAVU for run in pieces):
        ImageDraw.Draw(face).text(centre, letter, font=font(size).primary, fill=ink, anchor="mm")
        return
    found = stamp(letter, size, True, "mm")
    if found is not None and found.mask is not None:
        face.paste((*ink, 255), (round(centre[0]) + found.left, round(centre[1]) + found.top), found.mask)


def letter_size(size: int) -> int:
    """The font size of the letter on a blank face `size` pixels square, as it ends up on the board."""
    return round(size * 0.5)


def number_size(size: int) -> int:
    """The font size of the number on a numbered die `size` pixels square."""
    return round(size * 0.62)


@lru_cache(maxsize=256)
def numbered(value: int, style: DieStyle, size: int) -> Image.Image:
    """An RGBA die `size` pixels square showing `value` as a number, for boards that sum dice."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        edge = max(SCALE, round(w * style.edge_ratio))
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.18, fill=style.edge)
        draw.rounded_rectangle(
            (edge, edge, w - 1 - edge, h - 1 - edge), radius=w * 0.18 - edge, fill=style.fill
        )

    icon = supersampled(size, size, paint)
    # The number is drawn at its final size, so FreeType hints it for the pixels it lands on.
    ImageDraw.Draw(icon).text(
        (size / 2, size / 2), str(value), font=font(number_size(size)).primary, fill=style.pip, anchor="mm"
    )
    return icon
