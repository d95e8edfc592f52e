"""Property tests over random full games: every player count, every variant combination."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Action, IllegalAction, Prompt
from engine.rng import Rng
from engine.tomatoes import RULES
from engine.tomatoes.placement import is_set_or_run
from engine.tomatoes.rules import END_TURN, place_action
from engine.tomatoes.state import Colour, GameEnd, Phase, TomatoState
from engine.tomatoes.vines import OVERRIPE_ABOVE
from tests.conformance import random_playout
from tests.engine.tomatoes.helpers import count_dice

VARIANTS = [
    {"golden_hybrid": g, "dicey_rules": d, "karma_overload": k}
    for g, d, k in itertools.product((True, False), repeat=3)
]
GAMES_PER_CASE = 40
"""Random games per (player count, variant) case: 48 cases, 1920 games."""


def check_invariants(state: TomatoState) -> None:
    """What must hold after every step of any game."""
    assert count_dice(state) == state.total_dice, "a die was lost or duplicated"
    assert all(n >= 0 for n in state.bushel.values())
    if not state.options.golden_hybrid:
        assert state.bushel.get(Colour.GOLD, 0) == 0
    between_turns = state.phase in (Phase.ROLL, Phase.OVER)
    options = state.options
    for seat, player in enumerate(state.players):
        cap = options.turn_karma_cap if seat == state.active and not between_turns else options.rest_karma_cap
        assert 0 <= player.karma <= cap, f"karma {player.karma} out of bounds"
        assert 0 <= player.karma_bits < 3
        assert len(player.slots) <= 6
        for token in player.tokens:
            values = [d.value for d in token.dice]
            assert len(values) <= 3 and is_set_or_run(values)
            if token.dice:
                assert token.dice[0].colour is Colour.RED
            if between_turns:
                assert token.value <= OVERRIPE_ABOVE, "an overripe vine survived the end of a turn"
    if between_turns:
        assert state.rolled == []
    assert (state.phase is Phase.OVER) == (state.ended is not GameEnd.NONE)
    if state.first_to_six is not None:
        assert len(state.players[state.first_to_six].slots) == 6 and state.final_round


def brute_force_placements(state: TomatoState) -> set[tuple[int, int, int]]:
    """Legal placements straight from the rules text, independently of the engine's search."""
    legal = set()
    for index, die in enumerate(state.rolled):
        for owner, player in enumerate(state.players):
            if len(player.slots) == 6:
                continue
            for number, token in enumerate(player.tokens):
                values = [d.value for d in token.dice]
                if not values:
                    ok = die.colour is Colour.RED
                else:
                    ok = len(values) < 4 and is_set_or_run([*values, die.value])
                if ok:
                    legal.add((index, owner, number))
    return legal


def check_placement_options(state: TomatoState, prompt: Prompt) -> None:
    """The place options are exactly the legal placements; end_turn only when there are none."""
    offered = {(a["die"], a["owner"], a["token"]) for a in prompt.options if a.kind == "place"}
    expected = brute_force_placements(state)
    assert offered == expected
    assert (END_TURN in prompt.options) == (not expected)


def play_checked(players: int, seed: int, options: dict[str, object]) -> TomatoState:
    """Play a random game to its end, checking invariants and refusals at every step."""
    state = RULES.setup(players, options, seed)  # type: ignore[arg-type]
    rng = Rng.from_seed(seed, players, 17)
    for step in range(20_000):
        check_invariants(state)
        prompts = RULES.prompts(state)
        if RULES.outcome(state) is not None:
            assert prompts == ()
            return state
        (prompt,) = prompts
        assert prompt.seat == state.active and prompt.options
        if step % 10 == 3 and state.phase is Phase.PLACE:
            check_placement_options(state, prompt)
        if step % 5 == 0:
            probe = place_action(rng.below(len(state.rolled) + 1), rng.below(players), rng.below(3))
            if probe not in prompt.options:
                with pytest.raises(IllegalAction):
                    RULES.apply(state, prompt.seat, probe)
            if players > 1:
                with pytest.raises(IllegalAction):
                    RULES.apply(state, (prompt.seat + 1) % players, prompt.options[0])
        state = RULES.apply(state, prompt.seat, rng.choice(prompt.options)).state
    pytest.fail(f"game did not end (players {players}, seed {seed}, options {options})")


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(k for k, on in v.items() if on) or "base"
)
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int, variant: dict[str, bool]) -> None:
    for seed in range(GAMES_PER_CASE):
        end = play_checked(players, seed, variant)
        if players == 1:
            assert end.ended in (GameEnd.SOLO_HARVESTED, GameEnd.SOLO_OUT_OF_DICE)
        else:
            assert end.ended in (GameEnd.FINAL_ROUND, GameEnd.BUSHEL_EMPTY)
        if end.ended is GameEnd.FINAL_ROUND:
            assert len({p.turns for p in end.players}) == 1, "final round must give equal turns"


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(k for k, on in v.items() if on) or "base"
)
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_conformance_json_replay_and_purity(players: int, variant: dict[str, bool]) -> None:
    # The costly contract checks (JSON round trip, apply never mutates, replay == snapshot).
    random_playout(RULES, players, 1000 + players, variant, check_invariants, check_every=4)


older_rules = st.fixed_dictionaries(
    {
        "pick_colours": st.booleans(),
        "match_total": st.sampled_from([7, 6]),
        "karma_bits": st.booleans(),
        "bits_for_passing": st.booleans(),
        "turn_karma_cap": st.sampled_from([12, 6]),
        "unfinished_vines": st.sampled_from(["red_dice", "three_dice_vines"]),
        "first_to_six_bonus": st.sampled_from([2, 3]),
        "clean_target": st.sampled_from(["any", "own"]),
        "negative_harvest": st.sampled_from(["allow", "floor_zero"]),
        "golden_hybrid": st.booleans(),
        "dicey_rules": st.booleans(),
        "karma_overload": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32), options=older_rules)
def test_every_table_option_plays_to_the_end(players: int, seed: int, options: dict[str, object]) -> None:
    end = play_checked(players, seed, options)
    outcome = RULES.outcome(end)
    assert outcome is not None and len(outcome.scores) == players
    if players > 1:
        assert outcome.scores == tuple(sum(part.values()) for part in outcome.breakdown)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32), pick=st.booleans())
def test_greedy_games_pass_the_contract(players: int, seed: int, pick: bool) -> None:
    random_playout(
        RULES, players, seed, {"pick_colours": pick}, check_invariants, check_every=8, policy="greedy"
    )


def test_options_offered_are_distinct_and_actions_round_trip() -> None:
    state = RULES.setup(3, seed=5)
    rng = Rng.from_seed(5)
    while RULES.outcome(state) is None:
        (prompt,) = RULES.prompts(state)
        for action in prompt.options:
            assert Action.from_json(action.to_json()) == action
        state = RULES.apply(state, prompt.seat, rng.choice(prompt.options)).state
