"""Troyes in words for its buttons and questions: dice, cards, events, targets, what an activation yields.

Built from the public view only (a board message is seen by everyone); what a card's activations
cost and give is the engine's data, worded by the engine (engine.troyes.text.activation_yield).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, ArgValue, Prompt
from engine.troyes import board as city
from engine.troyes import groups
from engine.troyes.data import activities, board, events
from engine.troyes.kinds import HIDDEN, NEUTRAL, Colour
from engine.troyes.state import Die, TroyesState
from engine.troyes.text import activation_yield
from engine.words import count, noun, signed

COLOUR_EMOJI = {"red": "🟥", "white": "⬜", "yellow": "🟨"}
BUILDING_EMOJI = ("🏰", "⛪", "🏛️")
CATHEDRAL_EMOJI = "🏗️"
EVENT_EMOJI = "⚔️"
BLACK_EMOJI = "⬛"

CUBE_WORDS = {
    "blacksmith": "+5 to the red group",
    "militiaman": "yellow dice as red",
    "templar": "1 white die as 2 red",
    "tithe": "others' yellow dice free",
    "monk": "1 white die as 3 yellow",
    "priest": "+3 to each yellow die",
    "apprenticeship": "every die counts 5",
    "confession": "+2 to every die",
}
"""What a delayed card's cube does to a group, in a few words."""

ORDINAL_SUFFIX = {1: "st", 2: "nd", 3: "rd"}

LABEL_ROOM = 80
"""Discord's limit of characters in a button or select option label."""


def colour_word(colour: Colour | str | None) -> str:
    """ "red", "white", "yellow" (or "any colour")."""
    if colour is None:
        return "any colour"
    return colour.value if isinstance(colour, Colour) else str(colour)


def building_name(index: int) -> str:
    """ "Palace", "Bishopric" or "City Hall"."""
    return board().buildings[index].name


def owner_word(owner: int, seat: int, names: Sequence[str], *, capital: bool = True) -> str:
    """ "Your", "Ann's" or "Neutral" for a die's or citizen's owner, as `seat` reads it."""
    if owner == seat:
        return "Your" if capital else "your"
    if owner == NEUTRAL:
        return "Neutral" if capital else "neutral"
    name = names[owner] if 0 <= owner < len(names) else f"Player {owner + 1}"
    return f"{name}'s"


def find_die(view: TroyesState, die_id: ArgValue) -> Die | None:
    """A die of the city square by id (None once it is gone)."""
    return next((d for d in view.dice if d.id == die_id), None)


def citizen_owner(owner: int, seat: int, names: Sequence[str]) -> str:
    """Whose citizen is expelled, short: "your own", "a neutral", "Ann"."""
    if owner == seat:
        return "your own"
    if owner == NEUTRAL:
        return "a neutral"
    return names[owner] if 0 <= owner < len(names) else f"Player {owner + 1}"


def die_words(die: Die) -> str:
    """ "white 5"."""
    return f"{die.colour.value} {die.value}"


def card_label(view: TroyesState, index: int, seat: int, hire: int | None = None) -> str:
    """ "Merchant: yellow, divide by 3, hire 2 deniers" (or "your tradesman" once hired).

    `hire` is the engine's hire cost from the prompt; without one, the card's printed cost.
    """
    slot = view.cards[index]
    if slot.id == HIDDEN or slot.id not in activities():
        return f"Activity card {index + 1}"
    card = activities()[slot.id]
    colour = "any colour" if card.effect == "pilgrimage" else card.colour.value
    cost = card.cost if hire is None else hire
    tail = (
        "your tradesman"
        if slot.has(seat)
        else f"hire {count(cost, 'denier', 'deniers')}{bought_citizen(view, seat)}"
    )
    return f"{card.name}: {colour}, divide by {card.divisor}, {tail}"


def bought_citizen(view: TroyesState, seat: int) -> str:
    """ " + 2 influence" when the seat's supply is empty, so a new citizen must be bought (§4.2)."""
    if view.players[seat].supply > 0:
        return ""
    return f" + {board().const('citizen_cost')} influence"


def event_name(view: TroyesState, index: int) -> str:
    """An event's name, with its place among namesakes in the queue: "Brigands (2nd)"."""
    slot = view.queue[index]
    name = events()[slot.id].name
    same = [i for i, other in enumerate(view.queue) if events()[other.id].name == name]
    if len(same) < 2:
        return name
    place = same.index(index) + 1
    return f"{name} ({place}{ORDINAL_SUFFIX.get(place, 'th')})"


def banners_free(view: TroyesState, index: int) -> str:
    """ "1 of 2 banners free" for the event at `index` of the queue."""
    slot = view.queue[index]
    banners = events()[slot.id].banners
    return f"{banners - len(slot.cubes)} of {count(banners, 'banner', 'banners')} free"


def event_label(view: TroyesState, index: int) -> str:
    """ "Drought: yellow, divide by 5, 1 of 2 banners free"."""
    if not 0 <= index < len(view.queue):
        return f"Event {index + 1}"
    card = events()[view.queue[index].id]
    numbers = f"divide by {card.divisor}, {banners_free(view, index)}"
    return f"{event_name(view, index)}: {card.combat.value}, {numbers}"


def cube_label(view: TroyesState, index: int) -> str:
    """ "War (1 of 3 banners free)"."""
    if not 0 <= index < len(view.queue):
        return f"event {index + 1}"
    return f"{event_name(view, index)} ({banners_free(view, index)})"


def target_name(view: TroyesState, target: str) -> str:
    """What an action aims at, in words: "the Merchant", "the Palace", "the cathedral"."""
    kind, index = groups.target_kind(target)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        return f"the {activities()[view.cards[index].id].name}"
    if kind == "event" and 0 <= index < len(view.queue):
        return f"the {event_name(view, index)}"
    if kind == "building" and 0 <= index < 3:
        return f"the {building_name(index)}"
    if kind == "cathedral":
        return "the cathedral"
    if kind == "agriculture":
        return "agriculture"
    return target.replace("_", " ")


def target_emoji(view: TroyesState, target: str) -> str | None:
    """The emoji of an action's target."""
    kind, index = groups.target_kind(target)
    if kind == "card" and 0 <= index < len(view.cards):
        return COLOUR_EMOJI.get(view.cards[index].colour.value)
    if kind == "building" and 0 <= index < 3:
        return BUILDING_EMOJI[index]
    return {"event": EVENT_EMOJI, "cathedral": CATHEDRAL_EMOJI, "agriculture": "🌾"}.get(kind)


def effect_of(modifier: ArgValue) -> str:
    """The effect of the delayed card whose cube modifies a group ("" for none)."""
    return activities()[str(modifier)].effect if modifier and str(modifier) in activities() else ""


def _yield(view: TroyesState, target: str, modifier: str, dice: Sequence[Die]) -> tuple[str, int, str, int]:
    """The target's kind and index, the modifier's effect, and what the dice yield there."""
    kind, index = groups.target_kind(target)
    effect = effect_of(modifier)
    return kind, index, effect, groups.yield_of(view, target, effect, dice)


def group_result(
    view: TroyesState, seat: int, target: str, modifier: str, dice: Sequence[Die], names: Sequence[str]
) -> str:
    """What the chosen dice do on `target`, e.g. "3 activations: +6 deniers"."""
    kind, index, effect, got = _yield(view, target, modifier, dice)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        return f"{count(got, 'activation', 'activations')}: {activation_yield(view, seat, index, got)}"
    if kind == "event":
        return f"{count(got, 'cube', 'cubes')} on {target_name(view, target)}"
    if kind == "cathedral":
        columns = ", ".join(str(v) for v in groups.values(dice, effect))
        return f"build in {noun(len(dice), 'column', 'columns')} {columns}"
    if kind == "building" and dice:
        value = groups.values(dice, effect)[0]
        _, expelled = city.entry_result(view, index, value)
        out = f"enter with a {value}"
        if expelled is None:
            return out
        return f"{out}, expelling {citizen_owner(expelled, seat, names)}"
    if kind == "agriculture":
        return signed(got, "denier", "deniers")
    return count(got, "use", "uses")


def die_outcome(
    view: TroyesState, seat: int, target: str, modifier: str, group: Sequence[Die], names: Sequence[str]
) -> str:
    """What the group would give with this die last, e.g. " → 2 activations" ("" when nothing yet)."""
    kind, index, effect, got = _yield(view, target, modifier, group)
    if kind == "building":
        _, expelled = city.entry_result(view, index, groups.values(group, effect)[0])
        return "" if expelled is None else f" → expels {citizen_owner(expelled, seat, names)}"
    if got < 1 or kind == "cathedral":
        return ""
    if kind == "card":
        return f" → {count(got, 'activation', 'activations')}"
    if kind == "event":
        return f" → {count(got, 'cube', 'cubes')}"
    return f" → {signed(got, 'denier', 'deniers')}" if kind == "agriculture" else ""


def stated(prompt: Prompt, action: Action, key: str) -> int:
    """The engine's per-option figure `key` of the prompt's context for `action` (0 when absent)."""
    values = dict(prompt.context).get(key)
    if not isinstance(values, tuple) or action not in prompt.options:
        return 0
    place = prompt.options.index(action)
    return int(values[place]) if place < len(values) else 0


def paid_so_far(prompt: Prompt) -> int:
    """The engine's price of the dice chosen so far in a group (0 when it says nothing)."""
    paid = dict(prompt.context).get("paid", 0)
    return paid if isinstance(paid, int) else 0


def spend_words(prompt: Prompt, action: Action) -> str:
    """What the engine says choosing `action` takes now: "pay 8 deniers and 2 influence" ("" if nothing)."""
    deniers = stated(prompt, action, "spend_deniers")
    influence = stated(prompt, action, "spend_influence")
    parts = [count(deniers, "denier", "deniers")] if deniers else []
    if influence:
        parts.append(f"{influence} influence")
    return f"pay {', '.join(parts)}" if parts else ""


METRIC_WORDS = {
    "citizens_on_buildings": "citizens on buildings",
    "cathedral_cubes": "cubes in the cathedral",
    "deniers": "deniers",
    "influence": "influence",
    "tradesmen": "tradesmen on activity cards",
    "events_taken": "events won",
}
"""A character's metric in words."""


def sum_strength(dice: Sequence[Die]) -> int:
    """Countering strength: red dice count double."""
    return sum(d.value * (2 if d.colour is Colour.RED else 1) for d in dice)
