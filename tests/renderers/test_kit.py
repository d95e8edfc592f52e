"""The drawing kit: dice faces, name cleaning, text fitting, PNG encoding, dispatch."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import renderers
from renderers import dice, palette, png
from renderers.kit import Canvas
from renderers.text import (
    PHONE_MIN_PX,
    clean_name,
    fit,
    font,
    glyph_height,
    shown_height,
    smallest_legible,
    width,
)


@pytest.mark.parametrize("value", range(1, 7))
def test_a_face_has_as_many_pips_as_its_value(value: int) -> None:
    assert len(set(dice.pip_centres(value))) == value


def test_dice_colours_also_differ_by_pip_shape_and_letter() -> None:
    styles = (dice.RED, dice.BLACK, dice.GOLD)
    assert len({s.pip_shape for s in styles}) == 3
    assert len({s.letter for s in styles}) == 3


def test_red_and_black_dice_differ_in_greyscale() -> None:
    # What a reader without red-green vision sees: the faces must still differ.
    red = dice.die(5, dice.RED, 60).convert("L")
    black = dice.die(5, dice.BLACK, 60).convert("L")
    assert red.tobytes() != black.tobytes()


def test_a_long_name_is_cut_with_an_ellipsis_to_the_width() -> None:
    face = font(30)
    cut = fit("Bartholomew the Magnificent Gardener", face, 200)
    assert cut.endswith("…")
    assert width(cut, face) <= 200
    assert fit("Al", face, 200) == "Al"


def test_clean_name_drops_what_the_font_cannot_draw() -> None:
    assert clean_name("Zoë\u202e\u0000", 0) == "Zoë"
    assert clean_name("𝓐𝓵𝓲𝓬𝓮", 0) == "Alice"
    assert clean_name("🍅🍅", 2) == "Player 3"
    assert clean_name("   ", 0) == "Player 1"


def test_png_encoding_uses_a_palette_and_keeps_the_size() -> None:
    image = Image.new("RGB", (300, 200), (34, 38, 46))
    image.paste(dice.die(6, dice.GOLD, 80), (10, 10), dice.die(6, dice.GOLD, 80))
    data = png.encode(image)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P"
    assert decoded.size == (300, 200)


def test_a_game_without_a_board_raises_a_lookup_error() -> None:
    # The presenter catches LookupError and posts the board as text only.
    with pytest.raises(renderers.NoRenderer, match="chess"):
        renderers.render_png("chess", object(), None, [])
    assert issubclass(renderers.NoRenderer, LookupError)
    assert not renderers.has_renderer("chess")
    assert all(renderers.has_renderer(game) for game in ("tomatoes", "buttons", "troyes"))


def test_renderers_import_no_discord_and_no_database() -> None:
    # Checked in a fresh interpreter, so other tests' imports cannot hide one.
    probe = (
        "import sys, renderers, renderers.tomatoes, renderers.buttons, renderers.troyes\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(top & {'discord', 'aiosqlite', 'tables', 'cogs'}))"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_phone_height_follows_the_font_size_and_the_image_width() -> None:
    # Issue 12: digits and capitals at least 8 px tall when the board is shown 400 px wide.
    assert shown_height(20, 1400) < PHONE_MIN_PX  # the Tomatoes legend today
    assert shown_height(28, 960) >= PHONE_MIN_PX
    smallest = smallest_legible(960)
    assert shown_height(smallest, 960) >= PHONE_MIN_PX > shown_height(smallest - 1, 960)
    assert glyph_height(40) > glyph_height(20) > 0


def test_the_canvas_records_every_text_size_it_draws() -> None:
    canvas = Canvas(960, 200)
    assert canvas.smallest_shown_glyph() == float("inf")
    canvas.text((10, 10), "Ana", 30)
    canvas.pill(10, 60, "YOU", 28, palette.GOOD)
    assert canvas.smallest_shown_glyph() >= PHONE_MIN_PX
    canvas.numbered_die(100, 100, 30, 5, dice.RED)  # its number is 19 px: too small
    assert canvas.smallest_shown_glyph() < PHONE_MIN_PX
    blank = Canvas(960, 200)
    blank.die(0, 0, 40, 0, dice.GOLD)  # a blank face's letter counts too
    assert (dice.letter_size(40), True) in blank.text_sizes


def test_cached_text_paints_the_same_pixels_as_pillow() -> None:
    canvas = Canvas(400, 120)
    canvas.text((20, 60), "Round 3 · 12 deniers", 28, anchor="lm", fill=palette.ACTIVE)
    plain = Image.new("RGB", (400, 120), palette.BACKGROUND)
    ImageDraw.Draw(plain).text(
        (20, 60), "Round 3 · 12 deniers", font=font(28), fill=palette.ACTIVE, anchor="lm"
    )
    assert canvas.image.tobytes() == plain.tobytes()
