"""Shared checks for the board tests: decode a board file and sample a game's states."""

from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Callable, Collection, Iterable
from typing import Any

from PIL import Image

from engine.core import Options, Rules
from engine.words import Words
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.playout import states
from renderers.text import clean_name

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
    """The board file `data` decoded, after checking it is a WebP of a phone-friendly width and size."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    assert len(data) < max_bytes
    image = Image.open(io.BytesIO(data))
    image.load()
    assert widths[0] <= image.width <= widths[1]
    assert 400 <= image.height <= max_height
    return image


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share some area (touching edges do not count)."""
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def _inside(inner: Box, outer: Box) -> bool:
    """Whether `inner` lies wholly inside `outer`."""
    within_x = outer.x <= inner.x and inner.right <= outer.right
    return within_x and outer.y <= inner.y and inner.bottom <= outer.bottom


def layout_problems(canvas: Canvas, may_cut: Collection[str] = ()) -> list[str]:
    """What is wrong with the text a canvas drew, from the bounds it recorded as it drew.

    Every text (and die face) lies on the canvas, inside or outside each panel and pill but never
    across an edge, and overlaps no other; panels nest or stand apart; nothing was cut with an
    ellipsis except texts in `may_cut` (player names, which may be any length).
    """
    problems: list[str] = []
    drawn = canvas.drawn
    for item in drawn:
        if not _inside(item.box, canvas.box):
            problems.append(f"{item.text!r} {item.box} runs off the board")
        for panel in canvas.panels:
            if _overlap(item.box, panel) and not _inside(item.box, panel):
                problems.append(f"{item.text!r} {item.box} crosses the edge of the panel {panel}")
        if item.cut_from is not None and item.cut_from not in may_cut:
            problems.append(f"{item.cut_from!r} is cut to {item.text!r}")
    for i, a in enumerate(drawn):
        for b in drawn[i + 1 :]:
            if _overlap(a.box, b.box):
                problems.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
    panels = canvas.panels
    for i, a in enumerate(panels):
        for b in panels[i + 1 :]:
            if _overlap(a, b) and not (_inside(a, b) or _inside(b, a)):
                problems.append(f"the panels {a} and {b} overlap")
    return problems


def game_layout_problems(
    rules: Rules[Any],
    draw: Callable[..., Canvas],
    seats: int,
    seeds: Iterable[int],
    options: Options | None = None,
) -> list[str]:
    """`layout_problems` over ten evenly spaced boards and the final board of seeded bot games,
    seen by a spectator and by seat 0 with plain names, and by seat 0 with NASTY_NAMES."""
    plain = [f"Player {seat + 1}" for seat in range(seats)]
    nasty = list(NASTY_NAMES[:seats])
    may_cut = [clean_name(name, seat) for seat, name in enumerate(nasty)]
    problems: list[str] = []
    for seed in seeds:
        every = list(states(rules, seats, seed, options))
        for tenth in [*range(10), 10]:
            state = every[min(len(every) - 1, len(every) * tenth // 10)]
            for viewer, names in ((None, plain), (0, plain), (0, nasty)):
                canvas = draw(rules.view(state, viewer), viewer, names)
                where = f"seed {seed}, {tenth}/10, viewer {viewer}"
                problems += [f"{where}: {p}" for p in layout_problems(canvas, may_cut)]
    return problems


class Longer(Words):
    """A pseudo-language: English with each run of words `grow` longer ("Deniers" -> "Deniersжжж").

    Russian and Polish run up to a third longer than English; a board drawn in this shows where a
    translation would overflow, and the "ж" marks every word that came through the language.
    """

    MARK = "ж"

    def __init__(self, grow: float = 0.4) -> None:
        super().__init__("en", gettext.NullTranslations())
        self.grow = grow

    def longer(self, message: str) -> str:
        """`message` with each literal run of letters lengthened, its {fields} kept."""
        out = []
        for literal, name, spec, conversion in string.Formatter().parse(message):
            letters = sum(c.isalpha() for c in literal)
            padding = self.MARK * max(1, round(letters * self.grow)) if letters else ""
            literal = re.sub(r"([^\W\d_])(\W*)$", r"\g<1>" + padding + r"\g<2>", literal, count=1)
            out.append(literal.replace("{", "{{").replace("}", "}}"))
            if name is not None:
                out.append(
                    "{" + name + ("!" + conversion if conversion else "") + (":" + spec if spec else "") + "}"
                )
        return "".join(out)

    def gettext(self, message: str, /, **fields: object) -> str:
        return self.longer(message).format_map(fields) if fields else self.longer(message)

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        chosen = singular if count == 1 else plural
        return self.longer(chosen).format_map({"count": count, **fields})

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        return self.gettext(message, **fields)
