"""Turn clocks: reminders, timeouts, optional windows, held pings and seat replacement, fired when due."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from tables.errors import NoSuchTable, StoreUnavailable, TableError
from tables.models import Deadline, DeadlineKind, Notice, NoticeKind, Table, TableStatus, UpdateKind
from tables.service.core import TableCore
from tables.service.delivery import Delivery
from tables.service.plans import without
from tables.service.seats import Seats
from tables.service.turns import Turns
from tables.shards import LEASE_SECONDS, RENEW_SECONDS, ShardSet, spans
from tables.waits import defer_for_quiet, held_pings, remind_after_ping

log = logging.getLogger(__name__)

_PRIORITY = {
    DeadlineKind.REPLACE: 0,
    DeadlineKind.TIMEOUT: 1,
    DeadlineKind.OPTIONAL: 2,
    DeadlineKind.PING: 3,
    DeadlineKind.REMIND: 4,
}


class Clocks:
    """Fires the stored clocks that are due, from its loop or from run_due (tests, harnesses)."""

    def __init__(self, core: TableCore, turns: Turns, seats: Seats, delivery: Delivery) -> None:
        self.core = core
        self.turns = turns
        self.seats = seats
        self.delivery = delivery
        self.task: asyncio.Task[None] | None = None
        """The clock loop, once started."""
        self.held: frozenset[int] = frozenset()
        """With shards: those whose clock lease this process holds, as of its last claim."""
        self._claimed_at: float | None = None

    def start(self) -> None:
        """Start the loop firing due clocks (once)."""
        if self.task is None:
            self.task = asyncio.create_task(self._clock_loop(), name="tables-clock")

    async def run_due(self, now: float | None = None) -> int:
        """Fire every clock due at `now` (default: the service clock); return how many fired."""
        now = self.core.clock() if now is None else now
        shards = self.core.shards
        if shards is None:
            due = await self.core.store.due(now)
        else:
            await self.claim_leases(now)
            if not self.held:
                return 0
            due = await self.core.store.due(now, ShardSet(shards.count, self.held))
        # Per seat the strongest clock goes first; the weaker ones then find the seat moved on.
        due.sort(key=lambda item: (item[0], item[1].seat, _PRIORITY[item[1].kind]))
        fired = 0
        for table_id, deadline in due:
            try:
                if await self._fire(table_id, deadline, now):
                    fired += 1
            except StoreUnavailable:
                log.warning("table %d: clock %s not fired, the store failed", table_id, deadline.kind)
            except TableError as exc:
                log.error("table %d: clock %s not fired: %s", table_id, deadline.kind, exc)
            except Exception:
                # It stays armed: the next round of the clock loop tries again.
                log.exception("table %d: clock %s failed", table_id, deadline.kind)
        return fired

    async def claim_leases(self, now: float, *, force: bool = False) -> frozenset[int]:
        """Renew and take the clock leases (at most every RENEW_SECONDS unless `force`); the shards held."""
        shards = self.core.shards
        if shards is None:
            return frozenset()
        if (
            force
            or self._claimed_at is None
            or now - self._claimed_at >= RENEW_SECONDS
            or now < self._claimed_at
        ):
            before = self.held
            try:
                self.held = await self.core.store.claim_clock_leases(shards, self.core.holder, now)
            except StoreUnavailable:
                # Not renewed: keep firing only while the leases last, then let the others take them.
                log.warning("clock leases not renewed: the store failed")
                self.held = (
                    frozenset()
                    if self._claimed_at is None or now - self._claimed_at >= LEASE_SECONDS
                    else before
                )
                return self.held
            self._claimed_at = now
            if self.held != before:
                log.info("firing the clocks of shards %s of %d", spans(self.held) or "(none)", shards.count)
        return self.held

    async def release_leases(self) -> None:
        """Give the leases up at a clean stop, so another process takes the clocks at once."""
        if self.core.shards is None or self._claimed_at is None:
            return
        try:
            await self.core.store.release_clock_leases(self.core.holder)
        except StoreUnavailable:
            log.warning("clock leases not released: the store failed (they run out by themselves)")

    async def _fire(self, table_id: int, deadline: Deadline, now: float) -> bool:
        """Fire one due clock if it is still armed and due; True if it did something."""
        async with self.core.lock(table_id):
            try:
                table = await self.core.load(table_id)
            except NoSuchTable:
                return False
            current = table.deadline(deadline.seat, deadline.kind)
            if current is None or current.due_at > now or table.status is not TableStatus.PLAYING:
                return False
            seat = current.seat
            info = table.seats[seat]
            deferred = defer_for_quiet(table, current, now, self.core.players)
            if deferred is not None:
                await self.core.save(table, deferred, now=now)
                return False
            if current.kind is DeadlineKind.OPTIONAL:
                return await self._fire_optional(table, current, now)
            if current.kind is DeadlineKind.PING:
                kept = remind_after_ping(without(table, current), seat, now)
                if seat not in table.to_move or info.is_bot:
                    await self.core.save(table, kept, now=now)
                    return False
                saved = await self.core.save(table, kept, now=now)
                self.delivery.publish(Notice(NoticeKind.TURN, saved, seat, info.user_id))
                return True
            if current.kind is DeadlineKind.REPLACE:
                await self.seats.to_bot(table, seat, now)
                return True
            if current.kind is DeadlineKind.TIMEOUT:
                prompt = table.prompt_for(seat)
                if prompt is None or prompt.default is None or info.is_bot:
                    await self.core.save(table, without(table, current), now=now)
                    return False
                transition = table.rules.apply(table.state, seat, prompt.default)
                update = await self.turns.commit(
                    table,
                    table,
                    seat,
                    transition,
                    UpdateKind.TIMEOUT_MOVE,
                    prompt.default,
                    source="timeout",
                    now=now,
                )
                update = await self.turns.play_forced(update, now)
                self.delivery.publish(Notice(NoticeKind.TIMED_OUT, update.table, seat, info.user_id))
                self.turns.after(update)
                return True
            every = table.timing.remind_every
            kept = without(table, current)
            if every is not None:
                later = Deadline(
                    seat, DeadlineKind.REMIND, max(current.due_at, now) + every, current.count + 1
                )
                kept = replace(kept, deadlines=(*kept.deadlines, later))
            saved = await self.core.save(table, kept, now=now)
            self.delivery.publish(Notice(NoticeKind.REMINDER, saved, seat, info.user_id, current.count + 1))
            return True

    async def hold_pings(self, table_id: int, seats: set[int]) -> Table:
        """Hold the turn pings of seats whose players are in quiet hours until those end (PING clocks)."""
        async with self.core.locked(table_id) as table:
            if table.status is not TableStatus.PLAYING:
                return table
            now = self.core.clock()
            armed = {d.seat for d in table.deadlines if d.kind is DeadlineKind.PING}
            wanted = set(table.to_move) & seats - armed
            held = held_pings(table, wanted, now, self.core.players)
            if not held:
                return table
            return await self.core.save(table, replace(table, deadlines=(*table.deadlines, *held)), now=now)

    async def _fire_optional(self, table: Table, deadline: Deadline, now: float) -> bool:
        """The window for an optional decision closed: take its default (decline)."""
        seat = deadline.seat
        prompt = table.prompt_for(seat)
        if prompt is None or not prompt.optional or prompt.default is None or table.is_bot(seat):
            await self.core.save(table, without(table, deadline), now=now)
            return False
        transition = table.rules.apply(table.state, seat, prompt.default)
        update = await self.turns.commit(
            table, table, seat, transition, UpdateKind.TIMEOUT_MOVE, prompt.default, source="window", now=now
        )
        self.turns.after(update)
        return True

    async def _clock_loop(self) -> None:
        """Fire due clocks until the service closes, waking for the next one (`poll_interval` at most)."""
        while not self.core.closed:
            delay = self.core.poll_interval
            try:
                await self.run_due()
                shards = self.core.shards
                if shards is None:
                    upcoming = await self.core.store.next_due()
                else:
                    # Renewed in time, and a dead process's shards taken within a lease.
                    delay = min(delay, RENEW_SECONDS)
                    upcoming = (
                        await self.core.store.next_due(ShardSet(shards.count, self.held))
                        if self.held
                        else None
                    )
                if upcoming is not None:
                    delay = min(delay, max(min(1.0, delay), upcoming - self.core.clock()))
            except Exception:
                log.exception("clock loop failed; retrying")
            if not await self.core.sleep(delay):
                return
