"""A table's pace: named sets of turn clocks (live, daily, relaxed) and how to say them in words."""

from __future__ import annotations

import enum
from typing import Literal

from engine.words import count
from tables.models import DAY, HOUR, Timing

MINUTE = 60.0


class Pace(enum.StrEnum):
    """How fast a table plays; each pace is a set of turn clocks."""

    LIVE = "live"
    """Everyone at the table now: a reminder after minutes, a bot steps in after an hour."""
    DAILY = "daily"
    """A move or two a day (the default)."""
    RELAXED = "relaxed"
    """A move every few days."""


DEFAULT_PACE = Pace.DAILY

PaceName = Literal["live", "daily", "relaxed"]
"""The paces as a slash command option takes them."""

PACE_HELP = "live: reminders after minutes; daily: a move or two a day (default); relaxed: days"

TIMINGS: dict[Pace, Timing] = {
    Pace.LIVE: Timing(
        remind_after=10 * MINUTE,
        remind_every=30 * MINUTE,
        timeout_after=30 * MINUTE,
        replace_after=HOUR,
        optional_window=3 * MINUTE,
        pace=Pace.LIVE.value,
    ),
    Pace.DAILY: Timing(pace=Pace.DAILY.value),
    Pace.RELAXED: Timing(
        remind_after=2 * DAY,
        remind_every=2 * DAY,
        timeout_after=4 * DAY,
        replace_after=7 * DAY,
        optional_window=12 * HOUR,
        pace=Pace.RELAXED.value,
    ),
}
"""The clocks of each pace (daily is Timing's defaults)."""

LABELS: dict[Pace, str] = {
    Pace.LIVE: "Live: play now, in one sitting",
    Pace.DAILY: "Daily: a move or two a day",
    Pace.RELAXED: "Relaxed: a move every few days",
}
"""Short names for selects and command choices."""


def timing_for(pace: Pace | str) -> Timing:
    """The turn clocks of a pace (ValueError for an unknown name)."""
    return TIMINGS[Pace(pace)]


def pace_of(timing: Timing) -> Pace | None:
    """The named pace of a table's clocks, or None for clocks set by hand."""
    try:
        return Pace(timing.pace)
    except ValueError:
        return None


def duration(seconds: float) -> str:
    """A duration in words, rounded to the largest sensible unit: "10 minutes", "12 hours", "3 days"."""
    for unit, units, size in (("day", "days", DAY), ("hour", "hours", HOUR), ("minute", "minutes", MINUTE)):
        if seconds >= size and (unit == "minute" or seconds % size == 0 or seconds >= 2 * size):
            return count(round(seconds / size), unit, units)
    return count(max(1, round(seconds)), "second", "seconds")


def describe(timing: Timing, *, optional: bool = True) -> str:
    """The clocks in one sentence, with the pace's name first; `optional`: whether the game has
    optional decisions (Buttons' gold die), whose window is said only then."""
    pace = pace_of(timing)
    name = f"**{pace.value}**" if pace is not None else "**custom**"
    parts = []
    if timing.remind_after is not None:
        every = f", then every {_every(timing.remind_every)}" if timing.remind_every is not None else ""
        parts.append(f"a reminder after {duration(timing.remind_after)}{every}")
    if timing.timeout_after is not None:
        parts.append(f"a pass or decline is taken for you after {duration(timing.timeout_after)}")
    if timing.replace_after is not None:
        parts.append(f"a bot plays for a player away for {duration(timing.replace_after)}")
    if timing.optional_window is not None and optional:
        parts.append(f"optional choices close {duration(timing.optional_window)} after the rest is played")
    if not parts:
        return f"Pace {name}: no clocks."
    return f"Pace {name}: " + "; ".join(parts) + "."


def _every(seconds: float) -> str:
    """ "day" rather than "1 day" after "every"."""
    words = duration(seconds)
    return words[2:] if words.startswith("1 ") else words
