"""The kinds of events a game of Diced Tomatoes reports, and helpers to build them."""

from __future__ import annotations

import enum

from engine.codec import JSON
from engine.tomatoes.state import Die


class Ev(enum.StrEnum):
    """Event kinds (Event.kind holds one of these values)."""

    TURN = "turn"
    """A player's turn begins (an undo barrier: the previous player's turn is over)."""
    ROLL = "roll"
    """Dice were taken from the bushel and rolled with the passed dice."""
    PLACE = "place"
    """A rolled die was placed as a seed or added to a vine."""
    HARVEST = "harvest"
    """A vine got its 4th die and its seed moved to the owner's score track."""
    OVERRIPE = "overripe"
    """A vine worth more than 6 was cleared (on its 4th die, or at the end of a turn)."""
    KARMA = "karma"
    """The active player gained karma (completion, bits) or lost some to a cap."""
    BIT = "bit"
    """The active player collected a karma bit (Karma Overload)."""
    REROLL = "reroll"
    """Karma: a rolled die was rolled again."""
    SHIFT = "shift"
    """Karma: a rolled die moved one pip up or down."""
    ROLL_OVER = "roll_over"
    """Karma: a rolled 1 became a 6, or a 6 a 1."""
    SET_VALUE = "set_value"
    """Karma: a rolled die was turned to a chosen face."""
    CLEAN = "clean"
    """Karma: a vine was cleaned, all its dice back to the bushel."""
    FLIP = "flip"
    """Karma: a seed die was flipped to its opposite face."""
    PASS = "pass"
    """Unplaceable dice went to the next player (or stayed in hand, solo)."""
    CLEAR = "clear"
    """End of turn: a vine worth 0 or less was cleared by its owner."""
    FIRST_TO_SIX = "first_to_six"
    """A player harvested a 6th tomato before anyone else."""
    FINAL_ROUND = "final_round"
    """The final round began: the game ends after the last player's turn."""
    KARMA_CAP = "karma_cap"
    """End of turn: karma above the resting cap was lost."""
    GAME_END = "game_end"
    """The game is over."""


def die_json(die: Die) -> dict[str, JSON]:
    """A die as event data."""
    return {"colour": die.colour.value, "value": die.value}
