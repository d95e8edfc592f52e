"""A table's pace: named sets of turn clocks (live, daily, relaxed) and how to say them in words."""

from __future__ import annotations

import enum
from typing import Literal

from engine.words import ENGLISH, N_, Words
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
    Pace.LIVE: N_("Live: play now, in one sitting"),
    Pace.DAILY: N_("Daily: a move or two a day"),
    Pace.RELAXED: N_("Relaxed: a move every few days"),
}
"""Short names for selects and command choices (English: translated where shown)."""


def timing_for(pace: Pace | str) -> Timing:
    """The turn clocks of a pace (ValueError for an unknown name)."""
    return TIMINGS[Pace(pace)]


def pace_of(timing: Timing) -> Pace | None:
    """The named pace of a table's clocks, or None for clocks set by hand."""
    try:
        return Pace(timing.pace)
    except ValueError:
        return None


def duration(seconds: float, w: Words = ENGLISH) -> str:
    """A duration in words, rounded to the largest sensible unit: "10 minutes", "12 hours", "3 days"."""
    if seconds >= DAY and (seconds % DAY == 0 or seconds >= 2 * DAY):
        return w.ngettext("{count} day", "{count} days", round(seconds / DAY))
    if seconds >= HOUR and (seconds % HOUR == 0 or seconds >= 2 * HOUR):
        return w.ngettext("{count} hour", "{count} hours", round(seconds / HOUR))
    if seconds >= MINUTE:
        return w.ngettext("{count} minute", "{count} minutes", round(seconds / MINUTE))
    return w.ngettext("{count} second", "{count} seconds", max(1, round(seconds)))


def describe(timing: Timing, *, optional: bool = True, w: Words = ENGLISH) -> str:
    """The clocks in one sentence, with the pace's name first; `optional`: whether the game has
    optional decisions (Buttons' gold die), whose window is said only then."""
    pace = pace_of(timing)
    name = f"**{w.gettext(pace.value if pace is not None else N_('custom'))}**"
    parts = []
    if timing.remind_after is not None:
        after = duration(timing.remind_after, w)
        if timing.remind_every is not None:
            parts.append(
                w.gettext(
                    "a reminder after {after}, then every {every}",
                    after=after,
                    every=_every(timing.remind_every, w),
                )
            )
        else:
            parts.append(w.gettext("a reminder after {after}", after=after))
    if timing.timeout_after is not None:
        parts.append(
            w.gettext(
                "a pass or decline is taken for you after {after}", after=duration(timing.timeout_after, w)
            )
        )
    if timing.replace_after is not None:
        parts.append(
            w.gettext("a bot plays for a player away for {after}", after=duration(timing.replace_after, w))
        )
    if timing.optional_window is not None and optional:
        parts.append(
            w.gettext(
                "optional choices close {after} after the rest is played",
                after=duration(timing.optional_window, w),
            )
        )
    if not parts:
        return w.gettext("Pace {name}: no clocks.", name=name)
    return w.gettext("Pace {name}: {clocks}.", name=name, clocks="; ".join(parts))


def _every(seconds: float, w: Words) -> str:
    """ "day" rather than "1 day" after "every" (the unit alone for one of it)."""
    for size, one in ((DAY, N_("day")), (HOUR, N_("hour")), (MINUTE, N_("minute"))):
        if seconds == size:
            return w.gettext(one)
    return duration(seconds, w)
