"""Troyes pieces as icons: citizens (discs), lying citizens (capsules), cubes (squares), the hourglass.

A piece shows its owner by colour and by the number the board writes on it (1-4, N neutral).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.troyes.kinds import NEUTRAL
from renderers import palette
from renderers.palette import RGB
from renderers.shapes import supersampled

SEAT_FILLS: tuple[RGB, ...] = ((70, 136, 232), (232, 128, 24), (30, 160, 104), (172, 96, 212))
"""Seats 1-4: blue, orange, green, purple (apart from the red, white and yellow of the dice)."""
NEUTRAL_FILL: RGB = (128, 132, 142)


def seat_fill(owner: int) -> RGB:
    """The colour of an owner's pieces (NEUTRAL: grey)."""
    return NEUTRAL_FILL if owner == NEUTRAL else SEAT_FILLS[owner % len(SEAT_FILLS)]


def mark(owner: int) -> str:
    """The text on an owner's pieces: the seat number, N for the neutral player."""
    return "N" if owner == NEUTRAL else str(owner + 1)


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
