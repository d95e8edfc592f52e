"""End of round scoring, star placement, the end of the game and the ranking."""

from __future__ import annotations

import pytest

from engine.buttons import RULES
from engine.buttons.actions import STOP, star
from engine.buttons.faces import Colour
from engine.buttons.state import ButtonsState, Cell, Phase, Status, longest_run
from engine.buttons.text import describe
from engine.core import Event

from .helpers import act, new_state, only_in

# Face 0 (rows top to bottom):  G B R R Y G / R Y G B B R / B R Y G R Y /
#                               Y B R G Y G / G Y Y B G B / R G B Y B R
RED = [(1, 3), (2, 1), (3, 5), (6, 6)]
BLUE = [(4, 2), (5, 4), (6, 3)]
YELLOW = [(1, 5), (3, 3)]


def _stop_last(state: ButtonsState, seat: int, buttons: list[Cell]) -> tuple[ButtonsState, list[str]]:
    """`seat` is the last one in, with `buttons`, and opts out: the round ends."""
    only_in(state, [seat])
    state.active = seat
    state.boards[seat].buttons = list(buttons)
    new, events = act(state, seat, STOP)
    return new, [e.kind for e in events]


def _score_event(state: ButtonsState, seat: int, buttons: list[Cell]) -> dict[str, object]:
    only_in(state, [seat])
    state.active = seat
    state.boards[seat].buttons = list(buttons)
    _, events = act(state, seat, STOP)
    return next(dict(e.data) for e in events if e.kind == "score" and e.data["seat"] == seat)


def test_opt_out_star_and_one_star_per_colour_with_three_or_more() -> None:
    state = new_state(3, bonus=[[Colour.GREEN], [Colour.RED], [Colour.YELLOW]])
    score = _score_event(state, 0, RED + BLUE + YELLOW)  # 4 red, 3 blue, 2 yellow
    assert score == {"seat": 0, "stars": 3, "opt_out": 1, "colours": 2, "bonus": 0}


def test_a_bonus_colour_with_three_buttons_gives_two_stars() -> None:
    state = new_state(3, bonus=[[Colour.BLUE], [Colour.RED], [Colour.YELLOW]])
    score = _score_event(state, 0, RED + BLUE + YELLOW)
    assert score == {"seat": 0, "stars": 4, "opt_out": 1, "colours": 2, "bonus": 1}


def test_two_players_have_two_bonus_colours() -> None:
    state = new_state(2, bonus=[[Colour.RED, Colour.BLUE], [Colour.YELLOW, Colour.GREEN]])
    score = _score_event(state, 0, RED + BLUE + YELLOW)
    assert score == {"seat": 0, "stars": 5, "opt_out": 1, "colours": 2, "bonus": 2}


def test_a_bonus_colour_short_of_three_gives_nothing() -> None:
    state = new_state(3, bonus=[[Colour.YELLOW], [Colour.RED], [Colour.GREEN]])
    score = _score_event(state, 0, [*YELLOW, (5, 5)])
    assert score == {"seat": 0, "stars": 1, "opt_out": 1, "colours": 0, "bonus": 0}


def test_a_busted_player_scores_nothing_and_others_keep_theirs() -> None:
    state = new_state(3)
    state.boards[1].status = Status.OPTED_OUT
    state.boards[1].buttons = [(2, 2)]
    state.pool = 3
    state.boards[2].status = Status.BUSTED
    state.pool = 2
    state.boards[0].buttons = [(1, 1)]
    state, events = act(state, 0, STOP)
    scores = {e.data["seat"]: e.data["stars"] for e in events if e.kind == "score"}
    assert scores == {0: 1, 1: 1, 2: 0}
    assert state.boards[1].stars == [(2, 2)] and state.boards[2].stars == []


def test_the_player_chooses_which_buttons_become_stars_one_at_a_time() -> None:
    state = new_state(3, bonus=[[Colour.GREEN], [Colour.RED], [Colour.YELLOW]])
    state.boards[0].stars = [(4, 4)]
    state, kinds = _stop_last(state, 0, RED + BLUE + YELLOW)
    assert kinds[-1] == "score" and state.phase is Phase.STARS
    (prompt,) = RULES.prompts(state)
    assert prompt.seat == 0 and prompt.kind == "star" and dict(prompt.context) == {"stars_due": 3}
    assert prompt.options == tuple(star(c) for c in sorted(RED + BLUE + YELLOW))
    assert len(prompt.options) <= 25
    state, _ = act(state, 0, star((6, 3)))
    (prompt,) = RULES.prompts(state)
    assert dict(prompt.context) == {"stars_due": 2} and star((6, 3)) not in prompt.options
    state, _ = act(state, 0, star((1, 5)))
    state, events = act(state, 0, star((3, 3)))
    assert [e.kind for e in events] == ["star", "round"]
    board = state.boards[0]
    assert board.stars == [(1, 5), (3, 3), (4, 4), (6, 3)], "earlier stars stay"
    assert board.buttons == [], "the other buttons go back to the supply"
    assert board.earned == 3


def test_every_button_becomes_a_star_without_asking_when_there_is_no_choice() -> None:
    state = new_state(3)
    state, kinds = _stop_last(state, 0, [(1, 1)])
    assert kinds == ["stop", "score", "star", "score", "score", "round"]
    assert state.boards[0].stars == [(1, 1)] and state.phase is Phase.TURN


def test_players_place_their_stars_at_the_same_time() -> None:
    state = new_state(3, bonus=[[Colour.GREEN], [Colour.BLUE], [Colour.YELLOW]])
    state.boards[1].status = Status.OPTED_OUT
    state.boards[1].buttons = RED + BLUE
    state.pool = 3
    state, _ = _stop_last(state, 0, RED + BLUE)
    # Seat 0 (face 0): 4 red and 3 blue. Seat 1 (face 1): those cells hold 4 green.
    assert {p.seat: dict(p.context)["stars_due"] for p in RULES.prompts(state)} == {0: 3, 1: 2}


@pytest.mark.parametrize(
    ("cells", "run"),
    [
        ([(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)], 5),
        ([(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)], 5),
        ([(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6)], 6),
        ([(1, 1), (1, 2), (1, 3), (1, 5), (1, 6)], 3),
        ([(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)], 1),
        ([], 0),
    ],
)
def test_lines_are_orthogonal_runs_without_gaps(cells: list[Cell], run: int) -> None:
    assert longest_run(cells) == run


def test_a_line_of_five_ends_the_game_at_the_end_of_the_round_and_wins() -> None:
    state = new_state(3)
    state.boards[0].stars = [(3, 1), (3, 2), (3, 4), (3, 5)]
    state.boards[1].stars = [(r, c) for r in (1, 3, 5) for c in (1, 3, 5)] + [(6, 2), (6, 4)]  # 11 stars
    state.boards[1].buttons = [(6, 6)]
    state.boards[1].status = Status.OPTED_OUT
    state.pool = 3
    state, kinds = _stop_last(state, 0, [(3, 3)])
    assert kinds[-1] == "game_over" and state.phase is Phase.OVER
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == (105, 12, 0) and outcome.ranks == (1, 2, 3) and outcome.winners == (0,)
    assert outcome.breakdown[0] == {"stars": 5, "line of 5": 100}
    assert outcome.breakdown[1] == {"stars": 12, "line of 5": 0}
    assert RULES.prompts(state) == ()


def test_twelve_stars_end_the_game_and_equal_scores_share_the_win() -> None:
    state = new_state(2)
    twelve = [(r, c) for r in (1, 3, 5) for c in (1, 3, 5)] + [(6, 2), (6, 4)]
    state.boards[0].stars = list(twelve)
    state.boards[1].stars = list(twelve)
    state.boards[1].buttons = [(6, 6)]
    state.boards[1].status = Status.OPTED_OUT
    state.pool = 2
    state, _ = _stop_last(state, 0, [(6, 6)])
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (12, 12) and outcome.ranks == (1, 1)


def test_eleven_stars_do_not_end_the_game() -> None:
    state = new_state(2)
    state.boards[0].stars = [(r, c) for r in (1, 3, 5) for c in (1, 3, 5)] + [(6, 2)]
    state, kinds = _stop_last(state, 0, [(6, 6)])
    assert kinds[-1] == "round" and RULES.outcome(state) is None
    assert len(state.boards[0].stars) == 11


def test_the_game_ends_only_at_the_end_of_a_round() -> None:
    state = new_state(2)
    state.boards[0].stars = [(1, c) for c in range(1, 6)]
    assert RULES.outcome(state) is None and RULES.prompts(state)


def test_lines_beat_any_star_count_and_two_lines_rank_by_stars() -> None:
    state = new_state(3)
    line = [(2, c) for c in range(1, 6)]
    state.boards[0].stars = [*line, (5, 5)]
    state.boards[1].stars = [*line, (4, 4), (6, 6)]
    state.boards[2].stars = [(r, c) for r in (1, 3, 5) for c in (1, 3, 5, 6)]  # 12 stars, no line
    state.phase = Phase.OVER
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (106, 107, 12) and outcome.ranks == (2, 1, 3)


# Twelve buttons on face 0, no two side by side, three of each colour.
FOUR_SETS = [(1, 1), (1, 3), (1, 5), (2, 2), (2, 4), (2, 6), (3, 1), (3, 3), (3, 5), (4, 2), (4, 4), (4, 6)]


@pytest.mark.parametrize(("seats", "most"), [(2, 7), (3, 6), (4, 6)])
def test_the_most_stars_a_round_can_give(seats: int, most: int) -> None:
    # rules/buttons.md section 5: 1 + 4 + 1 with 3 or 4 players, 1 + 4 + 2 with 2 players.
    state = new_state(seats)
    score = _score_event(state, 0, FOUR_SETS)
    assert score["stars"] == most and score["colours"] == 4


def test_the_game_over_line_names_the_winner_why_the_game_ended_and_what_the_score_is() -> None:
    names = ["Ann", "Bob", "Cy"]
    line = describe(Event("game_over", {"scores": [9, 108, 12]}), names)
    assert line == (
        "The game ends: Bob has a line of 5 stars. Bob wins."
        " Scores: Bob 108 (8 stars + 100 for a line of 5); Cy 12 stars; Ann 9 stars."
    )
    tied = describe(Event("game_over", {"scores": [12, 12, 1]}), names)
    assert tied == (
        "The game ends: Ann and Bob have 12 stars or more. Ann and Bob share the win."
        " Scores: Ann 12 stars; Bob 12 stars; Cy 1 star."
    )
