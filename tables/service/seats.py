"""Seats changing hands in a game: a bot takes over, the player reclaims, the game is abandoned."""

from __future__ import annotations

from dataclasses import replace

from engine.words import N_
from tables.errors import NotAllowed, NotSeated
from tables.models import Notice, NoticeKind, Table, TableStatus, Update, UpdateKind
from tables.service.core import TableCore
from tables.service.delivery import Delivery
from tables.service.plans import plan, set_seat


class Seats:
    """Who plays a seat: replacement by a bot (leaving, absence, a vote), reclaiming, abandoning."""

    def __init__(self, core: TableCore, delivery: Delivery) -> None:
        self.core = core
        self.delivery = delivery

    async def reclaim(self, table_id: int, user_id: int) -> Table:
        """Take one's seat back from the bot that replaced one."""
        async with self.core.locked(table_id, TableStatus.PLAYING) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            info = table.seats[seat]
            if not info.replaced:
                raise NotAllowed(N_("No bot is playing your seat."))
            now = self.core.clock()
            to_move = seat in table.to_move
            new = set_seat(
                table, seat, replace(info, bot=None, replaced=False, idle_since=now if to_move else None)
            )
            new = replace(new, deadlines=plan(table, new, now, {seat}))
            saved = await self.core.save(table, new)
            self.delivery.publish(Notice(NoticeKind.RECLAIMED, saved, seat, user_id))
            return saved

    async def hand_to_bot(self, table_id: int, seat: int, idle_since: float) -> Table:
        """Hand a due seat to a bot now (a vote carried: tables/votes.py), unless its player
        moved since `idle_since`; the player takes it back by playing a move, as after a timeout."""
        async with self.core.locked(table_id, TableStatus.PLAYING) as table:
            info = table.seats[seat] if 0 <= seat < len(table.seats) else None
            if info is None or info.is_bot or info.idle_since != idle_since or seat not in table.to_move:
                raise NotAllowed(N_("That player has played since: the vote is over."))
            return await self.to_bot(table, seat)

    async def abandon(self, table_id: int, by_user: int, is_manager: bool = False) -> Update:
        """End a game in progress without a result (host or server manager)."""
        async with self.core.locked(table_id, TableStatus.PLAYING) as table:
            if by_user != table.host_id and not is_manager:
                raise NotAllowed(N_("Only the host or a server manager can abandon this game."))
            return await self.end(table)

    async def end(self, table: Table, now: float | None = None) -> Update:
        """End the game without a result and tell the listeners (the table's lock held)."""
        new = await self.core.save(
            table, replace(table, status=TableStatus.ABANDONED), drop_undo=True, now=now
        )
        update = Update(UpdateKind.ABANDON, new)
        self.delivery.publish(update)
        return update

    async def to_bot(self, table: Table, seat: int, now: float | None = None) -> Table:
        """Hand a human's seat to a bot (lock held); with no active human left the game is abandoned."""
        now = self.core.clock() if now is None else now
        info = table.seats[seat]
        new = set_seat(
            table, seat, replace(info, bot=self.core.replacement_bot, replaced=True, idle_since=None)
        )
        if not any(s.user_id is not None and not s.is_bot for s in new.seats):
            return (await self.end(table, now)).table
        new = replace(new, deadlines=plan(table, new, now, set()))
        saved = await self.core.save(table, new, now=now)
        self.delivery.publish(Notice(NoticeKind.REPLACED, saved, seat, info.user_id))
        self.core.kick_bots(saved)
        return saved
