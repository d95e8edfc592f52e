"""The board ledger: the thread, lobby and board messages of a table, and what the board shows.

The intent to post is recorded before the message is sent, its id right after, so a crash in
between is found again (Table.board_posting) and mended. No revision bump: the game is untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tables.models import Table
from tables.service.core import TableCore


class BoardLedger:
    """Writes what the Discord side shows of a table: messages, board version, buttons to strip."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """Remember the thread the game is played in."""
        return await self._set_fields(table_id, thread_id=thread_id)

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the lobby message."""
        return await self._set_fields(table_id, lobby_message_id=message_id)

    async def set_board_message(self, table_id: int, message_id: int | None) -> Table:
        """Remember the latest board message (whose buttons are live), showing the current version."""
        return await self._set_board(
            table_id, lambda t: replace(t, board_message_id=message_id, board_version=t.version)
        )

    async def board_posting(self, table_id: int, version: int) -> Table:
        """Record that a new board message showing `version` is about to be sent."""
        return await self._set_board(table_id, lambda t: replace(t, board_posting=version))

    async def board_posted(
        self, table_id: int, message_id: int, version: int, movers: tuple[int, ...]
    ) -> Table:
        """Record the new board message; the previous one joins those whose buttons are to strip."""

        def posted(table: Table) -> Table:
            retired = table.board_retired
            old = table.board_message_id
            if old is not None and old != message_id and old not in retired:
                retired = (*retired, old)
            return replace(
                table,
                board_message_id=message_id,
                board_version=version,
                board_movers=movers,
                board_posting=None,
                board_retired=retired,
            )

        return await self._set_board(table_id, posted)

    async def board_shown(self, table_id: int, version: int, movers: tuple[int, ...]) -> Table:
        """Record that the board message was edited to show `version`."""
        return await self._set_board(
            table_id,
            lambda t: replace(t, board_version=max(version, t.board_version or 0), board_movers=movers),
        )

    async def board_mended(self, table_id: int, stripped: tuple[int, ...] = ()) -> Table:
        """Record that an interrupted post was cleaned up and that `stripped` messages lost their buttons."""
        return await self._set_board(
            table_id,
            lambda t: replace(
                t, board_posting=None, board_retired=tuple(m for m in t.board_retired if m not in stripped)
            ),
        )

    async def boards_behind(self) -> list[int]:
        """Ids of the games whose board on Discord is not known to show the stored game."""
        return await self.core.store.boards_behind()

    async def boards_in_play(self, after: int = 0, limit: int = 100) -> list[tuple[int, int, int]]:
        """(id, thread, board message) of games in play, by id from `after` (read, not loaded)."""
        return await self.core.store.boards_in_play(after, limit)

    async def _set_board(self, table_id: int, change: Callable[[Table], Table]) -> Table:
        """Write what a table's board message shows: no revision bump, the game is untouched."""
        async with self.core.locked(table_id) as table:
            return await self.core.save_board(change(table))

    async def _set_fields(self, table_id: int, **fields: Any) -> Table:
        """Write some of a table's fields (a message id) as a change of the table."""
        async with self.core.locked(table_id) as table:
            return await self.core.save(table, replace(table, **fields))
