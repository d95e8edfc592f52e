"""Names in any script on every board: each character drawn by a font that has it, or as the placeholder."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from importlib import import_module
from typing import Any

import pytest
from PIL import Image, ImageChops

import renderers
from engine.games import GAMES, get_rules
from renderers import palette
from renderers.glyphs import font_coverage
from renderers.kit import Canvas, Drawn
from renderers.playout import states
from renderers.text import DEJAVU, MISSING, PLACEHOLDER, Run, fit, font, ignorable, runs, width

WORLD = ("민지", "Zażółć", "Ærøskøbing", "王芳", "🍅Ann 👍🏽", "Наталья")
"""Korean, Polish, Nordic, Chinese, emoji with a skin tone, Russian."""
GAME_IDS = [game.id for game in GAMES.values() if game.renderer]


def tofu(drawn: Sequence[Drawn]) -> list[str]:
    """Every character drawn with a font whose character map lacks it (the "tofu" boxes), and every
    text whose runs do not add up to it (a character dropped)."""
    problems: list[str] = []
    for item in drawn:
        # A die face is an icon; a blank one's runs are its colour's initial.
        if not item.text.startswith("die ") and "".join(run.text for run in item.runs) != item.text:
            problems.append(f"{item.text!r} was drawn as {[run.text for run in item.runs]!r}")
        for run in item.runs:
            coverage = font_coverage(run.path(), run.font.index)
            shown = PLACEHOLDER if run.font is MISSING else run.text
            lacking = [c for c in shown if not ignorable(c) and c not in coverage]
            if lacking:
                problems.append(f"{item.text!r}: {lacking!r} drawn with {run.font.name}, which lacks them")
    return problems


def placeholders(drawn: Sequence[Drawn]) -> list[str]:
    """The characters drawn as the placeholder (no font has them)."""
    return [run.text for item in drawn for run in item.runs if run.font is MISSING]


def _draw(game: str, view: Any, viewer: int | None, names: Sequence[str]) -> Canvas:
    canvas: Canvas = import_module(f"renderers.{game}").draw(view, viewer, names)
    return canvas


@lru_cache(maxsize=8)
def _states(game: str, seats: int) -> tuple[Any, ...]:
    """The start, the middle and the end of a seeded game (a Troyes playout takes seconds)."""
    every = list(states(get_rules(game), seats, 7))
    return every[0], every[len(every) // 2], every[-1]


def _boards(game: str, names: Sequence[str]) -> list[tuple[int | None, Any]]:
    """(viewer, view) at the start, the middle and the end of a seeded game with `names`' seats."""
    rules = get_rules(game)
    return [
        (viewer, rules.view(state, viewer)) for state in _states(game, len(names)) for viewer in (0, None)
    ]


def _seatings(game: str) -> list[tuple[str, ...]]:
    """The WORLD names split into tables of the game's most seats, so each sits at one."""
    seats = min(GAMES[game].seats, len(WORLD))
    return [(WORLD[start:] + WORLD)[:seats] for start in range(0, len(WORLD), seats)]


@pytest.mark.parametrize("game", GAME_IDS)
def test_names_in_every_script_are_drawn_on_every_board_with_no_glyph_missing(game: str) -> None:
    problems: list[str] = []
    for names in _seatings(game):
        for viewer, view in _boards(game, names):
            canvas = _draw(game, view, viewer, names)
            texts = [item.cut_from or item.text for item in canvas.drawn]
            absent = [name for name in names if not any(name in t for t in texts)]
            problems += [f"{name!r} is not on the board" for name in absent]
            problems += tofu(canvas.drawn)
            problems += [f"{c!r} drawn as the placeholder" for c in placeholders(canvas.drawn)]
            data = renderers.render_file(game, view, viewer, names)
            image = Image.open(io.BytesIO(data))
            image.load()
            assert image.format == "WEBP" and image.width >= 400
    assert problems == []


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_character_no_font_has_is_drawn_as_the_placeholder_on_the_board(game: str) -> None:
    names = ("Zoë\ue000", *WORLD)[: min(GAMES[game].seats, 4)]
    viewer, view = _boards(game, names)[0]
    canvas = _draw(game, view, viewer, names)
    assert placeholders(canvas.drawn) and set("".join(placeholders(canvas.drawn))) == {"\ue000"}
    assert any("Zoë\ue000" in item.text for item in canvas.drawn)
    assert tofu(canvas.drawn) == []


def test_the_tofu_check_finds_a_character_drawn_with_a_font_that_lacks_it() -> None:
    box = Canvas(10, 10).box
    assert tofu([Drawn(box, "민지", runs=(Run(DEJAVU, "민지"),))]) == [
        "'민지': ['민', '지'] drawn with DejaVu Sans, which lacks them"
    ]
    assert tofu([Drawn(box, "민지", runs=(Run(DEJAVU, "민"),))]) != []  # a character dropped


def test_a_placeholder_is_visible_where_the_character_was() -> None:
    with_it, without = Canvas(300, 80), Canvas(300, 80)
    with_it.text((10, 40), "A\ue000B", 40, anchor="lm")
    without.text((10, 40), "AB", 40, anchor="lm")
    assert with_it.drawn[0].box.w > without.drawn[0].box.w + 20
    assert [run.font for run in with_it.drawn[0].runs] == [DEJAVU, MISSING, DEJAVU]
    placeholder = Canvas(300, 80)
    placeholder.text((10, 40), PLACEHOLDER, 40, anchor="lm")
    assert ImageChops.difference(placeholder.image, Canvas(300, 80).image).getbbox() is not None


def _colourful(image: Image.Image) -> int:
    """How many pixels are strongly coloured (text and panels are greys)."""
    hsv = image.convert("HSV").tobytes()
    return sum(1 for i in range(0, len(hsv), 3) if hsv[i + 1] > 120 and hsv[i + 2] > 80)


def test_emoji_are_drawn_in_colour_at_the_text_size_as_one_glyph_per_sequence() -> None:
    canvas = Canvas(600, 120)
    canvas.text((10, 60), "🍅Ann 👍🏽", 30, anchor="lm", fill=palette.TEXT)
    assert _colourful(canvas.image) > 200
    item = canvas.drawn[0]
    assert tofu([item]) == []
    assert 25 <= item.box.h <= 45  # scaled from the 109 px strike to about the text size
    face = font(30)
    # A skin tone, a family (joined by ZWJ) and a flag each shape into a single emoji.
    one = width("👍", face)
    assert width("👍🏽", face) == pytest.approx(one)
    assert width("👨\u200d👩\u200d👧", face) == pytest.approx(one, rel=0.1)
    assert width("🇵🇱", face) == pytest.approx(one, rel=0.1)
    assert [run.text for run in runs("🍅Ann 👍🏽")] == ["🍅", "Ann ", "👍🏽"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_board_with_colour_emoji_keeps_their_colours_in_its_file(game: str) -> None:
    """The game's fixed palette was learnt without emoji: a skin tone must not come out olive."""
    names = ("👍🏽Ann", "Bob 👩\u200d👩\u200d👧", "Cy")[: min(GAMES[game].seats, 3)]
    viewer, view = _boards(game, names)[1]
    drawn = renderers.render(game, view, viewer, names).convert("RGB")
    encoded = Image.open(io.BytesIO(renderers.render_file(game, view, viewer, names))).convert("RGB")
    red, green, blue = ImageChops.difference(drawn, encoded).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    assert sum(1 for value in worst.get_flattened_data() if value > 40) == 0


@pytest.mark.parametrize("name", WORLD)
def test_fitting_measures_the_runs_it_draws(name: str) -> None:
    canvas = Canvas(900, 120)
    face = font(28)
    long = f"{name} {name} {name} {name}"
    returned = canvas.text((10, 60), long, 28, anchor="lm", max_width=200)
    item = canvas.drawn[0]
    assert item.cut_from == long and item.text == fit(long, face, 200)
    assert returned == pytest.approx(width(item.text, face)) and returned <= 200
    assert item.box.w <= 200 + 3  # ink within the measured advance, a side bearing to spare
    assert tofu([item]) == []


def test_the_faces_of_a_font_collection_are_read_by_index() -> None:
    from renderers.glyphs import read_coverage
    from renderers.text import CJK_KR, CJK_SC

    for face in (CJK_KR, CJK_SC):
        coverage = font_coverage(face.path(True), face.index)
        assert all(c in coverage for c in "민지王芳") and "\ue000" not in coverage
    with pytest.raises(ValueError, match="collection"):
        read_coverage(CJK_KR.path(True).read_bytes()[:64], 40)


@pytest.mark.parametrize("name", ["مريم", "שרה"])
def test_a_right_to_left_name_keeps_its_place_at_the_start_of_a_line(name: str) -> None:
    line, alone = Canvas(600, 80), Canvas(600, 80)
    line.text((10, 40), f"{name}'s turn: place dice", 30, anchor="lm")
    alone.text((10, 40), name, 30, anchor="lm")
    box = alone.drawn[0].box
    region = (box.x, 0, box.right - 2, 80)  # the name's ink, less what the apostrophe may touch
    assert line.image.crop(region).tobytes() == alone.image.crop(region).tobytes()
