"""The hard level: playouts to the end of the round, judged by the fitted chance of winning."""

from __future__ import annotations

from engine.buttons import RULES
from engine.buttons.actions import ROLL, STOP
from engine.buttons.bots import NormalBot, RolloutBot
from engine.buttons.hard import log_odds, round_of, win_chance
from engine.buttons.state import ButtonsState, Phase
from engine.rng import Rng
from engine.search import MonteCarloBot

from .helpers import new_state


def test_four_stars_in_a_window_are_worth_more_than_four_scattered() -> None:
    assert log_odds([(1, 1), (1, 2), (1, 3), (1, 4)]) > log_odds([(1, 1), (3, 3), (5, 5), (6, 1)])
    assert log_odds([(1, 1), (3, 3)]) > log_odds([(1, 1)]) > log_odds([])


def test_win_chance_is_the_result_once_the_game_is_over_and_shared_before() -> None:
    state = new_state(2)
    state.boards[0].stars = [(1, 1), (1, 2), (1, 3)]
    state.boards[1].stars = [(6, 6)]
    assert win_chance(state, 0) > 0.5 > win_chance(state, 1)
    assert abs(win_chance(state, 0) + win_chance(state, 1) - 1) < 1e-9
    state.phase = Phase.OVER
    assert (win_chance(state, 0), win_chance(state, 1)) == (1.0, 0.0)
    state.boards[1].stars = [(6, 6), (5, 5), (4, 4)]
    assert (win_chance(state, 0), win_chance(state, 1)) == (0.5, 0.5)


def test_playouts_end_where_the_round_does() -> None:
    ends: list[ButtonsState] = []

    def evaluate(state: ButtonsState, seat: int) -> float:
        ends.append(state)
        return win_chance(state, seat)

    bot = MonteCarloBot(
        RULES,
        RolloutBot(),
        shortlist=lambda view, prompt: prompt.options,
        evaluate=evaluate,
        seen=lambda state, seat: state,
        samples=12,
        handovers=400,
        max_steps=400,
        until=round_of,
    )
    state = new_state(2)
    state.boards[0].buttons = [(1, 1)]
    (prompt,) = RULES.prompts(state)
    assert prompt.options == (ROLL, STOP)
    bot.choose(RULES.view(state, 0), prompt, Rng(7))
    assert len(ends) == 24
    assert all(end.round == state.round + 1 or end.phase is Phase.OVER for end in ends)
    assert all(not board.buttons for end in ends for board in end.boards)


def test_the_rollout_policy_rolls_on_a_safe_board_and_stops_on_a_crowded_one() -> None:
    state = new_state(2)
    state.boards[0].buttons = [(1, 1)]
    (prompt,) = RULES.prompts(state)
    assert RolloutBot().choose(state, prompt, Rng(0)) == ROLL
    state.boards[0].buttons = [(r, c) for r in range(1, 7) for c in range(1, 7) if (r + c) % 2 == 0][:14]
    state.pool = 1
    (prompt,) = RULES.prompts(state)
    assert RolloutBot().choose(state, prompt, Rng(0)) == STOP


def test_the_rollout_rolls_or_stops_as_normal_does() -> None:
    # Two boards where a quick rule of bust odds against the stars at stake chose otherwise
    # (stop on the first, roll on the second), and the hard bot won less for it.
    for buttons, pool, normal in (
        ([(1, 1), (2, 4), (4, 6), (5, 2), (5, 4)], 1, ROLL),
        ([(2, 1), (3, 2), (4, 4), (6, 6)], 3, STOP),
    ):
        state = new_state(2)
        state.boards[0].buttons, state.pool = buttons, pool
        (prompt,) = RULES.prompts(state)
        assert NormalBot().choose(state, prompt, Rng(0)) == normal
        assert RolloutBot().choose(state, prompt, Rng(0)) == normal


def test_the_hard_bot_plays_a_closing_game_to_its_end_with_legal_moves() -> None:
    state = new_state(3)
    for seat, board in enumerate(state.boards):
        board.stars = [(r, c) for r in range(1, 7) for c in range(1, 7) if (r + c + seat) % 3 == 0][:10]
    while RULES.outcome(state) is None:
        prompt = RULES.prompts(state)[0]
        action = RULES.bot_action(state, prompt, "hard")
        assert action in prompt.options
        state = RULES.apply(state, prompt.seat, action).state
