"""The language a journalled click is answered in after a restart, kept with its row (both stores)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import tables.store.connection as sqlite_store
import tables.store.postgres as postgres_store
from tables import TableService, open_store
from tables.clicks import PendingClick
from tables.migrations import MIGRATIONS, SCHEMA_VERSION
from tables.store.postgres import is_postgres_url
from tests.tables.conftest import columns, raw_rows

LANGUAGE_STEP = next(
    i for i, step in enumerate(MIGRATIONS) if "ALTER TABLE pending_clicks ADD COLUMN language" in step
)
"""The schema before the step that keeps a journalled click's language."""


async def test_a_journalled_click_keeps_its_language(service: TableService) -> None:
    store = service.store
    await store.journal_click(PendingClick(1, 7, "t1", 5, True, 1.0, 40, language="pl"))
    await store.journal_click(PendingClick(2, 7, "t2", None, False, 2.0, None, language="ko"))
    await store.journal_click(PendingClick(3, 7, "t3", 5, True, 3.0, 40))
    found = await store.journalled_clicks()
    assert [(c.id, c.language) for c in found] == [(1, "pl"), (2, "ko"), (3, None)]


@pytest.fixture(params=["sqlite", "postgres"])
async def older_database(
    request: pytest.FixtureRequest, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    """A database at the schema before LANGUAGE_STEP holding one journalled click, as that Meeple wrote it."""
    if request.param == "sqlite":
        target = str(db_path)
    else:
        target = await request.getfixturevalue("pg_cluster").fresh_database("meeple_before_click_language")
    with monkeypatch.context() as older:
        older.setattr(sqlite_store, "SCHEMA_VERSION", LANGUAGE_STEP)
        older.setattr(postgres_store, "SCHEMA_VERSION", LANGUAGE_STEP)
        await (await open_store(target)).close()
    assert "language" not in await columns(target, "pending_clicks")
    row = "INSERT INTO pending_clicks (id, application_id, token, table_id, move, created_at, guild_id)"
    values = (11, 7, "old-token", 5, 1, 1000.0, 40)
    if is_postgres_url(target):
        await raw_rows(target, f"{row} VALUES (?, ?, ?, ?, ?, ?, ?)", *values)
    else:
        with closing(sqlite3.connect(target)) as raw, raw:
            raw.execute(f"{row} VALUES (?, ?, ?, ?, ?, ?, ?)", values)
    return target


async def test_a_click_journalled_before_the_step_is_kept_without_a_language(older_database: str) -> None:
    store = await open_store(older_database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        (click,) = await store.journalled_clicks()
        assert (click.id, click.token, click.move, click.guild_id, click.language) == (
            11,
            "old-token",
            True,
            40,
            None,
        )
        # A click of the new process is journalled with its language beside it.
        await store.journal_click(PendingClick(12, 7, "t12", 5, True, 1001.0, 40, language="ru"))
        assert [c.language for c in await store.journalled_clicks()] == [None, "ru"]
    finally:
        await store.close()
