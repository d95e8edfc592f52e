"""Which characters a TrueType or OpenType font (or one of a collection) can draw, read from its cmap."""

from __future__ import annotations

import bisect
import mmap
import struct
from functools import lru_cache
from pathlib import Path


class Coverage:
    """The set of code points a font maps to a real glyph, as sorted ranges."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str) or len(char) != 1:
            return False
        code = ord(char)
        i = bisect.bisect_right(self._starts, code) - 1
        return i >= 0 and code <= self._ends[i]


def _format4(data: bytes | mmap.mmap, at: int) -> list[tuple[int, int]]:
    seg_count = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends_at = at + 14
    starts_at = ends_at + 2 * seg_count + 2
    deltas_at = starts_at + 2 * seg_count
    range_offsets_at = deltas_at + 2 * seg_count
    ranges: list[tuple[int, int]] = []
    for i in range(seg_count):
        end = struct.unpack_from(">H", data, ends_at + 2 * i)[0]
        start = struct.unpack_from(">H", data, starts_at + 2 * i)[0]
        delta = struct.unpack_from(">h", data, deltas_at + 2 * i)[0]
        offset_at = range_offsets_at + 2 * i
        range_offset = struct.unpack_from(">H", data, offset_at)[0]
        if start == 0xFFFF:
            continue
        for code in range(start, end + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, offset_at + range_offset + 2 * (code - start))[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                ranges.append((code, code))
    return ranges


def _format12(data: bytes | mmap.mmap, at: int) -> list[tuple[int, int]]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    ranges: list[tuple[int, int]] = []
    for i in range(groups):
        start, end, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        ranges.append((start, end))
    return ranges


def read_coverage(data: bytes | mmap.mmap, index: int = 0) -> Coverage:
    """Parse the Unicode cmap subtables (formats 4 and 12) of a TrueType or OpenType font, or of
    the `index`th font of a collection (.ttc)."""
    start = 0
    if data[:4] == b"ttcf":
        fonts = struct.unpack_from(">I", data, 8)[0]
        if not 0 <= index < fonts:
            raise ValueError(f"no font {index} in the collection (it ends at {fonts - 1})")
        start = struct.unpack_from(">I", data, 12 + 4 * index)[0]
    tables = struct.unpack_from(">H", data, start + 4)[0]
    cmap_at = None
    for i in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, start + 12 + 16 * i)
        if tag == b"cmap":
            cmap_at = offset
    if cmap_at is None:
        raise ValueError("the font has no cmap table")
    subtables = struct.unpack_from(">H", data, cmap_at + 2)[0]
    found: dict[int, int] = {}
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap_at + 4 + 8 * i)
        if (platform, encoding) not in ((0, 3), (0, 4), (3, 1), (3, 10)):
            continue
        at = cmap_at + offset
        found.setdefault(struct.unpack_from(">H", data, at)[0], at)
    # A format 12 subtable maps the whole of Unicode, the BMP included, in ranges: read it alone
    # when there is one (a CJK font's format 4 lists tens of thousands of code points one by one).
    if 12 in found:
        return Coverage(_format12(data, found[12]))
    return Coverage(_format4(data, found[4]) if 4 in found else [])


@lru_cache(maxsize=64)
def font_coverage(path: Path, index: int = 0) -> Coverage:
    """The coverage of the font file at `path` (the `index`th font of a collection), cached."""
    # Mapped, not read: only the table directory and the cmap of a 20 MB collection are touched.
    with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return read_coverage(data, index)
