"""Votes to hand a long-due seat to a bot now: a majority of the other humans carries it.

A vote is counted for one "due period" of the seat, named by the seat's `idle_since` (the
time it began to owe a decision without acting): a move by the player starts a new period,
so it ends the vote. Votes are stored, so a restart loses none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.words import N_
from tables.errors import GameNotRunning, NotAllowed, NotSeated
from tables.models import Table, TableStatus
from tables.service import TableService


@dataclass(frozen=True, slots=True)
class Tally:
    """Where a vote on one seat stands."""

    seat: int
    yes: int
    """Votes for handing the seat to a bot now."""
    voters: int
    """The other humans playing their own seats: the electorate."""
    carried: bool = False
    """True once the votes carried it (the seat now has a bot)."""

    @property
    def needed(self) -> int:
        """Votes a majority needs (a tie does not carry)."""
        return self.voters // 2 + 1


def electorate(table: Table, seat: int) -> list[int]:
    """User ids of the humans who may vote on `seat`: every other human playing their own seat."""
    owner = table.seats[seat].user_id
    return [
        info.user_id
        for index, info in enumerate(table.seats)
        if index != seat and info.user_id is not None and info.user_id != owner and not info.is_bot
    ]


def votable(table: Table, seat: int, now: float) -> bool:
    """Whether `seat` has been due longer than the table's reminder time, with someone to vote."""
    if table.status is not TableStatus.PLAYING or not 0 <= seat < len(table.seats):
        return False
    info = table.seats[seat]
    remind = table.timing.remind_after
    return (
        not info.is_bot
        and info.user_id is not None
        and info.idle_since is not None
        and seat in table.to_move
        and remind is not None
        and now - info.idle_since >= remind
        and bool(electorate(table, seat))
    )


class SeatVotes:
    """Record votes and carry them out through the table service."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def tally(self, table: Table, seat: int) -> Tally:
        """The votes counted now for the seat's current due period."""
        voters = electorate(table, seat)
        since = table.seats[seat].idle_since
        if since is None or not voters:
            return Tally(seat, 0, len(voters))
        async with (
            self.service.store.reading() as db,
            db.execute(
                "SELECT voter_id FROM seat_votes WHERE table_id = ? AND seat = ? AND idle_since = ?",
                (table.id, seat, since),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        yes = len({int(row[0]) for row in rows} & set(voters))
        return Tally(seat, yes, len(voters))

    async def vote(self, table_id: int, seat: int, voter_id: int, offered: int | None = None) -> Tally:
        """Count `voter_id`'s vote to hand `seat` to a bot; carry it out when a majority is reached.

        `offered`, the whole seconds of the seat's idle_since the vote was offered for (the
        reminder's button): a vote offered before the player's last move is over.
        """
        service = self.service
        table = await service.get(table_id)
        if table.status is not TableStatus.PLAYING:
            raise GameNotRunning()
        if not 0 <= seat < len(table.seats):
            raise NotAllowed(N_("That seat is not at this table."))
        info = table.seats[seat]
        voter_seat = table.seat_of(voter_id)
        if voter_seat is None:
            raise NotSeated(N_("Only the other players of this table can vote."))
        if voter_seat == seat or info.user_id == voter_id:
            raise NotAllowed(N_("This vote is about your seat: play your move instead."))
        if table.seats[voter_seat].is_bot:
            raise NotAllowed(N_("A bot plays your seat: take it back with `/game rejoin` to vote."))
        if info.is_bot:
            raise NotAllowed(N_("A bot already plays that seat."))
        now = service.clock()
        since = info.idle_since
        offered_for_now = since is not None and (offered is None or int(since) == offered)
        if since is None or seat not in table.to_move or not offered_for_now:
            raise NotAllowed(N_("That player has played since: the vote is over."))
        if not votable(table, seat, now):
            raise NotAllowed(
                N_("Too early: a vote opens once the player has been due for the reminder time.")
            )
        async with service.store.transaction() as db:
            # Votes of an earlier due period no longer count: the player moved since.
            await _write(
                db,
                "DELETE FROM seat_votes WHERE table_id = ? AND seat = ? AND idle_since <> ?",
                (table_id, seat, since),
            )
            await _write(
                db,
                "INSERT OR REPLACE INTO seat_votes (table_id, seat, voter_id, idle_since, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat, voter_id, since, now),
            )
        tally = await self.tally(table, seat)
        if tally.yes < tally.needed:
            return tally
        await service.hand_to_bot(table_id, seat, since)
        async with service.store.transaction() as db:
            await _write(db, "DELETE FROM seat_votes WHERE table_id = ? AND seat = ?", (table_id, seat))
        return Tally(seat, tally.yes, tally.voters, carried=True)


async def _write(db: Any, sql: str, params: tuple[Any, ...]) -> None:
    """Run one write statement and close its cursor (SQLite refuses a COMMIT while one is open)."""
    async with db.execute(sql, params):
        pass
