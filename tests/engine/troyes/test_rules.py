"""Setup, buildings, cathedral, dice prices, influence, turns, characters and final scoring."""

from __future__ import annotations

import pytest

from engine.core import Action, BadOptions
from engine.troyes import RULES, groups
from engine.troyes.board import can_enter, enter
from engine.troyes.data import activities, board, characters
from engine.troyes.flow import end_round
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Phase
from engine.troyes.scoring import breakdown, character_vp
from engine.troyes.setup import snake
from engine.troyes.state import Die
from tests.engine.troyes.helpers import (
    DONE,
    PASS,
    R,
    W,
    Y,
    add_dice,
    die,
    options,
    play,
    spare,
    table,
    target,
)


@pytest.mark.parametrize(
    ("seats", "rounds", "citizens", "chars", "neutral"), [(2, 4, 6, 2, 6), (3, 5, 5, 1, 3), (4, 6, 4, 1, 2)]
)
def test_setup_by_player_count(seats: int, rounds: int, citizens: int, chars: int, neutral: int) -> None:
    state = RULES.setup(seats, seed=4)
    assert state.rounds == rounds and len(state.red_deck) == rounds
    assert all(p.deniers == 5 and p.influence == 4 and p.vp == 0 for p in state.players)
    assert all(p.supply == citizens and len(p.characters) == chars for p in state.players)
    assert len(state.cards) == 9 and not any(c.revealed for c in state.cards)
    assert len(state.placement_order) == seats * citizens
    while state.phase is Phase.PLACEMENT:
        (prompt,) = RULES.prompts(state)
        assert len(prompt.options) <= 25
        transition = RULES.apply(state, prompt.seat, prompt.options[0])
        state = transition.state
    spaces = [s for b in state.buildings for s in b]
    added = sum(1 for e in transition.events if e.kind == "neutral_enters")  # round 1's events
    assert spaces.count(NEUTRAL) == neutral + added and None not in spaces
    assert state.round == 1 and sum(c.revealed for c in state.cards) == 3
    assert len(state.dice) == 18 and len(state.queue) == 3


def test_snake_placement_order() -> None:
    assert snake(3, 1, 3) == [1, 2, 0, 0, 2, 1, 1, 2, 0]


def test_two_player_neutral_citizens_are_placed_first() -> None:
    state = RULES.setup(2, seed=1)
    assert [state.buildings[b][s] for b, s in board().neutral_setup_2p] == [NEUTRAL] * 6


def test_palace_expels_the_occupant_of_the_die_space() -> None:
    state = table(2)
    state.buildings[PALACE][3] = 1
    assert enter(state, PALACE, 4, 0) == 1
    assert state.buildings[PALACE][3] == 0 and state.lying[PALACE] == [1]


def test_row_buildings_shift_right_and_push_the_last_out() -> None:
    state = table(2)
    row = board().buildings[BISHOPRIC].rows[board().buildings[BISHOPRIC].row_of_value[0]]
    state.buildings[BISHOPRIC][row[0]] = 1
    assert enter(state, BISHOPRIC, 1, 0) is None  # the gap absorbs the shift
    assert [state.buildings[BISHOPRIC][s] for s in row] == [0, 1]
    assert enter(state, BISHOPRIC, 1, NEUTRAL) == 1
    assert [state.buildings[BISHOPRIC][s] for s in row] == [NEUTRAL, 0]


def test_a_colour_already_expelled_from_a_building_is_protected() -> None:
    state = table(2)
    state.buildings[PALACE][2] = 1
    state.lying[PALACE] = [1]
    assert not can_enter(state, PALACE, 3)
    assert can_enter(state, PALACE, 4)


def test_placing_a_citizen_uses_exactly_one_die_of_the_building_colour() -> None:
    state = table(2)
    spare(state)
    ids = add_dice(state, 0, Y, 3, 4)
    state = play(state, 0, target(f"building:{CITY_HALL}"), die(ids[0]))
    assert die(ids[1]) not in options(state)
    state = play(state, 0, Action("done"), Action.of("source", s="supply"))
    assert state.buildings[CITY_HALL].count(0) == 1 and state.players[0].supply == 2


@pytest.mark.parametrize(("group_size", "each"), [(1, 2), (2, 4), (3, 6)])
def test_dice_price_table_2_4_6_per_bought_die(group_size: int, each: int) -> None:
    # The seed's table: a bought die costs 2, 4 or 6 deniers in a group of 1, 2 or 3 dice.
    dice = [Die(id=i, colour=W, value=3, owner=1 if i == 0 else 0) for i in range(group_size)]
    assert groups.price(0, dice, "") == {1: each}


def test_bought_dice_are_paid_to_their_owner_and_neutral_ones_to_the_bank() -> None:
    state = table(2)
    spare(state)
    theirs = add_dice(state, 1, W, 6)
    grey = add_dice(state, NEUTRAL, W, 5)
    state = play(state, 0, target("cathedral"), die(theirs[0]), die(grey[0]), Action("done"))
    assert state.players[0].deniers == 2 and state.players[1].deniers == 14


def test_cathedral_cubes_give_vp_and_influence_by_column_and_stack_up() -> None:
    state = table(2)
    spare(state)
    ids = add_dice(state, 0, W, 2, 5, 5)
    state = play(state, 0, target("cathedral"), *(die(i) for i in ids), Action("done"))
    assert state.cathedral[1] == [0] and state.cathedral[4] == [0, 0]
    assert state.players[0].vp == 3 and state.players[0].influence == 5 + 1 + 2 + 2


def test_a_full_cathedral_column_refuses_the_die() -> None:
    state = table(2)
    spare(state)
    state.cathedral[5] = [1, 1, 1]
    six, two, three = add_dice(state, 0, W, 6, 2, 3)
    state = play(state, 0, target("cathedral"))
    assert die(six) not in options(state) and {die(two), die(three)} <= set(options(state))


def test_agriculture_gives_half_the_yellow_total() -> None:
    state = table(2)
    spare(state)
    ids = add_dice(state, 0, Y, 6, 5, 4)
    state = play(state, 0, target("agriculture"), *(die(i) for i in ids), Action("done"))
    assert state.players[0].deniers == 17


def test_pass_gives_2_deniers_then_1_each_time_the_turn_comes_round() -> None:
    state = table(2)
    ids = add_dice(state, 1, Y, 6, 6, 6)
    add_dice(state, 0, W, 1)
    state = play(state, 0, PASS)
    state = play(state, 1, target("agriculture"), die(ids[0]), Action("done"))
    state = play(state, 1, target("agriculture"), die(ids[1]), Action("done"))
    assert state.players[0].pass_money == 4 and state.turn == 1
    state.round = state.rounds  # the last round, so nothing follows the end of round
    end_round(state)
    assert state.players[0].deniers == 14 and state.phase is Phase.OVER


def test_influence_reroll_flip_and_new_citizen() -> None:
    state = table(2)
    spare(state)
    (own,) = add_dice(state, 0, W, 2)
    # One own die: flipping takes it without asking which, but the click that pays is asked.
    state = play(state, 0, Action("flip"))
    assert state.dice[-1].value == 2 and state.players[0].influence == 5
    state = play(state, 0, DONE)
    assert state.dice[-1].value == 5 and state.players[0].influence == 1
    # The seed: one kind of influence use before an action; a flip taken, no re-roll now.
    assert Action("reroll") not in options(state) and state.turn == 0
    state.influence_used = ""
    state = play(state, 0, Action("reroll"), die(own))
    assert state.players[0].influence == 0 and state.turn == 0
    state.players[0].influence, state.influence_used = 2, ""
    state = play(state, 0, Action("citizen"))
    assert state.players[0].supply == 4 and state.players[0].owned == 7


def test_income_wages_and_shortfall() -> None:
    state = table(2)
    state.buildings[PALACE] = [0] * 6
    state.buildings[BISHOPRIC] = [1] * 6
    state.players[0].deniers, state.players[0].vp = 0, 5
    state.players[1].deniers = 0
    from engine.troyes.flow import _income

    _income(state)
    assert (state.players[0].deniers, state.players[0].vp) == (0, 3)
    assert (state.players[1].deniers, state.players[1].vp) == (4, 0)


@pytest.mark.parametrize(
    ("char", "value", "vp2", "vp3"),
    [("C1", 3, 0, 1), ("C2", 7, 3, 6), ("C3", 12, 3, 3), ("C4", 15, 6, 6), ("C5", 5, 3, 3), ("C6", 2, 1, 1)],
)
def test_characters_thresholds(char: str, value: int, vp2: int, vp3: int) -> None:
    for seats, expected in ((2, vp2), (3, vp3)):
        state = table(seats, ("Y1a", "Y1b", "Y1c", "Y2a", "Y2b", "Y2c"))
        metric = characters()[char].metric
        player = state.players[0]
        if metric == "citizens_on_buildings":
            state.buildings[CITY_HALL][:value] = [0] * value
        elif metric == "cathedral_cubes":
            for i in range(value):
                state.cathedral[i % 6].append(0)
        elif metric == "deniers":
            player.deniers = value
        elif metric == "influence":
            player.influence = value
        elif metric == "tradesmen":
            for slot in state.cards[:value]:
                slot.spaces[0] = 0
        else:
            player.taken = ["ER1"] * value
        assert character_vp(state, 0, characters()[char]) == expected


def test_final_score_breakdown_and_hidden_information() -> None:
    state = table(2, ("Y3c",))
    state.cards[0].spaces = [0, 1]
    state.queue[0].cubes = [0]
    state.cathedral[0] = [0, 1]
    state.players[0].vp, state.players[0].characters = 5, ["C3"]
    state.players[1].vp, state.players[1].characters = 1, ["C6"]
    state.players[0].deniers = 12
    lines = breakdown(state, 0)
    assert lines["VP tokens"] == 5 and lines["Uncountered events with a cube"] == 1
    assert lines["Tradesmen spaces"] == 3 and lines["Cathedral levels missing"] == -4
    assert lines["Thibaut II"] == 3 and lines["Henry I"] == 0 and lines["Total"] == 8
    # VP never go below 0: seat 1 has 1 + 2 (second space) and loses only 3 of the 4.
    assert breakdown(state, 1)["Cathedral levels missing"] == -3
    seen = RULES.view(state, 1)
    assert seen.players[0].vp == 0 and seen.players[0].characters == ["?"]
    assert seen.players[1].characters == ["C6"] and seen.red_deck == ["?"] * len(state.red_deck)


def test_ties_are_shared_unless_the_tiebreak_option_is_on() -> None:
    state = table(2)
    state.phase = Phase.OVER
    for player in state.players:
        player.characters = []
    state.players[0].deniers = 3
    assert RULES.outcome(state).ranks == (1, 1)  # type: ignore[union-attr]
    state.tiebreak = True
    assert RULES.outcome(state).ranks == (2, 1)  # type: ignore[union-attr]
    with pytest.raises(BadOptions):
        RULES.setup(2, {"tiebreak": 1})
    assert RULES.setup(2, {"tiebreak": True}).tiebreak


def test_black_die_penalty_and_vp_never_below_zero() -> None:
    state = table(2)
    state.players[0].vp = 1
    from engine.troyes.purse import gain_vp

    gain_vp(state, 0, -2, "test")
    assert state.players[0].vp == 0


def test_bought_dice_cannot_be_rerolled() -> None:
    state = table(2)
    add_dice(state, 1, R, 3)
    own = add_dice(state, 0, R, 3, 4)
    state = play(state, 0, Action("reroll"))
    assert [o for o in options(state) if o.kind == "die"] == [die(i) for i in own]


def test_a_target_is_offered_when_only_own_low_dice_make_a_working_group() -> None:
    # §4.1: own dice are free; many higher dice of another player must not hide a group of own
    # dice. Pilgrimage (any colours): own 3 + 3 = 6 gives one activation with its divisor.
    state = table(2, ("W3a",))
    state.cards[0].spaces[0] = 0
    divisor = activities()["W3a"].divisor
    low = add_dice(state, 0, R, divisor // 2) + add_dice(state, 0, W, divisor - divisor // 2)
    add_dice(state, 1, Y, *([divisor - 1] * 6))
    state.players[0].deniers = 3  # one bought die (2) is affordable, two (8) are not
    assert target("card:0") in options(state)
    state = play(state, 0, target("card:0"), *(die(i) for i in low), Action("done"))
    assert state.players[0].vp == 2


def test_several_dice_may_be_bought_from_the_same_player() -> None:
    # §4.1 [S7]: each bought die costs the group-size price, all paid to its owner.
    dice = [Die(id=0, colour=Y, value=3, owner=1), Die(id=1, colour=Y, value=3, owner=1)]
    dice.append(Die(id=2, colour=Y, value=3, owner=0))
    assert groups.price(0, dice, "") == {1: 12}


def test_no_thirteenth_citizen() -> None:
    # §1 / §4.2: at most 12 citizens per player, so influence cannot bring a 13th.
    state = table(2)
    spare(state)
    state.players[0].owned, state.players[0].supply = 12, 0
    (red,) = add_dice(state, 0, R, 4)
    assert Action("citizen") not in options(state)
    assert target("building:0") not in options(state), "no citizen to place"
    state.players[0].owned = 11
    state = play(state, 0, Action("citizen"))
    assert (state.players[0].owned, state.players[0].supply, state.players[0].influence) == (12, 1, 3)
    assert Action("citizen") not in options(state) and target("building:0") in options(state)
    state = play(state, 0, target("building:0"), die(red), Action("done"), Action.of("source", s="supply"))
    assert state.buildings[PALACE][3] == 0 and state.players[0].supply == 0


def test_city_hall_citizens_cost_no_wages() -> None:
    # §3 phase 1: 10 deniers, then 1 per Bishopric citizen and 2 per Palace citizen; City Hall free.
    from engine.troyes.flow import _income

    state = table(2)
    state.buildings[CITY_HALL] = [0] * 6
    state.buildings[BISHOPRIC][0] = 0
    state.buildings[PALACE][0] = 0
    state.players[0].deniers = 1
    _income(state)
    assert state.players[0].deniers == 1 + 10 - 1 - 2
