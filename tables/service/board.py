"""Where a table is shown: its thread (a change of the table) and its lobby message (the board ledger).

The board messages themselves are the Discord side's: it keeps them in the board ledger
(tables/store/boards.py) and reads and writes it through the store, not through the service.
"""

from __future__ import annotations

from dataclasses import replace

from tables.models import Table
from tables.service.core import TableCore


class BoardLedger:
    """Records the thread a game is played in and the lobby message of a table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the game is played in."""
        async with self.core.locked(table_id) as table:
            return await self.core.save(table, replace(table, thread_id=thread_id))

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the lobby message (in the board ledger: the table itself is untouched)."""
        async with self.core.locked(table_id) as table:
            await self.core.store.set_lobby_message(table_id, message_id)
            return table
