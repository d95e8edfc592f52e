"""One line of plain English per event, for the CLI and the Discord game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, player_name
from engine.tomatoes.events import Ev
from engine.tomatoes.state import GameEnd
from engine.words import count

_END_TEXT = {
    GameEnd.FINAL_ROUND.value: "the final round is over",
    GameEnd.BUSHEL_EMPTY.value: "the bushel was empty at the start of a turn",
    GameEnd.SOLO_HARVESTED.value: "all six tomatoes are harvested",
    GameEnd.SOLO_OUT_OF_DICE.value: "the bushel is empty and no dice are left to play",
}


Who = Callable[[int], str]
"""Names a seat in a log line."""


def player(seat: int) -> str:
    """How a seat is named in the log without names (seats count from 1 for people)."""
    return player_name(seat)


def die_text(die: Mapping[str, Any]) -> str:
    """A die as "red 5"."""
    return f"{die['colour']} {die['value']}"


def dice_text(dice: list[Mapping[str, Any]]) -> str:
    """Dice as "red 5, black 2"."""
    return ", ".join(die_text(d) for d in dice) if dice else "nothing"


def vine_of(seat: int, owner: int, token: int, who: Who = player) -> str:
    """ "their own token 2" or "Player 3's token 2" from the acting seat's point of view."""
    whose = "their own" if seat == owner else f"{who(owner)}'s"
    return f"{whose} token {token + 1}"


def _turn(d: Mapping[str, Any], who: Who) -> str:
    final = " (final round)" if d["final_round"] else ""
    return f"{who(d['seat'])}'s turn {d['turn']}{final}."


def _roll(d: Mapping[str, Any], who: Who) -> str:
    drawn = d["drawn"]
    counts = {c: drawn.count(c) for c in ("red", "black", "gold") if c in drawn}
    took = ", ".join(f"{n} {c}" for c, n in counts.items())
    parts = []
    if drawn:
        parts.append(f"{count(len(drawn), 'die', 'dice')} from the bushel ({took})")
    if d["held"]:
        # Solo, unplaced dice stay with the player: nobody passed them.
        source = "kept from the last turn" if d.get("solo") else "passed to them"
        parts.append(f"{count(d['held'], 'die', 'dice')} {source}")
    return (
        f"{who(d['seat'])} rolls {' plus '.join(parts)}: {dice_text(d['dice'])}. "
        f"{count(d['bushel'], 'die', 'dice')} left in the bushel."
    )


def _place(d: Mapping[str, Any], who: Who) -> str:
    where = vine_of(d["seat"], d["owner"], d["token"], who)
    if d["seed"]:
        return f"{who(d['seat'])} seeds {die_text(d['die'])} on {where}."
    return f"{who(d['seat'])} adds {die_text(d['die'])} to the vine on {where} (worth {d['value']})."


def _harvest(d: Mapping[str, Any], who: Who) -> str:
    if d.get("solo"):
        # Solo scoring counts matched slots only (rules section 13): no points, no bonus.
        match = "a match, golden star" if d["value"] == d["slot"] else "no match"
        return f"{who(d['owner'])} harvests a tomato worth {d['value']} into slot {d['slot']}: {match}."
    total = d["points"] + d["bonus"]
    if d["bonus"]:
        points = f"{d['points']} + {d['bonus']} bonus = {count(total, 'point', 'points')}"
    else:
        points = count(d["points"], "point", "points")
    star = ", golden star" if d["star"] else ""
    by = "" if d["seat"] == d["owner"] else f" (completed by {who(d['seat'])})"
    return (
        f"{who(d['owner'])} harvests a tomato worth {d['value']} into slot {d['slot']}{by}: {points}{star}."
    )


def _overripe(d: Mapping[str, Any], who: Who) -> str:
    return (
        f"{who(d['owner'])}'s vine on token {d['token'] + 1} is overripe (worth {d['value']}): "
        f"{count(len(d['dice']), 'die', 'dice')} go back to the bushel."
    )


def _karma(d: Mapping[str, Any], who: Who) -> str:
    lost = f", {d['lost']} lost above the cap" if d["lost"] else ""
    return f"{who(d['seat'])} gains {d['gained']} karma ({d['reason']}{lost}): karma {d['karma']}."


def _bit(d: Mapping[str, Any], who: Who) -> str:
    bits = "a karma bit" if d["count"] == 1 else f"{d['count']} karma bits"
    return f"{who(d['seat'])} gets {bits} ({d['reason']})."


def _die_change(verb: str) -> Callable[[Mapping[str, Any], Who], str]:
    def line(d: Mapping[str, Any], who: Who) -> str:
        return (
            f"{who(d['seat'])} spends {d['cost']} karma to {verb} {d['colour']} {d['before']}: "
            f"it now shows {d['after']} (karma {d['karma']})."
        )

    return line


def _clean(d: Mapping[str, Any], who: Who) -> str:
    where = vine_of(d["seat"], d["owner"], d["token"], who)
    return (
        f"{who(d['seat'])} spends {d['cost']} karma to clean the vine on {where}: "
        f"{count(len(d['dice']), 'die', 'dice')} back to the bushel (karma {d['karma']})."
    )


def _flip(d: Mapping[str, Any], who: Who) -> str:
    return (
        f"{who(d['seat'])} spends {d['cost']} karma to flip the seed on "
        f"{vine_of(d['seat'], d['owner'], d['token'], who)}: {d['before']} becomes {d['after']} "
        f"(karma {d['karma']})."
    )


def _pass(d: Mapping[str, Any], who: Who) -> str:
    them = "it" if len(d["dice"]) == 1 else "them"
    if d["to"] == d["seat"]:
        return f"{who(d['seat'])} cannot place {dice_text(d['dice'])} and keeps {them} for the next turn."
    return f"{who(d['seat'])} cannot place {dice_text(d['dice'])} and passes {them} to {who(d['to'])}."


def _clear(d: Mapping[str, Any], who: Who) -> str:
    return (
        f"{who(d['owner'])} clears their vine on token {d['token'] + 1} (worth {d['value']}): "
        f"{count(len(d['dice']), 'die', 'dice')} back to the bushel."
    )


def _first(d: Mapping[str, Any], who: Who) -> str:
    bonus = f" (+{count(d['bonus'], 'point', 'points')})" if d["bonus"] else ""
    return f"{who(d['owner'])} is the first to harvest six tomatoes{bonus}."


def _final(d: Mapping[str, Any], who: Who) -> str:
    if d.get("solo"):
        return "Sixth tomato harvested: the game ends with this turn."
    return f"Final round: the game ends after {who(d['last'])}'s turn."


def _cap(d: Mapping[str, Any], who: Who) -> str:
    return f"{who(d['seat'])}'s karma drops to {d['karma']} at the end of the turn ({d['lost']} lost)."


def _undo(d: Mapping[str, Any], who: Who) -> str:
    return f"{who(d['seat'])} takes back their last move."


def _end(d: Mapping[str, Any], who: Who) -> str:
    if d["reason"] == GameEnd.SOLO_OUT_OF_DICE.value and d.get("held"):
        # Section 13: black and gold dice never seed a vine, so with every token empty they are stuck.
        kept = count(d["held"], "die", "dice")
        return (
            f"Game over: the bushel is empty and the {kept} left (black or gold) can never be placed:"
            " only a red die seeds a vine."
        )
    return f"Game over: {_END_TEXT.get(d['reason'], d['reason'])}."


_LINES: dict[str, Callable[[Mapping[str, Any], Who], str]] = {
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


def describe(event: Event, names: Sequence[str] | None = None) -> str:
    """One line of plain English for a Diced Tomatoes event, seats called by `names` ("Player N" if None)."""
    line = _LINES.get(event.kind)
    if line is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    return line(event.data, lambda seat: player_name(seat, names))
