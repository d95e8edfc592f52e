"""The Troyes board: every state of bot games draws, secrets stay with their seat, phones can read it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

import pytest
from PIL import Image

from engine.troyes import RULES, TroyesState
from engine.troyes.kinds import Colour, Phase
from engine.troyes.state import Die
from renderers import render, render_png
from renderers.playout import states
from renderers.text import PHONE_MIN_PX, PHONE_WIDTH
from renderers.troyes import WIDTH, draw
from tests.renderers.helpers import NASTY_NAMES, decode

NAMES = ("Ana", "Bartholomew", "Chloé", "Dmitri")
MAX_HEIGHT = 3000
"""A long event queue makes the board taller; no bot game comes near this."""
PHONE_BYTES = 300_000
"""Issue 12: a board stays under 300 kB."""


@cache
def game(seats: int, seed: int = 0) -> tuple[TroyesState, ...]:
    """Every state of a seeded greedy-bot game, from setup to the end."""
    return tuple(states(RULES, seats, 100 + 10 * seats + seed))


def pixels(state: TroyesState, viewer: int | None, *, redact: bool = True) -> bytes:
    """The board's pixels as `viewer` gets it (through the rules' view unless `redact` is off)."""
    view = RULES.view(state, viewer) if redact else state
    return render("troyes", view, viewer, NAMES[: state.seats]).tobytes()


def moments(seats: int) -> Iterator[tuple[str, TroyesState]]:
    """Boards worth checking: setup, black dice, dice being chosen, a pass, expulsions, cubes, the end."""
    every = game(seats)
    tests: dict[str, Callable[[TroyesState], bool]] = {
        "setup": lambda s: s.phase is Phase.PLACEMENT,
        "black dice": lambda s: s.phase is Phase.COUNTER and bool(s.black),
        "dice chosen": lambda s: any(step.dice for step in s.stack),
        "passed": lambda s: any(p.passed for p in s.players),
        "expelled": lambda s: any(s.lying),
        "card cubes": lambda s: any(p.cubes for p in s.players),
        "last round": lambda s: s.round == s.rounds and s.phase is Phase.ACTIONS,
        "over": lambda s: s.phase is Phase.OVER,
    }
    for name, test in tests.items():
        found = next((s for s in every if test(s)), None)
        if found is not None:
            yield name, found


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_board_of_a_game_draws_and_decodes(seats: int) -> None:
    # Every state is drawn, the viewer going round the seats and a spectator, so each viewer
    # meets every phase; every eighth board (and the last) also goes through PNG and back.
    every = game(seats)
    viewers: list[int | None] = [*range(seats), None]
    for step, state in enumerate(every):
        viewer = viewers[step % len(viewers)]
        view = RULES.view(state, viewer)
        if step % 8 == 0 or step == len(every) - 1:
            image = decode(render_png("troyes", view, viewer, NAMES[:seats]), (WIDTH, WIDTH), MAX_HEIGHT)
        else:
            image = render("troyes", view, viewer, NAMES[:seats])
        assert image.width == WIDTH
    assert every[-1].phase is Phase.OVER


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_letter_and_number_is_8_px_tall_on_a_phone(seats: int) -> None:
    found = dict(moments(seats))
    assert {"setup", "black dice", "dice chosen", "last round", "over"} <= set(found)
    for name, state in found.items():
        for viewer in (0, None):
            canvas = draw(RULES.view(state, viewer), viewer, NASTY_NAMES[:seats])
            assert canvas.text_sizes, name
            assert canvas.smallest_shown_glyph(PHONE_WIDTH) >= PHONE_MIN_PX, name


def test_the_phone_check_catches_small_text() -> None:
    state = game(2)[0]
    canvas = draw(RULES.view(state, None), None, NAMES[:2])
    canvas.text((0, 0), "7", 20)
    assert canvas.smallest_shown_glyph(PHONE_WIDTH) < PHONE_MIN_PX


def test_the_largest_board_is_small_for_a_phone() -> None:
    biggest = max(game(4), key=lambda s: (len(s.queue), len(s.dice)))
    data = render_png("troyes", RULES.view(biggest, 0), 0, NASTY_NAMES[:4])
    decode(data, (WIDTH, WIDTH), MAX_HEIGHT, PHONE_BYTES)


def test_hostile_names_draw() -> None:
    state = game(4)[len(game(4)) // 2]
    decode(render_png("troyes", RULES.view(state, None), None, NASTY_NAMES[:4]), (WIDTH, WIDTH), MAX_HEIGHT)
    decode(render_png("troyes", RULES.view(state, 1), 1, ["", "", ""]), (WIDTH, WIDTH), MAX_HEIGHT)


def _other_character(state: TroyesState, seat: int) -> str:
    """A character id this seat does not hold."""
    held = set(state.players[seat].characters)
    return next(c for c in ("C1", "C2", "C3", "C4", "C5", "C6") if c not in held)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_victory_points_and_characters_show_only_to_their_seat(seats: int) -> None:
    state = next(s for s in game(seats) if s.phase is Phase.ACTIONS and s.round == 2)
    twin = RULES.clone(state)
    twin.players[0].vp += 7
    twin.players[0].characters[0] = _other_character(state, 0)
    assert pixels(twin, 0) != pixels(state, 0)
    for viewer in (None, *range(1, seats)):
        assert pixels(twin, viewer) == pixels(state, viewer)
        # Even a caller that forgot the rules' view shows no other seat's secrets.
        assert pixels(twin, viewer, redact=False) == pixels(state, viewer, redact=False)


def test_the_final_board_reveals_everything() -> None:
    final = game(3)[-1]
    twin = RULES.clone(final)
    twin.players[0].vp += 7
    assert pixels(twin, None) != pixels(final, None)
    twin = RULES.clone(final)
    twin.players[1].characters[0] = _other_character(final, 1)
    assert pixels(twin, 2) != pixels(final, 2)


def test_the_board_shows_what_changes() -> None:
    """Expelled citizens, dice, cubes, tradesmen, passes and resources each change the picture."""
    state = next(s for s in game(3) if s.phase is Phase.ACTIONS and not s.stack and s.round == 3)
    base = pixels(state, None)

    def changed(edit: Callable[[TroyesState], object]) -> bool:
        twin = RULES.clone(state)
        edit(twin)
        return pixels(twin, None) != base

    assert changed(lambda s: s.lying[1].append(2))
    assert changed(lambda s: s.dice.append(Die(id=999, colour=Colour.WHITE, value=6, owner=1)))
    assert changed(lambda s: s.cathedral[5].append(0) if len(s.cathedral[5]) < 3 else s.cathedral[5].pop())
    assert changed(lambda s: s.queue[0].cubes.append(1))
    assert changed(lambda s: s.cards[0].extra.append(2))
    assert changed(lambda s: setattr(s.players[2], "passed", True))
    assert changed(lambda s: setattr(s.players[1], "deniers", s.players[1].deniers + 10))
    assert changed(lambda s: setattr(s.players[1], "influence", s.players[1].influence - 1))
    assert changed(lambda s: setattr(s.players[0], "supply", s.players[0].supply + 1))
    assert changed(lambda s: s.players[1].cubes.update({s.cards[4].id: 2}))


def test_a_phone_sized_copy_keeps_the_portrait_shape() -> None:
    for seats in (2, 3, 4):
        image: Image.Image = render("troyes", RULES.view(game(seats)[-1], None), None, NAMES[:seats])
        assert image.height > image.width


def test_a_full_district_with_every_tag_stays_readable() -> None:
    # 12 dice (a player's most citizens) beside "PASSED", "START" and "YOU": the tags move down.
    state = next(s for s in game(3) if s.phase is Phase.ACTIONS and not s.stack)
    twin = RULES.clone(state)
    colours = (Colour.RED, Colour.WHITE, Colour.YELLOW)
    twin.dice = [Die(id=500 + i, colour=colours[i % 3], value=i % 6 + 1, owner=0) for i in range(12)]
    twin.players[0].passed, twin.players[0].pass_money, twin.start = True, 3, 0
    plain = draw(RULES.view(state, 0), 0, NASTY_NAMES[:3])
    full = draw(RULES.view(twin, 0), 0, NASTY_NAMES[:3])
    assert full.image.height > plain.image.height
    assert full.smallest_shown_glyph(PHONE_WIDTH) >= PHONE_MIN_PX
