"""Shared checks for the board tests: decode a PNG and sample a game's states."""

from __future__ import annotations

import io

from PIL import Image

MAX_BYTES = 1_000_000

NASTY_NAMES = (
    "Bartholomew Fitzgerald-Worthington the Third, Gardener of the Realm",
    "Zoë 🍅🍅🍅",
    "李小龙",
    "مريم",
    "Ελένη",
    "e\u0301\u0301\u0301\u200d\u202e\u0000tab\tname",
)
"""Names that are long, mix scripts, carry emoji, combining marks, bidi overrides and control characters."""


def decode(
    data: bytes, widths: tuple[int, int] = (1000, 1400), max_height: int = 2000, max_bytes: int = MAX_BYTES
) -> Image.Image:
    """The PNG `data` decoded, after checking it is a PNG of a phone-friendly width and size."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < max_bytes
    image = Image.open(io.BytesIO(data))
    image.load()
    assert widths[0] <= image.width <= widths[1]
    assert 400 <= image.height <= max_height
    return image
