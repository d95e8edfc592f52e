"""Dealing the bonus colour cards, passing them, and who starts each round."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.buttons import RULES
from engine.buttons.actions import ROLL, STOP
from engine.buttons.faces import Colour
from engine.buttons.state import ButtonsState, Phase, Status
from engine.core import BadOptions

from .helpers import act, new_state, only_in


def test_player_counts() -> None:
    with pytest.raises(BadOptions):
        RULES.setup(1)
    with pytest.raises(BadOptions):
        RULES.setup(5)


def test_two_players_hold_two_cards_each_all_four_in_play() -> None:
    for seed in range(20):
        state = RULES.setup(2, seed=seed)
        assert [len(b.bonus) for b in state.boards] == [2, 2]
        assert sorted(c.value for b in state.boards for c in b.bonus) == sorted(c.value for c in Colour)
        assert state.removed is None


def test_three_players_set_aside_one_card_never_red() -> None:
    removed = Counter()
    for seed in range(60):
        state = RULES.setup(3, seed=seed)
        assert state.removed is not None and state.removed is not Colour.RED
        removed[state.removed] += 1
        held = [c for b in state.boards for c in b.bonus]
        assert [len(b.bonus) for b in state.boards] == [1, 1, 1]
        assert set(held) == set(Colour) - {state.removed}
    assert set(removed) == {Colour.YELLOW, Colour.GREEN, Colour.BLUE}


def test_four_players_one_card_each() -> None:
    state = RULES.setup(4, seed=3)
    assert sorted(b.bonus[0].value for b in state.boards) == sorted(c.value for c in Colour)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_red_card_holder_starts(seats: int) -> None:
    starters = set()
    for seed in range(30):
        state = RULES.setup(seats, seed=seed)
        assert Colour.RED in state.boards[state.starter].bonus
        assert state.active == state.starter and state.phase is Phase.TURN
        assert state.pool == 4 and state.round == 1
        (prompt,) = RULES.prompts(state)
        assert prompt.seat == state.starter
        starters.add(state.starter)
    assert starters == set(range(seats))


def _end_round(state: ButtonsState, seat: int) -> ButtonsState:
    """Let `seat` (the last one in, holding one button) opt out, ending the round."""
    only_in(state, [seat])
    state.active = seat
    state.boards[seat].buttons = [(1, 1)]
    new, events = act(state, seat, STOP)
    assert any(e.kind == "round" for e in events)
    return new


def test_cards_pass_clockwise_and_the_new_red_holder_starts() -> None:
    state = new_state(3)  # seat 0 red, seat 1 yellow, seat 2 green; blue set aside
    state.removed = Colour.BLUE
    after = _end_round(state, 0)
    assert [b.bonus for b in after.boards] == [[Colour.GREEN], [Colour.RED], [Colour.YELLOW]]
    assert after.round == 2 and after.starter == 1 and after.active == 1
    assert after.removed is Colour.BLUE
    assert after.pool == 4 and all(b.status is Status.IN and b.dice_aside == 0 for b in after.boards)
    assert after.roll is None and after.phase is Phase.TURN
    again = _end_round(after, 1)
    assert [b.bonus for b in again.boards] == [[Colour.YELLOW], [Colour.GREEN], [Colour.RED]]
    assert again.starter == 2


def test_two_players_swap_both_cards_so_the_start_alternates() -> None:
    state = new_state(2, bonus=[[Colour.RED, Colour.BLUE], [Colour.YELLOW, Colour.GREEN]])
    after = _end_round(state, 0)
    assert [b.bonus for b in after.boards] == [[Colour.YELLOW, Colour.GREEN], [Colour.RED, Colour.BLUE]]
    assert after.starter == 1
    assert _end_round(after, 1).starter == 0


def test_first_turn_of_a_round_can_only_roll() -> None:
    state = RULES.setup(3, seed=1)
    (prompt,) = RULES.prompts(state)
    assert prompt.kind == "turn" and prompt.options == (ROLL,) and prompt.default == ROLL
