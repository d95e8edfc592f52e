"""PNG encoding of a finished board, as bytes ready to attach."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image

LEVEL = 6
"""zlib level of the boards' PNGs unless a renderer asks for another."""
PALETTE_DIR = Path(__file__).parent / "palettes"
"""One 256-colour palette per game (`<game>.png`), learnt by scripts/learn_palettes.py."""


def encode(
    image: Image.Image, *, colours: int = 256, level: int = LEVEL, palette: Image.Image | None = None
) -> bytes:
    """The image as PNG bytes, reduced to `palette` if given, else to an adaptive one of `colours` (> 0).

    Boards are flat colours plus antialiased edges, so a palette loses nothing a reader can
    see and makes the file several times smaller. A fixed palette skips learning one per
    board, which is most of the encoding time (issue 11).
    """
    if image.mode not in ("RGB", "P", "L"):
        image = image.convert("RGB")
    if palette is not None and image.mode == "RGB":
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif colours and image.mode == "RGB":
        image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


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
