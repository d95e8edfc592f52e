"""Every word the Diced Tomatoes engine says: one line per event, for the CLI and the Discord game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, player_name
from engine.tomatoes.events import Ev
from engine.tomatoes.state import SLOTS_PER_TRACK, GameEnd
from engine.words import ENGLISH, N_, Words

_END_TEXT = {
    GameEnd.FINAL_ROUND.value: N_("Game over: the final round is over."),
    GameEnd.BUSHEL_EMPTY.value: N_("Game over: the bushel was empty at the start of a turn."),
    GameEnd.SOLO_HARVESTED.value: N_("Game over: all six tomatoes are harvested."),
    GameEnd.SOLO_OUT_OF_DICE.value: N_("Game over: the bushel is empty and no dice are left to play."),
}

REASONS: Mapping[str, str] = {
    "bits": N_("bits"),
    "passed dice": N_("passed dice"),
    "placed on an opponent's vine": N_("placed on an opponent's vine"),
    "own harvest": N_("own harvest"),
    "completed an opponent's vine": N_("completed an opponent's vine"),
}
"""Why karma or a karma bit was earned (events carry the English key)."""

COLOURS: Mapping[str, str] = {"red": N_("red"), "black": N_("black"), "gold": N_("gold")}
"""A die colour's word (events carry the colour's value)."""


Who = Callable[[int], str]
"""Names a seat in a log line."""


def player(seat: int, *, words: Words = ENGLISH) -> str:
    """How a seat is named in the log without names (seats count from 1 for people)."""
    return player_name(seat, words=words)


def colour_word(colour: object, words: Words = ENGLISH) -> str:
    """A die colour in words: "red"."""
    return words.gettext(COLOURS.get(str(colour), str(colour)))


def die_text(die: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A die as "red 5"."""
    return words.gettext("{colour} {value}", colour=colour_word(die["colour"], words), value=die["value"])


def dice_text(dice: list[Mapping[str, Any]], words: Words = ENGLISH) -> str:
    """Dice as "red 5, black 2"."""
    return ", ".join(die_text(d, words) for d in dice) if dice else words.gettext("nothing")


def vine_of(seat: int, owner: int, token: int, who: Who = player, words: Words = ENGLISH) -> str:
    """ "their own token 2" or "Player 3's token 2" from the acting seat's point of view."""
    if seat == owner:
        return words.gettext("their own token {token}", token=token + 1)
    return words.gettext("{owner}'s token {token}", owner=who(owner), token=token + 1)


def _reason(reason: object, w: Words) -> str:
    return w.gettext(REASONS.get(str(reason), str(reason)))


def _turn(d: Mapping[str, Any], who: Who, w: Words) -> str:
    if d["final_round"]:
        return w.gettext("{seat}'s turn {turn} (final round).", seat=who(d["seat"]), turn=d["turn"])
    return w.gettext("{seat}'s turn {turn}.", seat=who(d["seat"]), turn=d["turn"])


def _roll(d: Mapping[str, Any], who: Who, w: Words) -> str:
    drawn = d["drawn"]
    counts = {c: drawn.count(c) for c in ("red", "black", "gold") if c in drawn}
    took = ", ".join(
        w.ngettext("{count} {colour}", "{count} {colour}", n, colour=colour_word(c, w))
        for c, n in counts.items()
    )
    parts = []
    if drawn:
        parts.append(
            w.ngettext(
                "{count} die from the bushel ({took})",
                "{count} dice from the bushel ({took})",
                len(drawn),
                took=took,
            )
        )
    if d["held"]:
        # Solo, unplaced dice stay with the player: nobody passed them.
        if d.get("solo"):
            parts.append(
                w.ngettext(
                    "{count} die kept from the last turn", "{count} dice kept from the last turn", d["held"]
                )
            )
        else:
            parts.append(w.ngettext("{count} die passed to them", "{count} dice passed to them", d["held"]))
    rolled = (
        parts[0] if len(parts) == 1 else w.gettext("{first} plus {second}", first=parts[0], second=parts[1])
    )
    return w.ngettext(
        "{seat} rolls {rolled}: {dice}. {count} die left in the bushel.",
        "{seat} rolls {rolled}: {dice}. {count} dice left in the bushel.",
        d["bushel"],
        seat=who(d["seat"]),
        rolled=rolled,
        dice=dice_text(d["dice"], w),
    )


def _place(d: Mapping[str, Any], who: Who, w: Words) -> str:
    where = vine_of(d["seat"], d["owner"], d["token"], who, w)
    die = die_text(d["die"], w)
    if d["seed"]:
        return w.gettext("{seat} seeds {die} on {where}.", seat=who(d["seat"]), die=die, where=where)
    return w.gettext(
        "{seat} adds {die} to the vine on {where} (worth {value}).",
        seat=who(d["seat"]),
        die=die,
        where=where,
        value=d["value"],
    )


def _harvest(d: Mapping[str, Any], who: Who, w: Words) -> str:
    owner, value, slot = who(d["owner"]), d["value"], d["slot"]
    if d.get("solo"):
        # Solo scoring counts matched slots only (rules section 13): no points, no bonus.
        if d["value"] == d["slot"]:
            return w.gettext(
                "{owner} harvests a tomato worth {value} into slot {slot}: a match, golden star.",
                owner=owner,
                value=value,
                slot=slot,
            )
        return w.gettext(
            "{owner} harvests a tomato worth {value} into slot {slot}: no match.",
            owner=owner,
            value=value,
            slot=slot,
        )
    total = d["points"] + d["bonus"]
    if d["bonus"]:
        points = w.ngettext(
            "{points} + {bonus} bonus = {count} point",
            "{points} + {bonus} bonus = {count} points",
            total,
            points=d["points"],
            bonus=d["bonus"],
        )
    else:
        points = w.ngettext("{count} point", "{count} points", d["points"])
    if d["star"]:
        points = w.gettext("{points}, golden star", points=points)
    if d["seat"] == d["owner"]:
        return w.gettext(
            "{owner} harvests a tomato worth {value} into slot {slot}: {points}.",
            owner=owner,
            value=value,
            slot=slot,
            points=points,
        )
    return w.gettext(
        "{owner} harvests a tomato worth {value} into slot {slot} (completed by {seat}): {points}.",
        owner=owner,
        value=value,
        slot=slot,
        seat=who(d["seat"]),
        points=points,
    )


def _overripe(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.ngettext(
        "{owner}'s vine on token {token} is overripe (worth {value}): {count} die goes back to the bushel.",
        "{owner}'s vine on token {token} is overripe (worth {value}): {count} dice go back to the bushel.",
        len(d["dice"]),
        owner=who(d["owner"]),
        token=d["token"] + 1,
        value=d["value"],
    )


def _karma(d: Mapping[str, Any], who: Who, w: Words) -> str:
    fields = {
        "seat": who(d["seat"]),
        "reason": _reason(d["reason"], w),
        "karma": d["karma"],
        "lost": d["lost"],
    }
    if d["lost"]:
        return w.gettext(
            "{seat} gains {gained} karma ({reason}, {lost} lost above the cap): karma {karma}.",
            gained=d["gained"],
            **fields,
        )
    return w.gettext("{seat} gains {gained} karma ({reason}): karma {karma}.", gained=d["gained"], **fields)


def _bit(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.ngettext(
        "{seat} gets a karma bit ({reason}).",
        "{seat} gets {count} karma bits ({reason}).",
        d["count"],
        seat=who(d["seat"]),
        reason=_reason(d["reason"], w),
    )


_CHANGES = {
    "re-roll": N_(
        "{seat} spends {cost} karma to re-roll {colour} {before}: it now shows {after} (karma {karma})."
    ),
    "shift": N_(
        "{seat} spends {cost} karma to shift {colour} {before}: it now shows {after} (karma {karma})."
    ),
    "roll over": N_(
        "{seat} spends {cost} karma to roll over {colour} {before}: it now shows {after} (karma {karma})."
    ),
    "turn": N_("{seat} spends {cost} karma to turn {colour} {before}: it now shows {after} (karma {karma})."),
}


def _die_change(verb: str) -> Callable[[Mapping[str, Any], Who, Words], str]:
    def line(d: Mapping[str, Any], who: Who, w: Words) -> str:
        return w.gettext(
            _CHANGES[verb],
            seat=who(d["seat"]),
            cost=d["cost"],
            colour=colour_word(d["colour"], w),
            before=d["before"],
            after=d["after"],
            karma=d["karma"],
        )

    return line


def _clean(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.ngettext(
        "{seat} spends {cost} karma to clean the vine on {where}: "
        "{count} die back to the bushel (karma {karma}).",
        "{seat} spends {cost} karma to clean the vine on {where}: "
        "{count} dice back to the bushel (karma {karma}).",
        len(d["dice"]),
        seat=who(d["seat"]),
        cost=d["cost"],
        where=vine_of(d["seat"], d["owner"], d["token"], who, w),
        karma=d["karma"],
    )


def _flip(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.gettext(
        "{seat} spends {cost} karma to flip the seed on {where}: {before} becomes {after} (karma {karma}).",
        seat=who(d["seat"]),
        cost=d["cost"],
        where=vine_of(d["seat"], d["owner"], d["token"], who, w),
        before=d["before"],
        after=d["after"],
        karma=d["karma"],
    )


def _pass(d: Mapping[str, Any], who: Who, w: Words) -> str:
    fields = {"seat": who(d["seat"]), "dice": dice_text(d["dice"], w)}
    if d["to"] == d["seat"]:
        return w.ngettext(
            "{seat} cannot place {dice} and keeps it for the next turn.",
            "{seat} cannot place {dice} and keeps them for the next turn.",
            len(d["dice"]),
            **fields,
        )
    return w.ngettext(
        "{seat} cannot place {dice} and passes it to {to}.",
        "{seat} cannot place {dice} and passes them to {to}.",
        len(d["dice"]),
        to=who(d["to"]),
        **fields,
    )


def _clear(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.ngettext(
        "{owner} clears their vine on token {token} (worth {value}): {count} die back to the bushel.",
        "{owner} clears their vine on token {token} (worth {value}): {count} dice back to the bushel.",
        len(d["dice"]),
        owner=who(d["owner"]),
        token=d["token"] + 1,
        value=d["value"],
    )


def _first(d: Mapping[str, Any], who: Who, w: Words) -> str:
    if d["bonus"]:
        return w.ngettext(
            "{owner} is the first to harvest six tomatoes (+{count} point).",
            "{owner} is the first to harvest six tomatoes (+{count} points).",
            d["bonus"],
            owner=who(d["owner"]),
        )
    return w.gettext("{owner} is the first to harvest six tomatoes.", owner=who(d["owner"]))


def _final(d: Mapping[str, Any], who: Who, w: Words) -> str:
    if d.get("solo"):
        return w.gettext("Sixth tomato harvested: the game ends with this turn.")
    return w.gettext("Final round: the game ends after {seat}'s turn.", seat=who(d["last"]))


def _cap(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.gettext(
        "{seat}'s karma drops to {karma} at the end of the turn ({lost} lost).",
        seat=who(d["seat"]),
        karma=d["karma"],
        lost=d["lost"],
    )


def _undo(d: Mapping[str, Any], who: Who, w: Words) -> str:
    return w.gettext("{seat} takes back their last move.", seat=who(d["seat"]))


def _end(d: Mapping[str, Any], who: Who, w: Words) -> str:
    if d["reason"] == GameEnd.SOLO_OUT_OF_DICE.value and d.get("held"):
        # Section 13: black and gold dice never seed a vine, so with every token empty they are stuck.
        return w.ngettext(
            "Game over: the bushel is empty and the {count} die left (black or gold) can never be placed:"
            " only a red die seeds a vine.",
            "Game over: the bushel is empty and the {count} dice left (black or gold) can never be placed:"
            " only a red die seeds a vine.",
            d["held"],
        )
    known = _END_TEXT.get(d["reason"])
    return w.gettext(known) if known else w.gettext("Game over: {reason}.", reason=d["reason"])


_LINES: dict[str, Callable[[Mapping[str, Any], Who, Words], str]] = {
    Ev.TURN: _turn,
    Ev.ROLL: _roll,
    Ev.PLACE: _place,
    Ev.HARVEST: _harvest,
    Ev.OVERRIPE: _overripe,
    Ev.KARMA: _karma,
    Ev.BIT: _bit,
    Ev.REROLL: _die_change("re-roll"),
    Ev.SHIFT: _die_change("shift"),
    Ev.ROLL_OVER: _die_change("roll over"),
    Ev.SET_VALUE: _die_change("turn"),
    Ev.CLEAN: _clean,
    Ev.FLIP: _flip,
    Ev.PASS: _pass,
    Ev.CLEAR: _clear,
    Ev.FIRST_TO_SIX: _first,
    Ev.FINAL_ROUND: _final,
    Ev.KARMA_CAP: _cap,
    Ev.GAME_END: _end,
    "undo": _undo,  # the engine core's own event
}


def describe(event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
    """One line for a Diced Tomatoes event in `words`, seats called by `names` (None: "Player N")."""
    line = _LINES.get(event.kind)
    if line is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    return line(event.data, lambda seat: player_name(seat, names, words=words), words)


def solo_result(matched: Sequence[int], harvested: int, words: Words = ENGLISH) -> str:
    """A solo game's result: won (all six tomatoes harvested) or lost, and the slots matched."""
    slots = words.ngettext("{count} slot matched", "{count} slots matched", len(matched))
    if matched:
        slots = words.gettext("{slots} ({which})", slots=slots, which=", ".join(map(str, matched)))
    if harvested >= SLOTS_PER_TRACK:
        return words.gettext("Won: all 6 tomatoes harvested, {slots}.", slots=slots)
    return words.ngettext(
        "Lost: ran out of dice with {count} of 6 tomatoes harvested, {slots}.",
        "Lost: ran out of dice with {count} of 6 tomatoes harvested, {slots}.",
        harvested,
        slots=slots,
    )
