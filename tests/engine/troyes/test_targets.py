"""The turn menu offers exactly the targets some legal group of dice works on (rules §4.1-§4.2)."""

from __future__ import annotations

from itertools import combinations

from engine.rng import Rng
from engine.troyes import groups
from engine.troyes.actions import can_target, usable_modifiers
from engine.troyes.data import activities
from engine.troyes.kinds import NEUTRAL
from engine.troyes.state import TroyesState
from tests.engine.troyes.helpers import R, W, Y, add_dice, table

PLACES = ["cathedral", "building:0", "building:1", "building:2", "agriculture"]


def works_by_brute_force(state: TroyesState, seat: int, target: str) -> bool:
    """Whether any group of 1 to 3 dice on the square, under any usable cube, works on the target."""
    for card in ["", *usable_modifiers(state, seat, target)]:
        effect = activities()[card].effect if card else ""
        for size in range(1, groups.max_dice(target, effect) + 1):
            for combo in combinations(state.dice, size):
                fits = all(
                    groups.die_fits(state, seat, target, effect, combo[:i], combo[i]) for i in range(size)
                )
                if fits and groups.yield_of(state, target, effect, combo) >= 1:
                    return True
    return False


def random_table(seed: int) -> TroyesState:
    """Seat 0 with few low dice and little money among many higher dice of the others."""
    rng = Rng.from_seed(seed, 3)
    ids = sorted(activities())
    cards = tuple(dict.fromkeys(ids[rng.below(27)] for _ in range(3)))
    state = table(3, cards, ("ER1", "EY1", "EW1"))
    for slot in state.cards:
        if rng.below(2):
            slot.spaces[0] = 0
    state.players[0].deniers = rng.below(9)
    state.players[0].cubes = {c: 1 for c in ids if activities()[c].delayed and rng.below(3) == 0}
    for owner in (0, 1, 2, NEUTRAL):
        low, count = (1, rng.below(4)) if owner == 0 else (3, rng.below(7))
        for _ in range(count):
            add_dice(
                state, owner, (R, W, Y)[rng.below(3)], low + rng.below(7 - low - (2 if owner == 0 else 0))
            )
    return state


def test_offered_targets_match_a_brute_force_search() -> None:
    for seed in range(600):
        state = random_table(seed)
        targets = [f"card:{i}" for i in range(len(state.cards))]
        targets += [f"event:{i}" for i in range(len(state.queue))] + PLACES
        for target in targets:
            assert can_target(state, 0, target) == works_by_brute_force(state, 0, target), (seed, target)
