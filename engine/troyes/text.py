"""One line of plain English per Troyes event, for the game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, player_name
from engine.troyes import board as city
from engine.troyes.data import Figures, activities, board, events
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE
from engine.troyes.state import TroyesState
from engine.words import ENGLISH, N_, Words


def who(seat: Any, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
    """A seat's name in the log: its entry of `names`, else "Player N"."""
    if seat == NEUTRAL:
        return words.gettext("the neutral player")
    return player_name(int(seat), names, words=words)


def building(index: Any, *, words: Words = ENGLISH) -> str:
    """A building's name."""
    return words.gettext(board().buildings[int(index)].name)


def card_name(card_id: Any, *, words: Words = ENGLISH) -> str:
    """The name of an activity or event card."""
    if card_id in activities():
        return words.gettext(activities()[card_id].name)
    if card_id in events():
        return words.gettext(events()[card_id].name)
    return words.gettext("a hidden card")


def target_name(target: str, *, words: Words = ENGLISH) -> str:
    """What an action was aimed at, in words."""
    kind, _, index = target.partition(":")
    if kind == "card":
        return words.gettext("an activity card")
    if kind == "event":
        return words.gettext("an event")
    if kind == "building":
        return words.gettext("the {building}", building=building(index, words=words))
    if kind == "cathedral":
        return words.gettext("the cathedral")
    if kind == "agriculture":
        return words.gettext("agriculture")
    return target


COLOURS: Mapping[str, str] = {"red": N_("red"), "white": N_("white"), "yellow": N_("yellow")}
"""A die colour's word (events carry the colour's value)."""


def colour_word(colour: object, *, words: Words = ENGLISH) -> str:
    """A die colour in words: "red"."""
    return words.gettext(COLOURS.get(str(colour), str(colour)))


def _dice(dice: Any, w: Words) -> str:
    return ", ".join(
        w.gettext("{colour} {value}", colour=colour_word(colour, words=w), value=value)
        for _, colour, value in dice
    )


def an(word: Any) -> bool:
    """Whether English says "an" before a word or a number, by its sound ("an Apprenticeship", "an 8").

    Each message that needs an article is written twice, "a {x}" and "an {x}", and this picks one:
    a translator translates both (most languages say the same in each).
    """
    text = str(word)
    if text[:1].isdigit():
        # "an 8", "an 11", "an 18"; numbers are small here (die values, totals).
        return text.startswith("8") or text in ("11", "18")
    return text[:1].lower() in "aeiou"


def _times(n: int, card: str, seat: str, w: Words) -> str:
    """ "Ann activates the Merchant once / twice / 3 times."."""
    if n == 1:
        return w.gettext("{seat} activates {card} once.", seat=seat, card=card)
    if n == 2:
        return w.gettext("{seat} activates {card} twice.", seat=seat, card=card)
    return w.ngettext(
        "{seat} activates {card} {count} time.",
        "{seat} activates {card} {count} times.",
        n,
        seat=seat,
        card=card,
    )


def citizen_from(d: Mapping[str, Any], *, words: Words = ENGLISH) -> str:
    """Where a placed citizen or a new tradesman came from."""
    source = d.get("source")
    if source == "new":
        return words.ngettext(
            "a citizen bought for {count} influence",
            "a citizen bought for {count} influence",
            int(d["influence"]),
        )
    if source == "card":
        return words.gettext("the tradesman from {card}", card=card_name(d["from"], words=words))
    return words.gettext("a citizen from the supply")


def _countering_dice(dice: Any, w: Words) -> str:
    return ", ".join(
        w.gettext("red {value} (doubled: {doubled})", value=v, doubled=2 * v)
        if c == "red"
        else w.gettext("{colour} {value}", colour=colour_word(c, words=w), value=v)
        for c, v in dice
    )


def _changes(d: Mapping[str, Any], w: Words) -> str:
    """'gains 6 deniers and pays 1 influence' for a card's yield."""
    parts = []
    amount = int(d["deniers"])
    if amount > 0:
        parts.append(w.ngettext("gains {count} denier", "gains {count} deniers", amount))
    elif amount < 0:
        parts.append(w.ngettext("pays {count} denier", "pays {count} deniers", -amount))
    amount = int(d["influence"])
    if amount > 0:
        parts.append(w.ngettext("gains {count} influence", "gains {count} influence", amount))
    elif amount < 0:
        parts.append(w.ngettext("pays {count} influence", "pays {count} influence", -amount))
    return w.join(parts)


def _tax(d: Mapping[str, Any], collector: str, payer: str, w: Words) -> str:
    paid = int(d["deniers"])
    if d["from"] == NEUTRAL:
        return w.ngettext(
            "The bank pays {count} denier to {collector} for the neutral citizens (Tax Collector).",
            "The bank pays {count} deniers to {collector} for the neutral citizens (Tax Collector).",
            paid,
            collector=collector,
        )
    if d["deniers"] == d["due"]:
        return w.ngettext(
            "{payer} pays {count} denier to {collector} (Tax Collector).",
            "{payer} pays {count} deniers to {collector} (Tax Collector).",
            paid,
            payer=payer,
            collector=collector,
        )
    return w.ngettext(
        "{payer} pays {count} denier of the {due} due to {collector} (Tax Collector).",
        "{payer} pays {count} deniers of the {due} due to {collector} (Tax Collector).",
        paid,
        payer=payer,
        collector=collector,
        due=d["due"],
    )


_REASONS: Mapping[str, str] = {
    "cathedral": N_("cathedral"),
    "black die": N_("black die"),
    "wages": N_("wages"),
}
"""The reasons the engine gives for a VP change, besides card names (which the card data lists)."""


def _vp(d: Mapping[str, Any], name: str, w: Words) -> str:
    amount = int(d["amount"])
    why = w.gettext(_REASONS.get(str(d["why"]), str(d["why"])))
    if amount == 0:
        return w.gettext("{seat} has no VP left to lose ({why}).", seat=name, why=why)
    if amount > 0:
        return w.ngettext(
            "{seat} gains {count} VP ({why}).", "{seat} gains {count} VP ({why}).", amount, seat=name, why=why
        )
    return w.ngettext(
        "{seat} loses {count} VP ({why}).", "{seat} loses {count} VP ({why}).", -amount, seat=name, why=why
    )


def _wages(d: Mapping[str, Any], seat: str, w: Words) -> str:
    if d["paid"] == d["due"]:
        return w.ngettext(
            "{seat} pays {count} denier in wages.",
            "{seat} pays {count} deniers in wages.",
            int(d["paid"]),
            seat=seat,
        )
    return w.ngettext(
        "{seat} pays {count} denier in wages of the {due} due.",
        "{seat} pays {count} deniers in wages of the {due} due.",
        int(d["paid"]),
        seat=seat,
        due=d["due"],
    )


def _levy(d: Mapping[str, Any], seat: str, w: Words) -> str:
    fields = {"event": w.gettext(str(d["event"])), "seat": seat, "due": d["due"]}
    whole = d["paid"] == d["due"]
    if d["currency"] == "deniers":
        if whole:
            return w.ngettext(
                "{event} takes {count} denier from {seat}.",
                "{event} takes {count} deniers from {seat}.",
                int(d["paid"]),
                **fields,
            )
        return w.ngettext(
            "{event} takes {count} denier from {seat} of the {due} due.",
            "{event} takes {count} deniers from {seat} of the {due} due.",
            int(d["paid"]),
            **fields,
        )
    if whole:
        return w.ngettext(
            "{event} takes {count} influence from {seat}.",
            "{event} takes {count} influence from {seat}.",
            int(d["paid"]),
            **fields,
        )
    return w.ngettext(
        "{event} takes {count} influence from {seat} of the {due} due.",
        "{event} takes {count} influence from {seat} of the {due} due.",
        int(d["paid"]),
        **fields,
    )


def _countered(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    fields = {
        "seat": name(d["seat"]),
        "black": d["black"],
        "dice": _countering_dice(d["dice"], w),
        "strength": d["strength"],
    }
    if d.get("influence"):
        return w.ngettext(
            "{seat} counters a black {black} with {dice}: strength {strength} (+{count} influence).",
            "{seat} counters a black {black} with {dice}: strength {strength} (+{count} influence).",
            int(d["influence"]),
            **fields,
        )
    return w.gettext("{seat} counters a black {black} with {dice}: strength {strength}.", **fields)


def _event_cube(d: Mapping[str, Any], name: Callable[[Any], str], event: str, w: Words) -> str:
    if d.get("influence"):
        return w.ngettext(
            "{seat} puts a cube on {event} (+{count} influence).",
            "{seat} puts a cube on {event} (+{count} influence).",
            int(d["influence"]),
            seat=name(d["seat"]),
            event=event,
        )
    return w.gettext("{seat} puts a cube on {event}.", seat=name(d["seat"]), event=event)


def _cathedral_cube(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    if d.get("influence"):
        return w.ngettext(
            "{seat} builds in cathedral column {column} (+{count} influence).",
            "{seat} builds in cathedral column {column} (+{count} influence).",
            int(d["influence"]),
            seat=name(d["seat"]),
            column=d["column"],
        )
    return w.gettext("{seat} builds in cathedral column {column}.", seat=name(d["seat"]), column=d["column"])


def _neutral_stays(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    place = building(d["building"], words=w)
    if d["why"] == "none_left":
        return w.gettext(
            "No neutral citizen enters the {building}: all of them are already on the board.", building=place
        )
    return w.gettext(
        "No neutral citizen enters the {building}: it would expel a citizen of {seat}, "
        "whose colour already lies there.",
        building=place,
        seat=name(d["protected"]),
    )


def _neutral_enters(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    fields = {"building": building(d["building"], words=w), "value": d["value"]}
    if d["expelled"] is None:
        if an(d["value"]):
            return w.gettext("A neutral citizen enters the {building} with an {value}.", **fields)
        return w.gettext("A neutral citizen enters the {building} with a {value}.", **fields)
    fields["seat"] = name(d["expelled"])
    if an(d["value"]):
        return w.gettext(
            "A neutral citizen enters the {building} with an {value}, expelling a citizen of {seat}.",
            **fields,
        )
    return w.gettext(
        "A neutral citizen enters the {building} with a {value}, expelling a citizen of {seat}.", **fields
    )


def _citizen_placed(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    fields = {
        "seat": name(d["seat"]),
        "citizen": citizen_from(d, words=w),
        "building": building(d["building"], words=w),
        "value": d["value"],
    }
    if d["expelled"] is None:
        if an(d["value"]):
            return w.gettext("{seat} places {citizen} in the {building} with an {value}.", **fields)
        return w.gettext("{seat} places {citizen} in the {building} with a {value}.", **fields)
    fields["expelled"] = name(d["expelled"])
    if an(d["value"]):
        return w.gettext(
            "{seat} places {citizen} in the {building} with an {value}, expelling a citizen of {expelled}.",
            **fields,
        )
    return w.gettext(
        "{seat} places {citizen} in the {building} with a {value}, expelling a citizen of {expelled}.",
        **fields,
    )


def _bought(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    seat, owner = name(d["seat"]), name(d["from"])
    if "dice" in d:
        money = w.ngettext("{count} denier", "{count} deniers", int(d["deniers"]))
        return w.ngettext(
            "{seat} pays {money} for {count} die of {owner}.",
            "{seat} pays {money} for {count} dice of {owner}.",
            int(d["dice"]),
            seat=seat,
            money=money,
            owner=owner,
        )
    return w.ngettext(
        "{seat} pays {count} denier for dice of {owner}.",
        "{seat} pays {count} deniers for dice of {owner}.",
        int(d["deniers"]),
        seat=seat,
        owner=owner,
    )


def _dice_used(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    on = card_name(d["card"], words=w) if d["card"] else target_name(d["target"], words=w)
    fields = {"seat": name(d["seat"]), "dice": _dice(d["dice"], w), "target": on}
    if not d["modifier"]:
        return w.gettext("{seat} uses {dice} on {target}.", **fields)
    cube = card_name(d["modifier"], words=w)
    if an(card_name(d["modifier"])):
        return w.gettext("{seat} uses {dice} on {target} with an {card} cube.", card=cube, **fields)
    return w.gettext("{seat} uses {dice} on {target} with a {card} cube.", card=cube, **fields)


def _tradesman(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    fields = {
        "seat": name(d["seat"]),
        "citizen": citizen_from(d, words=w),
        "card": card_name(d["card"], words=w),
    }
    if d["space"] == -1:
        return w.ngettext(
            "{seat} pays {count} denier and puts {citizen} on {card}, on its illustration.",
            "{seat} pays {count} deniers and puts {citizen} on {card}, on its illustration.",
            int(d["cost"]),
            **fields,
        )
    return w.ngettext(
        "{seat} pays {count} denier and puts {citizen} on {card}, space {space}.",
        "{seat} pays {count} deniers and puts {citizen} on {card}, space {space}.",
        int(d["cost"]),
        space=d["space"],
        **fields,
    )


def _archer(d: Mapping[str, Any], name: Callable[[Any], str], w: Words) -> str:
    fields = {"seat": name(d["seat"]), "value": d["value"]}
    hit = int(d["value"]) >= 3
    if an(d["value"]):
        if hit:
            return w.gettext("The Archer of {seat} rolls an {value}: a cube goes on an event.", **fields)
        return w.gettext("The Archer of {seat} rolls an {value}: no cube.", **fields)
    if hit:
        return w.gettext("The Archer of {seat} rolls a {value}: a cube goes on an event.", **fields)
    return w.gettext("The Archer of {seat} rolls a {value}: no cube.", **fields)


def _rolls(event: str, value: Any, w: Words) -> str:
    if an(value):
        return w.gettext("{event} rolls an {value}.", event=event, value=value)
    return w.gettext("{event} rolls a {value}.", event=event, value=value)


def _reroll(seat: str, value: Any, w: Words) -> str:
    if an(value):
        return w.gettext(
            "{seat} spends 1 influence to re-roll a die and rolls an {value}.", seat=seat, value=value
        )
    return w.gettext(
        "{seat} spends 1 influence to re-roll a die and rolls a {value}.", seat=seat, value=value
    )


def describe(event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
    """One line for a Troyes event in the language of `words`, seats called by `names` (None: "Player N")."""
    d: Mapping[str, Any] = event.data
    kind = event.kind
    w = words

    def name(seat: Any) -> str:
        return who(seat, names, words=w)

    def card(card_id: Any) -> str:
        return card_name(card_id, words=w)

    simple: dict[str, Callable[[], str]] = {
        "round": lambda: w.gettext(
            "Round {round} begins; {seat} is the start player.", round=d["round"], seat=name(d["start"])
        ),
        "card_revealed": lambda: w.gettext("Activity card revealed: {card}.", card=card(d["card"])),
        "income": lambda: w.ngettext(
            "{seat} receives {count} denier of income.",
            "{seat} receives {count} deniers of income.",
            int(d["income"]),
            seat=name(d["seat"]),
        ),
        "wages": lambda: _wages(d, name(d["seat"]), w),
        "event_levy": lambda: _levy(d, name(d["seat"]), w),
        "workforce": lambda: w.ngettext(
            "Workforce rolled: {count} die.", "Workforce rolled: {count} dice.", len(d["dice"])
        ),
        "event_revealed": lambda: w.gettext("Event revealed: {event}.", event=card(d["event"])),
        "event_roll": lambda: _rolls(w.gettext(str(d["event"])), d["value"], w),
        "neutral_stays": lambda: _neutral_stays(d, name, w),
        "neutral_enters": lambda: _neutral_enters(d, name, w),
        "cathedral_grey": lambda: w.gettext(
            "A grey cube is built in cathedral column {column}.", column=d["column"]
        ),
        "cathedral_removed": lambda: w.gettext(
            "The cube of {seat} in cathedral column {column} is removed.",
            seat=name(d["seat"]),
            column=d["column"],
        ),
        "black_dice": lambda: (
            w.gettext("No black dice are rolled.")
            if not d["values"]
            else w.ngettext(
                "Black die rolled: {values}.",
                "Black dice rolled: {values}.",
                len(d["values"]),
                values=", ".join(str(v) for v in d["values"]),
            )
        ),
        "countered": lambda: _countered(d, name, w),
        "not_countered": lambda: w.gettext(
            "{seat} cannot counter a black {black}.", seat=name(d["seat"]), black=d["black"]
        ),
        "actions": lambda: w.gettext("Actions begin with {seat}.", seat=name(d["seat"])),
        "pass": lambda: w.gettext("{seat} passes.", seat=name(d["seat"])),
        "new_citizen": lambda: w.ngettext(
            "{seat} spends {count} influence on a new citizen.",
            "{seat} spends {count} influence on a new citizen.",
            board().const("citizen_cost"),
            seat=name(d["seat"]),
        ),
        "reroll": lambda: _reroll(name(d["seat"]), d["value"], w),
        "flip": lambda: w.ngettext(
            "{seat} spends 4 influence to turn {count} die over.",
            "{seat} spends 4 influence to turn {count} dice over.",
            len(d["dice"]),
            seat=name(d["seat"]),
        ),
        "bought": lambda: _bought(d, name, w),
        "dice_used": lambda: _dice_used(d, name, w),
        "tradesman": lambda: _tradesman(d, name, w),
        "activate": lambda: _times(int(d["times"]), card(d["card"]), name(d["seat"]), w),
        "card_yield": lambda: w.gettext(
            "{seat} {changes} ({card}).", seat=name(d["seat"]), changes=_changes(d, w), card=card(d["card"])
        ),
        "tax": lambda: _tax(d, name(d["seat"]), name(d["from"]), w),
        "archer_roll": lambda: _archer(d, name, w),
        "event_cube": lambda: _event_cube(d, name, card(d["event"]), w),
        "event_countered": lambda: w.gettext("{event} is countered.", event=card(d["event"])),
        "event_taken": lambda: (
            w.gettext("{seat} takes {event}.", seat=name(d["seat"]), event=card(d["event"]))
            if d["seat"] != NEUTRAL
            else w.gettext("{event} is discarded (neutral majority).", event=card(d["event"]))
        ),
        "cathedral_cube": lambda: _cathedral_cube(d, name, w),
        "citizen_placed": lambda: _citizen_placed(d, name, w),
        "agriculture": lambda: w.ngettext(
            "{seat} farms for {count} denier.",
            "{seat} farms for {count} deniers.",
            int(d["deniers"]),
            seat=name(d["seat"]),
        ),
        "vp": lambda: _vp(d, name(d["seat"]), w),
        "setup_place": lambda: w.gettext(
            "{seat} places a citizen in the {building}, space {space}.",
            seat=name(d["seat"]),
            building=building(d["building"], words=w),
            space=d["space"],
        ),
        "round_end": lambda: w.gettext("Round {round} ends.", round=d["round"]),
        "pass_money": lambda: w.ngettext(
            "{seat} collects {count} denier of pass money.",
            "{seat} collects {count} deniers of pass money.",
            int(d["deniers"]),
            seat=name(d["seat"]),
        ),
        "game_over": lambda: w.gettext("The game is over."),
        "undo": lambda: w.gettext("{seat} takes back a move.", seat=name(d["seat"])),
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


ORDINALS = {1: N_("{name} (1st)"), 2: N_("{name} (2nd)"), 3: N_("{name} (3rd)")}
"""An event's place among namesakes in the queue, as the buttons and the board say it."""


def event_name(view: TroyesState, index: int, words: Words = ENGLISH) -> str:
    """An event's name, with its place among namesakes in the queue: "Brigands (2nd)"."""
    name = events()[view.queue[index].id].name
    same = [i for i, other in enumerate(view.queue) if events()[other.id].name == name]
    shown = words.gettext(name)
    if len(same) < 2:
        return shown
    place = same.index(index) + 1
    if place in ORDINALS:
        return words.gettext(ORDINALS[place], name=shown)
    return words.gettext("{name} ({place}th)", name=shown, place=place)
