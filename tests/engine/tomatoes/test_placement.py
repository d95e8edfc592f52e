"""Placement rules (section 6): seeds, sets and runs, the forced placement loop."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.tomatoes.placement import fits, is_set_or_run
from engine.tomatoes.rules import END_TURN
from engine.tomatoes.state import Token, TomatoState
from tests.engine.tomatoes.helpers import dice, die, end_turn, place, placements_of, position, prompt


def bga_example() -> TomatoState:
    """Section 6.2: tokens [empty], [1], [1,2]; roll 1, 2, 3 (solo, so only these tokens exist)."""
    return position(1, rolled=("r1", "r2", "r3"), vines={(0, 1): ["r1"], (0, 2): ["r1", "r2"]})


def test_bga_example_exact_legal_placements() -> None:
    assert placements_of(bga_example()) == {
        ("r1", 0, 0),
        ("r1", 0, 1),
        ("r2", 0, 0),
        ("r2", 0, 1),
        ("r3", 0, 0),
        ("r3", 0, 2),
    }


@pytest.mark.parametrize(
    ("seed_index", "order"),
    [
        (2, (1, 0)),  # seed 3 on token 1, then 2 and 1: a descending run
        (0, (1, 2)),  # seed 1, then 2 and 3: ascending
        (1, (0, 2)),  # seed 2 with 1 below and 3 above
        (1, (2, 0)),
    ],
)
def test_bga_example_runs_on_the_empty_token(seed_index: int, order: tuple[int, int]) -> None:
    state = bga_example()
    values = [d.value for d in state.rolled]
    state, _ = place(state, seed_index, 0, 0)
    for wanted in (values[order[0]], values[order[1]]):
        index = [d.value for d in state.rolled].index(wanted)
        state, _ = place(state, index, 0, 0)
    assert sorted(d.value for d in state.players[0].tokens[0].dice) == [1, 2, 3]
    assert state.players[0].tokens[0].dice[0].value == values[seed_index]


def test_bga_example_two_and_three_on_token_two_then_three_on_token_three() -> None:
    state = bga_example()
    state, _ = place(state, 1, 0, 1)  # 2 on [1]
    state, _ = place(state, 1, 0, 1)  # 3 on [1,2]
    assert [d.value for d in state.players[0].tokens[1].dice] == [1, 2, 3]
    other = bga_example()
    other, _ = place(other, 2, 0, 2)  # 3 on [1,2]
    assert [d.value for d in other.players[0].tokens[2].dice] == [1, 2, 3]


@pytest.mark.parametrize(
    ("vine", "new"),
    [
        (["r1"], "r3"),
        (["r1"], "r6"),
        (["r1", "r2"], "r1"),
        (["r1", "r2"], "r2"),
        (["r6"], "r1"),  # no wrap-around
        (["r5", "r6"], "r1"),
        (["r2", "r2"], "r3"),  # a set stays a set
    ],
)
def test_illegal_additions(vine: list[str], new: str) -> None:
    assert not fits(Token(dice=dice(*vine)), die(new))
    for colour in "bg":  # colour never changes legality
        assert not fits(Token(dice=dice(*vine)), die(colour + new[1:]))


@pytest.mark.parametrize("new", ["b1", "b4", "g6", "g2"])
def test_black_and_gold_never_seed(new: str) -> None:
    assert not fits(Token(), die(new))
    state = position(1, rolled=(new,))
    assert placements_of(state) == set()
    assert prompt(state).options[0] == END_TURN


def test_black_and_gold_extend_by_face_value() -> None:
    assert fits(Token(dice=dice("r1")), die("b1"))
    assert fits(Token(dice=dice("r1")), die("b2"))
    assert fits(Token(dice=dice("r6", "r6", "r6")), die("g6"))
    assert not fits(Token(dice=dice("r6", "r6", "r6", "r6")), die("r6"))


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_set_or_run_matches_the_definition(values: list[int]) -> None:
    expected = len(set(values)) == 1 or sorted(values) == list(range(min(values), min(values) + len(values)))
    assert is_set_or_run(values) == expected


def test_seeds_go_on_anyones_empty_token() -> None:
    state = position(2, rolled=("r4",))
    assert placements_of(state) == {("r4", owner, token) for owner in (0, 1) for token in range(3)}


def test_must_place_while_any_die_fits_and_cannot_end_turn() -> None:
    state = position(1, rolled=("r4", "b3"))
    options = prompt(state).options
    assert END_TURN not in options and prompt(state).default is None
    with pytest.raises(IllegalAction):
        end_turn(state)
    state, _ = place(state, 0, 0, 0)  # the black 3 now fits the run 3-4
    assert ("b3", 0, 0) in placements_of(state) and END_TURN not in prompt(state).options


def test_end_turn_offered_only_when_nothing_fits() -> None:
    state = position(1, rolled=("b3",), vines={(0, 0): ["r1"]})
    assert END_TURN in prompt(state).options and prompt(state).default == END_TURN
    assert [a for a in prompt(state).options if a.kind == "place"] == []


def test_full_score_track_freezes_the_tokens() -> None:
    state = position(2, rolled=("r5",), vines={(1, 0): ["r5"]}, slots={1: [1, 2, 3, 4, 5, 6]})
    assert placements_of(state) == {("r5", 0, t) for t in range(3)}
