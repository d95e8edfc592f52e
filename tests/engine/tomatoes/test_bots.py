"""The bots: always legal, and greedy clearly better than random."""

from __future__ import annotations

from engine.core import Action, Prompt
from engine.play import run_game
from engine.tomatoes import RULES
from engine.tomatoes.bots import WIN_WORTH, GreedyBot, _Judge, bot_view, evaluate, horizon, shortlist
from engine.tomatoes.rules import END_TURN, KEEP
from engine.tomatoes.state import Colour, GameEnd, Phase, TomatoState
from tests.engine.tomatoes.helpers import die, end_turn, place, position, prompt


def test_the_three_levels_exist_and_old_names_still_play() -> None:
    assert set(RULES.bots()) == {"random", "easy", "normal", "hard"}
    assert RULES.levels() == ("easy", "normal", "hard")
    assert isinstance(RULES.bots()["normal"], GreedyBot)
    assert RULES.policy("greedy") == "normal" and RULES.policy("random") == "random"
    state = position(2, rolled=("r6",))
    assert RULES.bot_action(state, prompt(state), "greedy") == RULES.bot_action(
        state, prompt(state), "normal"
    )


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


def _choice(state: TomatoState) -> Action:
    return RULES.bot_action(state, prompt(state), "normal")


def test_normal_counts_no_karma_above_the_end_of_turn_cap() -> None:
    # A red 6 completes the opponent's vine of 6s (6 karma to the bot) or seeds its own token.
    vines = {(1, 0): ["r6", "r6", "r6"]}
    roomy = position(2, rolled=("r6",), vines=vines, karma={0: 0})
    assert _choice(roomy)["owner"] == 1, "with room for the karma, completing pays"
    capped = position(2, rolled=("r6",), vines=vines, karma={0: 6})
    assert _choice(capped)["owner"] == 0, "at the cap the karma would be cut at the end of the turn"


def test_normal_never_cleans_a_vine_once_its_track_is_full() -> None:
    # Karma above the cap is free to spend, but a full track freezes the vines: they only score.
    # The old bot cleaned (or flipped) its own frozen vine 2-2 worth 1 here.
    state = position(2, rolled=("b3",), vines={(0, 0): ["r2", "b2"]}, karma={0: 12})
    state.players[0].slots = list(position(2, slots={0: [1, 2, 3, 4, 5, 6]}).players[0].slots)
    state.bushel[Colour.RED] -= 6
    action = _choice(state)
    assert action.kind not in ("clean", "flip"), action
    state.phase, state.rolled = Phase.CLEAR, []
    state.players[0].tokens[0].dice = [die("b1")]
    assert RULES.bot_action(state, Prompt(0, "clear", (Action.of("clear", token=0), KEEP)), "normal") == KEEP


def test_normal_does_not_harvest_its_own_zero_vine_when_it_can_do_otherwise() -> None:
    # Red 2 completes the own vine 2-2-2 worth 0 (two black dice) into slot 1, or seeds a token.
    vines = {(0, 0): ["r2", "b2", "b2"], (1, 0): ["r6", "r6"], (1, 1): ["r5"], (1, 2): ["r5", "r5"]}
    action = _choice(position(2, rolled=("r2",), vines=vines))
    assert action.kind != "place" or action["token"] != 0 or action["owner"] != 0, action


def test_normal_values_an_opponents_three_dice_vine_of_six_near_its_harvest() -> None:
    view = position(2, rolled=("g1",), vines={(1, 0): ["r6", "r6", "r6"]})
    assert _Judge(view, 0).worths[1][0] >= 0.7 * 6


def test_solo_normal_does_not_buy_karma_with_an_early_harvest() -> None:
    # Solo scores matched slots only: a vine of 6s harvested into slot 1 scores no match, and the
    # 6 karma it brings count for nothing at the end; seeding a token keeps the 6 for later.
    state = position(1, rolled=("r6",), vines={(0, 0): ["r6", "r6", "r6"]}, karma={0: 3})
    assert _choice(state)["token"] != 0


def test_hard_judges_a_finished_game_by_its_real_scores_and_the_win() -> None:
    # Seat 1's three-dice vine of 6s promises much mid-game, but at the end it is only 1 point
    # (three red dice): seat 0, 2 points ahead on the tracks, has won.
    state = position(2, vines={(1, 0): ["r6", "r6", "r6"]}, slots={0: [3, 4], 1: [2, 3]}, karma={0: 0, 1: 0})
    state.final_round = True
    running = evaluate(state, 0)
    state.ended = GameEnd.FINAL_ROUND
    assert running < 0
    assert evaluate(state, 0) == 7 - 6 + WIN_WORTH
    assert evaluate(state, 1) == 6 - 7


def test_hard_spends_karma_the_cap_would_take_on_an_opponents_threat_that_normal_ignores() -> None:
    # Seat 1 has harvested one tomato; its vine 2-2 needs two more 2s to score slot 2 matched (7
    # points). Seat 0 has no dice left and 9 karma, 3 of which the end of the turn cuts anyway.
    # The normal bot's rule of thumb sees a low two-dice vine as a burden to its owner and ends
    # the turn; the hard bot cleans it.
    state = position(
        2, vines={(1, 0): ["r2", "r2"], (0, 0): ["r4"]}, karma={0: 9, 1: 2}, slots={0: [4], 1: [3]}
    )
    clean = Action.of("clean", owner=1, token=0)
    assert clean in shortlist(bot_view(state), prompt(state))
    assert RULES.bot_action(state, prompt(state), "normal") == END_TURN
    assert RULES.bot_action(state, prompt(state), "hard") == clean


def test_hard_plays_its_samples_out_to_the_end_when_the_bushel_runs_low() -> None:
    state = position(2)
    assert horizon(state) == 2
    state.bushel = {Colour.RED: 5, Colour.BLACK: 2, Colour.GOLD: 1}
    assert horizon(state) > 2 * len(state.players)


def test_normal_spends_karma_earned_for_passed_dice_before_the_cut_takes_it() -> None:
    # At 6 karma and 2 bits, passing the black 5 makes 7: the karma above 6 is free to spend,
    # and cleaning the opponent's 6-6-6 (one die from a harvest worth 6) pays.
    state = position(2, rolled=("b5",), vines={(1, 0): ["r6", "r6", "r6"]}, karma={0: 6})
    state.players[0].karma_bits = 2
    state, _ = end_turn(state)
    assert _choice(state) == Action.of("clean", owner=1, token=0)
    state.players[1].tokens[0].dice = [die("r2")]  # a lone low seed: not worth 3 karma
    assert _choice(state) == KEEP
