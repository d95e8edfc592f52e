"""What one click writes (issue 35): one transaction for a move within a turn, two when a turn starts.

Counted at SQLite itself (its trace of the statements it runs): a write transaction is a
BEGIN ... COMMIT that wrote something, or a lone INSERT, UPDATE or DELETE (SQLite makes it
a transaction of its own). The click journal's rows (table `pending_clicks`, written before
the click is acknowledged, tables/clicks.py) are counted apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from cogs.platform.ids import ActRef, GroupRef
from engine.games import GAMES
from tests.cogs.conftest import Harness
from tests.cogs.helpers import press, refs, table_of, user_of
from tests.cogs.test_days import open_game

_TARGET = re.compile(r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.I)


@dataclass
class Writes:
    """The write transactions SQLite committed, each as the set of tables it wrote."""

    committed: list[frozenset[str]] = field(default_factory=list)
    _open: set[str] | None = None

    def __call__(self, sql: str) -> None:
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head == "BEGIN":
            self._open = set()
        elif head in ("COMMIT", "END"):
            if self._open:
                self.committed.append(frozenset(self._open))
            self._open = None
        elif head == "ROLLBACK":
            self._open = None
        elif (found := _TARGET.match(sql)) is not None:
            if self._open is not None:
                self._open.add(found.group(1).lower())
            else:
                self.committed.append(frozenset({found.group(1).lower()}))

    def split(self) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
        """(the journal's own transactions, every other one)."""
        journal = [c for c in self.committed if c == {"pending_clicks"}]
        return journal, [c for c in self.committed if c != {"pending_clicks"}]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_click_writes_once_within_a_turn_and_twice_when_a_turn_starts(
    world: Harness, game: str
) -> None:
    await open_game(world, game)
    writes = Writes()
    await world.bot.tables.store._db.set_trace_callback(writes)
    seen: dict[bool, list[int]] = {False: [], True: []}
    for _ in range(60):
        await world.idle()
        table = await table_of(world)
        if table.status.value != "playing" or (seen[False] and seen[True]):
            break
        board = world.board()
        human = {p.seat for p in table.prompts if not table.is_bot(p.seat)}
        choice = next(
            (
                (ref, cid, value)
                for ref, cid, value in refs(board)
                if isinstance(ref, ActRef) and ref.seat in human
            ),
            None,
        )
        if choice is None:
            # A grouped menu: open the first group, then play from it (not measured).
            group = next(
                (cid, value)
                for ref, cid, value in refs(board)
                if isinstance(ref, GroupRef) and ref.seat in human
            )
            await press(world, user_of(world, table.seats[next(iter(human))].user_id), board, *group)
            continue
        ref, custom_id, value = choice
        writes.committed.clear()
        await press(world, user_of(world, table.seats[ref.seat].user_id), board, custom_id, value)
        await world.idle()
        after = await table_of(world)
        if after.version != table.version + 1:
            continue  # forced steps or a bot followed: more than one click's moves
        journal, others = writes.split()
        new_board = after.board_message_id != table.board_message_id
        assert len(journal) <= 1, journal
        assert len(others) <= (2 if new_board else 1), (new_board, others)
        seen[new_board].append(len(others))
    assert seen[False] and seen[True], f"{game}: clicks within a turn and clicks that start one, {seen}"
