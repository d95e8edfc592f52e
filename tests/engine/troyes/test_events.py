"""One test per event card and the event mechanics, from shared/rules/troyes.md §5-§6."""

from __future__ import annotations

import pytest

from engine.core import Action
from engine.rng import Rng
from engine.troyes import RULES
from engine.troyes.board import row_for
from engine.troyes.data import board, events
from engine.troyes.eventcards import apply_effects, draw_events, place_cube, rewards
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Colour, Phase
from engine.troyes.state import EventSlot
from tests.engine.troyes.helpers import DONE, R, W, Y, add_dice, die, options, play, table, target


def effects_of(card_id: str, seats: int = 2):  # type: ignore[no-untyped-def]
    state = table(seats, (), (card_id,))
    state.queue = [EventSlot(id=card_id)]
    return state


def test_sixteen_event_cards_and_marauding() -> None:
    cards = events()
    assert len([c for c in cards.values() if not c.permanent]) == 16
    colours = [c.colour for c in cards.values() if not c.permanent]
    assert (colours.count(Colour.RED), colours.count(Colour.WHITE), colours.count(Colour.YELLOW)) == (8, 4, 4)
    assert cards["E00"].permanent and cards["E00"].black_dice == 1


@pytest.mark.parametrize(
    ("card_id", "black"),
    [
        ("E00", 1),
        ("ER1", 1),
        ("ER2", 1),
        ("ER3", 1),
        ("ER4", 1),
        ("ER5", 1),
        ("ER6", 2),
        ("ER7", 2),
        ("ER8", 0),
    ],
)
def test_black_dice_per_military_event(card_id: str, black: int) -> None:
    state = effects_of(card_id)
    assert apply_effects(state)[0] == black


def test_drought_costs_1_per_own_citizen_in_city_hall_and_2_vp_when_short() -> None:
    state = effects_of("EY1")
    state.buildings[CITY_HALL][:3] = [0, 0, 1]
    state.players[1].deniers, state.players[1].vp = 0, 5
    apply_effects(state)
    assert state.players[0].deniers == 8 and state.players[1].vp == 3


def test_support_puts_grey_cubes_on_the_two_events_to_its_left() -> None:
    state = table(2, (), ("ER1", "ER2", "EY2"))
    apply_effects(state)
    assert [s.cubes for s in state.queue] == [[], [NEUTRAL], [NEUTRAL], []]


def test_civil_war_costs_3_deniers_with_vp_floor_0() -> None:
    state = effects_of("EY3")
    state.players[1].deniers, state.players[1].vp = 2, 1
    apply_effects(state)
    assert state.players[0].deniers == 7 and (state.players[1].deniers, state.players[1].vp) == (0, 0)


@pytest.mark.parametrize(("card_id", "building"), [("EY4", CITY_HALL), ("EW1", BISHOPRIC), ("ER8", PALACE)])
def test_neutral_citizen_events_roll_and_enter_the_matching_row(card_id: str, building: int) -> None:
    state = effects_of(card_id)
    state.rng = Rng.from_seed(5)
    value = Rng.from_seed(5).die()
    supply = state.neutral_supply
    _, out = apply_effects(state)
    assert state.buildings[building][row_for(building, value)[0]] == NEUTRAL
    assert state.neutral_supply == supply - 1 and any(e.checkpoint for e in out)


def test_neutral_citizen_events_are_ignored_when_all_8_are_out() -> None:
    state = effects_of("EY4")
    state.neutral_supply = 0
    apply_effects(state)
    assert NEUTRAL not in state.buildings[CITY_HALL]


def test_heresy_costs_2_influence_and_2_vp_when_short() -> None:
    state = effects_of("EW2")
    state.players[1].influence, state.players[1].vp = 1, 4
    apply_effects(state)
    assert state.players[0].influence == 3 and (state.players[1].influence, state.players[1].vp) == (0, 2)


def test_traveling_builders_fill_the_lowest_empty_space() -> None:
    state = effects_of("EW3")
    state.cathedral[0] = [0]
    apply_effects(state)
    assert state.cathedral[1] == [NEUTRAL]


def test_interrupted_work_removes_the_highest_cube() -> None:
    state = effects_of("EW4")
    state.cathedral[0] = [0, 1]
    state.cathedral[4] = [1, 0]
    state.cathedral[5] = [1]
    apply_effects(state)
    assert state.cathedral[4] == [1] and state.cathedral[0] == [0, 1]


def test_red_event_calls_its_deck_and_falls_back_to_the_other() -> None:
    state = table(2)
    state.red_deck, state.white_deck, state.yellow_deck = ["ER2"], [], ["EY1"]
    draw_events(state)
    assert [s.id for s in state.queue] == ["E00", "ER2", "EY1"]
    assert events()["ER2"].calls is Colour.WHITE


def test_rewards_majority_ties_and_lone_player() -> None:
    assert rewards([0, 0], (2, 1)) == {0: 3}
    assert rewards([0, 1], (2, 1)) == {0: 1, 1: 1}  # the seed's S6 example: two counterers 1 VP each
    assert rewards([0, 0, 1], (4, 2)) == {0: 4, 1: 2}
    assert rewards([0, 0, 1, 2], (4, 2)) == {0: 4, 1: 1, 2: 1}


def test_countered_event_pays_and_is_taken_by_the_first_of_the_tied() -> None:
    state = table(2, (), ("ER1",))
    place_cube(state, 1, 1)
    place_cube(state, 1, 0)
    assert state.players[1].taken == ["ER1"] and len(state.queue) == 1
    assert state.players[0].influence == 6 and state.players[0].vp == 1


def test_neutral_majority_discards_the_card() -> None:
    state = table(2, (), ("ER6",))
    place_cube(state, 1, NEUTRAL)
    place_cube(state, 1, NEUTRAL)
    place_cube(state, 1, 0)
    assert len(state.queue) == 1 and not state.players[0].taken
    assert state.players[0].vp == events()["ER6"].vp[1]


def test_marauding_countered_stays_with_its_cubes_removed() -> None:
    state = table(2)
    place_cube(state, 0, 0)
    place_cube(state, 0, 0)
    assert [s.id for s in state.queue] == ["E00"] and state.queue[0].cubes == []
    assert state.players[0].vp == 3 and not state.players[0].taken


def test_fighting_an_event_uses_its_colour_and_divisor() -> None:
    state = table(2, (), ("EY1",))
    add_dice(state, 1, W, 1)
    yellow = add_dice(state, 0, Y, 6, 4)
    add_dice(state, 0, R, 6)
    state = play(state, 0, target("event:1"))
    red = yellow[-1] + 1
    assert die(yellow[0]) in options(state) and die(red) not in options(state), "yellow dice only"
    state = play(state, 0, die(yellow[0]))
    assert Action("done") in options(state), "6 // 5 = 1 cube already"
    state = play(state, 0, die(yellow[1]), Action("done"))
    # 10 // 5 = 2 cubes fill both banners: the lone counterer takes both rewards and the card.
    assert state.players[0].taken == ["EY1"] and state.players[0].vp == sum(events()["EY1"].vp)


# -- black dice (§5) ---------------------------------------------------------------------


def countering(black: list[int]):  # type: ignore[no-untyped-def]
    state = table(2)
    state.phase = Phase.COUNTER
    state.black = black
    from engine.troyes.kinds import StepKind
    from engine.troyes.state import Step

    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    return state


def test_red_dice_count_double_against_black_dice() -> None:
    state = countering([6, 2])
    (red,) = add_dice(state, 0, R, 3)
    add_dice(state, 1, W, 2)
    state = play(state, 0, die(red))
    assert state.black == [2] and state.players[0].influence == 6
    # Seat 0 has no dice left, so seat 1 faces the next one.
    assert RULES.prompts(state)[0].seat == 1


def test_failing_a_black_die_costs_2_vp_and_keeps_the_dice() -> None:
    state = countering([6])
    (white,) = add_dice(state, 0, W, 2)
    state.players[0].vp = 1
    assert Action("concede") in options(state) and die(white) not in options(state)
    state = play(state, 0, Action("concede"))
    assert state.players[0].vp == 0 and [d.id for d in state.dice] == [white]
    assert state.phase is Phase.ACTIONS


def test_counter_more_than_one_black_die_in_the_same_go() -> None:
    state = countering([5, 3])
    dice = add_dice(state, 0, W, 5, 3)
    state = play(state, 0, die(dice[0]))
    assert options(state) == (Action.of("black", value=3), Action("stop"))
    state = play(state, 0, Action.of("black", value=3), die(dice[1]))
    assert state.black == [] and state.players[0].influence == 7


def test_after_the_highest_any_other_black_die_may_be_countered() -> None:
    # §5: "the highest-valued die, plus any others he chooses" -- not only the next-highest.
    state = countering([6, 5, 2])
    six, two = add_dice(state, 0, W, 6, 2)
    add_dice(state, 1, R, 3)
    state = play(state, 0, die(six))
    assert options(state) == (Action.of("black", value=2), Action("stop")), "the 5 is beyond a 2"
    state = play(state, 0, Action.of("black", value=2), die(two))
    assert state.black == [5] and state.players[0].influence == 7
    assert RULES.prompts(state)[0].seat == 1, "the next player faces the highest left"
    state = play(state, 1, die(two + 1))
    assert state.players[1].influence == 6, "seat 1 countered the 5 with a red 3 (doubled)"


def test_an_extra_black_die_may_be_given_up_before_any_die_is_chosen() -> None:
    state = countering([6, 1])
    six, _ = add_dice(state, 0, W, 6, 1)
    add_dice(state, 1, W, 1)
    state = play(state, 0, die(six), Action.of("black", value=1))
    assert Action("stop") in options(state) and Action("concede") not in options(state)
    state = play(state, 0, Action("stop"))
    assert state.black == [1] and state.players[0].vp == 0
    assert RULES.prompts(state)[0].seat == 1


def test_influence_may_be_spent_before_countering() -> None:
    state = countering([6])
    (white,) = add_dice(state, 0, W, 1)
    state = play(state, 0, Action("flip"))  # the only die is chosen alone, the 4 influence are not
    assert state.players[0].influence == 5 and state.dice[0].value == 1
    # The 6 then beats the 6 by itself: with the flip taken, no other kind of influence use is
    # open (seed), so countering with that die is the one way forward, and it costs nothing.
    state = play(state, 0, DONE)
    assert all(d.id != white for d in state.dice)
    assert state.black == [] and state.players[0].influence == 2, "5 - 4 for the flip + 1 for the black die"


def test_event_row_data_is_consistent() -> None:
    assert board().const("black_failure_vp") == -2
    for card in events().values():
        assert card.banners >= 1 and card.divisor >= 1 and card.vp[0] >= card.vp[1]


def test_support_grey_cubes_can_counter_an_event_to_its_left() -> None:
    # §6.2 Support + §6.1: grey cubes count for majorities; the tied player who placed first
    # takes the card, and a tie for first splits first + second (rounded down).
    state = table(2, (), ("ER1", "EY2"))
    state.queue[1].cubes = [0]
    apply_effects(state)
    assert [s.id for s in state.queue] == ["E00", "EY2"] and state.queue[0].cubes == [NEUTRAL]
    assert state.players[0].taken == ["ER1"] and state.players[0].vp == sum(events()["ER1"].vp) // 2


def test_a_black_die_that_can_be_beaten_cannot_be_declined() -> None:
    # §5 step 6 [S7]: declining is not allowed.
    state = countering([3])
    (white,) = add_dice(state, 0, W, 1)
    add_dice(state, 0, Y, 2)
    assert Action("concede") not in options(state) and die(white) in options(state)
