"""The shared drawing kit: a canvas with panels, text, pills, icons and dice."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.words import ENGLISH, Words
from renderers import dice, palette, shapes
from renderers.dice import DieStyle
from renderers.initials import initial
from renderers.layout import Box
from renderers.palette import RGB
from renderers.text import PHONE_WIDTH, Run, fit, font, runs, shown_height, stamp, width

__all__ = ["Box", "Canvas", "DieStyle", "Drawn", "dice", "font", "palette", "shapes"]


@dataclass(frozen=True, slots=True)
class Drawn:
    """A text (or a die face) as drawn: its ink box, its words, and the words it was cut from."""

    box: Box
    text: str
    cut_from: str | None = None
    """The full text when `max_width` cut it with an ellipsis, else None."""
    runs: tuple[Run, ...] = ()
    """The text's runs, each with the font that drew it (for the check that no glyph is missing)."""


@lru_cache(maxsize=8)
def coverage_steps(levels: int) -> list[int]:
    """A lookup table rounding a text mask's 256 coverage values to `levels` (>= 2) evenly spaced ones."""
    if levels < 2:
        raise ValueError("text keeps at least 2 coverage levels")
    step = 255 / (levels - 1)
    return [round(round(value / step) * step) for value in range(256)]


@lru_cache(maxsize=4096)
def _stepped_mask(text: str, size: int, bold: bool, anchor: str, levels: int) -> Image.Image | None:
    """The mask `stamp` paints `text` through, rounded to `levels` coverage levels (cached as stamp is)."""
    found = stamp(text, size, bold, anchor)
    if found is None or found.mask is None:
        return None
    return found.mask.point(coverage_steps(levels))


class Canvas:
    """An RGB image with the drawing operations the boards share."""

    def __init__(
        self,
        w: int,
        h: int,
        background: RGB = palette.BACKGROUND,
        *,
        text_levels: int | None = None,
        words: Words = ENGLISH,
    ) -> None:
        self.image = Image.new("RGB", (w, h), background)
        self.words = words
        """The board's language: a blank die shows its colour's initial in it."""
        self.text_levels = text_levels
        """How many coverage levels text edges keep (None: all 256). Fewer levels repeat more
        byte runs, so the file is smaller: 3 (none, half, full) cut a Troyes board by a quarter."""
        self.draw = ImageDraw.Draw(self.image)
        self.text_sizes: set[tuple[int, bool]] = set()
        """Every (font size, bold) the canvas drew text with, for the phone legibility check."""
        self.drawn: list[Drawn] = []
        """Every text and die face drawn, with its bounds, for the layout check (no overlaps, no cuts)."""
        self.panels: list[Box] = []
        """Every panel and pill drawn: the boxes text must lie inside of or outside of, never across."""

    def smallest_shown_glyph(self, shown_width: int = PHONE_WIDTH) -> float:
        """The height of the smallest digit or capital drawn, once the image is shown `shown_width` wide."""
        w = self.image.width
        return min(
            (shown_height(size, w, bold, shown_width) for size, bold in self.text_sizes), default=float("inf")
        )

    @property
    def box(self) -> Box:
        """The whole canvas."""
        return Box(0, 0, self.image.width, self.image.height)

    def panel(
        self,
        box: Box,
        fill: RGB = palette.PANEL,
        edge: RGB | None = palette.PANEL_EDGE,
        radius: int = 14,
        thickness: int = 2,
    ) -> None:
        """A rounded rectangle, optionally outlined."""
        self.draw.rounded_rectangle(
            box.corners, radius=radius, fill=fill, outline=edge, width=thickness if edge else 0
        )
        self.panels.append(box)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        *,
        fill: RGB = palette.TEXT,
        bold: bool = True,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> float:
        """Draw `text` (cut with an ellipsis to `max_width`); return the width drawn."""
        face = font(size, bold)
        self.text_sizes.add((size, bold))
        whole = text
        if max_width is not None:
            text = fit(text, face, max_width)
        self._stamp(xy, text, size, bold, fill, anchor, None if text == whole else whole)
        return width(text, face)

    def _stamp(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        bold: bool,
        fill: RGB,
        anchor: str,
        cut_from: str | None = None,
    ) -> None:
        """Paint `text` through its cached mask, emoji in colour, anchored at `xy` as ImageDraw.text would."""
        found = stamp(text, size, bold, anchor)
        if found is not None:
            x, y = round(xy[0]), round(xy[1])
            mask = found.mask
            if mask is not None and self.text_levels is not None:
                mask = _stepped_mask(text, size, bold, anchor, self.text_levels)
            if mask is not None:
                self.image.paste(fill, (x + found.left, y + found.top), mask)
            for tile, dx, dy in found.tiles:
                self.image.paste(tile, (x + dx, y + dy), tile)
            left, top, w, h = found.box
            self.drawn.append(Drawn(Box(x + left, y + top, w, h), text, cut_from, found.runs))

    @staticmethod
    def pill_width(text: str, size: int) -> int:
        """How wide `pill` draws `text` at `size`."""
        return round(width(text, font(size))) + 2 * (size // 2)

    def header(
        self,
        box: Box,
        title: str,
        status: list[str],
        *,
        over: bool,
        tag: tuple[str, RGB] | None = None,
        sizes: tuple[int, int] = (20, 30),
    ) -> None:
        """A board's header: a dim title, an optional tag at the right, then the status lines.

        `sizes` are the title's and the status lines' text sizes; while the game goes on an
        arrow points at the first status line (whose move it is), at the end they are lit.
        """
        small, big = sizes
        self.text((box.x, box.y), title, small, fill=palette.TEXT_DIM)
        if tag is not None:
            label, colour = tag
            self.pill(box.right - self.pill_width(label, small), box.y - 4, label, small, colour)
        y = box.y + 30
        x = box.x
        if not over:
            self.paste(shapes.arrow(32), box.x, y + 2)
            x += 42
        for line in status:
            ink = palette.ACTIVE if over else palette.TEXT
            self.text((x, y), line, big, fill=ink, max_width=box.right - x)
            y += big + 10

    def pill(self, x: int, y: int, text: str, size: int, fill: RGB, ink: RGB | None = None) -> Box:
        """A rounded label with `text` whose top-left is (x, y); return its box."""
        self.text_sizes.add((size, True))
        box = Box(x, y, self.pill_width(text, size), size + size // 2)
        self.draw.rounded_rectangle(box.corners, radius=box.h // 2, fill=fill)
        self.panels.append(box)
        self._stamp(box.center, text, size, True, ink or palette.ink_on(fill), "mm")
        return box

    def paste(self, icon: Image.Image, x: int, y: int) -> None:
        """Paste an RGBA icon with its top-left at (x, y), respecting transparency."""
        self.image.paste(icon, (x, y), icon)

    def paste_centred(self, icon: Image.Image, cx: int, cy: int) -> None:
        """Paste an RGBA icon centred on (cx, cy)."""
        self.paste(icon, cx - icon.width // 2, cy - icon.height // 2)

    def die(self, x: int, y: int, size: int, value: int, style: DieStyle) -> None:
        """A die face `size` pixels square with its top-left at (x, y); a blank one (value 0) shows its
        colour's initial in the board's language."""
        if value:
            self.paste(dice.die(value, style, size), x, y)
            self.drawn.append(Drawn(Box(x, y, size, size), f"die {value}"))
            return
        letter = initial(style.name, self.words)
        self.text_sizes.add((dice.letter_size(size), True))
        self.paste(dice.die(value, style, size, letter), x, y)
        self.drawn.append(Drawn(Box(x, y, size, size), f"die {letter}", runs=runs(letter)))

    def numbered_die(self, x: int, y: int, size: int, value: int, style: DieStyle) -> None:
        """A die `size` pixels square showing `value` as a number, with its top-left at (x, y)."""
        self.text_sizes.add((dice.number_size(size), True))
        self.paste(dice.numbered(value, style, size), x, y)
        self.drawn.append(Drawn(Box(x, y, size, size), f"die {value}"))
