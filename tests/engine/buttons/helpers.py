"""Building Buttons states by hand for scenario tests."""

from __future__ import annotations

from functools import cache

from engine.buttons import RULES
from engine.buttons.faces import FACES, Colour
from engine.buttons.state import ButtonsState, Cell, Phase, PlayerBoard, Status
from engine.core import Action, Event
from engine.rng import Rng


@cache
def _rigged(dice: tuple[int, ...]) -> int:
    """An rng state whose next die rolls are `dice` (found by search; a few thousand tries)."""
    for start in range(10_000_000):
        rng = Rng(start)
        if all(rng.die() == want for want in dice):
            return start
    raise AssertionError(f"no rng state rolls {dice}")


def rig(state: ButtonsState, white: int, gold: int, *plain: int) -> None:
    """Make the next roll of `state` come up white, gold and the plain dice given."""
    assert len(plain) == state.pool, "a roll uses every plain die in the pool"
    state.rng = Rng(_rigged((white, gold, *plain)))


def cells_of(face: int, colour: Colour) -> list[Cell]:
    """Every cell of a face with the given colour, row by row."""
    return [(r + 1, c + 1) for r in range(6) for c in range(6) if FACES[face][r][c] is colour]


def new_state(
    seats: int,
    *,
    faces: list[int] | None = None,
    bonus: list[list[Colour]] | None = None,
    active: int = 0,
) -> ButtonsState:
    """A fresh round 1 state with chosen faces and cards (the red card's holder starts)."""
    faces = faces or list(range(seats))
    if bonus is None:
        order = list(Colour)
        bonus = (
            [order[2 * s : 2 * s + 2] for s in range(2)] if seats == 2 else [[order[s]] for s in range(seats)]
        )
    boards = [PlayerBoard(face=faces[s], bonus=list(bonus[s])) for s in range(seats)]
    return ButtonsState(boards=boards, starter=active, active=active, rng=Rng(1))


def act(state: ButtonsState, seat: int, action: Action) -> tuple[ButtonsState, tuple[Event, ...]]:
    """Apply an action and return the new state with its events."""
    transition = RULES.apply(state, seat, action)
    return transition.state, transition.events


def only_in(state: ButtonsState, seats: list[int]) -> None:
    """Mark every other seat as out of the round (busted, so with no buttons), taking their dice."""
    for seat, board in enumerate(state.boards):
        if seat not in seats and board.status is Status.IN:
            board.buttons = []
            board.status = Status.BUSTED
            taken = state.dice_per_exit()
            state.pool -= taken
            board.dice_aside += taken
    assert state.phase is Phase.TURN
