"""Where a die may go: seeds on empty tokens, and sets or runs on vines (rules section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.tomatoes.state import SLOTS_PER_TRACK, VINE_HARVEST_SIZE, Colour, Die, Token, TomatoState


def is_set_or_run(values: Sequence[int]) -> bool:
    """Whether face values form a set (all equal) or a gapless run without wrap-around."""
    if not values:
        return True
    low, high = min(values), max(values)
    if low == high:
        return True
    # A run: distinct values spanning exactly len - 1 (so 6 and 1 are never adjacent).
    return high - low == len(values) - 1 and len(set(values)) == len(values)


@cache
def accepted_values(values: tuple[int, ...]) -> frozenset[int]:
    """The faces a vine with these face values can take next (empty for a full vine)."""
    if not values or len(values) >= VINE_HARVEST_SIZE:
        return frozenset()
    return frozenset(v for v in range(1, 7) if is_set_or_run((*values, v)))


def fits(token: Token, die: Die) -> bool:
    """Whether `die` may go on `token`: red only as a seed, else the vine must stay a set or run."""
    if not token.dice:
        return die.colour is Colour.RED
    return die.value in accepted_values(tuple(d.value for d in token.dice))


def placements(state: TomatoState) -> list[tuple[int, int, int]]:
    """Every legal placement now, as (rolled die index, owner seat, token index)."""
    if not state.rolled:
        return []
    # None marks an empty token (takes any red die as a seed), else the faces the vine accepts.
    targets: list[tuple[int, int, frozenset[int] | None]] = []
    for owner, player in enumerate(state.players):
        if len(player.slots) >= SLOTS_PER_TRACK:
            continue  # rules section 6.4 (UNCONFIRMED, proposal): a full track freezes its tokens
        for index, token in enumerate(player.tokens):
            dice = token.dice
            targets.append((owner, index, accepted_values(tuple([d.value for d in dice])) if dice else None))
    legal = []
    for die_index, die in enumerate(state.rolled):
        red = die.colour is Colour.RED
        value = die.value
        for owner, index, accepts in targets:
            if red if accepts is None else value in accepts:
                legal.append((die_index, owner, index))
    return legal


def any_placement(state: TomatoState) -> bool:
    """Whether any rolled die has a legal target now (`placements` is not empty)."""
    if not state.rolled:
        return False
    reds = any(die.colour is Colour.RED for die in state.rolled)
    faces = {die.value for die in state.rolled}
    for player in state.players:
        if len(player.slots) >= SLOTS_PER_TRACK:
            continue  # rules section 6.4: a full track freezes its tokens
        for token in player.tokens:
            dice = token.dice
            if reds if not dice else not faces.isdisjoint(accepted_values(tuple([d.value for d in dice]))):
                return True
    return False


def flipped_seed_fits(token: Token) -> bool:
    """Whether turning the seed to its opposite face (7 - value) keeps the vine a set or run."""
    if not token.dice:
        return False
    values = [7 - token.dice[0].value] + [d.value for d in token.dice[1:]]
    return is_set_or_run(values)
