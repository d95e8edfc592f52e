"""End scoring and the result (sections 11 and 14)."""

from __future__ import annotations

import pytest

from engine.tomatoes import RULES
from engine.tomatoes.scoring import vine_points
from engine.tomatoes.state import GameEnd, ScoreSlot
from tests.engine.tomatoes.helpers import die, position


def test_unfinished_vines_red_dice_and_older_rule() -> None:
    # Section 14: own vines [3 red], [2 red + 1 black], [1 red] -> R = 6 -> 2 points;
    # older rule: two vines holding 3 dice -> 2 points.
    state = position(2, vines={(0, 0): ["r3", "r3", "r3"], (0, 1): ["r4", "r5", "b6"], (0, 2): ["r2"]})
    player = state.players[0]
    assert vine_points(player, "red_dice") == 2
    assert vine_points(player, "three_dice_vines") == 2
    player.tokens[2].dice = []
    assert vine_points(player, "red_dice") == 1  # 5 red dice
    assert vine_points(player, "three_dice_vines") == 2


def test_final_scores_add_up_every_source() -> None:
    state = position(3, vines={(1, 0): ["r1", "r2", "r3"]}, karma={0: 5, 1: 6, 2: 1})
    state.players[0].slots = [
        ScoreSlot(die=die("r1"), points=1, bonus=6, star=True),
        ScoreSlot(die=die("r5"), points=4),
    ]
    state.players[1].slots = [ScoreSlot(die=die("r6"), points=6)] * 6
    state.first_to_six = 1
    state.ended = GameEnd.FINAL_ROUND
    out = RULES.outcome(state)
    assert out is not None
    assert dict(out.breakdown[0]) == {
        "harvests": 5,
        "slot bonuses": 6,
        "first to six": 0,
        "karma": 2,
        "unfinished vines": 0,
    }
    assert out.breakdown[1]["first to six"] == 2 and out.breakdown[1]["unfinished vines"] == 1
    assert out.scores == (13, 36 + 2 + 3 + 1, 0)
    assert out.ranks == (2, 1, 3) and out.summary.endswith("Player 2 wins with 42 points.")


@pytest.mark.parametrize("bonus", [2, 3])
def test_first_to_six_bonus_option(bonus: int) -> None:
    state = position(2, options={"first_to_six_bonus": bonus})
    state.first_to_six, state.ended = 0, GameEnd.FINAL_ROUND
    out = RULES.outcome(state)
    assert out is not None and out.breakdown[0]["first to six"] == bonus


def test_ties_share_the_rank() -> None:
    state = position(2)
    state.ended = GameEnd.BUSHEL_EMPTY
    out = RULES.outcome(state)
    assert out is not None and out.ranks == (1, 1) and "tie with 1 point." in out.summary
    assert "the bushel is empty" in out.summary
