"""Enums and constants shared by the Troyes modules."""

from __future__ import annotations

from enum import Enum

NEUTRAL = -1
"""Owner id of the grey (neutral) player's citizens, cubes and dice."""

HIDDEN = "?"
"""What a view shows in place of a secret card id."""


class Colour(Enum):
    """Dice and card colours."""

    RED = "red"
    WHITE = "white"
    YELLOW = "yellow"


class Phase(Enum):
    """Where the game stands."""

    PLACEMENT = "placement"
    COUNTER = "counter"
    ACTIONS = "actions"
    OVER = "over"


class StepKind(Enum):
    """The pending sub-decisions kept on the state's stack."""

    REROLL = "reroll"
    FLIP = "flip"
    EVENT_TARGET = "event_target"
    MODIFIER = "modifier"
    DICE = "dice"
    SOURCE = "source"
    ACTIVATIONS = "activations"
    ARCHER = "archer"
    EVENT_CUBE = "event_cube"
    COUNTER = "counter"
    CONTINUE = "continue"
    END_TURN = "end_turn"


PALACE, BISHOPRIC, CITY_HALL = 0, 1, 2
BUILDING_COLOURS = (Colour.RED, Colour.WHITE, Colour.YELLOW)
