"""Random full games: the shared conformance checks plus Buttons' own invariants."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.buttons import RULES
from engine.buttons.faces import Colour
from engine.buttons.state import PLAIN_DICE, ButtonsState, Phase, Status, neighbours
from engine.core import Event
from engine.play import run_game
from tests.conformance import random_playout


def invariants() -> Callable[[ButtonsState], None]:
    """A checker for one game; it remembers the stars seen so far."""
    seen_stars: dict[int, set[tuple[int, int]]] = {}

    def check(state: ButtonsState) -> None:
        n = state.seats
        assert state.pool + sum(b.dice_aside for b in state.boards) == PLAIN_DICE
        assert 0 <= state.pool <= PLAIN_DICE
        held = [c for b in state.boards for c in b.bonus]
        assert sorted(c.value for c in held) == sorted(c.value for c in Colour if c is not state.removed)
        assert all(len(b.bonus) == (2 if n == 2 else 1) for b in state.boards)
        assert Colour.RED in state.boards[state.starter].bonus
        for seat, board in enumerate(state.boards):
            buttons = set(board.buttons)
            assert len(buttons) == len(board.buttons) and not buttons & set(board.stars)
            assert board.stars == sorted(set(board.stars))
            assert all(nb not in buttons for cell in buttons for nb in neighbours(cell)), "buttons touch"
            assert seen_stars.get(seat, set()) <= set(board.stars), "a star disappeared"
            seen_stars[seat] = set(board.stars)
            if board.status is Status.BUSTED:
                assert not board.buttons
            if board.status is Status.OPTED_OUT and state.phase is not Phase.STARS:
                assert board.buttons or state.phase is Phase.OVER
            assert 0 <= board.stars_due <= len(board.buttons)
        if state.phase is Phase.TURN:
            assert state.boards[state.active].status is Status.IN
        if state.phase is Phase.PLACE:
            assert state.waiting and all(state.boards[s].status is Status.IN for s in state.waiting)
        if state.phase is Phase.STARS:
            assert any(b.stars_due for b in state.boards)
        for prompt in RULES.prompts(state):
            assert len(prompt.options) <= 25, "a Discord select holds at most 25 options"
            assert prompt.default is None or prompt.default in prompt.options
        if state.phase is Phase.OVER:
            assert max(b.score for b in state.boards) >= 12

    return check


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_conform(seats: int) -> None:
    for seed in range(8):
        end = random_playout(RULES, seats, seed, invariant=invariants())
        assert RULES.outcome(end) is not None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_games_conform(seats: int) -> None:
    for seed in range(4):
        random_playout(RULES, seats, seed, invariant=invariants(), policy="greedy", check_every=5)


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**63 - 1))
def test_any_seed_plays_to_a_valid_end(seats: int, seed: int) -> None:
    end = random_playout(RULES, seats, seed, invariant=invariants(), check_every=10)
    outcome = RULES.outcome(end)
    assert outcome is not None
    assert outcome.scores == tuple(b.score for b in end.boards)
    assert all(set(parts) == {"stars", "line of 5"} for parts in outcome.breakdown)


def test_every_event_has_a_readable_line() -> None:
    kinds: set[str] = set()

    def read(event: Event) -> None:
        line = RULES.describe(event)
        kinds.add(event.kind)
        assert line.startswith(("Player ", "Round ", "The game ends")), line
        assert "{" not in line and "=" not in line and line.endswith("."), line

    for seats in (2, 3, 4):
        run_game(
            RULES, seats, seed=seats, policies=["greedy", "random", "greedy", "random"][:seats], on_event=read
        )
    assert kinds == {
        "roll",
        "place",
        "decline",
        "bust",
        "stop",
        "turn",
        "score",
        "star",
        "round",
        "game_over",
    }
    assert RULES.describe(Event("undo", {"seat": 1})) == "Player 2 takes back their last move."


def test_describe_reads_well() -> None:
    roll = Event("roll", {"seat": 0, "white": 4, "gold": 2, "plain": [2, 3, 4, 4]})
    assert RULES.describe(roll) == "Player 1 rolls: white 4, gold 2, black 2, 3, 4, 4."
    place = Event("place", {"seat": 2, "row": 4, "col": 2, "colour": "red", "gold": True})
    assert RULES.describe(place) == "Player 3 places a button on row 4, column 2 (red) with the gold dice."
    score = Event("score", {"seat": 1, "stars": 4, "opt_out": 1, "colours": 2, "bonus": 1})
    assert RULES.describe(score) == (
        "Player 2 earns 4 stars: 1 for opting out, 2 for colours with 3 buttons, 1 for bonus colours."
    )
    bust = Event("bust", {"seat": 0, "lost": 1, "dice": 2})
    assert (
        RULES.describe(bust)
        == "Player 1 busts and loses 1 button, and is out of the round (2 dice set aside)."
    )


def test_views_hide_only_the_dice_generator() -> None:
    state = RULES.setup(3, seed=5)
    for seat in (None, 0, 1, 2):
        seen = RULES.view(state, seat)
        assert seen.rng.state == 0
        seen.rng = state.rng
        assert seen == state, "boards, cards and dice are public in Buttons"
