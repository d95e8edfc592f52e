"""The fonts boards draw with, player-name cleaning, text that fits a width and the game-over line.

Pillow has no font fallback (python-pillow/Pillow#4808), so a text is split into runs, each
drawn with the first font of a chain whose character map has its characters: DejaVu Sans
(shipped in renderers/fonts, the boards' look for Latin, Greek and Cyrillic), then the Noto
fonts of the Debian packages fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji
(installed by scripts/setup-venv). Noto Color Emoji is a bitmap font with one size, 109 px:
its runs are drawn there and scaled to the text. A character no font has is drawn as U+FFFD,
a visible placeholder, never dropped. Measuring (`width`, `fit`, `wrap`, `pack`) goes through
the same runs as drawing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont, features

from engine.words import ENGLISH, Words
from renderers.glyphs import Coverage, font_coverage

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
CJK_DIR = Path("/usr/share/fonts/opentype/noto")
FONT_PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji")
"""The Debian packages holding the fonts beyond DejaVu (scripts/setup-venv installs them)."""
ELLIPSIS = "…"
PLACEHOLDER = "\ufffd"
"""What a character no font has is drawn as."""
EMOJI_STRIKE = 109
"""The only pixel size Noto Color Emoji (CBDT bitmaps) can be drawn at."""

PHONE_WIDTH = 400
"""How wide a phone's chat shows a board, in pixels (issue 12)."""
PHONE_MIN_PX = 8
"""The smallest height a digit or capital may have when the board is shown PHONE_WIDTH wide."""
_DIGITS_AND_CAPITALS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTION = "ltr" if features.check("raqm") else None
"""Every board line reads left to right: an Arabic or Hebrew name is reordered within itself, and
the words and punctuation around it keep their places (needs raqm; check_fonts asks for it)."""


class FontsMissing(RuntimeError):
    """A font file of the chain is not on the machine."""


@dataclass(frozen=True, slots=True)
class FontFile:
    """One font of the chain: its regular and bold files and, for a collection, which face."""

    name: str
    regular: Path
    bold: Path | None = None
    """None: the family has no bold, the regular face serves."""
    index: int = 0
    colour: bool = False
    """A colour bitmap font (emoji): drawn at EMOJI_STRIKE and scaled."""

    def path(self, bold: bool) -> Path:
        """The file for the weight asked for."""
        return self.bold if bold and self.bold is not None else self.regular

    def coverage(self, bold: bool) -> Coverage:
        """The characters the face of that weight has."""
        return font_coverage(self.path(bold), self.index)


def _noto(script: str, bold: bool = True) -> FontFile:
    regular = NOTO_DIR / f"NotoSans{script}-Regular.ttf"
    heavy = NOTO_DIR / f"NotoSans{script}-Bold.ttf"
    return FontFile(f"Noto Sans {script}".strip(), regular, heavy if bold else None)


def _cjk(face: str, index: int) -> FontFile:
    return FontFile(
        f"Noto Sans CJK {face}", CJK_DIR / "NotoSansCJK-Regular.ttc", CJK_DIR / "NotoSansCJK-Bold.ttc", index
    )


DEJAVU = FontFile("DejaVu Sans", REGULAR, BOLD)
CJK_KR, CJK_SC, CJK_JP = _cjk("KR", 1), _cjk("SC", 2), _cjk("JP", 0)
EMOJI = FontFile("Noto Color Emoji", NOTO_DIR / "NotoColorEmoji.ttf", colour=True)
MISSING = FontFile("placeholder", REGULAR, BOLD)
"""The 'font' of a run of characters no font has: drawn as PLACEHOLDER in DejaVu Sans."""
_SCRIPTS = (
    *("Arabic", "Hebrew", "Thai", "Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam"),
    *("Gujarati", "Gurmukhi", "Oriya", "Sinhala", "Khmer", "Lao", "Myanmar", "Georgian", "Armenian"),
    *("Ethiopic", "Cherokee", "Symbols"),
)
TEXT_FONTS: tuple[FontFile, ...] = (
    DEJAVU,
    _noto(""),
    CJK_SC,
    *(_noto(script) for script in _SCRIPTS),
    _noto("Symbols2", bold=False),
    _noto("Math", bold=False),
)
"""The text fonts, in the order a character is looked up. DejaVu stays first: it is the boards'
look, and it covers Latin (Polish, Nordic...), Greek and Cyrillic. The CJK slot's face is chosen
per text (`_cjk_face`): the same characters, drawn the Korean, Japanese or Chinese way."""

# Characters a shaper draws as nothing (joiners, variation selectors, tags, bidi marks): they go
# with the run they follow and need no glyph of their own.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xE0000, 0xE0FFF),
)
# Below U+1F000, the characters whose default look is an emoji (Unicode's Emoji_Presentation):
# drawn in colour even though DejaVu has a plain glyph for some.
_EMOJI_BMP = (
    (0x231A, 0x231B),
    (0x23E9, 0x23EC),
    (0x23F0, 0x23F0),
    (0x23F3, 0x23F3),
    (0x25FD, 0x25FE),
    (0x2614, 0x2615),
    (0x2648, 0x2653),
    (0x267F, 0x267F),
    (0x2693, 0x2693),
    (0x26A1, 0x26A1),
    (0x26AA, 0x26AB),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26CE, 0x26CE),
    (0x26D4, 0x26D4),
    (0x26EA, 0x26EA),
    (0x26F2, 0x26F3),
    (0x26F5, 0x26F5),
    (0x26FA, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2705, 0x2705),
    (0x270A, 0x270B),
    (0x2728, 0x2728),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2795, 0x2797),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
)
_ZWJ, _VS15, _VS16, _KEYCAP = "\u200d", "\ufe0e", "\ufe0f", "\u20e3"

# Control, format and surrogate characters never belong in a drawn name, except the joiner and
# the tags that build emoji sequences. Private-use and unassigned characters stay: a font may have
# them, and if none has, the placeholder shows something was there.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(start <= code <= end for start, end in ranges)


def ignorable(char: str) -> bool:
    """Whether `char` is drawn as nothing (a joiner, a variation selector, a tag, a bidi mark)."""
    return _within(ord(char), _IGNORABLE)


def _emoji_by_default(char: str) -> bool:
    code = ord(char)
    return code >= 0x1F000 or _within(code, _EMOJI_BMP)


def missing_fonts() -> list[Path]:
    """The font files of the chain that are not on this machine."""
    files = {path for f in (*TEXT_FONTS, CJK_KR, CJK_JP, EMOJI) for path in (f.regular, f.bold) if path}
    return sorted(path for path in files if not path.is_file())


def check_fonts() -> None:
    """Raise FontsMissing, saying how to install them, unless every font of the chain is here and
    Pillow can shape text (raqm: emoji sequences, skin tones and flags are ligatures)."""
    missing = missing_fonts()
    if missing:
        raise FontsMissing(
            f"the board fonts are not installed ({missing[0]} is missing); as root run "
            f"`apt-get install {' '.join(FONT_PACKAGES)}` (scripts/setup-venv does it when run as root)"
        )
    if not features.check("raqm"):
        raise FontsMissing(
            "Pillow cannot shape text (no raqm: its libfribidi is missing); "
            "as root run `apt-get install libfribidi0`"
        )


def warm() -> None:
    """Read every font's character map and open the CJK and emoji fonts, so the first board with
    a name in another script pays nothing (a drawing worker calls it before it takes work)."""
    for bold in (True, False):
        for source in (*TEXT_FONTS, EMOJI):
            source.coverage(bold)
        text = font(30, bold)
        for source in (CJK_KR, CJK_SC, CJK_JP, EMOJI):
            text.font_for(source)


@lru_cache(maxsize=1)
def _checked() -> None:
    check_fonts()


@lru_cache(maxsize=256)
def _truetype(source: FontFile, bold: bool, size: int) -> ImageFont.FreeTypeFont:
    if source is not DEJAVU and source is not MISSING:
        _checked()
    return ImageFont.truetype(str(source.path(bold)), size, index=source.index)


class Run(NamedTuple):
    """A piece of a text drawn with one font."""

    font: FontFile
    text: str
    bold: bool = True

    def path(self) -> Path:
        """The font file that draws the run."""
        return self.font.path(self.bold)


def _cjk_face(text: str) -> FontFile:
    """The CJK face for `text`: Korean if it has Hangul, Japanese if it has kana, else Chinese."""
    for char in text:
        code = ord(char)
        if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return CJK_KR
        if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
            return CJK_JP
    return CJK_SC


def _choose(char: str, after: str, bold: bool) -> FontFile:
    """The font for `char` when `after` follows it (a variation selector or a keycap asks for a look)."""
    wants_emoji = after in (_VS16, _KEYCAP) or (after != _VS15 and _emoji_by_default(char))
    if wants_emoji and char in EMOJI.coverage(bold):
        return EMOJI
    for source in TEXT_FONTS:
        if char in source.coverage(bold):
            return source
    if char in EMOJI.coverage(bold):
        return EMOJI
    return MISSING


@lru_cache(maxsize=8192)
def runs(text: str, bold: bool = True) -> tuple[Run, ...]:
    """`text` split into runs, each with the font that draws it (MISSING: no font has it)."""
    if text.isascii() and text.isprintable():
        return (Run(DEJAVU, text, bold),) if text else ()
    cjk = _cjk_face(text)
    out: list[Run] = []
    for index, char in enumerate(text):
        last = out[-1] if out else None
        if last is not None:
            joins = ignorable(char)
            if unicodedata.category(char).startswith("M"):
                joins = joins or last.font is MISSING or char in last.font.coverage(bold)
            if last.font is EMOJI and text[index - 1] == _ZWJ:
                joins = joins or char in EMOJI.coverage(bold)
            if joins:
                out[-1] = Run(last.font, last.text + char, bold)
                continue
        after = text[index + 1] if index + 1 < len(text) else ""
        source = _choose(char, after, bold)
        if source is CJK_SC:
            source = cjk
        if last is not None and last.font is source:
            out[-1] = Run(source, last.text + char, bold)
        else:
            out.append(Run(source, char, bold))
    return tuple(out)


def has_colour_emoji(texts: Sequence[str]) -> bool:
    """Whether any of `texts` draws a colour emoji."""
    return any(run.font is EMOJI for text in texts for run in runs(text))


def shown(run: Run) -> str:
    """What a run draws: its text, or a placeholder for each character no font has."""
    if run.font is not MISSING:
        return run.text
    return "".join(
        PLACEHOLDER for c in run.text if not unicodedata.category(c).startswith("M") and not ignorable(c)
    )


class Placed(NamedTuple):
    """A run laid out: its pen position on the baseline, relative to the anchor point."""

    run: Run
    x: float
    baseline: float


class Face:
    """Text of one size and weight, drawn with the whole chain of fonts (what `font` returns)."""

    def __init__(self, size: int, bold: bool) -> None:
        self.size = size
        self.bold = bold
        self.primary = _truetype(DEJAVU, bold, size)
        """DejaVu Sans at this size: the font of plain Latin text and of the vertical metrics."""

    def __repr__(self) -> str:
        return f"Face({self.size}, bold={self.bold})"

    def font_for(self, source: FontFile) -> ImageFont.FreeTypeFont:
        """The Pillow font drawing `source`'s runs at this size (emoji: at EMOJI_STRIKE)."""
        if source is DEJAVU or source is MISSING:
            return self.primary
        if source.colour:
            return _truetype(source, False, EMOJI_STRIKE)
        return _truetype(source, self.bold, self.size)

    @property
    def emoji_scale(self) -> float:
        """How much an emoji drawn at EMOJI_STRIKE is scaled to sit in text of this size."""
        return self.size / EMOJI_STRIKE

    def advance(self, run: Run) -> float:
        """How far a run moves the pen."""
        length = self.font_for(run.font).getlength(shown(run), direction=DIRECTION)
        return length * self.emoji_scale if run.font.colour else length

    def getlength(self, text: str) -> float:
        """The advance width of `text`, run by run."""
        return sum(self.advance(run) for run in runs(text, self.bold))

    def layout(self, text: str, anchor: str = "la") -> tuple[Placed, ...]:
        """`text`'s runs placed as `anchor` asks (ImageDraw's anchors, vertical ones by DejaVu's metrics)."""
        pieces = runs(text, self.bold)
        total = sum(self.advance(run) for run in pieces)
        x = {"l": 0.0, "m": -total / 2, "r": -total}[anchor[0]]
        vertical = anchor[1]
        baseline = 0.0
        if vertical in "asmd":
            baseline = (
                self.primary.getbbox("H", anchor="l" + vertical)[1]
                - self.primary.getbbox("H", anchor="ls")[1]
            )
        placed: list[Placed] = []
        for run in pieces:
            placed.append(Placed(run, x, baseline))
            x += self.advance(run)
        if vertical in "tb" and placed:
            boxes = [self._ink(p) for p in placed]
            shift = -min(b[1] for b in boxes) if vertical == "t" else -max(b[3] for b in boxes)
            placed = [Placed(p.run, p.x, p.baseline + shift) for p in placed]
        return tuple(placed)

    def _ink(self, placed: Placed) -> tuple[float, float, float, float]:
        """The ink box of a placed run."""
        run = placed.run
        left, top, right, bottom = self.font_for(run.font).getbbox(
            shown(run), anchor="ls", direction=DIRECTION
        )
        scale = self.emoji_scale if run.font.colour else 1.0
        x, y = placed.x, placed.baseline
        return x + left * scale, y + top * scale, x + right * scale, y + bottom * scale

    def getbbox(self, text: str, anchor: str = "la") -> tuple[float, float, float, float]:
        """The ink box of `text` drawn at (0, 0) with `anchor`."""
        pieces = runs(text, self.bold)
        if len(pieces) == 1 and pieces[0].font is DEJAVU:
            return self.primary.getbbox(text, anchor=anchor, direction=DIRECTION)
        boxes = [self._ink(p) for p in self.layout(text, anchor)]
        if not boxes:
            return 0, 0, 0, 0
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


Font = Face


@lru_cache(maxsize=64)
def font(size: int, bold: bool = True) -> Face:
    """Text at `size` pixels (bold by default) in DejaVu Sans, falling back through the chain."""
    return Face(size, bold)


@lru_cache(maxsize=128)
def glyph_height(size: int, bold: bool = True) -> int:
    """The ink height above the baseline of the shortest digit or capital at `size` pixels."""
    face = font(size, bold).primary
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
    """Whether some font of the chain has a glyph for `char`."""
    return char in EMOJI.coverage(bold) or any(char in source.coverage(bold) for source in TEXT_FONTS)


def clean_name(name: str, seat: int, bold: bool = True) -> str:
    """A player's name fit to draw: no control or bidi characters, one space between words, styled
    look-alikes (fullwidth, mathematical letters) DejaVu lacks in their plain form; "Player N" if
    nothing visible is left. What no font has stays, to be drawn as a placeholder."""
    kept: list[str] = []
    primary = DEJAVU.coverage(bold)
    for char in unicodedata.normalize("NFC", name):
        category = unicodedata.category(char)
        if category in _DROPPED_CATEGORIES and char != _ZWJ and not 0xE0020 <= ord(char) <= 0xE007F:
            continue
        if category.startswith("Z"):
            kept.append(" ")
            continue
        plain = unicodedata.normalize("NFKC", char)
        if char not in primary and plain != char and all(c in primary for c in plain):
            char = plain
        kept.append(char)
    text = " ".join("".join(kept).split())
    if all(ignorable(c) or unicodedata.category(c).startswith("M") for c in text):
        return f"Player {seat + 1}"
    return text


@dataclass(frozen=True, slots=True)
class Stamp:
    """A text rasterised once: a coverage mask for its plain runs, colour tiles for its emoji,
    their offsets from the anchor point, and the runs it drew."""

    mask: Image.Image | None
    left: int
    top: int
    tiles: tuple[tuple[Image.Image, int, int], ...]
    box: tuple[int, int, int, int]
    """The ink box of everything, as (left, top, width, height) from the anchor point."""
    runs: tuple[Run, ...]


@lru_cache(maxsize=2048)
def _emoji_tile(text: str, size: int) -> tuple[Image.Image, int, int] | None:
    """An emoji run drawn at EMOJI_STRIKE, scaled to `size`, and its offset from the pen on the baseline."""
    face = font(size)
    emoji = face.font_for(EMOJI)
    left, top, right, bottom = _rounded(emoji.getbbox(text, anchor="ls", direction=DIRECTION))
    if right <= left or bottom <= top:
        return None
    tile = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text(
        (-left, -top), text, font=emoji, anchor="ls", embedded_color=True, direction=DIRECTION
    )
    scale = face.emoji_scale
    scaled = tile.resize(
        (max(1, round(tile.width * scale)), max(1, round(tile.height * scale))), Image.Resampling.LANCZOS
    )
    return scaled, round(left * scale), round(top * scale)


def _rounded(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return round(left), round(top), round(right), round(bottom)


@lru_cache(maxsize=4096)
def stamp(text: str, size: int, bold: bool, anchor: str) -> Stamp | None:
    """`text` rasterised and the offset of its top-left from the anchor point (cached).

    Boards repeat the same labels and numbers; pasting a cached mask is several times
    faster than rasterising the text again. None for text with no ink.
    """
    face = font(size, bold)
    pieces = runs(text, bold)
    if len(pieces) == 1 and pieces[0].font is DEJAVU:
        # Plain text: one call, exactly as ImageDraw.text would draw it.
        left, top, right, bottom = (
            round(v) for v in face.primary.getbbox(text, anchor=anchor, direction=DIRECTION)
        )
        if right <= left or bottom <= top:
            return None
        whole = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(whole).text(
            (-left, -top), text, font=face.primary, fill=255, anchor=anchor, direction=DIRECTION
        )
        return Stamp(whole, left, top, (), (left, top, right - left, bottom - top), pieces)
    placed = face.layout(text, anchor)
    tiles: list[tuple[Image.Image, int, int]] = []
    plain = [p for p in placed if not p.run.font.colour]
    boxes: list[tuple[int, int, int, int]] = []
    for p in placed:
        if p.run.font.colour:
            found = _emoji_tile(p.run.text, size)
            if found is not None:
                tile, dx, dy = found
                x, y = round(p.x) + dx, round(p.baseline) + dy
                tiles.append((tile, x, y))
                boxes.append((x, y, x + tile.width, y + tile.height))
    mask: Image.Image | None = None
    mask_left = mask_top = 0
    inks = [_rounded(face._ink(p)) for p in plain]
    inks = [b for b in inks if b[2] > b[0] and b[3] > b[1]]
    if inks:
        mask_left, mask_top = min(b[0] for b in inks), min(b[1] for b in inks)
        right, bottom = max(b[2] for b in inks), max(b[3] for b in inks)
        mask = Image.new("L", (right - mask_left, bottom - mask_top), 0)
        draw = ImageDraw.Draw(mask)
        for p in plain:
            origin = (p.x - mask_left, p.baseline - mask_top)
            draw.text(
                origin,
                shown(p.run),
                font=face.font_for(p.run.font),
                fill=255,
                anchor="ls",
                direction=DIRECTION,
            )
        boxes.append((mask_left, mask_top, right, bottom))
    if not boxes:
        return None
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return Stamp(mask, mask_left, mask_top, tuple(tiles), (left, top, right - left, bottom - top), pieces)


@lru_cache(maxsize=4096)
def width(text: str, face: Face) -> float:
    """The advance width of `text` in `face`, in pixels."""
    return face.getlength(text)


def _cuts(text: str) -> list[int]:
    """Where `text` may be cut: never inside a character's marks, an emoji sequence or a flag."""
    cuts: list[int] = []
    flags = 0
    for i in range(1, len(text)):
        char, before = text[i], text[i - 1]
        code = ord(char)
        flags = flags + 1 if 0x1F1E6 <= ord(before) <= 0x1F1FF else 0
        if unicodedata.category(char).startswith("M") or ignorable(char) or before == _ZWJ:
            continue
        if 0x1F3FB <= code <= 0x1F3FF or (0x1F1E6 <= code <= 0x1F1FF and flags % 2 == 1):
            continue
        cuts.append(i)
    return cuts


@lru_cache(maxsize=2048)
def fit(text: str, face: Face, max_width: float) -> str:
    """`text`, cut at a character boundary and ended with an ellipsis if it is wider than `max_width`."""
    if width(text, face) <= max_width:
        return text
    cuts = _cuts(text)
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


def wrap(text: str, face: Face, room: float) -> list[str]:
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


def pack(parts: Sequence[str], sep: str, face: Face, room: float) -> list[str]:
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
