"""Where a die may go: seeds on empty tokens, and sets or runs on vines (rules section 6)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tomatoes.state import VINE_HARVEST_SIZE, Colour, Die, Token, TomatoState


def is_set_or_run(values: Sequence[int]) -> bool:
    """Whether face values form a set (all equal) or a gapless run without wrap-around."""
    if not values:
        return True
    low, high = min(values), max(values)
    if low == high:
        return True
    # A run: distinct values spanning exactly len - 1 (so 6 and 1 are never adjacent).
    return high - low == len(values) - 1 and len(set(values)) == len(values)


def fits(token: Token, die: Die) -> bool:
    """Whether `die` may go on `token`: red only as a seed, else the vine must stay a set or run."""
    if not token.dice:
        return die.colour is Colour.RED
    if len(token.dice) >= VINE_HARVEST_SIZE:
        return False
    return is_set_or_run([d.value for d in token.dice] + [die.value])


def open_tokens(state: TomatoState) -> list[tuple[int, int, Token]]:
    """Every (owner, token index, token) that may take dice: tokens of full score tracks are frozen."""
    found = []
    for owner, player in enumerate(state.players):
        if player.track_full:
            continue  # rules section 6.4 (UNCONFIRMED, proposal): a full track freezes its tokens
        for index, token in enumerate(player.tokens):
            found.append((owner, index, token))
    return found


def placements(state: TomatoState) -> list[tuple[int, int, int]]:
    """Every legal placement now, as (rolled die index, owner seat, token index)."""
    targets = open_tokens(state)
    legal = []
    for die_index, die in enumerate(state.rolled):
        for owner, index, token in targets:
            if fits(token, die):
                legal.append((die_index, owner, index))
    return legal


def placeable(state: TomatoState, die: Die) -> bool:
    """Whether `die` has at least one legal target now."""
    return any(fits(token, die) for _, _, token in open_tokens(state))


def flipped_seed_fits(token: Token) -> bool:
    """Whether turning the seed to its opposite face (7 - value) keeps the vine a set or run."""
    if not token.dice:
        return False
    values = [7 - token.dice[0].value] + [d.value for d in token.dice[1:]]
    return is_set_or_run(values)
