"""PNG encoding of a finished board, as bytes ready to attach."""

from __future__ import annotations

import io

from PIL import Image

LEVEL = 6
"""zlib level of the boards' PNGs unless a renderer asks for another."""


def encode(image: Image.Image, *, colours: int = 256, level: int = LEVEL) -> bytes:
    """The image as PNG bytes, reduced to a palette of at most `colours` when `colours` > 0.

    Boards are flat colours plus antialiased edges, so an adaptive palette loses nothing a
    reader can see and makes the file several times smaller.
    """
    if image.mode not in ("RGB", "P", "L"):
        image = image.convert("RGB")
    if colours and image.mode == "RGB":
        image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()
