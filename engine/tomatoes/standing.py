"""How well placed a player is mid-game: a linear model of the final margin, for the hard bot.

The weights were fitted by least squares (bench/fit_tomatoes_standing.py) on the positions at
the start of every turn of normal-v-normal 2-player games: the difference of the two players'
features against the final margin of the player to move. They say what actually predicts the
result, not what a rule of thumb says: karma, for one, is worth about a point (twice what it
scores at the end: it buys faces and cleans vines), a die passed to you nearly as much, and a
one-die vine costs its owner (a low seed blocks the token).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.tomatoes.state import Colour, TomatoState
from engine.tomatoes.vines import OVERRIPE_ABOVE


class StandingWeights(NamedTuple):
    """Points of final margin per unit of each feature of a player's position."""

    banked: float
    """Per point on the score track (first-to-six bonus included)."""
    karma: float
    """Per karma (at most the resting cap)."""
    bits: float
    """Per karma bit."""
    hand: float
    """Per die passed to the player, waiting to be rolled."""
    slots: float
    """Per tomato harvested (closer to the end and to the first-to-six bonus)."""
    value: tuple[float, float, float]
    """Per point of value of a live vine of 1, 2 or 3 dice (worth 1 to 6)."""
    vine: tuple[float, float, float]
    """Per live vine of 1, 2 or 3 dice (a low seed blocks its token: negative for one die)."""
    match: float
    """Per point of slot bonus a three-dice vine matching the next slot promises (Dicey rules)."""
    reds: float
    """Per end-of-game point of unfinished vines (3 red dice on own vines)."""


WEIGHTS = StandingWeights(
    banked=1.014,
    karma=0.966,
    bits=0.383,
    hand=0.729,
    slots=0.191,
    value=(0.301, 0.410, 0.449),
    vine=(-0.614, 0.025, 0.847),
    match=0.477,
    reds=-0.265,
)
"""The fitted weights (bench/fit_tomatoes_standing.py --games 1500 --first 100000)."""

FEATURES: tuple[str, ...] = ("banked", "karma", "bits", "hand", "slots", "value1", "value2", "value3")
FEATURES += ("vine1", "vine2", "vine3", "match", "reds")
"""The names of `features`' entries, in order (the fit script prints them)."""


def features(state: TomatoState, owner: int) -> list[float]:
    """One player's position as numbers, in the order of FEATURES."""
    options = state.options
    player = state.players[owner]
    banked = sum(slot.total for slot in player.slots)
    if state.first_to_six == owner:
        banked += options.first_to_six_bonus
    values = [0.0, 0.0, 0.0]
    vines = [0.0, 0.0, 0.0]
    match = 0.0
    reds = 0
    next_slot = len(player.slots) + 1
    for token in player.tokens:
        size = len(token.dice)
        if not size:
            continue
        reds += sum(1 for die in token.dice if die.colour is Colour.RED)
        value = token.value
        if 0 < value <= OVERRIPE_ABOVE:
            values[size - 1] += value
            vines[size - 1] += 1
            if size == 3 and value == next_slot and options.dicey_rules:
                match += options.match_total - value
    karma = min(player.karma, options.rest_karma_cap)
    head = [float(banked), float(karma), float(player.karma_bits), float(len(player.hand))]
    return [*head, float(len(player.slots)), *values, *vines, match, float(reds // 3)]


def flatten(weights: StandingWeights) -> list[float]:
    """The weights in the order of FEATURES."""
    w = weights
    return [w.banked, w.karma, w.bits, w.hand, w.slots, *w.value, *w.vine, w.match, w.reds]


_WEIGHTS = flatten(WEIGHTS)


def standing(state: TomatoState, owner: int) -> float:
    """A player's expected final points (up to a constant shared by all), as the model sees them."""
    return sum(w * x for w, x in zip(_WEIGHTS, features(state, owner), strict=True))
