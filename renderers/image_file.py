"""A finished board as an image file's bytes, ready to attach: lossless WebP on a palette.

WebP is the format Discord recommends for static images and every client shows it inline. In its
lossless mode a board on a 256-colour palette is 27-41% smaller than the same pixels as a PNG at
zlib level 6 (issue 33), for 12-45 ms more per board in a drawing worker (`bench/bench_render.py`).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

PALETTE_DIR = Path(__file__).parent / "palettes"
"""One 256-colour palette per game (`<game>.png`), learnt by scripts/learn_palettes.py."""
SUFFIXES = ((b"RIFF", ".webp"), (b"\x89PNG\r\n\x1a\n", ".png"), (b"GIF8", ".gif"))
"""The file name suffix of each format the renderers write, by the bytes the file starts with."""


METHOD = 1
QUALITY = 50
"""libwebp's lossless effort for every board: `method` 0-6 and `quality` 0-100 (more is smaller and
slower; the time grows mostly with quality at 25, 50 and 100). Quality 50 makes a board 27-41% smaller
than PNG did and quality 0 only 15-21% (too little for a 3-player Buttons game to stay under 3 MB);
methods above 1 and quality 100 save 1-5 kB more a board for up to twice the time
(`bench/bench_render.py`)."""


def encode(image: Image.Image, *, colours: int = 256, palette: Image.Image | None = None) -> bytes:
    """The image as lossless WebP bytes, reduced to `palette` if given, else to an adaptive one of
    `colours` (> 0).

    Boards are flat colours plus antialiased edges, so a palette loses nothing a reader can see
    and lets the encoder store each pixel as a palette index. A fixed palette skips learning one
    per board, which is most of the reduction's time (issue 11).
    """
    if image.mode not in ("RGB", "P", "L"):
        image = image.convert("RGB")
    if palette is not None and image.mode == "RGB":
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif colours and image.mode == "RGB":
        image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="WEBP", lossless=True, method=METHOD, quality=QUALITY)
    return buffer.getvalue()


def file_name(stem: str, data: bytes) -> str:
    """`stem` with the suffix of the format `data` is in (`board.webp`), as Discord shows it; WebP's
    when the bytes are of no format known here."""
    return stem + next((suffix for magic, suffix in SUFFIXES if data.startswith(magic)), ".webp")


@lru_cache(maxsize=8)
def game_palette(game_id: str) -> Image.Image | None:
    """The fixed palette learnt for `game_id`'s boards, or None if it has none."""
    path = PALETTE_DIR / f"{game_id}.png"
    if not path.exists():
        return None
    with Image.open(path) as stored:
        stored.load()
        if stored.mode != "P":
            raise ValueError(f"{path} is not a palette image")
        return stored.copy()


def palette_image(colours: list[tuple[int, int, int]]) -> Image.Image:
    """A 16x16 palette image holding `colours` (at most 256), one pixel each."""
    if not 0 < len(colours) <= 256:
        raise ValueError("a palette holds 1 to 256 colours")
    flat = [channel for colour in colours for channel in colour]
    image = Image.new("P", (16, 16))
    image.putpalette(flat + flat[-3:] * (256 - len(colours)))
    image.putdata([min(i, len(colours) - 1) for i in range(256)])
    return image
