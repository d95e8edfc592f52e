"""The store's write path: a new table, the guarded save (its plan, then its statements), small writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tables import clicks, ratings, results
from tables.models import Deadline, SeatInfo, Table
from tables.store.connection import Connection
from tables.store.packing import pack_log, played_moves
from tables.store.rows import (
    WRITE_BOARD_LATER,
    BoardRecord,
    NewAction,
    board_row,
    dumps,
    events_json,
    placeholders,
)


class _Stale(Exception):
    """Raised inside a transaction to roll it back when the guarded row did not match."""


class Writes(Connection):
    """Every write of the store; each is one transaction in one trip to the database thread."""

    async def insert_table(self, table: Table) -> Table:
        """Store a new table (its id is ignored) and return it with its id."""
        row = (
            table.game,
            table.guild_id,
            table.channel_id,
            table.thread_id,
            table.host_id,
            table.status.value,
            dumps(dict(table.options)),
            table.seed,
            None if table.state is None else table.rules.encode(table.state),
            table.version,
            table.created_at,
            table.updated_at,
            dumps(table.timing.to_json()),
            table.revision,
            table.language,
        )

        def unit(conn: sqlite3.Connection) -> int:
            table_id = conn.execute(
                "INSERT INTO tables (game, guild_id, channel_id, thread_id, host_id, status, options, "
                "seed, state, version, created_at, updated_at, timing, revision, language) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            ).lastrowid
            assert table_id is not None
            conn.execute("INSERT INTO boards (table_id) VALUES (?)", (table_id,))
            self._write_seats(conn, table_id, table.seats, False)
            self._write_deadlines(conn, table_id, table.deadlines)
            return table_id

        return replace(table, id=await self._write(unit))

    async def save(
        self,
        old: Table,
        new: Table,
        *,
        append: Sequence[NewAction] = (),
        mark_undone: int | None = None,
        drop_undo_snapshots: bool = False,
        snapshot: str | None = None,
    ) -> bool:
        """Write `new` over `old` in one transaction, with its log entries; False if `old` is stale.

        The write is guarded by `WHERE id = ? AND version = ? AND revision = ?`: if another
        writer got there first nothing is written. `new.revision` must be `old.revision + 1`.
        `snapshot` is `new.state` already encoded, if the caller has it. Everything is encoded
        here first, then written in one trip to the database thread. A game that ends drops
        its undo snapshots and its logged events (the moves stay: replaying them from the
        seed gives the events again, see `Store.actions`).
        """
        if snapshot is None and new.state is not None:
            snapshot = new.rules.encode(new.state)
        click = clicks.current.get()
        if click is not None and (click.closed or click.table_id != old.id):
            click = None
        if not any(entry.source == "human" for entry in append):
            click = None  # only a person's move is the click's outcome (not a bot's, nor a lobby change)
        # What an edited board shows goes with the move (cogs' board ledger, tables/store/boards.py).
        board = self._boards_later.get(old.id)
        plan = _SavePlan(
            table_id=old.id,
            table_row=(
                new.thread_id,
                new.host_id,
                new.status.value,
                dumps(dict(new.options)),
                new.seed,
                snapshot,
                new.version,
                new.updated_at,
                dumps(new.timing.to_json()),
                new.revision,
                int(new.may_move_unasked),
                old.id,
                old.version,
                old.revision,
            ),
            actions=tuple(
                (
                    entry.version,
                    entry.seat,
                    dumps(entry.action.to_json()),
                    events_json(entry.events),
                    entry.created_at,
                    entry.source,
                    entry.before,
                )
                for entry in append
            ),
            mark_undone=mark_undone,
            drop_undo=drop_undo_snapshots or not new.status.is_open,
            compact=not new.status.is_open and new.seed is not None,
            seats=new.seats if new.seats != old.seats else None,
            fewer_seats=len(new.seats) < len(old.seats),
            salt=new.salt if new.salt is not None and new.salt != old.salt else None,
            deadlines=new.deadlines if new.deadlines != old.deadlines else None,
            barred=new.barred if new.barred != old.barred else None,
            language=new.language if new.language != old.language else None,
            saved=(old, new) if old.status is not new.status else None,
            click=None if click is None else click.id,
            board=board,
        )
        try:
            await self._write(lambda conn: self._apply_save(conn, plan))
        except _Stale:
            return False
        if board is not None and self._boards_later.get(old.id) is board:
            del self._boards_later[old.id]
        if click is not None:
            click.closed = True
        return True

    def _apply_save(self, conn: sqlite3.Connection, plan: _SavePlan) -> None:
        """The statements of one save, on the database thread inside its transaction."""
        table_id = plan.table_id
        done = conn.execute(
            "UPDATE tables SET thread_id = ?, host_id = ?, status = ?, options = ?, seed = ?, state = ?, "
            "version = ?, updated_at = ?, timing = ?, revision = ?, bot_to_move = ? "
            "WHERE id = ? AND version = ? AND revision = ?",
            plan.table_row,
        )
        if done.rowcount != 1:
            raise _Stale
        if plan.drop_undo:
            conn.execute("DELETE FROM undo_states WHERE table_id = ?", (table_id,))
        if plan.mark_undone is not None:
            conn.execute(
                "UPDATE actions SET undone = 1 WHERE table_id = ? AND seq = ?", (table_id, plan.mark_undone)
            )
            conn.execute(
                "DELETE FROM undo_states WHERE table_id = ? AND seq = ?", (table_id, plan.mark_undone)
            )
        for version, seat, action, events, created_at, source, before in plan.actions:
            conn.execute(
                "INSERT INTO actions (table_id, seq, version, seat, action, events, created_at, source) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM actions WHERE table_id = ?",
                (table_id, version, seat, action, events, created_at, source, table_id),
            )
            if before is not None and not plan.compact:
                conn.execute(
                    "INSERT INTO undo_states (table_id, seq, state) "
                    "SELECT ?, MAX(seq), ? FROM actions WHERE table_id = ?",
                    (table_id, before, table_id),
                )
        # A game this save ends gets its results and ratings here, before its log is packed.
        if plan.saved is not None:
            finished = results.on_saved(conn, *plan.saved, played_moves)
            if finished:
                ratings.rate_game(conn, finished)
        if plan.compact:
            pack_log(conn, table_id)
        if plan.seats is not None:
            self._write_seats(conn, table_id, plan.seats, plan.fewer_seats)
        if plan.barred is not None:
            conn.execute("DELETE FROM barred WHERE table_id = ?", (table_id,))
            conn.executemany(
                "INSERT INTO barred (table_id, user_id, name) VALUES (?, ?, ?)",
                [(table_id, user_id, name) for user_id, name in plan.barred],
            )
        if plan.deadlines is not None:
            self._write_deadlines(conn, table_id, plan.deadlines)
        if plan.language is not None:
            conn.execute("UPDATE tables SET language = ? WHERE id = ?", (plan.language, table_id))
        if plan.salt is not None:
            conn.execute(
                "INSERT OR REPLACE INTO seed_salts (table_id, salt) VALUES (?, ?)", (table_id, plan.salt)
            )
        if plan.board is not None:
            conn.execute(WRITE_BOARD_LATER, board_row(plan.board))
        if plan.click is not None:
            # The click that made this move is done with it: a crash can no longer leave it unanswered.
            conn.execute("DELETE FROM pending_clicks WHERE id = ?", (plan.click,))

    # Each statement lets go of the interpreter lock while SQLite runs it, and the database
    # thread must win the lock back from the drawing and bot threads: few statements, then,
    # one multi-row INSERT rather than one per row.

    def _write_seats(
        self, conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatInfo], fewer: bool
    ) -> None:
        """Write the seats over the stored ones (`fewer`: the table has fewer seats than stored)."""
        if fewer:
            conn.execute("DELETE FROM seats WHERE table_id = ? AND seat >= ?", (table_id, len(seats)))
        if seats:
            rows = [
                (table_id, i, s.user_id, s.bot, s.name, int(s.replaced), s.idle_since, s.prompt_version)
                for i, s in enumerate(seats)
            ]
            conn.execute(
                "INSERT OR REPLACE INTO seats (table_id, seat, user_id, bot, name, replaced, idle_since, "
                f"prompt_version) VALUES {placeholders(len(rows), 8)}",
                [value for row in rows for value in row],
            )

    def _write_deadlines(
        self, conn: sqlite3.Connection, table_id: int, deadlines: Sequence[Deadline]
    ) -> None:
        """Write a table's clocks over the stored ones."""
        conn.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        if deadlines:
            conn.execute(
                "INSERT INTO deadlines (table_id, seat, kind, due_at, count) "
                f"VALUES {placeholders(len(deadlines), 5)}",
                [value for d in deadlines for value in (table_id, d.seat, d.kind.value, d.due_at, d.count)],
            )

    # -- the journal of acknowledged clicks (tables/clicks.py) -----------------------

    async def journal_click(self, click: clicks.PendingClick) -> None:
        """Store an acknowledged click (or a slash command) until it is done (one statement)."""
        row = (
            click.id,
            click.application_id,
            click.token,
            click.table_id,
            int(click.move),
            click.created_at,
            click.guild_id,
            click.language,
            click.command,
        )

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO pending_clicks"
                " (id, application_id, token, table_id, move, created_at, guild_id, language, command)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )

        await self._write(unit, one_statement=True, bookkeeping=True)

    async def close_click(self, click_id: int) -> None:
        """Forget a journalled click: it was answered, or it can no longer be."""

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM pending_clicks WHERE id = ?", (click_id,))

        await self._write(unit, one_statement=True, bookkeeping=True)

    async def unmark_bot_to_move(self, table: Table) -> None:
        """Clear the start-up mark of a game that, as saved, waits on nobody but people."""
        row = (table.id, table.version, table.revision)

        def unit(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE tables SET bot_to_move = 0 WHERE id = ? AND version = ? AND revision = ?", row
            )

        await self._write(unit, one_statement=True)


@dataclass(frozen=True, slots=True)
class _SavePlan:
    """One save, every value encoded: what `Store._apply_save` writes on the database thread."""

    table_id: int
    table_row: tuple[Any, ...]
    """The UPDATE's values, ending with the guard (id, old version, old revision)."""
    actions: tuple[tuple[Any, ...], ...]
    """(version, seat, action, events, created_at, source, undo snapshot or None) per new entry."""
    mark_undone: int | None
    drop_undo: bool
    compact: bool
    """The game ended: its log is packed (moves kept, not their events)."""
    seats: Sequence[SeatInfo] | None
    fewer_seats: bool
    salt: str | None
    """The seed's salt, when it is new."""
    deadlines: Sequence[Deadline] | None
    barred: Sequence[tuple[int, str]] | None
    language: str | None = None
    """The table's language, when it changed."""
    saved: tuple[Table, Table] | None = None
    """(old, new) when the save changes the table's status: results may follow (tables/results.py)."""
    click: int | None = None
    """The journalled click (tables/clicks.py) this move closes: its row goes in the same transaction."""
    board: BoardRecord | None = None
    """A board ledger record waiting for this save (Boards.board_later)."""
