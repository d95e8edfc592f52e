"""When the rest of a roll has only one way to go: every placeable die fits one vine only.

Section 6.3 (must place while a die fits, in any order) then leaves no choice but karma, so the
engine offers "place the rest" as one compound action (`PLACE_REST`, recorded like any other).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.core import Action
from engine.tomatoes.placement import placements
from engine.tomatoes.state import SLOTS_PER_TRACK, VINE_HARVEST_SIZE, TomatoState
from engine.tomatoes.vines import place_die

PLACE_REST = Action("place_rest")
"""Place every remaining die on its only vine (offered only when that is forced)."""

Placement = tuple[int, int, int]
"""(rolled die index, owner seat, token index)."""


def forced_rest(
    state: TomatoState, legal: Sequence[Placement], clone: Callable[[TomatoState], TomatoState]
) -> tuple[Placement, ...] | None:
    """The placements, in playing order (die indices as they are at each step), when the rest
    is forced and at least two dice go; None otherwise.

    Forced: each placeable die has one target, no two share one, and placing any of them
    first leaves every other die exactly its target (no die gains or loses one), so every
    order ends the same. A harvest that could fill a track is never forced (it freezes tokens).
    """
    targets: dict[int, tuple[int, int]] = {}
    for die, owner, token in legal:
        if die in targets:
            return None
        targets[die] = (owner, token)
    if len(targets) < 2 or len(set(targets.values())) < len(targets):
        return None
    completions: Counter[int] = Counter()
    for owner, token in targets.values():
        if len(state.players[owner].tokens[token].dice) == VINE_HARVEST_SIZE - 1:
            completions[owner] += 1
    if any(len(state.players[o].slots) + n >= SLOTS_PER_TRACK for o, n in completions.items()):
        return None
    for first in targets:
        after = clone(state)
        place_die(after, first, *targets[first])
        # Indices above the placed die shift down by one in the rolled list.
        expected = {(d - (d > first), *t) for d, t in targets.items() if d != first}
        if set(placements(after)) != expected:
            return None
    # Placed in rolled order: a die's index at its step counts the dice still before it.
    order: list[Placement] = []
    left = list(range(len(state.rolled)))
    for position, (owner, token) in sorted(targets.items()):
        index = left.index(position)
        order.append((index, owner, token))
        left.pop(index)
    return tuple(order)
