"""Dice groups for an action: which dice may join, what they are worth, what they cost."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.troyes.board import can_enter, cathedral_column_free
from engine.troyes.data import activities, board, events
from engine.troyes.kinds import BISHOPRIC, BUILDING_COLOURS, CITY_HALL, PALACE, Colour
from engine.troyes.state import Die, TroyesState

MAX_GROUP = 3

# Delayed cards whose cube changes the colour the group is made of (rules §7.2).
_PHYSICAL = {"militiaman": Colour.YELLOW, "templar": Colour.WHITE, "monk": Colour.WHITE}
# The colour of target a cube serves ("any" for Apprenticeship and Confession).
_SERVES = {
    "blacksmith": Colour.RED,
    "militiaman": Colour.RED,
    "templar": Colour.RED,
    "tithe": Colour.YELLOW,
    "monk": Colour.YELLOW,
    "priest": Colour.YELLOW,
}
_SINGLE = {"templar", "monk"}


def target_kind(target: str) -> tuple[str, int]:
    """Split 'card:3' into ('card', 3); targets without an index get -1."""
    kind, _, index = target.partition(":")
    return kind, int(index) if index else -1


def target_colour(state: TroyesState, target: str) -> Colour | None:
    """The dice colour a target takes; None for any colour (Pilgrimage)."""
    kind, index = target_kind(target)
    if kind == "card":
        card = activities()[state.cards[index].id]
        return None if card.effect == "pilgrimage" else card.colour
    if kind == "event":
        return events()[state.queue[index].id].combat
    if kind == "building":
        return BUILDING_COLOURS[index]
    if kind == "cathedral":
        return Colour.WHITE
    return Colour.YELLOW


def modifier_fits(state: TroyesState, target: str, effect: str) -> bool:
    """Whether a delayed card's cube (by effect) may modify an action on `target`."""
    kind, index = target_kind(target)
    colour = target_colour(state, target)
    if effect in ("apprenticeship", "confession"):
        return kind != "cathedral" and not (kind == "building" and index in (BISHOPRIC, CITY_HALL))
    if colour is not None and colour != _SERVES[effect]:
        return False
    if kind == "building":
        # One die only, and the cards name the building they may not serve.
        if effect in _SINGLE or effect == "priest":
            return False
        return not (effect == "blacksmith" and index == PALACE)
    return True


def physical_colour(state: TroyesState, target: str, effect: str) -> Colour | None:
    """The colour the group's dice must have (None: any, or fixed by the first die)."""
    if effect in _PHYSICAL:
        return _PHYSICAL[effect]
    if effect in _SERVES:
        return _SERVES[effect]
    return target_colour(state, target)


def max_dice(target: str, effect: str) -> int:
    """How many dice the group may have."""
    if effect in _SINGLE or target_kind(target)[0] == "building":
        return 1
    return MAX_GROUP


def values(dice: Sequence[Die], effect: str) -> list[int]:
    """The values the group counts as, after the cube's effect."""
    if effect == "apprenticeship":
        return [5] * len(dice)
    if effect == "confession":
        return [d.value + 2 for d in dice]
    if effect == "priest":
        return [d.value + 3 for d in dice]
    if effect == "monk":
        return [d.value for d in dice for _ in range(3)]
    if effect == "templar":
        return [d.value for d in dice for _ in range(2)]
    return [d.value for d in dice]


def total(dice: Sequence[Die], effect: str) -> int:
    """The group's total (Blacksmith adds 5)."""
    return sum(values(dice, effect)) + (5 if effect == "blacksmith" and dice else 0)


def price(seat: int, dice: Sequence[Die], effect: str) -> dict[int, int]:
    """Deniers owed per owner for the bought dice (2 per die per die in the group)."""
    owed: dict[int, int] = {}
    each = board().const("die_price") * len(dice)
    for die in dice:
        if die.owner != seat and effect != "tithe":
            owed[die.owner] = owed.get(die.owner, 0) + each
    return owed


def hire_cost(state: TroyesState, seat: int, target: str) -> int:
    """The card's cost when `seat` has no tradesman on the target card, else 0."""
    kind, index = target_kind(target)
    if kind != "card" or state.cards[index].has(seat):
        return 0
    return activities()[state.cards[index].id].cost


def die_fits(
    state: TroyesState, seat: int, target: str, effect: str, chosen: Sequence[Die], die: Die
) -> bool:
    """Whether `die` may join the chosen dice of a group (colour, size, Tithe, deniers)."""
    return fitter(state, seat, target, effect)(chosen, die)


def fitter(state: TroyesState, seat: int, target: str, effect: str) -> Callable[[Sequence[Die], Die], bool]:
    """`die_fits` for one target and effect, its fixed parts worked out once (searches call it often)."""
    size = max_dice(target, effect)
    colour = physical_colour(state, target, effect)
    tithe = effect == "tithe"
    each = board().const("die_price")
    budget = state.players[seat].deniers - hire_cost(state, seat, target)

    def fits(chosen: Sequence[Die], die: Die) -> bool:
        if len(chosen) >= size or die in chosen:
            return False
        # None: the Pilgrimage without a colour-fixing cube, the one group that may mix colours.
        if colour is not None and die.colour != colour:
            return False
        if tithe:
            # Tithe: bought dice cost nothing, but at most one die of each other owner.
            return (die.owner == seat or all(d.owner != die.owner for d in chosen)) and budget >= 0
        # Every bought die costs the die price times the group's size (see `price`).
        bought = sum(1 for d in chosen if d.owner != seat) + (die.owner != seat)
        return bought * each * (len(chosen) + 1) <= budget

    return fits


def yield_of(state: TroyesState, target: str, effect: str, dice: Sequence[Die]) -> int:
    """Activations, cubes or deniers the group gives on the target (0: not a valid group)."""
    kind, index = target_kind(target)
    if not dice:
        return 0
    if kind == "card":
        return total(dice, effect) // activities()[state.cards[index].id].divisor
    if kind == "event":
        slot = state.queue[index]
        card = events()[slot.id]
        return min(total(dice, effect) // card.divisor, card.banners - len(slot.cubes))
    if kind == "agriculture":
        return total(dice, effect) // board().const("agriculture_divisor")
    if kind == "cathedral":
        per_column: dict[int, int] = {}
        for v in values(dice, effect):
            if not 1 <= v <= 6:
                return 0
            per_column[v - 1] = per_column.get(v - 1, 0) + 1
        ok = all(cathedral_column_free(state, c, n) for c, n in per_column.items())
        return len(dice) if ok else 0
    value = values(dice, effect)[0]
    return 1 if len(dice) == 1 and can_enter(state, index, value) else 0
