"""Harvest, overripe and zero-value vines, slot matches, first to six (sections 7, 9, 14)."""

from __future__ import annotations

import pytest

from engine.core import Action
from engine.tomatoes import RULES
from engine.tomatoes.rules import KEEP
from engine.tomatoes.state import Colour, GameEnd, Phase
from tests.engine.tomatoes.helpers import act, count_dice, end_turn, kinds, place, position, prompt


@pytest.mark.parametrize("black", ["b1", "b2"])
def test_black_defensive_use_zero_vine_may_be_cleared_by_its_owner(black: str) -> None:
    # Section 14: own vine [seed 1] + black 1 (set) or black 2 (run) -> worth 0 -> clearable.
    state = position(2, rolled=(black,), vines={(0, 0): ["r1"]})
    state, _ = place(state, 0, 0, 0)
    assert state.players[0].tokens[0].value == 0
    state, events = end_turn(state)
    assert state.phase is Phase.CLEAR and state.active == 0
    options = prompt(state).options
    assert options[:2] == (Action.of("clear", token=0), KEEP) and prompt(state).default == KEEP
    assert {a.kind for a in options[2:]} == {"clean"}, "karma may be spent at this step too (3 karma)"
    bushel_before = state.bushel_size
    state, events = act(state, Action.of("clear", token=0))
    assert kinds(events)[0] == "clear" and state.players[0].tokens[0].empty
    assert state.bushel_size == bushel_before + 2
    assert state.active == 1 and state.phase is Phase.ROLL


def test_zero_vine_may_be_kept() -> None:
    state = position(2, rolled=("b2",), vines={(0, 0): ["r1"]})
    state, _ = place(state, 0, 0, 0)
    state, _ = end_turn(state)
    state, _ = act(state, KEEP)
    assert [d.value for d in state.players[0].tokens[0].dice] == [1, 2] and state.active == 1


def test_opponents_zero_vine_is_not_offered_for_clearing() -> None:
    state = position(2, rolled=("b2",), vines={(1, 0): ["r1"]})
    state, _ = place(state, 0, 1, 0)
    state, _ = end_turn(state)
    assert state.phase is Phase.ROLL and state.active == 1
    assert state.players[1].tokens[0].value == 0  # the owner decides at the end of their own turn


def test_gold_attack_overripe_on_the_fourth_die() -> None:
    # Section 14: opponent vine [6,6,6] + gold 6 -> worth 7 -> all four dice back, nothing scored.
    state = position(2, rolled=("g6",), vines={(1, 2): ["r6", "r6", "r6"]}, karma={0: 3})
    bushel = state.bushel_size
    state, events = place(state, 0, 1, 2)
    assert "overripe" in kinds(events) and "harvest" not in kinds(events)
    assert state.players[1].tokens[2].empty and state.players[1].slots == []
    assert state.bushel_size == bushel + 4
    assert state.players[0].karma == 3 and state.players[0].karma_bits == 1  # a bit, no karma


def test_gold_on_a_short_vine_is_cleared_at_the_end_of_the_turn() -> None:
    # Section 14: vine [seed 6] + gold 5 (run 5-6) -> worth 7, stays during the turn.
    state = position(2, rolled=("g5", "b3"), vines={(1, 0): ["r6"]})
    state, _ = place(state, 0, 1, 0)
    assert state.players[1].tokens[0].value == 7 and len(state.players[1].tokens[0].dice) == 2
    state, events = end_turn(state)
    assert "overripe" in kinds(events) and state.players[1].tokens[0].empty


def harvest_value(
    value_seed: str, extra: tuple[str, ...], slots_before: int, **options: object
) -> tuple[int, int, bool]:
    """Complete own vine; return (points, bonus, star) of the new slot."""
    state = position(
        2,
        rolled=(extra[-1],),
        vines={(0, 0): [value_seed, *extra[:-1]]},
        slots={0: [9] * slots_before},
        options=options,  # type: ignore[arg-type]
    )
    state, events = place(state, 0, 0, 0)
    assert "harvest" in kinds(events)
    slot = state.players[0].slots[-1]
    return slot.points, slot.bonus, slot.star


def test_dicey_slot_match_tops_up_to_seven() -> None:
    # Section 14: next slot 4, harvest worth 4 -> 7 points (bonus 3) and a star.
    assert harvest_value("r4", ("r4", "r4", "r4"), 3) == (4, 3, True)
    # Next slot 1, worth 1 -> bonus 6.
    assert harvest_value("r1", ("r1", "r1", "r1"), 0) == (1, 6, True)
    # Black dice count: seed 5 with a black die is worth 4.
    assert harvest_value("r5", ("r5", "b5", "r5"), 3) == (4, 3, True)


def test_dicey_older_match_total_six() -> None:
    assert harvest_value("r4", ("r4", "r4", "r4"), 3, match_total=6) == (4, 2, True)
    assert harvest_value("r1", ("r1", "r1", "r1"), 0, match_total=6) == (1, 5, True)


def test_no_bonus_without_dicey_rules_or_without_a_match() -> None:
    assert harvest_value("r4", ("r4", "r4", "r4"), 3, dicey_rules=False) == (4, 0, False)
    assert harvest_value("r5", ("r5", "r5", "r5"), 3) == (5, 0, False)


def test_harvest_moves_the_seed_to_the_track_and_the_rest_to_the_bushel() -> None:
    state = position(2, rolled=("g4",), vines={(0, 1): ["r2", "r1", "b3"]})
    bushel, total = state.bushel_size, count_dice(state)
    state, _events = place(state, 0, 0, 1)
    (slot,) = state.players[0].slots
    assert slot.die.colour is Colour.RED and slot.die.value == 2 and slot.points == 2
    assert state.bushel_size == bushel + 3 and count_dice(state) == total
    assert state.players[0].tokens[1].empty
    assert state.players[0].karma == 3  # own vine: no karma in multiplayer


def test_negative_harvest_scores_its_value_or_zero() -> None:
    vine = {(0, 0): ["r1", "b1", "r1"]}
    state = position(2, rolled=("b1",), vines=vine)
    state, _ = place(state, 0, 0, 0)
    assert state.players[0].slots[0].points == -1
    state = position(2, rolled=("b1",), vines=vine, options={"negative_harvest": "floor_zero"})
    state, _ = place(state, 0, 0, 0)
    assert state.players[0].slots[0].points == 0


@pytest.mark.parametrize(("overload", "karma"), [(False, 2), (True, 4)])
def test_karma_for_completing_an_opponents_vine(overload: bool, karma: int) -> None:
    # Section 14: opponent vine seed 5 with one black die -> worth 4; original +2, Overload +4.
    state = position(
        2,
        rolled=("r5",),
        vines={(1, 0): ["r5", "b5", "r5"]},
        karma={0: 0},
        options={"karma_overload": overload, "karma_bits": False},
    )
    state, _events = place(state, 0, 1, 0)
    assert state.players[1].slots[0].points == 4
    assert state.players[0].karma == karma and state.players[1].karma == 3


def test_dicey_bonus_is_ignored_for_karma() -> None:
    state = position(
        2, rolled=("r1",), vines={(1, 0): ["r1", "r1", "r1"]}, karma={0: 0}, options={"karma_bits": False}
    )
    state, _ = place(state, 0, 1, 0)
    assert state.players[1].slots[0].bonus == 6 and state.players[0].karma == 1


def test_harvest_worth_zero_or_less_earns_no_karma() -> None:
    state = position(
        2, rolled=("b1",), vines={(1, 0): ["r1", "b1", "r1"]}, karma={0: 0}, options={"karma_bits": False}
    )
    state, _ = place(state, 0, 1, 0)
    assert state.players[1].slots[0].points == -1 and state.players[0].karma == 0


def test_first_to_six_goes_to_the_owner_and_starts_the_final_round() -> None:
    state = position(
        3, active=0, rolled=("r2",), vines={(1, 0): ["r2", "r2", "r2"]}, slots={1: [1, 2, 3, 4, 5]}, first=0
    )
    state, events = place(state, 0, 1, 0)
    assert kinds(events)[-2:] == ["first_to_six", "final_round"]
    assert state.first_to_six == 1 and state.final_round
    assert RULES.outcome(state) is None
    # The bonus is counted for the owner in the end scoring.
    state.ended = GameEnd.FINAL_ROUND
    out = RULES.outcome(state)
    assert out is not None and out.breakdown[1]["first to six"] == 2
    assert out.breakdown[0]["first to six"] == 0


def test_a_second_player_reaching_six_gets_no_bonus() -> None:
    state = position(3, rolled=("r3",), vines={(2, 0): ["r3", "r3", "r3"]}, slots={2: [1, 2, 3, 4, 5]})
    state.first_to_six, state.final_round = 1, True
    state, events = place(state, 0, 2, 0)
    assert "harvest" in kinds(events) and "first_to_six" not in kinds(events)
    assert "final_round" not in kinds(events) and state.first_to_six == 1
