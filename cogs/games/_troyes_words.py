"""Troyes in words for its buttons and questions: dice, cards, events, targets, what an activation yields.

Built from the public view only (a board message is seen by everyone); what a card's activations
cost and give is the engine's data, worded by the engine (engine.troyes.text.activation_yield).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, ArgValue, Prompt, player_name
from engine.troyes import board as city
from engine.troyes import groups, text
from engine.troyes.data import activities, board, events
from engine.troyes.kinds import HIDDEN, NEUTRAL, Colour
from engine.troyes.state import Die, TroyesState
from engine.troyes.text import activation_yield, deniers_change, event_name
from engine.words import ENGLISH, N_, Words

COLOUR_EMOJI = {"red": "🟥", "white": "⬜", "yellow": "🟨"}
BUILDING_EMOJI = ("🏰", "⛪", "🏛️")
CATHEDRAL_EMOJI = "🏗️"
EVENT_EMOJI = "⚔️"
BLACK_EMOJI = "⬛"

CUBE_WORDS = {
    "blacksmith": N_("+5 to the red group"),
    "militiaman": N_("yellow dice as red"),
    "templar": N_("1 white die as 2 red"),
    "tithe": N_("others' yellow dice free"),
    "monk": N_("1 white die as 3 yellow"),
    "priest": N_("+3 to each yellow die"),
    "apprenticeship": N_("every die counts 5"),
    "confession": N_("+2 to every die"),
}
"""What a delayed card's cube does to a group, in a few words."""

LABEL_ROOM = 80
"""Discord's limit of characters in a button or select option label."""


def colour_word(colour: Colour | str | None, words: Words = ENGLISH) -> str:
    """ "red", "white", "yellow" (or "any colour")."""
    if colour is None:
        return words.gettext("any colour")
    return text.colour_word(colour.value if isinstance(colour, Colour) else str(colour), words=words)


def building_name(index: int, words: Words = ENGLISH) -> str:
    """ "Palace", "Bishopric" or "City Hall"."""
    return words.gettext(board().buildings[index].name)


def owner_word(
    owner: int, seat: int, names: Sequence[str], *, capital: bool = True, words: Words = ENGLISH
) -> str:
    """ "Your", "Ann's" or "Neutral" for a die's or citizen's owner, as `seat` reads it."""
    if owner == seat:
        return words.gettext("Your") if capital else words.gettext("your")
    if owner == NEUTRAL:
        return words.gettext("Neutral") if capital else words.gettext("neutral")
    return words.gettext("{name}'s", name=player_name(owner, names, words=words))


def find_die(view: TroyesState, die_id: ArgValue) -> Die | None:
    """A die of the city square by id (None once it is gone)."""
    return next((d for d in view.dice if d.id == die_id), None)


def citizen_owner(owner: int, seat: int, names: Sequence[str], words: Words = ENGLISH) -> str:
    """Whose citizen is expelled, short: "your own", "a neutral", "Ann"."""
    if owner == seat:
        return words.gettext("your own")
    if owner == NEUTRAL:
        return words.gettext("a neutral")
    return player_name(owner, names, words=words)


def die_words(die: Die, words: Words = ENGLISH) -> str:
    """ "white 5"."""
    return words.gettext("{colour} {value}", colour=colour_word(die.colour, words), value=die.value)


def card_label(
    view: TroyesState, index: int, seat: int, hire: int | None = None, words: Words = ENGLISH
) -> str:
    """ "Merchant: yellow, divide by 3, hire 2 deniers" (or "your tradesman" once hired).

    `hire` is the engine's hire cost from the prompt; without one, the card's printed cost.
    """
    w = words
    slot = view.cards[index]
    if slot.id == HIDDEN or slot.id not in activities():
        return w.gettext("Activity card {number}", number=index + 1)
    card = activities()[slot.id]
    colour = colour_word(None if card.effect == "pilgrimage" else card.colour, w)
    cost = card.cost if hire is None else hire
    if slot.has(seat):
        tail = w.gettext("your tradesman")
    else:
        tail = w.ngettext("hire {count} denier", "hire {count} deniers", cost) + bought_citizen(view, seat, w)
    return w.gettext(
        "{card}: {colour}, divide by {divisor}, {tail}",
        card=w.gettext(card.name),
        colour=colour,
        divisor=card.divisor,
        tail=tail,
    )


def bought_citizen(view: TroyesState, seat: int, words: Words = ENGLISH) -> str:
    """ " + 2 influence" when the seat's supply is empty, so a new citizen must be bought (§4.2)."""
    if view.players[seat].supply > 0:
        return ""
    cost = board().const("citizen_cost")
    return words.ngettext(" + {count} influence", " + {count} influence", cost)


def banners_free(view: TroyesState, index: int, words: Words = ENGLISH) -> str:
    """ "1 of 2 banners free" for the event at `index` of the queue."""
    slot = view.queue[index]
    banners = events()[slot.id].banners
    return words.ngettext(
        "{free} of {count} banner free",
        "{free} of {count} banners free",
        banners,
        free=banners - len(slot.cubes),
    )


def event_label(view: TroyesState, index: int, words: Words = ENGLISH) -> str:
    """ "Drought: yellow, divide by 5, 1 of 2 banners free"."""
    if not 0 <= index < len(view.queue):
        return words.gettext("Event {number}", number=index + 1)
    card = events()[view.queue[index].id]
    return words.gettext(
        "{event}: {colour}, divide by {divisor}, {banners}",
        event=event_name(view, index, words),
        colour=colour_word(card.combat, words),
        divisor=card.divisor,
        banners=banners_free(view, index, words),
    )


def cube_label(view: TroyesState, index: int, words: Words = ENGLISH) -> str:
    """ "War (1 of 3 banners free)"."""
    if not 0 <= index < len(view.queue):
        return words.gettext("event {number}", number=index + 1)
    return words.gettext(
        "{event} ({banners})", event=event_name(view, index, words), banners=banners_free(view, index, words)
    )


def target_name(view: TroyesState, target: str, words: Words = ENGLISH) -> str:
    """What an action aims at, in words: "the Merchant", "the Palace", "the cathedral"."""
    w = words
    kind, index = groups.target_kind(target)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        return w.gettext("the {card}", card=w.gettext(activities()[view.cards[index].id].name))
    if kind == "event" and 0 <= index < len(view.queue):
        return w.gettext("the {event}", event=event_name(view, index, w))
    if kind == "building" and 0 <= index < 3:
        return w.gettext("the {building}", building=building_name(index, w))
    if kind == "cathedral":
        return w.gettext("the cathedral")
    if kind == "agriculture":
        return w.gettext("agriculture")
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
    view: TroyesState,
    seat: int,
    target: str,
    modifier: str,
    dice: Sequence[Die],
    names: Sequence[str],
    words: Words = ENGLISH,
) -> str:
    """What the chosen dice do on `target`, e.g. "3 activations: +6 deniers"."""
    w = words
    kind, index, effect, got = _yield(view, target, modifier, dice)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        gives = activation_yield(view, seat, index, got, words=w)
        return w.ngettext("{count} activation: {gives}", "{count} activations: {gives}", got, gives=gives)
    if kind == "event":
        place = target_name(view, target, w)
        return w.ngettext("{count} cube on {target}", "{count} cubes on {target}", got, target=place)
    if kind == "cathedral":
        columns = ", ".join(str(v) for v in groups.values(dice, effect))
        return w.ngettext(
            "build in column {columns}", "build in columns {columns}", len(dice), columns=columns
        )
    if kind == "building" and dice:
        value = groups.values(dice, effect)[0]
        _, expelled = city.entry_result(view, index, value)
        if expelled is None:
            return w.gettext("enter with a {value}", value=value)
        return w.gettext(
            "enter with a {value}, expelling {owner}",
            value=value,
            owner=citizen_owner(expelled, seat, names, w),
        )
    if kind == "agriculture":
        return deniers_change(got, words=w)
    return w.ngettext("{count} use", "{count} uses", got)


def die_outcome(
    view: TroyesState,
    seat: int,
    target: str,
    modifier: str,
    group: Sequence[Die],
    names: Sequence[str],
    words: Words = ENGLISH,
) -> str:
    """What the group would give with this die last, e.g. " → 2 activations" ("" when nothing yet)."""
    w = words
    kind, index, effect, got = _yield(view, target, modifier, group)
    if kind == "building":
        _, expelled = city.entry_result(view, index, groups.values(group, effect)[0])
        if expelled is None:
            return ""
        return w.gettext(" → expels {owner}", owner=citizen_owner(expelled, seat, names, w))
    if got < 1 or kind == "cathedral":
        return ""
    if kind == "card":
        return w.ngettext(" → {count} activation", " → {count} activations", got)
    if kind == "event":
        return w.ngettext(" → {count} cube", " → {count} cubes", got)
    return w.gettext(" → {deniers}", deniers=deniers_change(got, words=w)) if kind == "agriculture" else ""


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


def spend_words(prompt: Prompt, action: Action, words: Words = ENGLISH) -> str:
    """What the engine says choosing `action` takes now: "pay 8 deniers, 2 influence" ("" if nothing)."""
    deniers = stated(prompt, action, "spend_deniers")
    influence = stated(prompt, action, "spend_influence")
    if deniers and influence:
        return words.ngettext(
            "pay {count} denier, {influence} influence",
            "pay {count} deniers, {influence} influence",
            deniers,
            influence=influence,
        )
    if deniers:
        return words.ngettext("pay {count} denier", "pay {count} deniers", deniers)
    if influence:
        return words.ngettext("pay {count} influence", "pay {count} influence", influence)
    return ""


METRIC_WORDS = {
    "citizens_on_buildings": N_("citizens on buildings"),
    "cathedral_cubes": N_("cubes in the cathedral"),
    "deniers": N_("deniers"),
    "influence": N_("influence"),
    "tradesmen": N_("tradesmen on activity cards"),
    "events_taken": N_("events won"),
}
"""A character's metric in words."""


def sum_strength(dice: Sequence[Die]) -> int:
    """Countering strength: red dice count double."""
    return sum(d.value * (2 if d.colour is Colour.RED else 1) for d in dice)
