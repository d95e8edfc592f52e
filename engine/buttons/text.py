"""Every word the Buttons engine says: one line per event, for the CLI and the Discord game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.buttons.state import LINE_BONUS, TARGET
from engine.codec import JSON
from engine.core import Event, player_name
from engine.words import ENGLISH, N_, Words

Who = Callable[[Any], str]
"""Names a seat in a log line."""

COLOURS: Mapping[str, str] = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
}
"""A button colour's word (events carry the colour's value)."""


def colour_word(colour: object, words: Words = ENGLISH) -> str:
    """A colour in words: "red"."""
    return words.gettext(COLOURS.get(str(colour), str(colour)))


def _roll(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    plain = ", ".join(str(v) for v in d["plain"])
    if plain:
        return w.gettext(
            "{seat} rolls: white {white}, gold {gold}, black {black}.",
            seat=who(d["seat"]),
            white=d["white"],
            gold=d["gold"],
            black=plain,
        )
    return w.gettext(
        "{seat} rolls: white {white}, gold {gold}.", seat=who(d["seat"]), white=d["white"], gold=d["gold"]
    )


def _aside(d: Mapping[str, JSON], w: Words) -> str:
    return w.ngettext("{count} die set aside", "{count} dice set aside", int(d["dice"]))


def _bust(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    seat, aside = who(d["seat"]), _aside(d, w)
    if d["lost"]:
        return w.ngettext(
            "{seat} busts and loses {count} button, and is out of the round ({aside}).",
            "{seat} busts and loses {count} buttons, and is out of the round ({aside}).",
            int(d["lost"]),
            seat=seat,
            aside=aside,
        )
    return w.gettext("{seat} busts, and is out of the round ({aside}).", seat=seat, aside=aside)


def _stop(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    return w.ngettext(
        "{seat} opts out with {count} button ({aside}).",
        "{seat} opts out with {count} buttons ({aside}).",
        int(d["buttons"]),
        seat=who(d["seat"]),
        aside=_aside(d, w),
    )


def _place(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    fields = {"seat": who(d["seat"]), "row": d["row"], "col": d["col"], "colour": colour_word(d["colour"], w)}
    if d["gold"]:
        return w.gettext(
            "{seat} places a button on row {row}, column {col} ({colour}) with the gold dice.", **fields
        )
    return w.gettext("{seat} places a button on row {row}, column {col} ({colour}).", **fields)


def _score(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    seat = who(d["seat"])
    if not d["stars"]:
        return w.gettext("{seat} earns no stars this round.", seat=seat)
    parts = [
        # The stars of each reason: the same words in English, a plural form per count elsewhere.
        w.ngettext("{count} for opting out", "{count} for opting out", int(d["opt_out"]))
        if d["opt_out"]
        else "",
        w.ngettext(
            "{count} for colours with 3 buttons", "{count} for colours with 3 buttons", int(d["colours"])
        )
        if d["colours"]
        else "",
        w.ngettext("{count} for bonus colours", "{count} for bonus colours", int(d["bonus"]))
        if d["bonus"]
        else "",
    ]
    return w.ngettext(
        "{seat} earns {count} star: {why}.",
        "{seat} earns {count} stars: {why}.",
        int(d["stars"]),
        seat=seat,
        why=", ".join(p for p in parts if p),
    )


def _round(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    bonus: Any = d["bonus"]
    cards = "; ".join(
        w.gettext("{seat} {colours}", seat=who(seat), colours=w.join([colour_word(c, w) for c in colours]))
        for seat, colours in enumerate(bonus)
    )
    return w.gettext(
        "Round {round} begins; {seat} holds the red card and starts. Bonus colours: {cards}.",
        round=d["round"],
        seat=who(d["starter"]),
        cards=cards,
    )


def _game_over(d: Mapping[str, JSON], who: Who, w: Words) -> str:
    """Why the game ended, who won, and each score in stars (plus the line's 100)."""
    scores = [int(score) for score in d["scores"]]
    lines = [seat for seat, score in enumerate(scores) if score >= LINE_BONUS]
    if lines:
        why = w.ngettext(
            "{names} has a line of 5 stars",
            "{names} have a line of 5 stars",
            len(lines),
            names=_names(lines, who, w),
        )
    else:
        full = [seat for seat, score in enumerate(scores) if score >= TARGET]
        why = w.ngettext(
            "{names} has {target} stars or more",
            "{names} have {target} stars or more",
            len(full),
            names=_names(full, who, w),
            target=TARGET,
        )
    best = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    each = "; ".join(
        w.gettext("{seat} {score}", seat=who(seat), score=_final_score(scores[seat], w)) for seat in order
    )
    if len(winners) == 1:
        return w.gettext(
            "The game ends: {why}. {winners} wins. Scores: {scores}.",
            why=why,
            winners=who(winners[0]),
            scores=each,
        )
    return w.gettext(
        "The game ends: {why}. {winners} share the win. Scores: {scores}.",
        why=why,
        winners=_names(winners, who, w),
        scores=each,
    )


def _final_score(score: int, w: Words) -> str:
    """A final score in words: "9 stars", "108 (8 stars + 100 for a line of 5)"."""
    if score >= LINE_BONUS:
        return w.ngettext(
            "{score} ({count} star + {bonus} for a line of 5)",
            "{score} ({count} stars + {bonus} for a line of 5)",
            score - LINE_BONUS,
            score=score,
            bonus=LINE_BONUS,
        )
    return w.ngettext("{count} star", "{count} stars", score)


def _names(seats: Sequence[int], who: Who, w: Words) -> str:
    return w.join([who(seat) for seat in seats])


_LINES: dict[str, Callable[[Mapping[str, JSON], Who, Words], str]] = {
    "roll": _roll,
    "bust": _bust,
    "stop": _stop,
    "place": _place,
    "decline": lambda d, who, w: w.gettext("{seat} lets the gold dice pass.", seat=who(d["seat"])),
    "turn": lambda d, who, w: w.ngettext(
        "{seat}'s turn, with {count} die to roll.",
        "{seat}'s turn, with {count} dice to roll.",
        int(d["dice"]),
        seat=who(d["seat"]),
    ),
    "score": _score,
    "star": lambda d, who, w: w.gettext(
        "{seat} places a star on row {row}, column {col}.", seat=who(d["seat"]), row=d["row"], col=d["col"]
    ),
    "round": _round,
    "game_over": _game_over,
    "undo": lambda d, who, w: w.gettext("{seat} takes back their last move.", seat=who(d["seat"])),
}


def describe(event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
    """One line for a Buttons event in the language of `words`, seats called by `names` (None: "Player N")."""
    line = _LINES.get(event.kind)
    if line is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    return line(event.data, lambda seat: player_name(int(seat), names, words=words), words)
