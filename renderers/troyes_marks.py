"""Troyes pieces, colours and sizes shared by the parts of the board.

Citizens are discs, lying citizens capsules, cubes squares; a piece shows its owner by colour
and by the number written on it (1-4; the neutral player's initial, N in English). Every text is at
least TEXT_MIN pixels: digits and capitals stay 8 px tall when a phone shows the board 400 px wide.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.troyes.kinds import NEUTRAL, Colour
from engine.words import ENGLISH, Words
from renderers import palette
from renderers.dice import DieStyle, PipShape
from renderers.initials import initial, neutral
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.palette import RGB
from renderers.shapes import supersampled
from renderers.text import font

SEAT_FILLS: tuple[RGB, ...] = ((70, 136, 232), (232, 128, 24), (30, 160, 104), (172, 96, 212))
"""Seats 1-4: blue, orange, green, purple (apart from the red, white and yellow of the dice)."""
NEUTRAL_FILL: RGB = (128, 132, 142)

GAP = 12
TEXT_MIN = 28
"""The smallest font size on the board (digits 20 px tall, 8.3 px at 400 px wide)."""
TEXT = 30
NAME = 32
STATUS = 36
DIE = 46
TOKEN = 42

COLOUR_FILLS: dict[Colour, RGB] = {
    Colour.RED: palette.DIE_RED,
    Colour.WHITE: palette.WHITE_DIE,
    Colour.YELLOW: (238, 194, 36),
}
DIE_STYLES: dict[Colour, DieStyle] = {
    Colour.RED: DieStyle("red", palette.DIE_RED, palette.PIP_LIGHT, (120, 20, 28), 0.05, PipShape.ROUND),
    Colour.WHITE: DieStyle(
        "white", palette.WHITE_DIE, palette.PIP_DARK, (150, 150, 160), 0.05, PipShape.ROUND
    ),
    Colour.YELLOW: DieStyle(
        "yellow", COLOUR_FILLS[Colour.YELLOW], palette.PIP_DARK, (140, 100, 0), 0.05, PipShape.ROUND
    ),
}
BLACK_DIE = DieStyle(
    "black", palette.DIE_BLACK, palette.PIP_LIGHT, palette.DIE_EDGE_LIGHT, 0.08, PipShape.ROUND
)
ROMAN = ("I", "II", "III")


def seat_fill(owner: int) -> RGB:
    """The colour of an owner's pieces (NEUTRAL: grey)."""
    return NEUTRAL_FILL if owner == NEUTRAL else SEAT_FILLS[owner % len(SEAT_FILLS)]


def letter(colour: Colour, w: Words = ENGLISH) -> str:
    """A dice colour's initial in `w`'s language (R, W, Y in English)."""
    return initial(colour.value, w)


def mark(owner: int, w: Words = ENGLISH) -> str:
    """The text on an owner's pieces: the seat number, the neutral player's initial (N in English)."""
    return neutral(w) if owner == NEUTRAL else str(owner + 1)


def _edge(fill: RGB) -> RGB:
    return palette.mix(fill, (0, 0, 0), 0.5)


@lru_cache(maxsize=64)
def token(size: int, owner: int) -> Image.Image:
    """A standing citizen: a disc in the owner's colour with a dark rim."""
    fill = seat_fill(owner)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.ellipse((1, 1, w - 2, h - 2), fill=fill, outline=_edge(fill), width=max(2, w // 14))

    return supersampled(size, size, paint)


@lru_cache(maxsize=64)
def lying_citizen(w: int, h: int, owner: int) -> Image.Image:
    """An expelled citizen lying on its building: a flat capsule with a hatched rim."""
    fill = palette.mix(seat_fill(owner), palette.PANEL, 0.2)

    def paint(draw: ImageDraw.ImageDraw, pw: int, ph: int) -> None:
        rim = max(2, ph // 10)
        draw.rounded_rectangle((0, 0, pw - 1, ph - 1), radius=ph // 2, fill=palette.WARNING)
        draw.rounded_rectangle((rim, rim, pw - 1 - rim, ph - 1 - rim), radius=ph // 2 - rim, fill=fill)

    return supersampled(w, h, paint)


@lru_cache(maxsize=64)
def cube(size: int, owner: int) -> Image.Image:
    """A cube (cathedral, event banner, delayed card): a square in the owner's colour."""
    fill = seat_fill(owner)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.rounded_rectangle(
            (1, 1, w - 2, h - 2), radius=w * 0.12, fill=fill, outline=_edge(fill), width=max(2, w // 14)
        )

    return supersampled(size, size, paint)


@lru_cache(maxsize=8)
def hourglass(size: int) -> Image.Image:
    """The hourglass printed on delayed activity cards."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        ink = palette.TEXT_DIM
        bar = max(2, h // 9)
        draw.rectangle((w * 0.15, 0, w * 0.85, bar), fill=ink)
        draw.rectangle((w * 0.15, h - 1 - bar, w * 0.85, h - 1), fill=ink)
        draw.polygon([(w * 0.22, bar), (w * 0.78, bar), (w * 0.5, h * 0.5)], fill=ink)
        draw.polygon([(w * 0.5, h * 0.5), (w * 0.78, h - 1 - bar), (w * 0.22, h - 1 - bar)], fill=ink)

    return supersampled(size, size, paint)


@lru_cache(maxsize=8)
def black_die(size: int) -> Image.Image:
    """A black die with a light rim: one of an event's black-die icons."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        rim = max(2, w // 10)
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.2, fill=palette.DIE_EDGE_LIGHT)
        draw.rounded_rectangle(
            (rim, rim, w - 1 - rim, h - 1 - rim), radius=w * 0.2 - rim, fill=palette.DIE_BLACK
        )
        # Three pips on the diagonal: a die, whatever it will roll.
        r = w * 0.09
        for step in (-1, 0, 1):
            cx, cy = w / 2 + step * w * 0.24, h / 2 - step * h * 0.24
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.PIP_LIGHT)

    return supersampled(size, size, paint)


def owner_mark(canvas: Canvas, cx: int, cy: int, owner: int) -> None:
    """The owner's number (N for neutral) on a token or cube centred on (cx, cy)."""
    ink = palette.ink_on(seat_fill(owner))
    canvas.text((cx, cy), mark(owner, canvas.words), TEXT_MIN, fill=ink, anchor="mm")


@lru_cache(maxsize=64)
def stripe_width(colour: Colour, least: int, w: Words = ENGLISH) -> int:
    """How wide a card's stripe is drawn: `least`, or wider where the colour's initial needs it (two
    letters in some languages)."""
    ink = font(TEXT_MIN).getbbox(letter(colour, w), anchor="mm")
    return max(least, round(ink[2] - ink[0]) + 8)


def stripe(canvas: Canvas, box: Box, colour: Colour, level: str) -> None:
    """A card's left edge in its dice colour, with the colour's letter (and the level) on it."""
    fill = COLOUR_FILLS[colour]
    canvas.draw.rounded_rectangle(box.corners, radius=10, fill=fill)
    canvas.draw.rectangle((box.right - 10, box.y, box.right - 1, box.bottom - 1), fill=fill)
    ink = palette.ink_on(fill)
    said = letter(colour, canvas.words)
    if level:
        canvas.text((box.x + box.w // 2, box.y + 26), said, TEXT_MIN, fill=ink, anchor="mm")
        canvas.text((box.x + box.w // 2, box.y + 62), level, TEXT_MIN, fill=ink, anchor="mm")
    else:
        canvas.text((box.x + box.w // 2, box.y + box.h // 2), said, TEXT_MIN, fill=ink, anchor="mm")
