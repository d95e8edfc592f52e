"""The bots: always legal (see test_playouts), and the greedy one judges the odds well."""

from __future__ import annotations

import itertools

from engine.buttons import RULES
from engine.buttons.actions import DECLINE, ROLL, STOP, cell_of, place, star
from engine.buttons.bots import (
    _WINDOWS,
    Evaluator,
    GreedyBot,
    NormalBot,
    Race,
    RolloutBot,
    Weights,
    closing_gaps,
    line_potential,
    line_potentials,
    star_ranks,
    stars_to_finish,
)
from engine.buttons.faces import Colour
from engine.buttons.state import LINE_BONUS, Cell, PlayerBoard, Status, longest_run
from engine.core import Prompt
from engine.play import run_game
from engine.rng import Rng

from .helpers import act, new_state, only_in, rig

BUSY = [(1, 2), (2, 4), (3, 1), (3, 6), (4, 3), (5, 5), (6, 2)]
"""Buttons on face 0 that leave few free cells: a risky board."""


def _brute_force(board: PlayerBoard, blacks: int) -> tuple[float, float]:
    """Bust chance and expected best cell value, enumerating every roll."""
    evaluator = Evaluator(board, blacks, Weights())
    counts = evaluator.counts(board.buttons)
    banked = evaluator.banked(board.buttons) + evaluator.progress(counts)
    busts = 0
    total = 0.0
    rolls = list(itertools.product(range(1, 7), repeat=1 + blacks))
    for white, *cols in rolls:
        cells = [(white, c) for c in set(cols) if board.can_place((white, c))]
        if not cells:
            busts += 1
            continue
        total += max(evaluator.cell_value(board.buttons, banked, counts, cell) for cell in cells)
    return busts / len(rolls), total / len(rolls)


def test_bust_odds_and_roll_value_match_every_roll_enumerated() -> None:
    board = PlayerBoard(face=0, buttons=list(BUSY), stars=[(1, 5), (6, 6)], bonus=[Colour.RED])
    for blacks in (1, 2, 3):
        evaluator = Evaluator(board, blacks, Weights())
        value = _brute_force(board, blacks)[1]
        assert abs(evaluator.roll_value(board.buttons) - value) < 1e-9
    odds = [_brute_force(board, blacks)[0] for blacks in (1, 2, 3, 4)]
    assert odds == sorted(odds, reverse=True) and odds[0] > odds[3] > 0


def test_race_aware_cell_values_match_the_whole_board_judged_afresh() -> None:
    # Stars (2,1)..(2,4) make (2,5) finish a line; (1,2) and (3,1) are free cells of its colour.
    board = PlayerBoard(face=0, buttons=[(4, 3), (5, 5), (6, 2)], stars=[(2, c) for c in range(1, 5)])
    for race in (Race(score=9, to_beat=10, ends=False), Race(score=3, to_beat=12, ends=True)):
        evaluator = Evaluator(board, 4, Weights(), race)
        for buttons in (board.buttons, board.buttons[:1], board.buttons):  # the last pass reads the memo
            counts = evaluator.counts(buttons)
            banked = evaluator.banked(buttons) + evaluator.progress(counts)
            cells = evaluator.free_cells(buttons)
            assert {(1, 2), (2, 5), (3, 1)} <= set(cells)
            for cell in cells:
                after = [*buttons, cell]
                fresh = evaluator.banked(after) + evaluator.progress(evaluator.counts(after))
                assert evaluator.cell_value(buttons, banked, counts, cell) == fresh + evaluator.line_value(
                    cell
                )


def _turn_choice(buttons: list[Cell], seats: int, in_: list[int]) -> object:
    state = new_state(seats)
    only_in(state, in_)
    state.boards[0].buttons = list(buttons)
    (prompt,) = RULES.prompts(state)
    return RULES.bot_action(state, prompt, "greedy")


def test_greedy_rolls_when_busting_is_unlikely() -> None:
    assert _turn_choice([(3, 3)], 4, [0, 1, 2, 3]) == ROLL


def test_greedy_stops_when_busting_outweighs_the_gain() -> None:
    # A crowded board and, as the last player in with 4 players, only two black dice.
    assert _turn_choice(BUSY, 4, [0]) == STOP


def test_the_same_board_is_worth_a_roll_with_more_dice() -> None:
    board = PlayerBoard(face=0, buttons=[(1, 1), (3, 3), (5, 5)])
    few, many = Evaluator(board, 2, Weights()), Evaluator(board, 5, Weights())
    assert many.roll_value(board.buttons) > few.roll_value(board.buttons)


def test_greedy_takes_a_gold_button_that_completes_a_colour() -> None:
    state = new_state(3)
    state.boards[1].face = 0
    state.boards[1].buttons = [(1, 3), (2, 1)]  # two reds on face 0; (3, 5) is red too
    rig(state, 3, 5, 1, 1, 1, 1)
    state, _ = act(state, 0, ROLL)
    prompt = next(p for p in RULES.prompts(state) if p.seat == 1)
    assert prompt.options == (place((3, 5)), DECLINE)
    assert RULES.bot_action(state, prompt, "greedy") == place((3, 5))


def test_greedy_stops_once_a_button_can_finish_a_line() -> None:
    state = new_state(2)
    state.boards[0].stars = [(2, 1), (2, 2), (2, 4), (2, 5)]
    state.boards[0].buttons = [(2, 3)]
    (prompt,) = RULES.prompts(state)
    assert RULES.bot_action(state, prompt, "greedy") == STOP


def test_greedy_places_its_stars_to_build_lines() -> None:
    board = PlayerBoard(face=0, stars=[(4, 1), (4, 2), (4, 4), (4, 5)], buttons=[(1, 1), (4, 3), (6, 6)])
    view = new_state(2)
    view.boards[0] = board
    prompt = Prompt(0, "star", tuple(star(c) for c in board.buttons))
    assert GreedyBot().choose(view, prompt, Rng(0)) == star((4, 3))
    assert line_potential(set(board.stars), (4, 3)) == 4
    assert line_potential(set(board.stars), (1, 1)) == 1


ROW_TWO_GAPS = [(2, 2), (2, 4), (2, 5)]
"""Stars on face 0 that leave (2, 1) and (2, 3) as the two gaps of a window of five: not
side by side, so one round's buttons can cover both."""


def test_normal_stops_when_two_buttons_cover_a_window_and_its_stars_fill_both() -> None:
    # Fault: only a button on a window's last gap counted as a line. With buttons on both gaps
    # of a window holding three stars, and a set of greens for a second star, opting out makes
    # the line; the old bot rolled on (in about one game in four between normal bots).
    state = new_state(2)
    board = state.boards[0]
    board.stars = list(ROW_TWO_GAPS)
    board.buttons = [(2, 1), (2, 3), (4, 4), (5, 5)]
    assert [board.colour(c) for c in board.buttons] == [Colour.RED] + [Colour.GREEN] * 3
    (prompt,) = RULES.prompts(state)
    assert RULES.bot_action(state, prompt, "normal") == STOP
    assert RULES.bot_action(state, prompt, "hard") == STOP
    # With one star to place (no set) the line is out of reach this round, and 3 buttons roll on.
    board.buttons = [(2, 1), (2, 3), (5, 5)]
    assert RULES.bot_action(state, prompt, "normal") == ROLL


def test_normal_places_the_button_that_covers_a_window_s_last_gap() -> None:
    # Greens make a set (2 stars with the opt-out's), (2, 1) covers one gap; (2, 6) would make
    # a set of red, a bonus colour (2 stars more), but (2, 3) wins the game.
    state = new_state(2)
    board = state.boards[0]
    board.stars = list(ROW_TWO_GAPS)
    board.buttons = [(2, 1), (4, 4), (5, 5), (6, 2), (6, 6)]
    assert Colour.RED in board.bonus and board.colour((2, 6)) is Colour.RED
    rig(state, 2, 3, 6, 6, 6, 6)
    state, _ = act(state, 0, ROLL)
    prompt = next(p for p in RULES.prompts(state) if p.seat == 0)
    assert set(prompt.options) == {place((2, 3)), place((2, 6))}
    assert RULES.bot_action(state, prompt, "normal") == place((2, 3))


def test_normal_stars_every_gap_of_a_window_its_stars_can_fill() -> None:
    # Greedy by `star_key` the first star went to (4, 3) (three stars in two windows of row 4,
    # whose gap (4, 1) holds no button) and the line in row 2 was never made.
    state = new_state(2)
    board = state.boards[0]
    board.stars = [*ROW_TWO_GAPS, (4, 2), (4, 4), (4, 5)]
    board.buttons = [(2, 1), (2, 3), (4, 3)]
    board.stars_due = 2
    while board.stars_due:
        prompt = Prompt(0, "star", tuple(star(c) for c in board.buttons))
        cell = cell_of(NormalBot().choose(state, prompt, Rng(0)))
        board.buttons.remove(cell)
        board.stars.append(cell)
        board.stars_due -= 1
    assert board.has_line()


def test_normal_sees_the_line_two_of_an_opponent_s_buttons_will_make() -> None:
    state = new_state(2)
    opponent = state.boards[1]
    opponent.face = 0
    opponent.bonus = [Colour.RED, Colour.YELLOW]
    opponent.stars = list(ROW_TWO_GAPS)
    opponent.buttons = [(2, 1), (2, 3), (4, 4), (5, 5)]
    opponent.status = Status.OPTED_OUT
    assert Race.of(state, 0).to_beat >= LINE_BONUS and Race.of(state, 0).ends
    opponent.buttons = [(2, 1), (2, 3), (5, 5)]  # one star: no line
    assert Race.of(state, 0).to_beat < LINE_BONUS


def test_greedy_beats_random_in_at_least_80_percent_of_two_player_games() -> None:
    wins = 0
    games = 500
    for seed in range(games):
        policies = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        ranks = run_game(RULES, 2, seed, policies=policies).outcome.ranks
        greedy = policies.index("greedy")
        wins += ranks[greedy] == 1 and ranks[1 - greedy] != 1
    assert wins >= 0.8 * games, f"greedy won {wins} of {games}"


def test_line_potentials_agree_with_the_one_cell_version() -> None:
    rng = Rng(7)
    for _ in range(20):
        stars = {(rng.die(), rng.die()) for _ in range(rng.below(14))}
        every = line_potentials(frozenset(stars))
        assert all(every[(r, c)] == line_potential(stars, (r, c)) for r in range(1, 7) for c in range(1, 7))


def test_star_ranks_count_the_windows_of_each_cell_afresh() -> None:
    rng = Rng(5)
    for _ in range(20):
        stars = {(rng.die(), rng.die()) for _ in range(rng.below(14))}
        ranks = star_ranks(frozenset(stars))
        for r in range(1, 7):
            for c in range(1, 7):
                held = [sum(1 for cell in w if cell in stars) for w in _WINDOWS if (r, c) in w]
                assert ranks[(r, c)] == (max(held), held.count(max(held)))


def test_stars_to_finish_agrees_with_trying_every_choice_of_stars() -> None:
    rng = Rng(11)
    for _ in range(300):
        stars = {(rng.die(), rng.die()) for _ in range(rng.below(16))}
        board = PlayerBoard(face=0, stars=sorted(stars))
        for _ in range(rng.below(9)):
            cell = (rng.die(), rng.die())
            if board.can_place(cell):
                board.buttons.append(cell)
        needed = stars_to_finish(closing_gaps(frozenset(stars)), set(board.buttons))
        for k in range(len(board.buttons) + 1):
            choices = itertools.combinations(board.buttons, k)
            makes_line = any(longest_run(sorted(stars | set(chosen))) >= 5 for chosen in choices)
            assert makes_line == (needed <= k or longest_run(sorted(stars)) >= 5), (stars, board.buttons, k)


ELEVEN = [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (3, 3)]
"""Eleven stars on one board with no line of five."""


def test_normal_stops_at_eleven_stars_when_stopping_ends_the_game_in_front() -> None:
    # Fault: at 11 stars with 3 buttons it rolled, though opting out reaches 12 and ends the game ahead.
    state = new_state(2)
    state.boards[0].stars = list(ELEVEN)
    state.boards[0].buttons = [(5, 1), (5, 3), (5, 5)]
    state.boards[1].stars = [(6, 6), (4, 6)]
    (prompt,) = RULES.prompts(state)
    assert NormalBot(race=False).choose(state, prompt, Rng(0)) == ROLL, "the fault, without the race"
    assert RULES.bot_action(state, prompt, "normal") == STOP
    assert RULES.bot_action(state, prompt, "hard") == STOP
    assert RolloutBot().choose(state, prompt, Rng(0)) == STOP, "the hard bot's playouts finish the game too"


def test_normal_never_opts_out_into_a_certain_loss() -> None:
    # The opponent opted out with 11 stars and a button: 12 for sure, and the game ends this round.
    # On a crowded board with 3 dice the old bot opted out, ending the game at 6 + a few stars
    # against 12; only rolling on can still win.
    state = new_state(2)
    state.boards[1].stars = list(ELEVEN)
    state.boards[1].buttons = [(6, 6)]
    state.boards[1].status = Status.OPTED_OUT
    state.pool = 3
    state.boards[0].stars = [(1, 4), (1, 6), (2, 6), (4, 1), (6, 4), (6, 6)]
    state.boards[0].buttons = list(BUSY)
    (prompt,) = RULES.prompts(state)
    assert prompt.options == (ROLL, STOP)
    assert NormalBot(race=False).choose(state, prompt, Rng(0)) == STOP, "the fault, without the race"
    assert RULES.bot_action(state, prompt, "normal") == ROLL
    assert RULES.bot_action(state, prompt, "hard") == ROLL
    assert RolloutBot().choose(state, prompt, Rng(0)) == ROLL


def test_normal_sees_the_line_an_opponent_who_opted_out_will_make() -> None:
    # The opponent opted out with a button on the cell that finishes their row of five: the game
    # ends this round with their line (100 points). Opting out loses for sure; only rolling on
    # (for a line of its own) can still win. The old bot counted their 5 stars and opted out.
    state = new_state(2)
    state.boards[1].stars = [(1, 1), (1, 2), (1, 3), (1, 4)]
    state.boards[1].buttons = [(1, 5)]
    state.boards[1].status = Status.OPTED_OUT
    state.pool = 3
    state.boards[0].stars = [(1, 4), (1, 6), (2, 6), (4, 1), (6, 4), (6, 6)]
    state.boards[0].buttons = list(BUSY)
    (prompt,) = RULES.prompts(state)
    assert Race.of(state, 0).to_beat >= LINE_BONUS and Race.of(state, 0).ends
    assert RULES.bot_action(state, prompt, "normal") == ROLL
    assert RULES.bot_action(state, prompt, "hard") == ROLL
    assert RolloutBot().choose(state, prompt, Rng(0)) == ROLL


def test_the_rollout_opts_out_with_a_button_that_finishes_a_line() -> None:
    state = new_state(2)
    state.boards[0].stars = [(3, 1), (3, 2), (3, 3), (3, 4)]
    state.boards[0].buttons = [(1, 1), (3, 5)]
    (prompt,) = RULES.prompts(state)
    assert RolloutBot().choose(state, prompt, Rng(0)) == STOP
    state.boards[0].buttons = [(1, 1), (5, 5)]
    assert RolloutBot().choose(state, prompt, Rng(0)) == ROLL


def test_old_stored_policy_names_still_play() -> None:
    state = new_state(2)
    (prompt,) = RULES.prompts(state)
    assert RULES.policy("greedy") == "normal" and RULES.policy("random") == "random"
    assert RULES.policy("no such bot") == "normal"
    assert RULES.levels() == ("easy", "normal", "hard")
    assert RULES.bot_action(state, prompt, "greedy") == RULES.bot_action(state, prompt, "normal")
