"""A save is one unit on the database thread: all of it or nothing, and never over a newer write."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import Action
from tables import StaleVersion, Store, StoreUnavailable, TableService, open_store
from tests.tables.conftest import HOST, FakeClock, io_error, raw_rows, started

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


async def counts(database: str, table_id: int) -> tuple[int, int]:
    """(log rows, undo snapshots) of a table, read with a separate connection."""
    log = await raw_rows(database, "SELECT COUNT(*) FROM actions WHERE table_id = ?", table_id)
    undo = await raw_rows(database, "SELECT COUNT(*) FROM undo_states WHERE table_id = ?", table_id)
    return int(str(log[0][0])), int(str(undo[0][0]))


async def test_a_save_over_a_newer_write_changes_nothing(database: str, clock: FakeClock) -> None:
    first = TableService(await open_store(database), clock=clock, bot_delay=0)
    second = TableService(await open_store(database), clock=clock, bot_delay=0)
    try:
        table = await started(first)
        await second.get(table.id)  # the second process holds the table as it was
        await first.act(table.id, HOST, 0, STRIDE2)
        assert await counts(database, table.id) == (1, 1)
        with pytest.raises(StaleVersion):
            await second.act(table.id, HOST, 0, STRIDE2)
        assert await counts(database, table.id) == (1, 1), "the lost update wrote nothing"
        # It reads the newer table again and goes on from there.
        assert (await second.act(table.id, HOST, 1, ROLL)).table.version == 2
        assert await counts(database, table.id) == (2, 0)
    finally:
        await second.close()
        await first.close()


async def test_a_failure_inside_the_save_leaves_log_and_undo_untouched(
    service: TableService, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE2)

    def broken(*args: object) -> None:
        raise io_error(database)

    monkeypatch.setattr(Store, "_write_deadlines", broken)
    with pytest.raises(StoreUnavailable):
        await service.act(table.id, HOST, 1, ROLL)
    assert await counts(database, table.id) == (1, 1)
    assert (await service.get(table.id)).version == 1


async def test_saves_of_many_tables_at_once_each_land_whole(service: TableService) -> None:
    tables = [await started(service, bob=False) for _ in range(12)]

    async def move(table_id: int, action: Action) -> None:
        await service.act(table_id, HOST, (await service.get(table_id)).version, action)

    for _ in range(3):
        await asyncio.gather(*(move(t.id, STRIDE2) for t in tables))
        await asyncio.gather(*(move(t.id, ROLL) for t in tables))
    for table in tables:
        rows = await service.store.actions(table.id)
        assert [r.action.kind for r in rows] == ["stride", "roll"] * 3
        assert [r.seq for r in rows] == list(range(1, 7))
