"""The round through the real prompts: setup order, workforce, placing citizens, cubes, end of round."""

from __future__ import annotations

from engine.core import Action
from engine.troyes import RULES
from engine.troyes.data import activities, characters
from engine.troyes.flow import _workforce, end_round
from engine.troyes.kinds import BUILDING_COLOURS, CITY_HALL, NEUTRAL, PALACE, Phase, StepKind
from engine.troyes.scoring import breakdown
from engine.troyes.setup import snake
from engine.troyes.state import Step
from tests.engine.troyes.helpers import DONE, R, W, Y, add_dice, die, options, play, spare, table, target


def test_setup_placements_follow_the_snake_from_the_start_player_then_grey_fills_the_rest() -> None:
    # §2.2 step 6: clockwise from the start player, then back from the last, on empty spaces only.
    state = RULES.setup(3, seed=2)
    start = state.start
    seats = []
    while state.phase is Phase.PLACEMENT:
        (prompt,) = RULES.prompts(state)
        seats.append(prompt.seat)
        empty = {(b, s) for b in range(3) for s, o in enumerate(state.buildings[b]) if o is None}
        assert {(o["building"], o["space"]) for o in prompt.options} == empty
        assert NEUTRAL not in [o for b in state.buildings for o in b], "grey citizens come after"
        state = RULES.apply(state, prompt.seat, prompt.options[-1]).state
    clockwise = [start, (start + 1) % 3, (start + 2) % 3]
    back = clockwise[::-1]
    assert seats == snake(3, start, 5) == clockwise + back + clockwise + back + clockwise
    spaces = [o for b in state.buildings for o in b]
    assert spaces.count(NEUTRAL) >= 3 and all(spaces.count(seat) >= 4 for seat in range(3))


def test_workforce_rolls_one_die_of_the_building_colour_per_citizen_grey_included() -> None:
    # §3 phase 2: one die per own citizen in each building, the neutral citizens' dice too.
    state = table(3)
    state.buildings = [[0, 0, 1, NEUTRAL, None, 2], [1, 1, 1, 0, NEUTRAL, NEUTRAL], [2, 2, 2, 2, 0, None]]
    state.lying[PALACE] = [1]  # an expelled citizen rolls nothing
    _workforce(state)
    for owner in [NEUTRAL, 0, 1, 2]:
        for b, colour in enumerate(BUILDING_COLOURS):
            dice = sum(1 for d in state.dice if d.owner == owner and d.colour is colour)
            assert dice == state.buildings[b].count(owner), (owner, colour)
    assert len(state.dice) == 16 and all(1 <= d.value <= 6 for d in state.dice)


def test_placing_a_citizen_through_the_prompts_expels_and_protects_until_the_round_ends() -> None:
    # §4.2 action 4 and §2.3: the Palace space of the die; the expelled citizen lies on the
    # building, protects its colour there for the round, then goes back to its owner's supply.
    state = table(2)
    state.buildings[PALACE] = [1, 1, None, None, None, None]
    spare(state)
    first, second = add_dice(state, 0, R, 1, 2)
    state = play(state, 0, target("building:0"), die(first), DONE, Action.of("source", s="supply"))
    assert state.buildings[PALACE][0] == 0 and state.lying[PALACE] == [1]
    assert state.players[1].supply == 3
    state.turn = 0
    assert target("building:0") not in options(state), "seat 1 lies on the Palace: space 2 is protected"
    state.buildings[PALACE][2] = 1
    state.dice = [d for d in state.dice if d.id != second]
    (third,) = add_dice(state, 0, R, 3)
    assert target("building:0") not in options(state), "protection covers every seat 1 citizen there"
    state.buildings[PALACE][2] = None
    state = play(state, 0, target("building:0"), die(third), DONE, Action.of("source", s="supply"))
    assert state.buildings[PALACE][:3] == [0, 1, 0]
    state.round = state.rounds  # the last round: nothing starts after its end
    end_round(state)
    assert state.lying[PALACE] == [] and state.players[1].supply == 4


def test_row_building_placement_pushes_the_row_through_the_prompts() -> None:
    # §2.3: City Hall rows -- enter on the left, shift right, the last one is expelled.
    state = table(2)
    spare(state)
    state.buildings[CITY_HALL][0:2] = [1, NEUTRAL]
    (one,) = add_dice(state, 0, Y, 1)
    state = play(state, 0, target(f"building:{CITY_HALL}"), die(one), DONE, Action.of("source", s="supply"))
    assert state.buildings[CITY_HALL][0:2] == [0, 1] and state.lying[CITY_HALL] == [NEUTRAL]


def test_one_cube_per_action_and_it_is_spent() -> None:
    # §4.1 / §7.1: at most one cube modifies an action; it is used up.
    state = table(2, ("W2b", "W2a"))
    spare(state)
    state.players[0].cubes = {"W2b": 2, "W2a": 1}
    twos = add_dice(state, 0, R, 2, 2)
    state = play(state, 0, target("event:0"))
    # 2 + 2 = 4 is below the divisor 6: without a cube the group fails, so "no cube" is not offered.
    assert {o["card"] for o in options(state) if o.kind == "modifier"} == {"W2a", "W2b"}
    state = play(state, 0, Action.of("modifier", card="W2b"))
    assert all(o.kind != "modifier" for o in options(state)), "no second cube on the same action"
    state = play(state, 0, *(die(i) for i in twos), DONE)
    assert state.players[0].cubes == {"W2b": 1, "W2a": 1}


def test_black_dice_are_countered_with_own_dice_only_and_no_cube() -> None:
    # §5 step 6: no buying dice and no activity cubes against black dice.
    state = table(2)
    state.phase = Phase.COUNTER
    state.black = [4]
    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    state.players[0].cubes = {"W2b": 3}
    (own,) = add_dice(state, 0, W, 4)
    add_dice(state, 1, R, 6)
    add_dice(state, NEUTRAL, R, 6)
    assert {o.kind for o in options(state)} == {"die", "reroll", "flip"}
    assert [o for o in options(state) if o.kind == "die"] == [die(own)]


def test_end_of_round_clears_dice_and_passes_the_start_player_left() -> None:
    # §3 phase 5: unused dice back to the supply, the start player card to the left.
    state = RULES.setup(3, seed=8)
    while state.phase is Phase.PLACEMENT:
        (prompt,) = RULES.prompts(state)
        state = RULES.apply(state, prompt.seat, prompt.options[0]).state
    start, round_one_dice = state.start, state.next_die
    while state.round == 1:
        (prompt,) = RULES.prompts(state)
        action = Action("pass") if Action("pass") in prompt.options else RULES.bot_action(state, prompt)
        state = RULES.apply(state, prompt.seat, action).state
    assert state.start == (start + 1) % 3 and state.round == 2
    assert sorted(c.level for c in state.cards if c.revealed) == [1, 1, 1, 2, 2, 2], "§3 phase 0"
    assert all(not p.passed for p in state.players) and all(p.pass_money == 0 for p in state.players)
    assert state.dice and all(d.id >= round_one_dice for d in state.dice), "round 1's dice are gone"


def test_every_dealt_character_scores_for_every_player() -> None:
    # §8 / §9 item 5: all revealed characters (2 each with 2 players) score for both seats.
    state = table(2, ("Y1b", "Y1c"))
    state.players[0].characters = ["C3", "C4"]
    state.players[1].characters = ["C5", "C6"]
    state.players[0].deniers, state.players[0].influence = 12, 15
    state.players[1].deniers, state.players[1].influence = 0, 0
    state.cards[0].spaces = [1, None]
    state.cards[1].spaces = [1, None]
    state.players[1].taken = ["ER1"]
    names = [characters()[c].name for c in ("C3", "C4", "C5", "C6")]
    zero = breakdown(state, 0)
    one = breakdown(state, 1)
    assert [zero[n] for n in names] == [3, 6, 0, 0]
    assert [one[n] for n in names] == [0, 0, 1, 1]
    first_spaces = activities()["Y1b"].space_vp[0] + activities()["Y1c"].space_vp[0]
    # Seat 0 has no VP to lose to the cathedral; seat 1 loses its tradesmen's VP (floor 0).
    assert zero["Total"] == 9 and one["Total"] == first_spaces - min(first_spaces, 6) + 2
