"""Fonts shipped with the project, player-name cleaning, text that fits a width and the game-over line."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.words import ENGLISH, Words
from renderers.glyphs import font_coverage

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"

PHONE_WIDTH = 400
"""How wide a phone's chat shows a board, in pixels (issue 12)."""
PHONE_MIN_PX = 8
"""The smallest height a digit or capital may have when the board is shown PHONE_WIDTH wide."""
_DIGITS_AND_CAPITALS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Font = ImageFont.FreeTypeFont

# Control, format (zero-width joiners, bidi overrides), surrogate, private-use and
# unassigned characters never belong in a drawn name.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


@lru_cache(maxsize=64)
def font(size: int, bold: bool = True) -> Font:
    """DejaVu Sans (bold by default) at `size` pixels, from the font files in the repo."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@lru_cache(maxsize=128)
def glyph_height(size: int, bold: bool = True) -> int:
    """The ink height above the baseline of the shortest digit or capital at `size` pixels."""
    face = font(size, bold)
    return min(-round(face.getbbox(char, anchor="ls")[1]) for char in _DIGITS_AND_CAPITALS)


def shown_height(size: int, image_width: int, bold: bool = True, shown_width: int = PHONE_WIDTH) -> float:
    """How tall the shortest digit or capital of `size` looks when the image is `shown_width` wide."""
    return glyph_height(size, bold) * shown_width / image_width


def smallest_legible(image_width: int, bold: bool = True, shown_width: int = PHONE_WIDTH) -> int:
    """The smallest font size whose digits and capitals stay PHONE_MIN_PX tall at `shown_width`."""
    size = 6
    while shown_height(size, image_width, bold, shown_width) < PHONE_MIN_PX:
        size += 1
    return size


def drawable(char: str, bold: bool = True) -> bool:
    """Whether the shipped font has a glyph for `char`."""
    return char in font_coverage(BOLD if bold else REGULAR)


def clean_name(name: str, seat: int, bold: bool = True) -> str:
    """A player's name with what the font cannot draw removed; "Player N" if nothing is left."""
    kept: list[str] = []
    dropped_base = False
    for char in unicodedata.normalize("NFC", name):
        category = unicodedata.category(char)
        if category in _DROPPED_CATEGORIES:
            continue
        if category.startswith("M"):
            # A combining mark follows its base: it goes when its base went.
            if not dropped_base and drawable(char, bold):
                kept.append(char)
            continue
        if category.startswith("Z"):
            kept.append(" ")
            dropped_base = False
            continue
        # Styled look-alikes (fullwidth, mathematical letters) fall back to their plain form.
        plain = char if drawable(char, bold) else unicodedata.normalize("NFKC", char)
        dropped_base = not all(drawable(c, bold) for c in plain)
        if not dropped_base:
            kept.append(plain)
    text = " ".join("".join(kept).split())
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        return f"Player {seat + 1}"
    return text


@lru_cache(maxsize=4096)
def stamp(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int] | None:
    """`text` as a coverage mask and the offset of its top-left from the anchor point (cached).

    Boards repeat the same labels and numbers; pasting a cached mask is several times
    faster than rasterising the text again. None for text with no ink.
    """
    face = font(size, bold)
    left, top, right, bottom = (round(v) for v in face.getbbox(text, anchor=anchor))
    if right <= left or bottom <= top:
        return None
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=4096)
def width(text: str, face: Font) -> float:
    """The advance width of `text` in `face`, in pixels."""
    return face.getlength(text)


@lru_cache(maxsize=2048)
def fit(text: str, face: Font, max_width: float) -> str:
    """`text`, cut at a character boundary and ended with an ellipsis if it is wider than `max_width`."""
    if width(text, face) <= max_width:
        return text
    cuts = [i for i in range(1, len(text)) if not unicodedata.category(text[i]).startswith("M")]
    low, high = 0, len(cuts) - 1
    best = ""
    while low <= high:
        mid = (low + high) // 2
        candidate = text[: cuts[mid]].rstrip() + ELLIPSIS
        if width(candidate, face) <= max_width:
            best, low = candidate, mid + 1
        else:
            high = mid - 1
    return best or ELLIPSIS


def wrap(text: str, face: Font, room: float) -> list[str]:
    """`text` on one line if it fits `room`, else split at a space into two (the second may need `fit`)."""
    if width(text, face) <= room:
        return [text]
    words = text.split(" ")
    first = ""
    for index, word in enumerate(words):
        candidate = f"{first} {word}".strip()
        if first and width(candidate, face) > room:
            return [first, " ".join(words[index:])]
        first = candidate
    return [first]


def pack(parts: Sequence[str], sep: str, face: Font, room: float) -> list[str]:
    """`parts` joined by `sep` into as few lines as fit `room`, never splitting a part (one too wide
    for `room` gets a line of its own, for the caller to `fit`)."""
    lines: list[str] = []
    for part in parts:
        if lines and width(lines[-1] + sep + part, face) <= room:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def game_over_line(winners: Sequence[str], best: int, *, words: Words = ENGLISH) -> str:
    """'Game over: A wins with N points' or 'A, B tie with ...', names fitted to 420 px at size 38."""
    fitted = [fit(name, font(38), 420) for name in winners]
    if len(fitted) == 1:
        return words.ngettext(
            "Game over: {name} wins with {count} point",
            "Game over: {name} wins with {count} points",
            best,
            name=fitted[0],
        )
    return words.ngettext(
        "Game over: {names} tie with {count} point",
        "Game over: {names} tie with {count} points",
        best,
        names=", ".join(fitted),
    )
