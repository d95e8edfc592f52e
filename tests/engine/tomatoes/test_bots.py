"""The bots: always legal, and greedy clearly better than random."""

from __future__ import annotations

from engine.play import run_game
from engine.tomatoes import RULES
from engine.tomatoes.bots import GreedyBot
from tests.engine.tomatoes.helpers import end_turn, place, position, prompt


def test_both_policies_exist() -> None:
    assert set(RULES.bots()) == {"random", "greedy"}
    assert isinstance(RULES.bots()["greedy"], GreedyBot)


def test_greedy_beats_random_in_at_least_80_percent_of_two_player_games() -> None:
    wins = 0
    for seed in range(500):
        # Alternate seats so neither policy always gets the same seat.
        greedy = seed % 2
        policies = ["random", "random"]
        policies[greedy] = "greedy"
        outcome = run_game(RULES, 2, seed, policies=policies).outcome
        if outcome.ranks[greedy] == 1 and outcome.ranks[1 - greedy] == 2:
            wins += 1
    assert wins >= 400, f"greedy won only {wins} of 500"


def test_greedy_seeds_high_on_its_own_token_and_low_on_the_opponent() -> None:
    state = position(2, rolled=("r6",))
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert action["owner"] == 0
    state = position(2, rolled=("r1",))
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert action["owner"] == 1


def test_greedy_dumps_black_dice_on_the_opponent() -> None:
    state = position(2, rolled=("b4",), vines={(0, 0): ["r4"], (1, 0): ["r4"]})
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert action["owner"] == 1


def test_greedy_harvests_its_own_vine() -> None:
    state = position(2, rolled=("r2", "r5"), vines={(0, 1): ["r5", "r5", "r5"], (1, 0): ["r2"]})
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert (action["die"], action["owner"], action["token"]) == (1, 0, 1)


def test_greedy_spends_karma_to_complete_a_high_vine() -> None:
    # Nothing is placeable; a 6-karma change of the black die completes nothing, but turning
    # the red 1 into a 6 harvests its own vine of 6s.
    state = position(
        1, rolled=("r1",), vines={(0, 0): ["r6", "r6", "r6"], (0, 1): ["r3"], (0, 2): ["r4"]}, karma={0: 12}
    )
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert action.kind in ("set_value", "roll_over")


def test_greedy_clears_its_zero_vines() -> None:
    state = position(2, rolled=("b1",), vines={(0, 0): ["r1"]})
    state, _ = place(state, 0, 0, 0)
    state, _ = end_turn(state)
    action = RULES.bot_action(state, prompt(state), "greedy")
    assert action.kind == "clear"
