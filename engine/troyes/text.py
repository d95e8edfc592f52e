"""One line of plain English per Troyes event, for the game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, player_name
from engine.troyes import board as city
from engine.troyes.data import Figures, activities, board, events
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE
from engine.troyes.state import TroyesState
from engine.words import ENGLISH, Words, count


def who(seat: Any, names: Sequence[str] | None = None) -> str:
    """A seat's name in the log: its entry of `names`, else "Player N"."""
    return "the neutral player" if seat == NEUTRAL else player_name(int(seat), names)


def building(index: Any) -> str:
    """A building's name."""
    return board().buildings[int(index)].name


def card_name(card_id: Any) -> str:
    """The name of an activity or event card."""
    if card_id in activities():
        return activities()[card_id].name
    if card_id in events():
        return events()[card_id].name
    return "a hidden card"


def target_name(target: str) -> str:
    """What an action was aimed at, in words."""
    kind, _, index = target.partition(":")
    if kind == "card":
        return "an activity card"
    if kind == "event":
        return "an event"
    if kind == "building":
        return f"the {building(index)}"
    return {"cathedral": "the cathedral", "agriculture": "agriculture"}.get(kind, target)


def _dice(dice: Any) -> str:
    return ", ".join(f"{colour} {value}" for _, colour, value in dice)


def deniers(n: Any) -> str:
    """'1 denier', '3 deniers'."""
    return count(int(n), "denier", "deniers")


def article(word: Any) -> str:
    """ "a" or "an" before a word or a number, by its sound ("an Apprenticeship", "an 8")."""
    text = str(word)
    if text[:1].isdigit():
        # "an 8", "an 11", "an 18"; numbers are small here (die values, totals).
        sounds_vowel = text.startswith("8") or text in ("11", "18")
    else:
        sounds_vowel = text[:1].lower() in "aeiou"
    return "an" if sounds_vowel else "a"


def a(word: Any) -> str:
    """The word with its indefinite article: "a Monk", "an Apprenticeship", "a 5"."""
    return f"{article(word)} {word}"


def _die_or_dice(values: Any) -> str:
    return "die" if len(values) == 1 else "dice"


def times(n: Any) -> str:
    """'once', 'twice', 'N times'."""
    return {1: "once", 2: "twice"}.get(int(n)) or count(int(n), "time", "times")


def citizen_from(d: Mapping[str, Any]) -> str:
    """Where a placed citizen or a new tradesman came from."""
    source = d.get("source")
    if source == "new":
        return f"a citizen bought for {d['influence']} influence"
    if source == "card":
        return f"the tradesman from {card_name(d['from'])}"
    return "a citizen from the supply"


def _countering_dice(dice: Any) -> str:
    parts = [f"red {v} (doubled: {2 * v})" if c == "red" else f"{c} {v}" for c, v in dice]
    return ", ".join(parts)


def _changes(d: Mapping[str, Any]) -> str:
    """'gains 6 deniers and loses 1 influence' for a card's yield."""
    parts = []
    for key in ("deniers", "influence"):
        amount = int(d[key])
        if amount:
            what = deniers(abs(amount)) if key == "deniers" else f"{abs(amount)} influence"
            parts.append(f"{'gains' if amount > 0 else 'pays'} {what}")
    return " and ".join(parts)


def _tax(d: Mapping[str, Any], collector: str, payer: str) -> str:
    if d["from"] == NEUTRAL:
        return (
            f"The bank pays {deniers(d['deniers'])} to {collector} for the neutral citizens (Tax Collector)."
        )
    due = "" if d["deniers"] == d["due"] else f" of the {d['due']} due"
    return f"{payer} pays {deniers(d['deniers'])}{due} to {collector} (Tax Collector)."


def gained(d: Mapping[str, Any]) -> str:
    """' (+2 influence)' for the influence an event's data says was gained, else ''."""
    return f" (+{d['influence']} influence)" if d.get("influence") else ""


def _vp(d: Mapping[str, Any], name: str) -> str:
    amount = int(d["amount"])
    if amount == 0:
        return f"{name} has no VP left to lose ({d['why']})."
    return f"{name} {'gains' if amount > 0 else 'loses'} {abs(amount)} VP ({d['why']})."


def describe(event: Event, names: Sequence[str] | None = None) -> str:
    """One line of English for a Troyes event, seats called by `names` ("Player N" if None)."""
    d: Mapping[str, Any] = event.data
    kind = event.kind

    def name(seat: Any) -> str:
        return who(seat, names)

    simple: dict[str, Callable[[], str]] = {
        "round": lambda: f"Round {d['round']} begins; {name(d['start'])} is the start player.",
        "card_revealed": lambda: f"Activity card revealed: {card_name(d['card'])}.",
        "income": lambda: f"{name(d['seat'])} receives {deniers(d['income'])} of income.",
        "wages": lambda: (
            f"{name(d['seat'])} pays {deniers(d['paid'])} in wages"
            + ("." if d["paid"] == d["due"] else f" of the {d['due']} due.")
        ),
        "event_levy": lambda: (
            f"{d['event']} takes "
            + (deniers(d["paid"]) if d["currency"] == "deniers" else f"{d['paid']} influence")
            + f" from {name(d['seat'])}"
            + ("." if d["paid"] == d["due"] else f" of the {d['due']} due.")
        ),
        "workforce": lambda: f"Workforce rolled: {count(len(d['dice']), 'die', 'dice')}.",
        "event_revealed": lambda: f"Event revealed: {card_name(d['event'])}.",
        "event_roll": lambda: f"{d['event']} rolls {a(d['value'])}.",
        "neutral_stays": lambda: (
            f"No neutral citizen enters the {building(d['building'])}: "
            + (
                "all of them are already on the board."
                if d["why"] == "none_left"
                else f"it would expel a citizen of {name(d['protected'])}, whose colour already lies there."
            )
        ),
        "neutral_enters": lambda: (
            f"A neutral citizen enters the {building(d['building'])} with {a(d['value'])}"
            + ("." if d["expelled"] is None else f", expelling a citizen of {name(d['expelled'])}.")
        ),
        "cathedral_grey": lambda: f"A grey cube is built in cathedral column {d['column']}.",
        "cathedral_removed": lambda: (
            f"The cube of {name(d['seat'])} in cathedral column {d['column']} is removed."
        ),
        "black_dice": lambda: (
            "No black dice are rolled."
            if not d["values"]
            else f"Black {_die_or_dice(d['values'])} rolled: {', '.join(str(v) for v in d['values'])}."
        ),
        "countered": lambda: (
            f"{name(d['seat'])} counters a black {d['black']} with {_countering_dice(d['dice'])}: "
            + f"strength {d['strength']}{gained(d)}."
        ),
        "not_countered": lambda: f"{name(d['seat'])} cannot counter a black {d['black']}.",
        "actions": lambda: f"Actions begin with {name(d['seat'])}.",
        "pass": lambda: f"{name(d['seat'])} passes.",
        "new_citizen": lambda: f"{name(d['seat'])} spends 2 influence on a new citizen.",
        "reroll": lambda: f"{name(d['seat'])} spends 1 influence to re-roll a die and rolls {a(d['value'])}.",
        "flip": lambda: (
            f"{name(d['seat'])} spends 4 influence to turn {count(len(d['dice']), 'die', 'dice')} over."
        ),
        "bought": lambda: (
            f"{name(d['seat'])} pays {deniers(d['deniers'])} for "
            + (
                f"{count(d['dice'], 'die', 'dice')} of {name(d['from'])}."
                if "dice" in d
                else f"dice of {name(d['from'])}."
            )
        ),
        "dice_used": lambda: (
            f"{name(d['seat'])} uses {_dice(d['dice'])} on "
            + (card_name(d["card"]) if d["card"] else target_name(d["target"]))
            + (f" with {a(card_name(d['modifier']))} cube." if d["modifier"] else ".")
        ),
        "tradesman": lambda: (
            f"{name(d['seat'])} pays {deniers(d['cost'])} and puts {citizen_from(d)} on "
            + f"{card_name(d['card'])}"
            + (", on its illustration." if d["space"] == -1 else f", space {d['space']}.")
        ),
        "activate": lambda: f"{name(d['seat'])} activates {card_name(d['card'])} {times(d['times'])}.",
        "card_yield": lambda: f"{name(d['seat'])} {_changes(d)} ({card_name(d['card'])}).",
        "tax": lambda: _tax(d, name(d["seat"]), name(d["from"])),
        "archer_roll": lambda: (
            f"The Archer of {name(d['seat'])} rolls {a(d['value'])}"
            + (": a cube goes on an event." if int(d["value"]) >= 3 else ": no cube.")
        ),
        "event_cube": lambda: f"{name(d['seat'])} puts a cube on {card_name(d['event'])}{gained(d)}.",
        "event_countered": lambda: f"{card_name(d['event'])} is countered.",
        "event_taken": lambda: (
            f"{name(d['seat'])} takes {card_name(d['event'])}."
            if d["seat"] != NEUTRAL
            else f"{card_name(d['event'])} is discarded (neutral majority)."
        ),
        "cathedral_cube": lambda: f"{name(d['seat'])} builds in cathedral column {d['column']}{gained(d)}.",
        "citizen_placed": lambda: (
            f"{name(d['seat'])} places {citizen_from(d)} in the {building(d['building'])} with "
            + a(d["value"])
            + ("." if d["expelled"] is None else f", expelling a citizen of {name(d['expelled'])}.")
        ),
        "agriculture": lambda: f"{name(d['seat'])} farms for {deniers(d['deniers'])}.",
        "vp": lambda: _vp(d, name(d["seat"])),
        "setup_place": lambda: (
            f"{name(d['seat'])} places a citizen in the {building(d['building'])}, " + f"space {d['space']}."
        ),
        "round_end": lambda: f"Round {d['round']} ends.",
        "pass_money": lambda: f"{name(d['seat'])} collects {deniers(d['deniers'])} of pass money.",
        "game_over": lambda: "The game is over.",
        "undo": lambda: f"{name(d['seat'])} takes back a move.",
    }
    if kind not in simple:
        return kind
    return sentence(simple[kind](), names)


def sentence(line: str, names: Sequence[str] | None) -> str:
    """The line with a capital first letter, unless it starts with a player's own name as written."""
    if names and any(line.startswith(n) for n in names if n):
        return line
    return line[:1].upper() + line[1:]


# -- what a card's activations give (the figures are the data's: activities.json) ----------------


def deniers_change(n: int, *, words: Words = ENGLISH) -> str:
    """ "+6 deniers", "+1 denier", "−2 deniers" (a true minus sign)."""
    if n < 0:
        return words.ngettext("−{count} denier", "−{count} deniers", -n)
    return words.ngettext("+{count} denier", "+{count} deniers", n)


def _paid(price: Figures, n: int, words: Words) -> list[str]:
    """ "pay 3 deniers", "pay 1 influence": what `n` activations cost."""
    parts = []
    if price.deniers:
        parts.append(words.ngettext("pay {count} denier", "pay {count} deniers", price.deniers * n))
    if price.influence:
        parts.append(words.ngettext("pay {count} influence", "pay {count} influence", price.influence * n))
    return parts


def _gains(gain: Figures, n: int, words: Words) -> list[str]:
    """ "+6 deniers", "+1 influence", "+2 VP": what `n` activations give."""
    parts = [deniers_change(gain.deniers * n, words=words)] if gain.deniers else []
    if gain.influence:
        parts.append(words.ngettext("+{count} influence", "+{count} influence", gain.influence * n))
    if gain.vp:
        parts.append(words.ngettext("+{count} VP", "+{count} VP", gain.vp * n))
    return parts


def activation_yield(view: TroyesState, seat: int, index: int, times: int, *, words: Words = ENGLISH) -> str:
    """What `times` activations of activity card `index` give `seat`, e.g. "pay 3 deniers, +2 VP".

    The figures are the card's price and gain (the data's), counted on the board for the cards
    that count something.
    """
    card = activities()[view.cards[index].id]
    n, gain, name = times, card.gain, words.gettext(card.name)
    if card.delayed:
        return words.ngettext(
            "{count} {card} cube to use later", "{count} {card} cubes to use later", n, card=name
        )
    effect = card.effect
    if effect == "miller":
        most = max(city.standing(view, PALACE, seat), city.standing(view, BISHOPRIC, seat))
        return deniers_change(gain.deniers * most * n, words=words)
    if effect == "glassblower":
        pairs = city.cathedral_cubes(view, seat) // 2
        return words.ngettext("+{count} VP", "+{count} VP", pairs * gain.vp * n)
    if effect == "captain":
        carrying = sum(1 for slot in view.queue if seat in slot.cubes)
        return words.ngettext("+{count} VP", "+{count} VP", carrying * gain.vp * n)
    if effect == "tax_collector":
        due = sum(city.standing(view, CITY_HALL, s) for s in range(view.seats) if s != seat)
        due += city.standing(view, CITY_HALL, NEUTRAL)
        got = due * gain.deniers * n
        return words.ngettext("+{count} denier from City Hall", "+{count} deniers from City Hall", got)
    if effect == "chivalry":
        return words.gettext("{times}× a cube on events per red die left", times=n)
    if effect == "procession":
        return words.ngettext(
            "+{count} VP to the most dice left", "+{count} VP to the most dice left", gain.vp * n
        )
    if effect == "joust":
        return words.ngettext(
            "+{count} VP if your red total left is the highest",
            "+{count} VP if your red total left is the highest",
            gain.vp * n,
        )
    if effect == "archer":
        return words.ngettext(
            "{count} roll: 3+ puts a cube on an event", "{count} rolls: 3+ puts a cube on an event", n
        )
    if effect == "diplomat":
        cubes = words.ngettext("{count} cube on events", "{count} cubes on events", n)
        return ", ".join([*_paid(card.price, n, words), cubes])
    parts = [*_paid(card.price, n, words), *_gains(gain, n, words)]
    if parts:
        return ", ".join(parts)
    return words.gettext("{times}× {effect}", times=n, effect=words.gettext(card.text).rstrip("."))


def asked_yield(card_id: str, n: int, *, words: Words = ENGLISH) -> str:
    """What `n` activations of a card whose number is asked give: "pay 2 influence, gain 12 deniers"."""
    card = activities()[card_id]
    if card.effect == "procession":
        return words.ngettext(
            "{count} VP to each player with the most dice left",
            "{count} VP to each player with the most dice left",
            card.gain.vp * n,
        )
    if card.effect == "diplomat":
        cubes = words.ngettext("put {count} cube on an event", "put {count} cubes on events", n)
        return ", ".join([*_paid(card.price, n, words), cubes])
    gain = card.gain
    gains = []
    if gain.deniers:
        gains.append(words.ngettext("gain {count} denier", "gain {count} deniers", gain.deniers * n))
    if gain.influence:
        gains.append(words.ngettext("gain {count} influence", "gain {count} influence", gain.influence * n))
    if gain.vp:
        gains.append(words.ngettext("gain {count} VP", "gain {count} VP", gain.vp * n))
    return ", ".join([*_paid(card.price, n, words), *gains])
