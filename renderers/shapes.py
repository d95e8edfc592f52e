"""Small antialiased icons (stars, hearts, tomatoes, leaves) drawn once and cached."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import palette
from renderers.palette import RGB

SCALE = 4
"""Icons are drawn this many times larger, then reduced: Pillow's shapes are not antialiased."""

Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, int, int], None]


def supersampled(w: int, h: int, paint: Painter) -> Image.Image:
    """An RGBA image `w` x `h` painted at SCALE times the size, then reduced smoothly."""
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), w * SCALE, h * SCALE)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def star_points(cx: float, cy: float, outer: float, inner_ratio: float = 0.45) -> list[Point]:
    """The ten corners of a five-pointed star, point up."""
    points: list[Point] = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * inner_ratio
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def heart_points(cx: float, cy: float, size: float, steps: int = 72) -> list[Point]:
    """The outline of a heart `size` wide centred on (cx, cy)."""
    points: list[Point] = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * size / 34, cy - (y + 2.5) * size / 34))
    return points


@lru_cache(maxsize=64)
def star(size: int, fill: RGB = palette.STAR, edge: RGB = palette.STAR_EDGE) -> Image.Image:
    """A five-pointed star icon."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.polygon(star_points(w / 2, h * 0.53, w * 0.48), fill=fill, outline=edge, width=max(1, w // 14))

    return supersampled(size, size, paint)


@lru_cache(maxsize=64)
def heart(size: int, fill: RGB = palette.HEART, edge: RGB = palette.HEART_EDGE) -> Image.Image:
    """A heart icon (karma)."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.polygon(heart_points(w / 2, h / 2, w * 0.96), fill=fill, outline=edge, width=max(1, w // 18))

    return supersampled(size, size, paint)


@lru_cache(maxsize=32)
def tomato(size: int, ripe: bool = True) -> Image.Image:
    """A tomato seen from above: a round fruit with a green calyx."""
    body = palette.TOMATO if ripe else palette.TOMATO_DIM
    leaf = palette.LEAF if ripe else palette.mix(palette.LEAF_DARK, palette.PANEL, 0.5)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.ellipse((w * 0.04, h * 0.14, w * 0.96, h * 0.96), fill=body)
        draw.ellipse((w * 0.2, h * 0.3, w * 0.42, h * 0.46), fill=palette.mix(body, (255, 255, 255), 0.35))
        draw.polygon(star_points(w / 2, h * 0.22, w * 0.26, 0.35), fill=leaf)
        draw.rectangle((w * 0.47, 0, w * 0.53, h * 0.2), fill=leaf)

    return supersampled(size, size, paint)


@lru_cache(maxsize=16)
def sprout(size: int) -> Image.Image:
    """Two leaves on a stem: marks the seed die of a vine."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.rectangle((w * 0.45, h * 0.45, w * 0.55, h), fill=palette.LEAF_DARK)
        draw.ellipse(
            (w * 0.02, h * 0.12, w * 0.5, h * 0.56),
            fill=palette.LEAF,
            outline=palette.LEAF_DARK,
            width=w // 12,
        )
        draw.ellipse(
            (w * 0.5, h * 0.0, w * 0.98, h * 0.44),
            fill=palette.LEAF,
            outline=palette.LEAF_DARK,
            width=w // 12,
        )

    return supersampled(size, size, paint)


@lru_cache(maxsize=32)
def dot(size: int, fill: RGB, edge: RGB | None = None) -> Image.Image:
    """A filled circle, optionally ringed."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.ellipse((1, 1, w - 2, h - 2), fill=fill, outline=edge, width=max(1, w // 8) if edge else 0)

    return supersampled(size, size, paint)


@lru_cache(maxsize=32)
def ring(size: int, edge: RGB) -> Image.Image:
    """An empty circle."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.ellipse((1, 1, w - 2, h - 2), outline=edge, width=max(1, w // 8))

    return supersampled(size, size, paint)


@lru_cache(maxsize=16)
def arrow(size: int, fill: RGB = palette.ACTIVE) -> Image.Image:
    """A triangle pointing right: marks the player to move."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        draw.polygon([(w * 0.12, h * 0.08), (w * 0.94, h * 0.5), (w * 0.12, h * 0.92)], fill=fill)

    return supersampled(size, size, paint)


@lru_cache(maxsize=16)
def button(size: int, fill: RGB = palette.BUTTON_FACE, edge: RGB = palette.BUTTON_EDGE) -> Image.Image:
    """A sewing button seen from above: a rimmed disc with four holes."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        rim = max(2, w // 12)
        draw.ellipse((0, 0, w - 1, h - 1), fill=edge)
        draw.ellipse((rim, rim, w - 1 - rim, h - 1 - rim), fill=fill)
        draw.ellipse((w * 0.2, h * 0.2, w * 0.8, h * 0.8), outline=palette.mix(fill, edge, 0.45), width=rim)
        hole = w * 0.075
        for dx in (-1, 1):
            for dy in (-1, 1):
                cx, cy = w / 2 + dx * w * 0.12, h / 2 + dy * h * 0.12
                draw.ellipse((cx - hole, cy - hole, cx + hole, cy + hole), fill=edge)

    return supersampled(size, size, paint)
