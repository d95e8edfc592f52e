"""The actions of Buttons: roll, stop (opt out), place a button, decline, place a star."""

from __future__ import annotations

from engine.buttons.state import Cell
from engine.core import Action

ROLL = Action("roll")
"""Roll every die in the pool."""
STOP = Action("stop")
"""Opt out of the round, keeping this round's buttons."""
DECLINE = Action("decline")
"""Do not use the gold dice of another player's roll."""


def place(cell: Cell) -> Action:
    """Put a button on a cell."""
    return Action.of("place", row=cell[0], col=cell[1])


def star(cell: Cell) -> Action:
    """Turn one of this round's buttons into a star."""
    return Action.of("star", row=cell[0], col=cell[1])


def cell_of(action: Action) -> Cell:
    """The (row, col) a place or star action names."""
    return (int(action["row"]), int(action["col"]))
