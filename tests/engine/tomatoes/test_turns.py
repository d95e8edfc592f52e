"""Turn flow: taking and rolling dice, passing, undo, game end, solo (sections 9, 10, 13)."""

from __future__ import annotations

import pytest

from engine.core import UNDO, Action, IllegalAction, Move, Record, replay
from engine.play import run_game
from engine.tomatoes import RULES
from engine.tomatoes.rules import ROLL
from engine.tomatoes.state import Colour, GameEnd, Phase
from tests.engine.tomatoes.helpers import act, count_dice, end_turn, kinds, place, position, prompt


@pytest.mark.parametrize(
    ("players", "gold", "dice"), [(1, False, 13), (4, True, 56), (6, True, 84), (3, False, 39)]
)
def test_setup_bushel_and_karma(players: int, gold: bool, dice: int) -> None:
    state = RULES.setup(players, {"golden_hybrid": gold}, seed=5)
    assert state.bushel_size == dice == state.total_dice
    assert state.bushel[Colour.RED] == 11 * players and state.bushel[Colour.BLACK] == 2 * players
    assert state.bushel.get(Colour.GOLD, 0) == (players if gold else 0)
    assert all(p.karma == 3 and p.karma_bits == 0 and len(p.tokens) == 3 for p in state.players)
    assert state.phase is Phase.ROLL and state.active == state.first_seat
    assert state.last_seat == (state.first_seat - 1) % players


def test_first_player_varies_with_the_seed() -> None:
    assert len({RULES.setup(4, seed=s).first_seat for s in range(40)}) == 4


def test_roll_takes_three_dice() -> None:
    state = RULES.setup(2, seed=3)
    bushel = state.bushel_size
    (only,) = prompt(state).options
    assert only == ROLL and prompt(state).default == ROLL
    state, events = act(state, ROLL)
    assert kinds(events) == ["roll"] and events[0].checkpoint
    assert len(state.rolled) == 3 and state.bushel_size == bushel - 3 and state.phase is Phase.PLACE
    assert count_dice(state) == state.total_dice


def test_passed_dice_are_rolled_with_the_next_players_three() -> None:
    state = position(2, rolled=("b5", "g3"))
    state, events = end_turn(state)
    assert state.active == 1 and [d.colour for d in state.players[1].hand] == [Colour.BLACK, Colour.GOLD]
    bushel = state.bushel_size
    state, events = act(state, ROLL)
    assert events[0].data["held"] == 2 and len(state.rolled) == 5 and state.players[1].hand == []
    assert [d.colour for d in state.rolled[:2]] == [Colour.BLACK, Colour.GOLD]
    assert state.bushel_size == bushel - 3 and count_dice(state) == state.total_dice


def test_fewer_than_three_dice_left() -> None:
    state = RULES.setup(2, seed=3)
    state.bushel = {Colour.RED: 2, Colour.BLACK: 0, Colour.GOLD: 0}
    state, _ = act(state, ROLL)
    assert len(state.rolled) == 2 and state.bushel_size == 0


def test_pick_colours_option() -> None:
    state = RULES.setup(2, {"pick_colours": True}, seed=3)
    state.bushel = {Colour.RED: 5, Colour.BLACK: 1, Colour.GOLD: 1}
    mixes = {(a["red"], a["black"], a["gold"]) for a in prompt(state).options}
    assert mixes == {(3, 0, 0), (2, 1, 0), (2, 0, 1), (1, 1, 1)}
    assert prompt(state).default == Action.of("roll", red=3, black=0, gold=0)
    state, _ = act(state, Action.of("roll", red=1, black=1, gold=1))
    assert sorted(d.colour.value for d in state.rolled) == ["black", "gold", "red"]
    assert state.bushel == {Colour.RED: 4, Colour.BLACK: 0, Colour.GOLD: 0}


def test_undo_placements_until_a_roll_but_not_past_it() -> None:
    state = position(2, rolled=("r5", "r4"))
    first, _ = place(state, 0, 0, 0)
    assert RULES.can_undo(first, 0) and not RULES.can_undo(first, 1)
    second, _ = place(first, 0, 0, 0)
    assert second.undo_depth == 2
    back = RULES.undo(second, 0, first).state
    assert back.rolled == first.rolled and back.version == second.version + 1
    rerolled, _ = act(first, Action.of("reroll", die=0))
    assert not RULES.can_undo(rerolled, 0)
    with pytest.raises(IllegalAction):
        RULES.undo(rerolled, 0, first)


def test_undo_through_a_record_replay() -> None:
    state = RULES.setup(2, seed=11)
    seat = state.active
    moves = [Move(seat, ROLL)]
    state = RULES.apply(state, seat, ROLL).state
    (p,) = RULES.prompts(state)
    placing = next((a for a in p.options if a.kind == "place"), None)
    if placing is None:
        pytest.skip("nothing placeable on this seed")
    moves += [Move(seat, placing), Move(seat, UNDO)]
    history = replay(RULES, Record("tomatoes", 2, RULES.resolve_options({}), 11, tuple(moves)))
    assert history[-1].rolled == state.rolled and history[-1].version == 3


def test_end_of_turn_is_an_undo_barrier() -> None:
    state = position(2, rolled=("b5",))
    state, events = end_turn(state)
    assert any(e.checkpoint for e in events) and not RULES.can_undo(state, 0)


def test_bushel_empty_at_start_of_turn_ends_the_game_even_with_passed_dice() -> None:
    state = position(2, rolled=("b5",))
    state.bushel = {colour: 0 for colour in state.bushel}
    state, events = end_turn(state)
    assert state.phase is Phase.OVER and state.ended is GameEnd.BUSHEL_EMPTY
    assert len(state.players[1].hand) == 1 and kinds(events)[-1] == "game_end"
    assert RULES.prompts(state) == () and RULES.outcome(state) is not None


def test_final_round_ends_after_the_last_player() -> None:
    # Three players, first seat 1, so the last player is seat 0. Seat 1 triggers the final round.
    state = position(
        3, active=1, first=1, rolled=("r2",), vines={(1, 0): ["r2", "r2", "r2"]}, slots={1: [1, 2, 3, 4, 5]}
    )
    state, _ = place(state, 0, 1, 0)
    assert state.final_round
    for expected in (2, 0):
        state, _ = end_turn(state) if state.phase is Phase.PLACE else (state, [])
        assert state.active == expected and state.phase is Phase.ROLL
        state, _ = act(state, ROLL)
        state.to_bushel(state.rolled)  # nothing to place: the turn can end at once
        state.rolled = []
    state, events = end_turn(state)
    assert state.ended is GameEnd.FINAL_ROUND and "game_end" in kinds(events)


def test_final_round_triggered_by_the_last_player_ends_at_once() -> None:
    state = position(
        2, active=1, first=0, rolled=("r2",), vines={(0, 0): ["r2", "r2", "r2"]}, slots={0: [1, 2, 3, 4, 5]}
    )
    state, _ = place(state, 0, 0, 0)
    state, _ = end_turn(state)
    assert state.ended is GameEnd.FINAL_ROUND


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_gets_the_same_number_of_turns(players: int) -> None:
    ended = 0
    for seed in range(6):
        game = run_game(RULES, players, seed)
        if game.state.ended is GameEnd.FINAL_ROUND:
            ended += 1
            assert len({p.turns for p in game.state.players}) == 1
        assert count_dice(game.state) == game.state.total_dice
    assert ended  # greedy games end by the final round


def test_solo_keeps_unplaceable_dice_and_plays_on_with_an_empty_bushel() -> None:
    state = position(1, rolled=("b4",), vines={(0, 0): ["r2"]})
    state.bushel = {colour: 0 for colour in state.bushel}
    state, events = end_turn(state)
    assert "pass" in kinds(events) and state.phase is Phase.ROLL and state.active == 0
    state, events = act(state, ROLL)
    assert events[0].data["drawn"] == [] and [d.colour for d in state.rolled] == [Colour.BLACK]


def test_solo_lost_when_no_held_die_can_ever_be_placed() -> None:
    state = position(1, rolled=("b4",), slots={0: [1, 5]})
    state.bushel = {colour: 0 for colour in state.bushel}
    state, _ = end_turn(state)
    assert state.ended is GameEnd.SOLO_OUT_OF_DICE
    out = RULES.outcome(state)
    assert out is not None and out.scores == (1,) and out.summary.startswith("Lost")
    assert "1 slot matched (1)" in out.summary and out.breakdown[0]["tomatoes"] == 2


def test_solo_won_after_the_sixth_harvest() -> None:
    state = position(1, rolled=("r6",), vines={(0, 0): ["r6", "r6", "r6"]}, slots={0: [1, 2, 4, 4, 1]})
    state, events = place(state, 0, 0, 0)
    assert "final_round" in kinds(events) and state.phase is Phase.PLACE
    state, _ = end_turn(state)
    assert state.ended is GameEnd.SOLO_HARVESTED
    out = RULES.outcome(state)
    assert out is not None and out.summary.startswith("Won") and out.scores == (4,)
    assert "4 slots matched (1, 2, 4, 6)" in out.summary
