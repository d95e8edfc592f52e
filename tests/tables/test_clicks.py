"""The journal of acknowledged clicks: a person's stored move deletes its click's row in the same write."""

from __future__ import annotations

import pytest

from engine.core import Action
from tables import StaleVersion, TableService, clicks
from tables.clicks import PendingClick
from tests.tables.conftest import HOST, raw_rows, started

STRIDE2 = Action.of("stride", n=2)


async def rows(database: str) -> list[int]:
    """The ids of the journalled clicks, read as another process would."""
    return [int(str(r[0])) for r in await raw_rows(database, "SELECT id FROM pending_clicks ORDER BY id")]


def click(number: int, table_id: int | None, *, move: bool = True) -> PendingClick:
    """A click of interaction `number` on a table."""
    return PendingClick(number, 7, f"secret-token-{number}", table_id, move, 1000.0 + number)


async def test_a_journalled_click_survives_until_closed_and_its_token_is_not_in_its_repr(
    service: TableService, database: str
) -> None:
    await service.store.journal_click(click(1, 5))
    await service.store.journal_click(click(2, None, move=False))
    found = await service.store.journalled_clicks()
    assert [(c.id, c.application_id, c.token, c.table_id, c.move) for c in found] == [
        (1, 7, "secret-token-1", 5, True),
        (2, 7, "secret-token-2", None, False),
    ]
    assert "secret-token" not in repr(found)
    await service.store.close_click(1)
    assert await rows(database) == [2]


async def test_the_move_a_click_stores_deletes_its_row_in_the_same_transaction(
    service: TableService, database: str
) -> None:
    table = await started(service)
    mine = click(10, table.id)
    await service.store.journal_click(mine)
    writes: list[str] = []
    original = service.store._write

    async def counted(unit, **how):  # type: ignore[no-untyped-def]
        writes.append("one" if how.get("one_statement") else "transaction")
        return await original(unit, **how)

    service.store._write = counted  # type: ignore[method-assign]
    mark = clicks.current.set(mine)
    try:
        await service.act(table.id, HOST, 0, STRIDE2)
    finally:
        clicks.current.reset(mark)
    assert mine.closed and await rows(database) == []
    assert writes == ["transaction"], "the click's row went in the move's own write, not one more"


async def test_a_refused_move_or_another_tables_move_leaves_the_click_journalled(
    service: TableService, database: str
) -> None:
    table = await started(service)
    other = await started(service)
    mine = click(11, table.id)
    await service.store.journal_click(mine)
    mark = clicks.current.set(mine)
    try:
        with pytest.raises(StaleVersion):
            await service.act(table.id, HOST, 5, STRIDE2)
        await service.act(other.id, HOST, 0, STRIDE2)
    finally:
        clicks.current.reset(mark)
    assert not mine.closed and await rows(database) == [11]
