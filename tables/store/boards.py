"""The board ledger: what the Discord side shows of a table, in its own table `boards`.

The tables layer never reads it; the cogs (cogs/platform/board_messages.py, keeper.py,
presenter.py) read and write it through these few calls. A row is made with its table.
A write that only says an edited board now shows a later version (`board_later`) waits
for the table's next save and goes in the move's own transaction; lost in a crash, it
only makes the board look behind, and the keeper edits it once more.
"""

from __future__ import annotations

import logging
import sqlite3

from tables.errors import StoreUnavailable
from tables.shards import ShardSet
from tables.store.rows import (
    BEHIND,
    BOARD_COLUMNS,
    WRITE_BOARD,
    BoardRecord,
    board_row,
    build_record,
    fetch_all,
    on_shards,
)
from tables.store.writes import Writes

log = logging.getLogger(__name__)


class Boards(Writes):
    """The board ledger's reads and writes (see the module docstring)."""

    async def board(self, table_id: int) -> BoardRecord:
        """A table's row of the ledger (an empty one if it has none), with a write still waiting."""
        waiting = self._boards_later.get(table_id)
        if waiting is not None:
            return waiting
        rows = await self._read(
            fetch_all, f"SELECT {BOARD_COLUMNS} FROM boards WHERE table_id = ?", (table_id,)
        )
        return build_record(rows[0]) if rows else BoardRecord(table_id)

    async def save_board(self, record: BoardRecord) -> None:
        """Write a table's board columns now, over any record waiting (one statement; the lobby
        message is left as it is)."""
        row = board_row(record)

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(WRITE_BOARD, row)

        await self._write(unit, one_statement=True)
        # The record written is the latest word on the table's board: what waited is superseded.
        self._boards_later.pop(record.table_id, None)

    def board_later(self, record: BoardRecord) -> None:
        """Keep a record to write with the table's next save (an edit: losing it costs one more edit)."""
        self._boards_later[record.table_id] = record

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> None:
        """Record a table's lobby message."""

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO boards (table_id, lobby_message_id) VALUES (?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET lobby_message_id = excluded.lobby_message_id",
                (table_id, message_id),
            )

        await self._write(unit, one_statement=True)
        waiting = self._boards_later.get(table_id)
        if waiting is not None:
            self._boards_later[table_id] = BoardRecord(
                table_id,
                message_id,
                waiting.message_id,
                waiting.version,
                waiting.movers,
                waiting.posting,
                waiting.retired,
            )

    async def boards_behind(self, shards: ShardSet | None = None) -> list[int]:
        """Ids of the games (in play or just finished) whose board is not known to be up to date
        (of `shards`' servers, if given)."""
        where, params = on_shards(shards)
        rows = await self._read(
            fetch_all,
            "SELECT t.id, t.version FROM tables t JOIN boards b ON b.table_id = t.id"
            f" WHERE {BEHIND}{where} ORDER BY t.id",
            params,
        )
        behind = []
        for table_id, version in rows:
            waiting = self._boards_later.get(int(table_id))
            if waiting is None or waiting.behind(int(version)):
                behind.append(int(table_id))
        return behind

    async def boards_in_play(
        self, after: int = 0, limit: int = 100, shards: ShardSet | None = None
    ) -> list[tuple[int, int, int]]:
        """(id, thread, board message) of the games in play with a board message, by id above `after`
        (of `shards`' servers, if given)."""
        where, params = on_shards(shards)
        rows = await self._read(
            fetch_all,
            "SELECT t.id, t.thread_id, b.message_id FROM tables t JOIN boards b ON b.table_id = t.id"
            " WHERE t.status = 'playing' AND t.thread_id IS NOT NULL AND b.message_id IS NOT NULL"
            f" AND t.id > ?{where} ORDER BY t.id LIMIT ?",
            (after, *params, limit),
        )
        found = []
        for table_id, thread_id, message_id in rows:
            waiting = self._boards_later.get(int(table_id))
            shown = message_id if waiting is None or waiting.message_id is None else waiting.message_id
            found.append((int(table_id), int(thread_id), int(shown)))
        return found

    async def write_boards_waiting(self) -> None:
        """Write the records still waiting for their table's next save (before closing)."""
        try:
            for record in list(self._boards_later.values()):
                await self.save_board(record)
        except StoreUnavailable as exc:
            log.warning("board records not written before closing (%s): boards look behind", exc)

    async def close(self) -> None:
        """Write the records still waiting for their table's next save, then close."""
        await self.write_boards_waiting()
        await super().close()
