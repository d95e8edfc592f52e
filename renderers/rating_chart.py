"""A player's rating over their rated games: the rating line, its uncertainty band, the conservative line."""

from __future__ import annotations

import math
from collections.abc import Sequence

from renderers import image_file, palette
from renderers.kit import Canvas
from renderers.text import smallest_legible

WIDTH, HEIGHT = 800, 460
"""Small: the chart sits in an embed; at 400 px wide every digit and capital stays 8 px tall."""


def draw(points: Sequence[tuple[float, float]], title: str) -> Canvas:
    """The chart of `points` (rating mu, uncertainty sigma), the rating before any game first."""
    canvas = Canvas(WIDTH, HEIGHT)
    size = smallest_legible(WIDTH)
    big = size + 4
    canvas.text((24, 16), title, big, max_width=WIDTH - 48)
    left, right, top, bottom = 92, WIDTH - 24, 16 + big + 24, HEIGHT - 2 * size - 52
    lows = [mu - 3 * sigma for mu, sigma in points]
    highs = [mu + sigma for mu, sigma in points]
    floor = math.floor(min(lows) / 5) * 5
    ceiling = math.ceil(max(highs) / 5) * 5
    if ceiling - floor < 10:
        ceiling = floor + 10

    def x(i: int) -> float:
        return left + (right - left) * (i / max(1, len(points) - 1))

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - floor) / (ceiling - floor)

    step = 5 if ceiling - floor <= 30 else 10
    for value in range(floor, ceiling + 1, step):
        canvas.draw.line([(left, y(value)), (right, y(value))], fill=palette.PANEL_EDGE, width=1)
        canvas.text((left - 12, y(value)), str(value), size, fill=palette.TEXT_DIM, anchor="rm")
    band = [(x(i), y(mu + sigma)) for i, (mu, sigma) in enumerate(points)]
    band += [(x(i), y(mu - sigma)) for i, (mu, sigma) in reversed(list(enumerate(points)))]
    if len(points) > 1:
        canvas.draw.polygon(band, fill=palette.PANEL)
    rating = [(x(i), y(mu)) for i, (mu, _) in enumerate(points)]
    safe = [(x(i), y(low)) for i, low in enumerate(lows)]
    if len(points) > 1:
        canvas.draw.line(safe, fill=palette.TEXT_DIM, width=3)
        canvas.draw.line(rating, fill=palette.ACTIVE, width=5)
    for px, py in rating:
        canvas.draw.ellipse((px - 6, py - 6, px + 6, py + 6), fill=palette.ACTIVE)
    for px, py in safe:
        canvas.draw.rectangle((px - 4, py - 4, px + 4, py + 4), fill=palette.TEXT_DIM)
    games = len(points) - 1
    canvas.text((left, bottom + 14), "start", size, fill=palette.TEXT_DIM)
    canvas.text((right, bottom + 14), f"game {games}", size, fill=palette.TEXT_DIM, anchor="ra")
    legend = "● rating (band: ± uncertainty)   ■ rating − 3 × uncertainty"
    canvas.text((24, HEIGHT - size - 14), legend, size, fill=palette.TEXT, bold=False, max_width=WIDTH - 48)
    return canvas


def render(points: Sequence[tuple[float, float]], title: str) -> bytes:
    """The chart as an image file's bytes (lossless WebP)."""
    return image_file.encode(draw(points, title).image)
