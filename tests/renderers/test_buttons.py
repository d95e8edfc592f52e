"""The Buttons board: every state of bot games draws; roll targets, names and sizes."""

from __future__ import annotations

import pytest
from PIL import Image

from engine.buttons import RULES
from engine.buttons.state import ButtonsState, Phase, Roll
from engine.words import words
from renderers import render, render_file
from renderers.buttons import WIDTH, _lines, draw, roll_title
from renderers.playout import state_at, states
from tests.renderers.helpers import NASTY_NAMES, decode, game_layout_problems, layout_problems

NAMES = ("Ana", "Bo", "Cy", "Di")


def _open_roll(seats: int, seed: int) -> ButtonsState:
    """A state where the roller has at least one cell to choose from."""
    for state in states(RULES, seats, seed):
        found: ButtonsState = state
        if found.phase is Phase.PLACE and found.candidate_cells(found.active):
            return found
    raise AssertionError("no open roll")


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_few_steps_of_a_game_draws(seats: int, policy: str) -> None:
    seen = set()
    for step, state in enumerate(states(RULES, seats, seats * 13, policy=policy)):
        if step % 3 == 0 or state.phase is Phase.OVER:
            # Each seat in turn and a spectator.
            viewer = step % (seats + 1) if step % (seats + 1) < seats else None
            image = render("buttons", RULES.view(state, viewer), viewer, NAMES[:seats])
            assert image.width == WIDTH
            seen.add(state.phase)
    assert seen == set(Phase)


def test_the_largest_table_with_hostile_names_is_well_under_a_megabyte() -> None:
    state = state_at(RULES, 4, 3, 0.7)
    decode_board(render_file("buttons", RULES.view(state, 2), 2, NASTY_NAMES[:4]))
    decode_board(render_file("buttons", RULES.view(state, None), None, ["", "", "", ""]))


def test_the_viewers_legal_cells_are_marked() -> None:
    state = _open_roll(3, 4)
    seat = state.active
    marked = render("buttons", state, seat, NAMES[:3]).tobytes()
    assert render("buttons", state, seat, NAMES[:3], legal_cells=[]).tobytes() != marked
    given = state.candidate_cells(seat)
    assert render("buttons", state, seat, NAMES[:3], legal_cells=given).tobytes() == marked
    data = render_file("buttons", state, seat, NAMES[:3], legal_cells=given)
    decode_board(data)


def test_a_seat_view_differs_from_the_spectator_view() -> None:
    state = _open_roll(2, 9)
    spectator = render("buttons", RULES.view(state, None), None, NAMES[:2])
    seat = render("buttons", RULES.view(state, 0), 0, NAMES[:2])
    assert spectator.tobytes() != seat.tobytes()


def test_stars_and_buttons_change_the_picture() -> None:
    state = RULES.setup(2, None, 5)
    base = render("buttons", state, None, NAMES[:2]).tobytes()
    with_button = RULES.clone(state)
    with_button.boards[1].buttons.append((3, 4))
    with_star = RULES.clone(state)
    with_star.boards[1].stars.append((3, 4))
    drawn = {render("buttons", s, None, NAMES[:2]).tobytes() for s in (with_button, with_star)}
    assert len(drawn) == 2
    assert base not in drawn


def test_a_line_of_five_stars_is_found_across_and_down() -> None:
    row = [(5, col) for col in range(1, 6)]
    assert _lines(row) == [((5, 1), (5, 5))]
    assert _lines(row[:4]) == []
    column = [(r, 6) for r in range(1, 7)]
    assert _lines(column) == [((1, 6), (6, 6))]
    gap = [(2, c) for c in (1, 2, 3, 5, 6)]
    assert _lines(gap) == []


def test_between_rolls_the_caption_says_whose_roll_it_was_if_it_busted_and_the_next_dice() -> None:
    state = RULES.setup(3, {}, 2)
    names = ["Ann", "Bob", "Cy"]
    assert roll_title(state, names) == "Dice"
    state.roll = Roll(white=2, gold=3, plain=[1, 4, 5], seat=1, bust=True)
    state.pool, state.active, state.phase = 3, 2, Phase.TURN
    assert roll_title(state, names) == "Last roll: Bob's, busted · next roll 5 dice"
    state.roll.bust = False
    assert roll_title(state, names) == "Last roll: Bob's · next roll 5 dice"
    state.phase = Phase.PLACE
    assert roll_title(state, names) == "Cy's roll"
    render("buttons", state, None, names)


def decode_board(data: bytes) -> Image.Image:
    """The board file decoded, checked to be a board WIDTH wide."""
    return decode(data, (WIDTH, WIDTH), 3000)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_text_is_cut_or_runs_into_other_text(seats: int) -> None:
    # Found by this check: "11 / 12 stars" ran under the "OPTED OUT" pill (4 players), and a
    # long name cut the columns of the roll ("Bartholomew Fit…: cols 2, 3, 4,…").
    problems = game_layout_problems(RULES, draw, seats, range(1000, 1004))
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("language", ["ru", "pl", "ko"])
def test_a_translated_board_keeps_its_words_inside_their_panels(language: str) -> None:
    # Issue 36: "+3 gwiazdki w ostatniej rundzie" ran out of its player's panel. Whatever a
    # language says is drawn inside its panel (a note longer than its room is cut with an ellipsis).
    problems: list[str] = []
    for seats in (2, 3, 4):
        for index, state in enumerate(states(RULES, seats, 5)):
            if index % 3:
                continue
            names = [f"P{seat}" for seat in range(seats)]
            canvas = draw(RULES.view(state, 0), 0, names, w=words(language))
            problems += [
                f"{seats}p state {index}: {p}" for p in layout_problems(canvas) if " is cut to " not in p
            ]
    assert not problems, "\n".join(problems[:10])
