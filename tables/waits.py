"""Clock rules for play over days: quiet hours hold pings and clocks, optional decisions get a window."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.core import DEFAULT_LEVEL, Action, Prompt
from tables.models import Deadline, DeadlineKind, Table
from tables.players import Players, StandingAnswer

HELD_BY_QUIET = (DeadlineKind.REMIND, DeadlineKind.TIMEOUT, DeadlineKind.REPLACE, DeadlineKind.PING)
"""Clocks that wait for the end of the player's quiet hours (the optional window does not: the
table goes on without the optional answer, and nobody is pinged for it)."""


def held_pings(table: Table, seats: Iterable[int], now: float, players: Players) -> tuple[Deadline, ...]:
    """PING clocks for seats newly to move whose players are in their quiet hours: pinged at the end.

    Optional decisions never ping, so they are never held either.
    """
    held = []
    for seat in sorted(seats):
        info = table.seats[seat]
        prompt = table.prompt_for(seat)
        if info.is_bot or info.user_id is None or prompt is None or prompt.optional:
            continue
        end = players.quiet_until(info.user_id, now)
        if end is not None:
            held.append(Deadline(seat, DeadlineKind.PING, end))
    return tuple(held)


def is_held(table: Table, seat: int) -> bool:
    """Whether the seat's turn ping waits for the end of its player's quiet hours."""
    return table.deadline(seat, DeadlineKind.PING) is not None


def defer_for_quiet(table: Table, deadline: Deadline, now: float, players: Players) -> Table | None:
    """The table with `deadline` moved to the end of its player's quiet hours, or None if it may fire now.

    Clocks still run during quiet hours; only what they would do waits: a reminder, a default
    taken, a bot stepping in.
    """
    if deadline.kind not in HELD_BY_QUIET:
        return None
    info = table.seats[deadline.seat]
    end = players.quiet_until(info.user_id, now)
    if end is None or info.is_bot:
        return None
    moved = replace(deadline, due_at=end)
    kept = tuple(d for d in table.deadlines if not (d.seat == deadline.seat and d.kind is deadline.kind))
    return replace(table, deadlines=(*kept, moved))


def remind_after_ping(table: Table, seat: int, now: float) -> Table:
    """After the held ping, a reminder due by now waits one more reminder period (never two at once)."""
    every = table.timing.remind_every or table.timing.remind_after
    deadlines = []
    for deadline in table.deadlines:
        if deadline.seat == seat and deadline.kind is DeadlineKind.REMIND and deadline.due_at <= now:
            deadline = replace(deadline, due_at=now + (every or 0.0))
        deadlines.append(deadline)
    return replace(table, deadlines=tuple(deadlines))


def optional_deadlines(table: Table, planned: Sequence[Deadline], now: float) -> tuple[Deadline, ...]:
    """OPTIONAL clocks once the game waits only on optional decisions: their window opens now."""
    window = table.timing.optional_window
    prompts = table.prompts
    if window is None or not prompts or not all(p.optional for p in prompts):
        return ()
    armed = {d.seat for d in planned if d.kind is DeadlineKind.OPTIONAL}
    return tuple(
        Deadline(p.seat, DeadlineKind.OPTIONAL, now + window)
        for p in prompts
        if p.seat not in armed and not table.is_bot(p.seat) and table.seats[p.seat].user_id is not None
    )


def answers_itself(table: Table, prompt: Prompt, players: Players) -> bool:
    """Whether a human's optional decision is settled by their standing answer instead of asking them."""
    if not table.standing_may_answer(prompt):
        return False
    return players.standing_answer(table.id, table.seats[prompt.seat].user_id) is not StandingAnswer.ASK


def auto_answer(table: Table, prompt: Prompt, players: Players) -> Action | None:
    """The action a human's standing answer gives an optional decision, or None to ask them."""
    if not answers_itself(table, prompt, players):
        return None
    answer = players.standing_answer(table.id, table.seats[prompt.seat].user_id)
    if answer is StandingAnswer.BOT:
        return table.rules.bot_action(table.state, prompt, DEFAULT_LEVEL)
    return prompt.default
