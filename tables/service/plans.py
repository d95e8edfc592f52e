"""Pure helpers of the service: the clocks a change arms, a clock dropped, a seat swapped."""

from __future__ import annotations

from dataclasses import replace

from tables.models import Deadline, DeadlineKind, SeatInfo, Table, TableStatus
from tables.waits import optional_deadlines


def set_seat(table: Table, seat: int, info: SeatInfo) -> Table:
    """The table with `seat` held by `info`."""
    seats = list(table.seats)
    seats[seat] = info
    return replace(table, seats=tuple(seats))


def without(table: Table, deadline: Deadline) -> Table:
    """The table without the clock `deadline` (of its seat and kind)."""
    kept = tuple(d for d in table.deadlines if not (d.seat == deadline.seat and d.kind is deadline.kind))
    return replace(table, deadlines=kept)


def optional(table: Table, seat: int) -> bool:
    """Whether the seat's open decision may be declined."""
    prompt = table.prompt_for(seat)
    return prompt is not None and prompt.optional


def plan(old: Table, new: Table, now: float, fresh: set[int]) -> tuple[Deadline, ...]:
    """The clocks of `new`: restarted for `fresh` seats, kept for seats still waiting."""
    if new.status is not TableStatus.PLAYING:
        return ()
    timing = new.timing
    planned: list[Deadline] = []
    for seat in new.to_move:
        info = new.seats[seat]
        if info.is_bot or info.user_id is None:
            continue
        if seat in fresh:
            # An optional decision is never reminded: its window closes it (tables.waits).
            if timing.remind_after is not None and not optional(new, seat):
                planned.append(Deadline(seat, DeadlineKind.REMIND, now + timing.remind_after))
            if timing.timeout_after is not None:
                planned.append(Deadline(seat, DeadlineKind.TIMEOUT, now + timing.timeout_after))
        else:
            planned.extend(d for d in old.deadlines if d.seat == seat and d.kind is not DeadlineKind.REPLACE)
        if timing.replace_after is not None and info.idle_since is not None:
            planned.append(Deadline(seat, DeadlineKind.REPLACE, info.idle_since + timing.replace_after))
    planned.extend(optional_deadlines(new, planned, now))
    return tuple(planned)
