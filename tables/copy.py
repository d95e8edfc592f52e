"""`python -m tables.copy SOURCE TARGET [--replace]`: every table, record, setting and rating, copied.

SOURCE and TARGET are SQLite files or postgresql:// URLs, either way round. The
target is brought to the current schema, then every row of the schema's tables is copied in
one transaction, with the same ids. The copy is then checked: each table holds as many rows as
the source's, and every game with a seed is replayed from the target's record and checked as
`python -m engine.verify` checks a record (the seed's commitment, each move, roll and result),
its current state against the stored snapshot. A target that already holds data is refused
unless --replace is given (its rows are deleted first, in the same transaction).

Left out: the clock leases of running processes and the journal of clicks in flight (both are
about the processes running on the source, which must be stopped for the copy).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import verify
from engine.core import Move, Record, replay
from engine.recordfile import build
from tables.database import DatabaseLock
from tables.errors import StoreOpenError, StoreUnavailable
from tables.migrations import MIGRATIONS
from tables.store import Store
from tables.store import open_store as open_any
from tables.store.rows import fetch_all

LEFT_OUT = frozenset({"clock_leases", "pending_clicks"})
"""Tables about the processes running on a store, not its games: not copied."""
BATCH = 500
POSTGRES = ("postgresql://", "postgres://")


class CopyRefused(Exception):
    """The copy was not made: the message says why."""


def schema_tables() -> list[str]:
    """The tables the schema steps leave, in the order they were made (a table before those naming it)."""
    made: list[str] = []
    for step in MIGRATIONS:
        for kind, first, second in re.findall(
            r"\b(CREATE TABLE(?: IF NOT EXISTS)?|DROP TABLE|ALTER TABLE)\s+(\w+)(?:\s+RENAME TO\s+(\w+))?",
            step,
            re.IGNORECASE,
        ):
            kind = kind.upper()
            if kind.startswith("CREATE") and first not in made:
                made.append(first)
            elif kind == "DROP TABLE" and first in made:
                made.remove(first)
            elif second and first in made:
                made[made.index(first)] = second
    return made


def copied_tables() -> list[str]:
    """The tables the copy carries over, in an order their references allow."""
    return [name for name in schema_tables() if name not in LEFT_OUT]


@dataclass
class Report:
    """What a copy did and checked."""

    rows: dict[str, int] = field(default_factory=dict)
    games: int = 0
    """Games with a seed replayed and checked."""
    replaced: int = 0
    """Rows of the target deleted first (--replace)."""

    def words(self, source: str, target: str) -> str:
        """One paragraph for the terminal."""
        total = sum(self.rows.values())
        busy = ", ".join(f"{name} {count}" for name, count in self.rows.items() if count)
        replaced = f" (after deleting its {self.replaced} earlier rows)" if self.replaced else ""
        return (
            f"copied {total} rows from {source} to {target}{replaced}: {busy or 'nothing to copy'}.\n"
            f"checked: every table's row count, and {self.games} games replayed from the copied records"
            " (seed commitment, every move, roll and result, and the stored state of games in play)."
        )


async def open_store(where: str) -> Store:
    """The store at `where`: a SQLite file, or a postgresql:// URL."""
    return await open_any(where)


def _columns(conn: sqlite3.Connection, table: str, cursor: Any) -> list[str]:
    """The column names of a query's rows (the cursor's description, else PostgreSQL's catalog)."""
    description = getattr(cursor, "description", None)
    if description:
        return [str(d[0]) for d in description]
    # Of the store's own schema: information_schema has a `tables` of its own.
    rows = conn.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def read_everything(conn: sqlite3.Connection) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every copied table's columns and rows (on the source's database thread)."""
    found = {}
    for table in copied_tables():
        cursor = conn.execute(f"SELECT * FROM {table}")
        rows = [tuple(r) for r in cursor.fetchall()]
        found[table] = (_columns(conn, table, cursor), rows)
    return found


def count_rows(conn: sqlite3.Connection) -> dict[str, int]:
    """How many rows each copied table holds."""
    return {
        table: int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchall()[0][0])
        for table in copied_tables()
    }


def _batches(rows: Sequence[tuple[Any, ...]]) -> Iterator[Sequence[tuple[Any, ...]]]:
    for start in range(0, len(rows), BATCH):
        yield rows[start : start + BATCH]


async def copy_store(source: Store, target: Store, *, replace: bool = False) -> Report:
    """Copy every row of `source` into `target` (one transaction), then check the copy."""
    report = Report()
    data = await source.read(read_everything)
    held = await target.read(count_rows)
    if any(held.values()) and not replace:
        busy = ", ".join(f"{name} ({count} rows)" for name, count in held.items() if count)
        raise CopyRefused(f"the target already holds data: {busy}; give --replace to delete it first")

    def unit(conn: sqlite3.Connection) -> None:
        if replace:
            for table in reversed(copied_tables()):
                conn.execute(f"DELETE FROM {table}")
        for table, (columns, rows) in data.items():
            if not rows:
                continue
            marks = ", ".join("?" for _ in columns)
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            for batch in _batches(rows):
                conn.executemany(sql, batch)

    await target.write(unit)
    # PostgreSQL's identity columns: their sequences move past the copied ids here, so the next
    # table does not take a copied one's id (SQLite's AUTOINCREMENT follows the rows by itself).
    after_copy = getattr(target, "after_copy", None)
    if after_copy is not None:
        await after_copy()
    report.replaced = sum(held.values()) if replace else 0
    report.rows = {table: len(rows) for table, (_, rows) in data.items()}
    copied = await target.read(count_rows)
    if copied != report.rows:
        differ = [t for t in copied if copied[t] != report.rows.get(t)]
        raise CopyRefused(f"the copy differs from the source in {', '.join(differ)}")
    report.games = await check_games(source, target)
    return report


async def check_games(source: Store, target: Store) -> int:
    """Replay every game with a seed from the target's record and check it; return how many."""
    ids = [
        int(r[0]) for r in await target.read(fetch_all, "SELECT id FROM tables WHERE seed IS NOT NULL", ())
    ]
    for table_id in sorted(ids):
        there, here = await _record(source, table_id), await _record(target, table_id)
        if there != here:
            raise CopyRefused(f"table {table_id}: its record differs from the source's")
        table, record = here
        assert table.salt is not None, "a game with a seed has its salt (schema step 5)"
        try:
            verify.verify(build(record, table.salt, reveal=True, table=table_id))
        except (verify.RecordProblem, verify.CannotCheck) as exc:
            raise CopyRefused(f"table {table_id}: its copied record does not verify: {exc}") from None
        if table.state is not None:
            final = replay(table.rules, record)[-1]
            if table.rules.encode(final) != table.rules.encode(table.state):
                raise CopyRefused(f"table {table_id}: replaying its record does not give its stored state")
    return len(ids)


async def _record(store: Store, table_id: int) -> tuple[Any, Record]:
    table = await store.load(table_id)
    if table is None or table.seed is None:
        raise CopyRefused(f"table {table_id} is missing from one of the stores")
    moves = tuple(Move(row.seat, row.action) for row in await store.actions(table_id))
    return table, Record(table.game, len(table.seats), dict(table.options), table.seed, moves)


async def copy_between(source: str, target: str, *, replace: bool = False) -> str:
    """Open both stores (holding the lock of each SQLite file), copy, check; the report in words."""
    if not source.startswith(POSTGRES) and not Path(source).is_file():
        raise CopyRefused(f"there is no database at {source}")
    if source == target:
        raise CopyRefused("the source and the target are the same database")
    with contextlib.ExitStack() as locks:
        for where in (source, target):
            if not where.startswith(POSTGRES):
                # A running Meeple holds this lock: copying under it would miss its last moves.
                locks.enter_context(DatabaseLock.acquire(Path(where)))
        src = await open_store(source)
        try:
            dst = await open_store(target)
            try:
                report = await copy_store(src, dst, replace=replace)
            finally:
                await dst.close()
        finally:
            await src.close()
    return report.words(source, target)


def main(argv: Sequence[str] | None = None) -> int:
    """Copy one store into another; exit status 0 when copied and checked, 1 otherwise."""
    parser = argparse.ArgumentParser(prog="python -m tables.copy", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="the store to copy: a SQLite file or a postgresql:// URL")
    parser.add_argument("target", help="the store to fill: a SQLite file or a postgresql:// URL")
    parser.add_argument("--replace", action="store_true", help="delete what the target holds first")
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(copy_between(args.source, args.target, replace=args.replace)))
    except (CopyRefused, StoreOpenError, StoreUnavailable) as exc:
        print(f"not copied: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
