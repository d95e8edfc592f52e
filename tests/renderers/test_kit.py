"""The drawing kit: dice faces, name cleaning, text fitting, image encoding, dispatch."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

import renderers
from engine.games import GAMES
from renderers import dice, image_file, palette
from renderers.initials import initial
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.text import (
    PHONE_MIN_PX,
    clean_name,
    fit,
    font,
    glyph_height,
    pack,
    shown_height,
    smallest_legible,
    width,
    wrap,
)


@pytest.mark.parametrize("value", range(1, 7))
def test_a_face_has_as_many_pips_as_its_value(value: int) -> None:
    assert len(set(dice.pip_centres(value))) == value


def test_dice_colours_also_differ_by_pip_shape_and_letter() -> None:
    styles = (dice.RED, dice.BLACK, dice.GOLD)
    assert len({s.pip_shape for s in styles}) == 3
    assert len({initial(s.name) for s in styles}) == 3


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


def test_clean_name_drops_controls_and_keeps_what_a_font_or_the_placeholder_draws() -> None:
    assert clean_name("Zoë\u202e\u0000", 0) == "Zoë"
    assert clean_name("𝓐𝓵𝓲𝓬𝓮", 0) == "Alice"
    assert clean_name("🍅🍅", 2) == "🍅🍅"
    assert clean_name("👨\u200d👩\u200d👧 🇵🇱", 0) == "👨\u200d👩\u200d👧 🇵🇱"
    assert clean_name("a\ue000b", 0) == "a\ue000b"  # no font has it: drawn as the placeholder
    assert clean_name("   ", 0) == "Player 1"
    assert clean_name("\u200d\ufe0f", 1) == "Player 2"


def test_encoding_keeps_every_pixel_of_the_palette_image() -> None:
    image = Image.new("RGB", (300, 200), (34, 38, 46))
    image.paste(dice.die(6, dice.GOLD, 80), (10, 10), dice.die(6, dice.GOLD, 80))
    data = image_file.encode(image, colours=16)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == "WEBP" and decoded.size == (300, 200)
    reduced = image.quantize(colors=16, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    assert ImageChops.difference(decoded.convert("RGB"), reduced.convert("RGB")).getbbox() is None
    assert len(decoded.getcolors() or ()) <= 16


def test_a_file_is_named_by_its_format() -> None:
    assert image_file.file_name("board", image_file.encode(Image.new("RGB", (8, 8)))) == "board.webp"
    png = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png, "PNG")
    assert image_file.file_name("rating", png.getvalue()) == "rating.png"
    assert image_file.file_name("board", b"not an image") == "board.webp"


def test_a_game_without_a_board_raises_a_lookup_error() -> None:
    # The presenter catches LookupError and posts the board as text only.
    with pytest.raises(renderers.NoRenderer, match="chess"):
        renderers.render_file("chess", object(), None, [])
    assert issubclass(renderers.NoRenderer, LookupError)
    assert not renderers.has_renderer("chess")
    assert all(renderers.has_renderer(game) for game in GAMES)


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
    assert shown_height(20, 1400) < PHONE_MIN_PX  # the 1400 px Tomatoes legend before issue 12
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
        (20, 60), "Round 3 · 12 deniers", font=font(28).primary, fill=palette.ACTIVE, anchor="lm"
    )
    assert canvas.image.tobytes() == plain.tobytes()


def test_text_with_three_coverage_levels_paints_ink_background_and_half_way_only() -> None:
    canvas = Canvas(400, 120, text_levels=3)
    canvas.text((20, 60), "Round 3 · 12 deniers", 28, anchor="lm", fill=palette.ACTIVE)
    colours = {colour for _, colour in canvas.image.getcolors(1 << 16) or []}
    assert len(colours) == 3 and {palette.BACKGROUND, palette.ACTIVE} < colours
    plain = Canvas(400, 120)
    plain.text((20, 60), "Round 3 · 12 deniers", 28, anchor="lm", fill=palette.ACTIVE)
    assert len(plain.image.getcolors(1 << 16) or []) > 20  # antialiased in full unless asked
    assert [d.box for d in canvas.drawn] == [d.box for d in plain.drawn]


@pytest.mark.parametrize("game", [game.id for game in GAMES.values() if game.renderer])
def test_a_board_is_encoded_with_its_games_fixed_palette_keeping_named_colours(game: str) -> None:
    fixed = image_file.game_palette(game)
    assert fixed is not None
    named = [palette.PANEL, palette.ACTIVE, palette.WARNING, palette.BUTTON_GREEN, palette.DIE_RED]
    image = Image.new("RGB", (10 * len(named), 10))
    for index, colour in enumerate(named):
        image.paste(colour, (10 * index, 0, 10 * index + 10, 10))
    image.paste((1, 2, 3), (0, 0, 2, 2))  # a colour of no board: mapped to the nearest entry
    decoded = Image.open(io.BytesIO(renderers.encode(game, image)))
    assert decoded.format == "WEBP"
    rgb = decoded.convert("RGB")
    for index, colour in enumerate(named):
        # Pillow's palette lookup shares one entry per small colour cube: within 3 levels.
        got = rgb.getpixel((10 * index + 5, 5))
        assert isinstance(got, tuple)
        assert max(abs(a - b) for a, b in zip(got, colour, strict=True)) <= 3, (colour, got)
    assert rgb.getpixel((0, 0)) != (1, 2, 3)


def test_wrap_splits_a_long_line_at_a_space() -> None:
    face = font(30)
    assert wrap("short", face, 500) == ["short"]
    lines = wrap("Bartholomew's turn: clear worthless vines?", face, 400)
    assert len(lines) == 2
    assert width(lines[0], face) <= 400
    assert " ".join(lines) == "Bartholomew's turn: clear worthless vines?"


def test_the_canvas_records_where_its_text_is_inked() -> None:
    canvas = Canvas(400, 200)
    blank = canvas.image.copy()
    canvas.text((200, 100), "Bishopric 4", 28, anchor="mm")
    (drawn,) = canvas.drawn
    inked = ImageChops.difference(blank, canvas.image).getbbox()
    assert inked is not None
    box = drawn.box
    left, top, right, bottom = inked
    # The recorded box holds every inked pixel, with at most a glyph's side bearing to spare.
    assert box.x <= left <= box.x + 3 and box.right - 3 <= right <= box.right
    assert box.y <= top <= box.y + 1 and box.bottom - 1 <= bottom <= box.bottom
    assert drawn.text == "Bishopric 4" and drawn.cut_from is None


def test_the_canvas_records_what_it_cut_and_the_panels_it_drew() -> None:
    canvas = Canvas(400, 200)
    canvas.panel(Box(10, 10, 200, 80))
    pill = canvas.pill(20, 120, "YOU", 28, palette.GOOD)
    canvas.text((10, 100), "A line far too long for its room", 28, max_width=120)
    assert canvas.panels == [Box(10, 10, 200, 80), pill]
    cut = canvas.drawn[-1]
    assert cut.cut_from == "A line far too long for its room"
    assert cut.text.endswith("…") and cut.box.w <= 120


def test_pack_joins_parts_into_the_fewest_lines_that_fit() -> None:
    face = font(28)
    parts = ["tokens 27", "tradesmen 5", "events 6", "cathedral −2", "characters 3"]
    room = width("tokens 27 · tradesmen 5 · events 6", face)
    assert pack(parts, " · ", face, room) == [
        "tokens 27 · tradesmen 5 · events 6",
        "cathedral −2 · characters 3",
    ]
    assert pack(parts, " · ", face, 10) == parts
    assert pack(parts, " · ", face, 10_000) == [" · ".join(parts)]
