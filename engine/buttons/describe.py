"""One line of plain English per Buttons event, for the CLI and the Discord game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.codec import JSON
from engine.core import Event


def _who(seat: Any) -> str:
    return f"Player {int(seat) + 1}"


def _cell(data: Mapping[str, JSON]) -> str:
    return f"row {data['row']}, column {data['col']}"


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} dice" if word == "die" else f"{n} {word}s"


def _roll(d: Mapping[str, JSON]) -> str:
    plain = ", ".join(str(v) for v in d["plain"])
    black = f", black {plain}" if plain else ""
    return f"{_who(d['seat'])} rolls: white {d['white']}, gold {d['gold']}{black}."


def _bust(d: Mapping[str, JSON]) -> str:
    lost = f" and loses {_plural(d['lost'], 'button')}" if d["lost"] else ""
    return f"{_who(d['seat'])} busts{lost}, and is out of the round ({_plural(d['dice'], 'die')} set aside)."


def _stop(d: Mapping[str, JSON]) -> str:
    return (
        f"{_who(d['seat'])} opts out with {_plural(d['buttons'], 'button')} "
        f"({_plural(d['dice'], 'die')} set aside)."
    )


def _place(d: Mapping[str, JSON]) -> str:
    how = " with the gold dice" if d["gold"] else ""
    return f"{_who(d['seat'])} places a button on {_cell(d)} ({d['colour']}){how}."


def _score(d: Mapping[str, JSON]) -> str:
    if not d["stars"]:
        return f"{_who(d['seat'])} earns no stars this round."
    parts = [
        f"{d['opt_out']} for opting out" if d["opt_out"] else "",
        f"{d['colours']} for colours with 3 buttons" if d["colours"] else "",
        f"{d['bonus']} for bonus colours" if d["bonus"] else "",
    ]
    return f"{_who(d['seat'])} earns {_plural(d['stars'], 'star')}: {', '.join(p for p in parts if p)}."


def _round(d: Mapping[str, JSON]) -> str:
    cards = "; ".join(f"{_who(seat)} {' and '.join(colours)}" for seat, colours in enumerate(d["bonus"]))
    return (
        f"Round {d['round']} begins; {_who(d['starter'])} holds the red card and starts. "
        f"Bonus colours: {cards}."
    )


def _game_over(d: Mapping[str, JSON]) -> str:
    scores = ", ".join(f"{_who(seat)} {score}" for seat, score in enumerate(d["scores"]))
    return f"The game ends. Scores: {scores}."


_LINES: dict[str, Callable[[Mapping[str, JSON]], str]] = {
    "roll": _roll,
    "bust": _bust,
    "stop": _stop,
    "place": _place,
    "decline": lambda d: f"{_who(d['seat'])} lets the gold dice pass.",
    "turn": lambda d: f"{_who(d['seat'])}'s turn, with {d['dice']} dice to roll.",
    "score": _score,
    "star": lambda d: f"{_who(d['seat'])} places a star on {_cell(d)}.",
    "round": _round,
    "game_over": _game_over,
    "undo": lambda d: f"{_who(d['seat'])} takes back their last move.",
}


def describe_event(event: Event) -> str:
    """One line of English for a Buttons event (seats are shown as Player 1, 2...)."""
    line = _LINES.get(event.kind)
    if line is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    return line(event.data)
