"""One test per activity card, from its text in shared/rules/troyes.md §7.2 (numbers from the data files)."""

from __future__ import annotations

import pytest

from engine.core import Action, IllegalAction
from engine.troyes import RULES, groups
from engine.troyes.data import activities
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Colour
from engine.troyes.state import TroyesState
from tests.engine.troyes.helpers import (
    DONE,
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
    with_tradesman,
)


def values_for(card_id: str, times: int) -> list[int]:
    """Die values (1 to 3 dice) whose sum gives exactly `times` activations of a card."""
    need = activities()[card_id].divisor * times
    dice = []
    while need > 0:
        dice.append(min(6, need))
        need -= dice[-1]
    assert len(dice) <= 3
    return dice


def run(state: TroyesState, card_id: str, times: int, colour: Colour | None = None) -> TroyesState:
    """Activate card 0 for seat 0 with own dice giving `times` activations; the state after it."""
    ids = add_dice(state, 0, colour or activities()[card_id].colour, *values_for(card_id, times))
    state = play(state, 0, target("card:0"), *(die(i) for i in ids), DONE)
    if Action.of("activations", n=times) in (options(state) if state.stack else ()):
        state = play(state, 0, Action.of("activations", n=times))
    return state


def ready(card_id: str, seats: int = 2) -> TroyesState:
    state = table(seats, (card_id,))
    with_tradesman(state, 0, 0)
    spare(state)
    return state


# -- yellow ------------------------------------------------------------------------------


def test_artisan_pays_1_influence_for_6_deniers() -> None:
    state = run(ready("Y1a"), "Y1a", 1)
    assert (state.players[0].influence, state.players[0].deniers) == (4, 16)


def test_merchant_gains_2_deniers_per_activation() -> None:
    state = run(ready("Y1b"), "Y1b", 2)
    assert state.players[0].deniers == 14


def test_miller_pays_2_per_citizen_in_the_better_of_palace_and_bishopric() -> None:
    state = ready("Y1c")
    state.buildings[PALACE][:2] = [0, 0]
    state.buildings[BISHOPRIC][:3] = [0, 0, 0]
    state.lying[BISHOPRIC] = [0]  # expelled citizens do not count
    state = run(state, "Y1c", 1)
    assert state.players[0].deniers == 16


def test_innkeeper_turns_1_denier_into_1_influence() -> None:
    state = run(ready("Y2a"), "Y2a", 2)
    assert (state.players[0].deniers, state.players[0].influence) == (8, 7)


def test_blacksmith_cube_adds_5_to_a_red_group_but_not_for_the_palace() -> None:
    state = run(ready("Y2b"), "Y2b", 1)
    assert state.players[0].cubes == {"Y2b": 1}
    (red,) = add_dice(state, 0, R, 1)
    state.turn = 0
    state = play(state, 0, target("event:0"), Action.of("modifier", card="Y2b"))
    state = play(state, 0, die(red), DONE)
    assert state.queue[0].cubes == [0] and "Y2b" not in state.players[0].cubes
    assert not groups.modifier_fits(state, "building:0", "blacksmith")


def test_militiaman_cube_lets_yellow_dice_act_as_red() -> None:
    state = run(ready("Y2c"), "Y2c", 1)
    (yellow,) = add_dice(state, 0, Y, 6)
    state.turn = 0
    # No red die: the Militiaman cube is the one way forward, and the yellow die the only die.
    state = play(state, 0, target("event:0"), Action.of("modifier", card="Y2c"))
    assert state.queue[0].cubes == [0] and all(d.id != yellow for d in state.dice)


def test_journeyman_pays_3_deniers_for_2_vp() -> None:
    state = run(ready("Y3a"), "Y3a", 1)
    assert (state.players[0].deniers, state.players[0].vp) == (7, 2)


def test_goldsmith_gives_1_vp_and_2_deniers() -> None:
    state = run(ready("Y3b"), "Y3b", 1)
    assert (state.players[0].deniers, state.players[0].vp) == (12, 1)


def test_sculptor_gives_1_vp() -> None:
    state = run(ready("Y3c"), "Y3c", 2)
    assert state.players[0].vp == 2


# -- white -------------------------------------------------------------------------------


def test_tithe_cube_takes_one_yellow_die_from_each_other_district_for_free() -> None:
    state = run(ready("W1a", seats=3), "W1a", 1)
    mine = add_dice(state, 0, Y, 2)
    theirs = add_dice(state, 1, Y, 6, 5)
    state.turn = 0
    state = play(
        state, 0, target("agriculture"), Action.of("modifier", card="W1a"), die(mine[0]), die(theirs[0])
    )
    assert die(theirs[1]) not in options(state), "only one die from each district"
    state = play(state, 0, DONE)
    assert state.players[0].deniers == 14 and state.players[1].deniers == 10


def test_monk_cube_uses_one_white_die_as_three_yellow_dice_bought_for_2() -> None:
    state = run(ready("W1b"), "W1b", 1)
    (white,) = add_dice(state, 1, W, 4)
    state.turn = 0
    state = play(state, 0, target("agriculture"), Action.of("modifier", card="W1b"), die(white), DONE)
    # 3 yellow dice of 4 = 12 -> 6 deniers, minus 2 paid for the die.
    assert state.players[0].deniers == 14 and state.players[1].deniers == 12


def test_priest_cube_adds_3_to_each_yellow_die_not_for_city_hall() -> None:
    state = run(ready("Y1b"), "Y1b", 1)  # any table; give the cube directly
    state.players[0].cubes = {"W1c": 1}
    state.cards[0].id = "W1c"
    ones = add_dice(state, 0, Y, 1, 1)
    state.turn = 0
    before = state.players[0].deniers
    state = play(
        state, 0, target("agriculture"), Action.of("modifier", card="W1c"), *(die(i) for i in ones), DONE
    )
    assert state.players[0].deniers == before + 4
    assert not groups.modifier_fits(state, f"building:{CITY_HALL}", "priest")


def test_apprenticeship_cube_makes_every_die_a_5_not_for_the_cathedral() -> None:
    state = run(ready("W2a"), "W2a", 1)
    ones = add_dice(state, 0, R, 1, 1)
    state.turn = 0
    state = play(state, 0, target("event:0"), Action.of("modifier", card="W2a"))
    state = play(state, 0, *(die(i) for i in ones), DONE)
    assert state.queue[0].cubes == [0]  # 10 // 6 = 1 cube
    assert not groups.modifier_fits(state, "cathedral", "apprenticeship")
    assert not groups.modifier_fits(state, f"building:{BISHOPRIC}", "apprenticeship")


def test_confession_cube_adds_2_to_every_die_not_in_bishopric_or_city_hall() -> None:
    state = run(ready("W2b"), "W2b", 1)
    twos = add_dice(state, 0, R, 2, 2)
    state.turn = 0
    state = play(state, 0, target("event:0"), Action.of("modifier", card="W2b"))
    state = play(state, 0, *(die(i) for i in twos), DONE)
    assert state.queue[0].cubes == [0]  # 8 // 6 = 1
    assert not groups.modifier_fits(state, f"building:{CITY_HALL}", "confession")
    assert groups.modifier_fits(state, f"building:{PALACE}", "confession")


def test_templar_seed_example_three_white_dice_summing_8_give_2_activations() -> None:
    # The seed's example card: white, level II, up to 3 white dice divided by 3, delayed.
    card = activities()["W2c"]
    assert (card.colour, card.level, card.divisor, card.delayed) == (Colour.WHITE, 2, 3, True)
    assert "divisor" not in card.estimated
    state = ready("W2c")
    ids = add_dice(state, 0, W, 2, 3, 3)
    state = play(state, 0, target("card:0"), *(die(i) for i in ids), DONE)
    assert Action.of("activations", n=3) not in options(state)
    state = play(state, 0, Action.of("activations", n=2))
    assert state.players[0].cubes == {"W2c": 2}


def test_templar_cube_turns_one_white_die_into_two_red_dice() -> None:
    state = ready("W2c")
    state.players[0].cubes = {"W2c": 1}
    (white,) = add_dice(state, 0, W, 6)
    state = play(state, 0, target("event:0"), Action.of("modifier", card="W2c"))
    state = play(state, 0, die(white), DONE)
    # Two red 6s = 12 -> 2 cubes: Marauding's two banners are filled by seat 0 alone.
    assert state.players[0].vp == 3 and state.queue[0].cubes == []


def test_pilgrimage_takes_mixed_colours_and_gives_2_vp() -> None:
    state = ready("W3a")
    mixed = add_dice(state, 0, R, 6) + add_dice(state, 0, W, 6)
    state = play(state, 0, target("card:0"), *(die(i) for i in mixed), DONE, Action.of("activations", n=2))
    assert state.players[0].vp == 4


def test_procession_rewards_the_most_dice_left_after_the_activation() -> None:
    state = ready("W3b")
    add_dice(state, 1, Y, 1, 1)  # seat 1: 3 dice with the spare
    add_dice(state, 0, Y, 1)
    state = run(state, "W3b", 1)
    assert (state.players[0].vp, state.players[1].vp) == (0, 2)


def test_glassblower_gives_1_vp_per_2_own_cathedral_cubes() -> None:
    state = ready("W3c")
    state.cathedral[0] = [0, 0]
    state.cathedral[3] = [0, 1]
    state.cathedral[5] = [0]
    state = run(state, "W3c", 1)
    assert state.players[0].vp == 2


# -- red ---------------------------------------------------------------------------------


def _rng_with_first_die(state: TroyesState, want: set[int]) -> None:
    from engine.rng import Rng

    seed = next(s for s in range(100) if Rng.from_seed(s).die() in want)
    state.rng = Rng.from_seed(seed)


def test_archer_hits_on_3_or_more_and_puts_a_cube_on_any_event() -> None:
    state = table(2, ("R1a",), ("ER1",))
    with_tradesman(state, 0, 0)
    spare(state)
    _rng_with_first_die(state, {3, 4, 5, 6})
    state = run(state, "R1a", 1)
    assert RULES.prompts(state)[0].kind == "cube_on_event"
    state = play(state, 0, Action.of("event", index=1))
    assert state.queue[1].cubes == [0] and state.players[0].influence == 6


def test_archer_cube_goes_alone_on_the_only_event() -> None:
    state = ready("R1a")
    _rng_with_first_die(state, {3, 4, 5, 6})
    state = run(state, "R1a", 1)
    assert state.queue[0].cubes == [0] and state.turn == 1, "one event: no question"


def test_archer_misses_on_1_or_2() -> None:
    state = ready("R1a")
    _rng_with_first_die(state, {1, 2})
    state = run(state, "R1a", 1)
    assert state.queue[0].cubes == [] and state.turn == 1


def test_chivalry_puts_a_cube_per_own_red_die_left() -> None:
    state = table(2, ("R1b",), ("ER1",))
    with_tradesman(state, 0, 0)
    add_dice(state, 0, R, 1, 1)  # two red dice left after the activation
    state = run(state, "R1b", 1)
    state = play(state, 0, Action.of("event", index=1), Action.of("event", index=1))
    assert state.players[0].taken == ["ER1"]


def test_diplomat_pays_1_influence_per_cube_placed() -> None:
    state = run(ready("R1c"), "R1c", 1)
    state = play(state, 0, Action.of("event", index=0))
    assert state.queue[0].cubes == [0] and state.players[0].influence == 5


def test_hunting_gains_3_influence_capped_at_20() -> None:
    state = ready("R2a")
    state.players[0].influence = 19
    state = run(state, "R2a", 1)
    assert state.players[0].influence == 20


def test_mercenary_gains_3_deniers() -> None:
    assert run(ready("R2b"), "R2b", 1).players[0].deniers == 13


def test_tax_collector_collects_per_citizen_in_city_hall_and_from_the_bank() -> None:
    state = ready("R2c", seats=3)
    state.buildings[CITY_HALL][:4] = [1, 1, 2, NEUTRAL]
    state.players[2].deniers = 0
    state = run(state, "R2c", 1)
    assert state.players[0].deniers == 13 and state.players[1].deniers == 8


def test_captain_gains_1_vp_per_event_with_an_own_cube() -> None:
    state = table(2, ("R3a",), ("ER1", "ER2"))
    with_tradesman(state, 0, 0)
    spare(state)
    state.queue[0].cubes = [0]
    state.queue[2].cubes = [1, 0]
    state = run(state, "R3a", 1)
    assert state.players[0].vp == 2


def test_joust_rewards_the_highest_red_total_left() -> None:
    state = ready("R3b")
    add_dice(state, 0, R, 5)
    add_dice(state, 1, R, 4)
    state = run(state, "R3b", 1)
    assert (state.players[0].vp, state.players[1].vp) == (2, 0)


def test_troubadour_pays_3_influence_for_2_vp() -> None:
    state = run(ready("R3c"), "R3c", 1)
    assert (state.players[0].influence, state.players[0].vp) == (2, 2)


# -- hiring tradesmen ---------------------------------------------------------------------


def test_hiring_costs_the_card_price_takes_the_first_free_space_and_must_activate() -> None:
    state = table(2, ("Y1b",))
    spare(state)
    (low,) = add_dice(state, 0, Y, 1)
    assert target("card:0") not in options(state), "no group can activate it"
    (ok,) = add_dice(state, 0, Y, 3)
    state = play(state, 0, target("card:0"), die(low))
    # The 1 alone activates nothing: the 3, the one die that completes the group, joins alone.
    (prompt,) = RULES.prompts(state)
    assert dict(prompt.context)["chosen"] == (low, ok)
    state = play(state, 0, DONE)
    assert state.cards[0].spaces == [0, None]
    assert state.players[0].deniers == 10 - activities()["Y1b"].cost + 2 and state.players[0].supply == 2


def test_full_card_puts_tradesman_on_the_illustration_and_moving_frees_a_space() -> None:
    state = table(3, ("Y1b", "Y3c"))
    state.cards[0].spaces = [1, 2]
    with_tradesman(state, 1, 0)
    spare(state)
    (y,) = add_dice(state, 0, Y, 3)
    state = play(state, 0, target("card:0"), die(y), DONE)
    assert Action.of("source", s="c:1") in options(state)
    state = play(state, 0, Action.of("source", s="c:1"))
    assert state.cards[0].extra == [0] and state.cards[1].spaces == [None, None]


def test_new_citizen_for_2_influence_when_the_supply_is_empty() -> None:
    state = table(2, ("Y1b",))
    spare(state)
    state.players[0].supply = 0
    (y,) = add_dice(state, 0, Y, 3)
    state = play(state, 0, target("card:0"), die(y), DONE, Action.of("source", s="new"))
    assert state.players[0].influence == 3 and state.players[0].owned == 7


def test_every_card_has_its_data() -> None:
    cards = activities()
    assert len(cards) == 27
    for colour in Colour:
        for level in (1, 2, 3):
            assert sum(1 for c in cards.values() if c.colour is colour and c.level == level) == 3
    with pytest.raises(IllegalAction):
        RULES.apply(ready("Y1b"), 1, Action("pass"))


def joust(reds: dict[int, list[int]], times: int = 1) -> TroyesState:
    """Seat 0 activates the Joust `times` times in a 3-player game; `reds`: red dice left per owner."""
    state = ready("R3b", seats=3)
    for owner, values in reds.items():
        add_dice(state, owner, R, *values)
    return run(state, "R3b", times)


def vps(state: TroyesState) -> tuple[int, ...]:
    """Every seat's VP."""
    return tuple(p.vp for p in state.players)


def test_joust_gives_the_activator_2_vp_per_activation_when_their_red_total_is_highest() -> None:
    """English rulebook: "gain 2 VP if the total of red dice in your district ... is higher"."""
    # Neutral red dice are no player's district: the grey 6 does not count.
    assert vps(joust({0: [5], 1: [3], 2: [2], NEUTRAL: [6]})) == (2, 0, 0)
    assert vps(joust({0: [5], 1: [3]}, times=2)) == (4, 0, 0)


def test_joust_tied_for_highest_the_activator_still_gains_and_nobody_else() -> None:
    assert vps(joust({0: [5], 1: [2, 3], 2: [1]})) == (2, 0, 0)


def test_joust_gives_nothing_when_another_player_has_more_red() -> None:
    """The card once paid the leader whoever activated it; now only the activator may gain."""
    assert vps(joust({0: [2], 1: [6]})) == (0, 0, 0)


def test_joust_counts_the_red_dice_left_after_the_activation() -> None:
    # The activation's 4 is gone: seat 0 has 1 left against seat 1's 3.
    assert vps(joust({0: [1], 1: [3]})) == (0, 0, 0)
    # With no red dice left anywhere there is no total to be highest with.
    assert vps(joust({})) == (0, 0, 0)


def test_activations_offered_are_those_still_payable_after_the_hire() -> None:
    # §4.2: the hire cost is paid first; an activation of the Journeyman needs 3 deniers (§7.2).
    state = table(2, ("Y3a",))
    spare(state)
    cost = activities()["Y3a"].cost
    state.players[0].deniers = cost + 3  # after hiring: one Journeyman activation payable
    ids = add_dice(state, 0, Y, *values_for("Y3a", 2))
    state = play(state, 0, target("card:0"), *(die(i) for i in ids), DONE, Action.of("source", s="supply"))
    assert state.players[0].vp == 2 and state.players[0].deniers == 0
