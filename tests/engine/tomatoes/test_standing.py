"""The hard bot's standing model: what a position's features are and how they add up."""

from __future__ import annotations

import pytest

from engine.tomatoes.bots import evaluate
from engine.tomatoes.standing import FEATURES, WEIGHTS, features, standing
from tests.engine.tomatoes.helpers import die, position


def test_features_count_live_vines_the_match_ahead_and_karma_up_to_the_resting_cap() -> None:
    # Seat 0: slots 1 and 2 filled (next slot 3), a vine 3-3-3 that would match it, a vine 1-1
    # with a black die (worth 0: dead), one seed 5; 9 karma (6 kept at the end of the turn).
    vines = {(0, 0): ["r3", "r3", "r3"], (0, 1): ["r1", "b1"], (0, 2): ["r5"]}
    state = position(2, vines=vines, karma={0: 9}, slots={0: [1, 4]})
    state.players[0].hand = [die("r2")]
    got = dict(zip(FEATURES, features(state, 0), strict=True))
    assert got["banked"] == 1 + 4
    assert got["karma"] == 6 and got["hand"] == 1 and got["slots"] == 2
    assert (got["value1"], got["value2"], got["value3"]) == (5, 0, 3)
    assert (got["vine1"], got["vine2"], got["vine3"]) == (1, 0, 1)
    assert got["match"] == 7 - 3
    assert got["reds"] == 5 // 3  # five red dice on its vines: one end-of-game point


def test_karma_counts_for_more_than_the_half_point_it_scores_at_the_end() -> None:
    # Fitted on real games, a karma is worth about a point: it buys faces and cleans vines.
    rich, poor = position(2, karma={0: 6, 1: 2}), position(2, karma={0: 2, 1: 2})
    assert evaluate(rich, 0) - evaluate(poor, 0) > 4 * 0.5
    assert standing(rich, 0) - standing(poor, 0) == pytest.approx(4 * WEIGHTS.karma)
