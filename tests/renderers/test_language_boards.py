"""Every board of each game drawn in each language (start, middle, end; a seat and a spectator),
with names in that language's script: its image file decodes, no character is drawn with a font that
lacks it (the "tofu" check of test_fonts) and none is the placeholder; in the language's catalog
as it stands, and with every message of it led by words in its script (the finished catalog)."""

from __future__ import annotations

import gettext
import io
import time
from collections.abc import Sequence
from importlib import import_module
from typing import Any

import pytest
from PIL import Image

import renderers
from engine.words import LANGUAGES, Words, words
from renderers.kit import Canvas
from renderers.text import has_colour_emoji
from tests.renderers.test_fonts import GAME_IDS, _boards, placeholders, tofu

NAMES = {
    "ru": ("Наталья", "Пётр", "Ёжик 🍅", "Ann"),
    "pl": ("Zażółć", "Łukasz", "Gęś 👍🏽", "Ann"),
    "ko": ("민지", "서준", "하은 🍅", "Ann"),
}
"""Players as they are named at a table in each language (an English name among them)."""
SAMPLE = {"ru": "Ёжик съел щи", "pl": "Zażółć gęślą", "ko": "한국어 보드"}
"""Words of each language put before every message of its catalog by `Scripted`."""


class Scripted(gettext.NullTranslations):
    """The language's catalog, each message led by words in its script: whatever a board says
    through the catalog is drawn in that script, as it will be once the translators are done."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.sample = SAMPLE[language]
        self.real = words(language)

    def gettext(self, message: str) -> str:
        return f"{self.sample} {self.real.gettext(message)}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        # {count} is filled afterwards by Words: keep the field for it.
        return f"{self.sample} {self.real._catalog.ngettext(singular, plural, n)}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{self.sample} {self.real.pgettext(context, message)}"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return f"{self.sample} {self.real._catalog.npgettext(context, singular, plural, n)}"


def drawn_well(
    game: str, view: Any, viewer: int | None, names: Sequence[str], w: Words
) -> tuple[Canvas, list[str]]:
    """The board drawn in `w`'s words, and its problems: tofu, placeholders, a file that does not decode."""
    canvas: Canvas = import_module(f"renderers.{game}").draw(view, viewer, names, w=w)
    problems = tofu(canvas.drawn) + [f"{c!r} drawn as the placeholder" for c in placeholders(canvas.drawn)]
    image = Image.open(io.BytesIO(renderers.encode(game, canvas.image, emoji=has_colour_emoji(names))))
    image.load()
    if image.format != "WEBP" or image.size != canvas.image.size:
        problems.append(f"the file of {game} decodes as {image.format} {image.size}")
    return canvas, problems


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", GAME_IDS)
def test_every_board_in_every_language_decodes_with_no_glyph_missing(game: str, language: str) -> None:
    started = time.perf_counter()
    names = NAMES[language]
    scripted = Words(language, Scripted(language))
    problems: list[str] = []
    for viewer, view in _boards(game, names):
        _, found = drawn_well(game, view, viewer, names, words(language))
        canvas, found_scripted = drawn_well(game, view, viewer, names, scripted)
        problems += found + found_scripted
        texts = [item.cut_from or item.text for item in canvas.drawn]
        assert any(SAMPLE[language] in t for t in texts), "the board's words go through its language"
    assert problems == []
    # The entry point the drawing workers call carries the language to the same drawing.
    viewer, view = _boards(game, names)[0]
    assert renderers.render_file(game, view, viewer, names, language=language).startswith(b"RIFF")
    assert time.perf_counter() - started < 30
