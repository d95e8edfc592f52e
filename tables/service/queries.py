"""Queries: a table, the tables of a channel, thread or user, a game's log and record."""

from __future__ import annotations

from dataclasses import replace

from engine.core import Move, Record, advance
from tables.errors import GameNotRunning
from tables.models import LoggedEvent, Table, TableStatus
from tables.service.core import TableCore
from tables.store import ActionRow

OPEN = (TableStatus.LOBBY, TableStatus.PLAYING)


class Queries:
    """Reads only: nothing here takes a table's lock or changes a table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def get(self, table_id: int) -> Table:
        """The table, or NoSuchTable."""
        return await self.core.load(table_id)

    async def tables_in_channel(
        self, channel_id: int, statuses: tuple[TableStatus, ...] = OPEN
    ) -> list[Table]:
        """Tables created in a channel with one of `statuses` (open ones by default), oldest first."""
        return await self.core.store.find(statuses=statuses, channel_id=channel_id)

    async def table_for_thread(self, thread_id: int) -> Table | None:
        """The table played in a thread, if any (the latest one, whatever its status)."""
        found = await self.core.store.find(statuses=tuple(TableStatus), thread_id=thread_id)
        return found[-1] if found else None

    async def tables_of_user(self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN) -> list[Table]:
        """The tables where a user holds a seat, with one of `statuses`, oldest first."""
        return await self.core.store.find(statuses=statuses, user_id=user_id)

    async def finished_in_guild(self, guild_id: int, *, offset: int, limit: int) -> tuple[list[Table], int]:
        """One page of a server's finished games, the latest to end first, and how many there are."""
        return await self.core.store.finished_in_guild(guild_id, offset=offset, limit=limit)

    async def log(self, table_id: int) -> list[LoggedEvent]:
        """Every event of the game so far, in order (filter with Event.visible for a seat)."""
        rows = await self.actions(table_id)
        return [LoggedEvent(row.version, row.seat, event) for row in rows for event in row.events]

    async def actions(self, table_id: int) -> list[ActionRow]:
        """The game's action log with the events of each move (Store.actions, events included)."""
        table = await self.core.load(table_id)
        rows = await self.core.store.actions(table_id)
        if all(row.events_kept for row in rows):
            return rows
        # A game that ended keeps its moves only: they give the same events again from the seed.
        rules = table.rules
        assert table.seed is not None
        history = [rules.setup(len(table.seats), table.options, table.seed)]
        replayed = []
        for row in rows:
            history, events = advance(rules, history, row.seat, row.action)
            replayed.append(replace(row, events=events, events_kept=True))
        return replayed

    async def record(self, table_id: int) -> Record:
        """The game's record (seed, options, moves with undos) for engine.core.replay."""
        table = await self.core.load(table_id)
        if table.seed is None:
            raise GameNotRunning()
        moves = tuple(Move(row.seat, row.action) for row in await self.core.store.actions(table_id))
        return Record(table.game, len(table.seats), dict(table.options), table.seed, moves)
