"""The board image of the toy race (tests/toygame.py): one bar per seat, registered by test_fourth_game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw


def render(view: Any, viewer: int | None, names: Sequence[str], *, language: str = "en") -> Image.Image:
    """Each seat's progress towards the goal as a bar."""
    image = Image.new("RGB", (240, 20 * len(names) + 10), "white")
    draw = ImageDraw.Draw(image)
    for seat, position in enumerate(view.positions):
        width = 220 * min(position, view.goal) // view.goal
        draw.rectangle(
            (10, 10 + 20 * seat, 10 + width, 24 + 20 * seat), fill="green" if seat == viewer else "grey"
        )
    return image
