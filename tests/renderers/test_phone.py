"""Every game's board on a phone: digits and capitals stay 8 px tall at 400 px wide, files under 300 kB."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module
from typing import Any

import pytest

from engine.games import GAMES, get_rules
from renderers import render_file
from renderers.kit import Canvas
from renderers.playout import states
from renderers.text import PHONE_MIN_PX, PHONE_WIDTH
from tests.renderers.helpers import NASTY_NAMES, decode

PHONE_BYTES = 300_000
"""Issue 12: a board stays under 300 kB."""
TABLES = [
    *(("tomatoes", n) for n in range(1, 7)),
    *(("buttons", n) for n in (2, 3, 4)),
    *(("troyes", n) for n in (2, 3, 4)),
]
GAME_BYTES = 3_000_000
"""Issue 33: the images one 3-player game uploads, at most."""
MOST_UPLOADS = {"tomatoes": 90, "buttons": 80, "troyes": 80}
"""The most boards one 3-player game uploaded in `bench/bench_quiet.py --games 8` (87, 76 and 75)."""
MOMENTS = (0.0, 0.2, 0.45, 0.7, 0.9)
"""How far into a game the checked boards are taken, besides its final board."""

Draw = Callable[[Any, int | None, Sequence[str]], Canvas]


def drawer(game: str) -> Draw:
    """The game's `draw`, which returns the canvas with the text sizes it used."""
    found: Draw = import_module(f"renderers.{game}").draw
    return found


@cache
def moments(game: str, seats: int) -> tuple[Any, ...]:
    """States spread over a seeded random-bot game of `game`, its last (final) state included."""
    every = list(states(get_rules(game), seats, 500 + seats, policy="random"))
    picked = [every[int(len(every) * fraction)] for fraction in MOMENTS]
    return (*picked, every[-1])


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_every_letter_and_number_is_8_px_tall_on_a_phone(game: str, seats: int) -> None:
    rules = get_rules(game)
    draw = drawer(game)
    picked = moments(game, seats)
    assert rules.outcome(picked[-1]) is not None
    for index, state in enumerate(picked):
        for viewer in (*range(seats), None):
            for names in (NASTY_NAMES[:seats], ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")[:seats]):
                canvas = draw(rules.view(state, viewer), viewer, names)
                assert canvas.text_sizes, (index, viewer)
                shown = canvas.smallest_shown_glyph(PHONE_WIDTH)
                assert shown >= PHONE_MIN_PX, (game, seats, index, viewer, shown)


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_the_final_board_is_a_small_image(game: str, seats: int) -> None:
    rules = get_rules(game)
    state = moments(game, seats)[-1]
    data = render_file(game, rules.view(state, None), None, NASTY_NAMES[:seats])
    decode(data, (600, 1000), 3000, PHONE_BYTES)


@pytest.mark.parametrize("game", sorted(MOST_UPLOADS))
def test_a_three_player_game_of_boards_like_these_stays_under_3_mb(game: str) -> None:
    rules = get_rules(game)
    sizes = [len(render_file(game, rules.view(s, None), None, ("Ana", "Bo", "Cy"))) for s in moments(game, 3)]
    assert sum(sizes) / len(sizes) * MOST_UPLOADS[game] <= GAME_BYTES, sizes


@pytest.mark.parametrize("game", [game.id for game in GAMES.values() if game.renderer])
def test_the_check_sees_text_too_small_for_a_phone(game: str) -> None:
    rules = get_rules(game)
    state = moments(game, 2)[1]
    canvas = drawer(game)(rules.view(state, None), None, ("Ana", "Bo"))
    assert canvas.smallest_shown_glyph(PHONE_WIDTH) >= PHONE_MIN_PX
    canvas.text((0, 0), "12", 14)
    assert canvas.smallest_shown_glyph(PHONE_WIDTH) < PHONE_MIN_PX
