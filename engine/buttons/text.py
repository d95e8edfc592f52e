"""One line of plain English per Buttons event, for the CLI and the Discord game log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.buttons.state import LINE_BONUS, TARGET
from engine.codec import JSON
from engine.core import Event, player_name
from engine.words import count

Who = Callable[[Any], str]
"""Names a seat in a log line."""


def _cell(data: Mapping[str, JSON]) -> str:
    return f"row {data['row']}, column {data['col']}"


def _roll(d: Mapping[str, JSON], who: Who) -> str:
    plain = ", ".join(str(v) for v in d["plain"])
    black = f", black {plain}" if plain else ""
    return f"{who(d['seat'])} rolls: white {d['white']}, gold {d['gold']}{black}."


def _bust(d: Mapping[str, JSON], who: Who) -> str:
    lost = f" and loses {count(d['lost'], 'button', 'buttons')}" if d["lost"] else ""
    aside = count(d["dice"], "die", "dice")
    return f"{who(d['seat'])} busts{lost}, and is out of the round ({aside} set aside)."


def _stop(d: Mapping[str, JSON], who: Who) -> str:
    return (
        f"{who(d['seat'])} opts out with {count(d['buttons'], 'button', 'buttons')} "
        f"({count(d['dice'], 'die', 'dice')} set aside)."
    )


def _place(d: Mapping[str, JSON], who: Who) -> str:
    how = " with the gold dice" if d["gold"] else ""
    return f"{who(d['seat'])} places a button on {_cell(d)} ({d['colour']}){how}."


def _score(d: Mapping[str, JSON], who: Who) -> str:
    if not d["stars"]:
        return f"{who(d['seat'])} earns no stars this round."
    parts = [
        f"{d['opt_out']} for opting out" if d["opt_out"] else "",
        f"{d['colours']} for colours with 3 buttons" if d["colours"] else "",
        f"{d['bonus']} for bonus colours" if d["bonus"] else "",
    ]
    return f"{who(d['seat'])} earns {count(d['stars'], 'star', 'stars')}: {', '.join(p for p in parts if p)}."


def _round(d: Mapping[str, JSON], who: Who) -> str:
    cards = "; ".join(f"{who(seat)} {' and '.join(colours)}" for seat, colours in enumerate(d["bonus"]))
    return (
        f"Round {d['round']} begins; {who(d['starter'])} holds the red card and starts. "
        f"Bonus colours: {cards}."
    )


def _game_over(d: Mapping[str, JSON], who: Who) -> str:
    """Why the game ended, who won, and each score in stars (plus the line's 100)."""
    scores = [int(score) for score in d["scores"]]
    lines = [seat for seat, score in enumerate(scores) if score >= LINE_BONUS]
    if lines:
        why = f"{_names(lines, who)} {'has' if len(lines) == 1 else 'have'} a line of 5 stars"
    else:
        full = [seat for seat, score in enumerate(scores) if score >= TARGET]
        target = count(TARGET, "star", "stars")
        why = f"{_names(full, who)} {'has' if len(full) == 1 else 'have'} {target} or more"
    best = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    won = "wins" if len(winners) == 1 else "share the win"
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    each = "; ".join(f"{who(seat)} {_final_score(scores[seat])}" for seat in order)
    return f"The game ends: {why}. {_names(winners, who)} {won}. Scores: {each}."


def _final_score(score: int) -> str:
    """A final score in words: "9 stars", "108 (8 stars + 100 for a line of 5)"."""
    if score >= LINE_BONUS:
        return f"{score} ({count(score - LINE_BONUS, 'star', 'stars')} + {LINE_BONUS} for a line of 5)"
    return count(score, "star", "stars")


def _names(seats: Sequence[int], who: Who) -> str:
    return " and ".join(who(seat) for seat in seats)


_LINES: dict[str, Callable[[Mapping[str, JSON], Who], str]] = {
    "roll": _roll,
    "bust": _bust,
    "stop": _stop,
    "place": _place,
    "decline": lambda d, who: f"{who(d['seat'])} lets the gold dice pass.",
    "turn": lambda d, who: f"{who(d['seat'])}'s turn, with {d['dice']} dice to roll.",
    "score": _score,
    "star": lambda d, who: f"{who(d['seat'])} places a star on {_cell(d)}.",
    "round": _round,
    "game_over": _game_over,
    "undo": lambda d, who: f"{who(d['seat'])} takes back their last move.",
}


def describe(event: Event, names: Sequence[str] | None = None) -> str:
    """One line of English for a Buttons event, seats called by `names` ("Player 1, 2..." if None)."""
    line = _LINES.get(event.kind)
    if line is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    return line(event.data, lambda seat: player_name(int(seat), names))
