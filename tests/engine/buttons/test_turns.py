"""A turn: roll or opt out, the forced placement, the gold dice, busting and the dice pool."""

from __future__ import annotations

import pytest

from engine.buttons import RULES
from engine.buttons.actions import DECLINE, ROLL, STOP, place
from engine.buttons.state import Phase, PlayerBoard, Status
from engine.core import IllegalAction

from .helpers import act, new_state, only_in, rig


def test_adjacency_a_button_may_touch_a_star_never_another_button() -> None:
    board = PlayerBoard(face=0, stars=[(3, 3)], buttons=[(1, 1)])
    assert not board.can_place((3, 3)), "never on a star"
    assert not board.can_place((1, 1)), "never on a button"
    assert not board.can_place((1, 2)) and not board.can_place((2, 1)), "never beside a button"
    assert board.can_place((2, 2)), "diagonal to a button is fine"
    assert all(board.can_place(cell) for cell in [(2, 3), (4, 3), (3, 2), (3, 4)]), "beside a star is fine"
    assert len(board.legal_cells()) == 36 - 4


def test_worked_example_white_4_blacks_2_2gold_3_4_4() -> None:
    # rules/buttons.md 2.1, from [S10]: the active player may use 4-2, 4-3 and 4-4; the others 4-2 only.
    state = new_state(3)
    rig(state, 4, 2, 2, 3, 4, 4)
    rolled, events = act(state, 0, ROLL)
    assert events[0].kind == "roll" and events[0].checkpoint
    assert events[0].data == {"seat": 0, "white": 4, "gold": 2, "plain": [2, 3, 4, 4]}
    prompts = {p.seat: p for p in RULES.prompts(rolled)}
    assert set(prompts) == {0, 1, 2}, "everyone decides at once"
    assert prompts[0].kind == "place" and prompts[0].options == (place((4, 2)), place((4, 3)), place((4, 4)))
    assert dict(prompts[0].context) == {"white": 4, "gold": 2, "black": (2, 2, 3, 4, 4)}
    assert DECLINE not in prompts[0].options, "the active player must place"
    for seat in (1, 2):
        assert prompts[seat].kind == "gold"
        assert prompts[seat].options == (place((4, 2)), DECLINE) and prompts[seat].default == DECLINE
    with pytest.raises(IllegalAction):
        RULES.apply(rolled, 1, place((4, 3)))


def test_the_turn_passes_only_after_everyone_has_decided() -> None:
    state = new_state(3)
    rig(state, 4, 2, 2, 3, 4, 4)
    state, _ = act(state, 0, ROLL)
    state, _ = act(state, 2, place((4, 2)))
    assert [p.seat for p in RULES.prompts(state)] == [0, 1], "one button per player per roll"
    state, _ = act(state, 0, place((4, 4)))
    assert state.phase is Phase.PLACE and state.waiting == [1]
    state, events = act(state, 1, DECLINE)
    assert state.phase is Phase.TURN and state.active == 1
    assert [e.kind for e in events] == ["decline", "turn"]
    assert state.boards[0].buttons == [(4, 4)] and state.boards[2].buttons == [(4, 2)]
    assert state.boards[1].buttons == []


def test_seats_with_no_legal_gold_cell_get_no_prompt() -> None:
    state = new_state(3)
    state.boards[1].stars = [(4, 2)]
    state.boards[2].buttons = [(3, 2)]
    rig(state, 4, 2, 2, 3, 4, 4)
    rolled, _ = act(state, 0, ROLL)
    assert [p.seat for p in RULES.prompts(rolled)] == [0]


def test_stopping_needs_a_button_from_this_round() -> None:
    state = new_state(3)
    state.boards[0].stars = [(1, 1), (2, 2)]
    state.boards[0].buttons = []
    # A first turn in a later round: stars from earlier rounds do not count.
    (prompt,) = RULES.prompts(state)
    assert prompt.options == (ROLL,)
    with pytest.raises(IllegalAction):
        RULES.apply(state, 0, STOP)


def test_a_button_placed_with_the_gold_dice_allows_stopping() -> None:
    state = new_state(3)
    rig(state, 4, 2, 2, 3, 4, 4)
    state, _ = act(state, 0, ROLL)
    state, _ = act(state, 0, place((4, 3)))
    state, _ = act(state, 2, DECLINE)
    state, _ = act(state, 1, place((4, 2)))
    assert state.active == 1
    (prompt,) = RULES.prompts(state)
    assert prompt.options == (ROLL, STOP) and prompt.default == STOP


@pytest.mark.parametrize(
    ("seats", "two_dice", "taken"), [(2, False, 1), (2, True, 2), (3, False, 1), (4, True, 1)]
)
def test_stopping_takes_plain_dice_out_of_the_pool(seats: int, two_dice: bool, taken: int) -> None:
    # The seed: the player "takes one of the black dice", with 2 players too; two per exit
    # with 2 players is a table option (rules/README.md).
    state = new_state(seats)
    state.two_dice_2p = two_dice
    state.boards[0].buttons = [(1, 1)]
    state, events = act(state, 0, STOP)
    assert state.boards[0].status is Status.OPTED_OUT
    assert state.pool == 4 - taken and state.boards[0].dice_aside == taken
    assert events[0].data == {"seat": 0, "buttons": 1, "dice": taken}
    assert state.boards[0].buttons == [(1, 1)], "an opted-out player keeps their buttons"
    assert state.active == 1 and state.phase is Phase.TURN


def test_bust_clears_only_this_rounds_buttons_and_others_may_still_use_the_gold_dice() -> None:
    state = new_state(3)
    board = state.boards[0]
    board.stars = [(5, 5)]
    board.buttons = [(4, 1), (4, 4), (3, 6)]  # with the star, row 4 is blocked for columns 1-6
    # Row 4 on seat 0's board: (4,1) (4,4) taken, (4,2) (4,3) (4,5) beside buttons, (4,6) beside (3,6).
    assert not any(board.can_place((4, c)) for c in range(1, 7))
    rig(state, 4, 2, 2, 3, 5, 6)
    state, events = act(state, 0, ROLL)
    assert [e.kind for e in events] == ["roll", "bust"]
    assert events[1].data == {"seat": 0, "lost": 3, "dice": 1}
    busted = state.boards[0]
    assert busted.buttons == [] and busted.stars == [(5, 5)] and busted.status is Status.BUSTED
    assert state.pool == 3 and busted.dice_aside == 1
    prompts = RULES.prompts(state)
    assert [(p.seat, p.kind) for p in prompts] == [(1, "gold"), (2, "gold")]
    state, _ = act(state, 1, place((4, 2)))
    state, _ = act(state, 2, DECLINE)
    assert state.active == 1 and state.phase is Phase.TURN
    assert state.boards[1].buttons == [(4, 2)]


def test_bust_with_nobody_else_able_to_place_passes_the_turn_at_once() -> None:
    state = new_state(2)
    only_in(state, [0])
    state.boards[0].buttons = [(1, 2)]
    # Row 1: (1,1) (1,3) beside (1,2), (1,2) taken; with dice 1, 2, 3, 3 nothing is legal.
    rig(state, 1, 1, 2, 3, 3)
    state, events = act(state, 0, ROLL)
    assert [e.kind for e in events][:2] == ["roll", "bust"]
    assert events[1].data["dice"] == 1, "one die in a 2-player game, as the seed says"
    assert "place" not in [p.kind for p in RULES.prompts(state)]
    assert state.round == 2, "nobody was left in, so the round ended"


def test_players_out_of_the_round_cannot_use_the_gold_dice() -> None:
    state = new_state(3)
    only_in(state, [0, 2])
    rig(state, 4, 2, 3, 4, 5)
    state, _ = act(state, 0, ROLL)
    assert sorted(p.seat for p in RULES.prompts(state)) == [0, 2]


def test_the_last_player_in_rolls_again_and_again_with_the_dice_left() -> None:
    state = new_state(4, active=2)
    only_in(state, [2])
    assert state.pool == 1, "with 4 players the last one rolls white, gold and one plain die"
    rig(state, 1, 1, 3)
    state, events = act(state, 2, ROLL)
    assert events[0].data == {"seat": 2, "white": 1, "gold": 1, "plain": [3]}
    assert RULES.prompts(state)[0].options == (place((1, 1)), place((1, 3)))
    state, _ = act(state, 2, place((1, 1)))
    assert state.active == 2 and state.phase is Phase.TURN


@pytest.mark.parametrize(("seats", "pool"), [(2, 3), (3, 2), (4, 1)])
def test_the_last_player_in_rolls_one_plain_die_per_player_out_fewer(seats: int, pool: int) -> None:
    state = new_state(seats)
    only_in(state, [0])
    assert state.pool == pool


def test_turn_order_is_clockwise_skipping_players_out() -> None:
    state = new_state(4, active=3)
    state.boards[0].status = Status.BUSTED
    state.boards[3].buttons = [(6, 6)]
    state, events = act(state, 3, STOP)
    assert state.active == 1 and events[-1].data == {"seat": 1, "dice": 5}


def test_the_roll_is_an_undo_barrier_but_a_placement_can_be_taken_back() -> None:
    state = new_state(2)
    rig(state, 4, 2, 2, 3, 4, 4)
    rolled, _ = act(state, 0, ROLL)
    assert not RULES.can_undo(rolled, 0)
    placed, _ = act(rolled, 0, place((4, 3)))
    assert RULES.can_undo(placed, 0)
    back = RULES.undo(placed, 0, rolled).state
    assert back.boards[0].buttons == [] and back.waiting == [0, 1]


def test_a_bust_on_the_first_roll_loses_nothing_but_the_round() -> None:
    state = new_state(3)
    state.boards[0].stars = [(4, c) for c in range(1, 7)]  # stars from earlier rounds fill row 4
    rig(state, 4, 1, 2, 3, 4, 5)
    state, events = act(state, 0, ROLL)
    assert events[1].kind == "bust" and events[1].data == {"seat": 0, "lost": 0, "dice": 1}
    assert RULES.describe(events[1]) == "Player 1 busts, and is out of the round (1 die set aside)."
    assert state.boards[0].status is Status.BUSTED and len(state.boards[0].stars) == 6
    assert state.pool == 3


def test_two_dice_per_exit_is_a_table_option_off_by_default() -> None:
    assert RULES.setup(2, {}, 1).two_dice_2p is False
    state = RULES.setup(2, {"two_dice_2p": True}, 1)
    assert state.two_dice_2p and state.dice_per_exit() == 2
    assert RULES.decode(RULES.encode(state)).two_dice_2p


def test_the_board_remembers_who_rolled_and_whether_it_busted() -> None:
    state = new_state(2)
    state.boards[0].buttons = [(1, 2)]
    rig(state, 1, 1, 2, 3, 3, 3)
    state, _ = act(state, 0, ROLL)
    state, _ = act(state, 1, DECLINE)
    assert state.active == 1 and state.phase is Phase.TURN
    assert state.roll is not None and state.roll.seat == 0 and state.roll.bust


def test_round_one_is_announced_at_the_start_like_later_rounds() -> None:
    state = RULES.setup(3, {}, 5)
    (event,) = RULES.opening(state)
    assert event.kind == "round" and event.data["round"] == 1 and event.data["starter"] == state.starter
    line = RULES.describe(event, ["Ann", "Bob", "Cy"])
    assert line.startswith("Round 1 begins;") and "holds the red card" in line and "Bonus colours:" in line
