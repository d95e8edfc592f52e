"""Rectangles and the arithmetic of laying things out in rows and columns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in pixels: left, top, width, height."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        """The x just past the right edge."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """The y just past the bottom edge."""
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        """The middle point."""
        return self.x + self.w // 2, self.y + self.h // 2

    @property
    def corners(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) as ImageDraw wants it, bottom-right inclusive."""
        return self.x, self.y, self.right - 1, self.bottom - 1

    def inset(self, dx: int, dy: int | None = None) -> Box:
        """The box shrunk by `dx` on the left and right and `dy` (default `dx`) top and bottom."""
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def take_left(self, w: int, gap: int = 0) -> tuple[Box, Box]:
        """Split off a column `w` wide on the left; return it and the rest after `gap`."""
        w = min(w, self.w)
        return Box(self.x, self.y, w, self.h), Box(self.x + w + gap, self.y, max(0, self.w - w - gap), self.h)

    def take_right(self, w: int, gap: int = 0) -> tuple[Box, Box]:
        """Split off a column `w` wide on the right; return it and the rest before `gap`."""
        w = min(w, self.w)
        return Box(self.right - w, self.y, w, self.h), Box(self.x, self.y, max(0, self.w - w - gap), self.h)

    def take_top(self, h: int, gap: int = 0) -> tuple[Box, Box]:
        """Split off a band `h` high at the top; return it and the rest below `gap`."""
        h = min(h, self.h)
        return Box(self.x, self.y, self.w, h), Box(self.x, self.y + h + gap, self.w, max(0, self.h - h - gap))

    def columns(self, n: int, gap: int = 0) -> list[Box]:
        """`n` equal columns separated by `gap` (the last absorbs the rounding)."""
        each = (self.w - gap * (n - 1)) // n
        boxes = [Box(self.x + i * (each + gap), self.y, each, self.h) for i in range(n)]
        last = boxes[-1]
        boxes[-1] = Box(last.x, last.y, self.right - last.x, last.h)
        return boxes

    def rows(self, n: int, gap: int = 0) -> list[Box]:
        """`n` equal rows separated by `gap` (the last absorbs the rounding)."""
        each = (self.h - gap * (n - 1)) // n
        boxes = [Box(self.x, self.y + i * (each + gap), self.w, each) for i in range(n)]
        last = boxes[-1]
        boxes[-1] = Box(last.x, last.y, last.w, self.bottom - last.y)
        return boxes


def row_width(count: int, item: int, gap: int) -> int:
    """The width of `count` items `item` wide with `gap` between them."""
    return max(0, count * item + (count - 1) * gap)
