"""PostgreSQL as the tables' store: the same schema as SQLite's, and several services sharing one database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from engine.core import Action
from tables import StaleVersion, Store, StoreUnavailable, TableService, Update, open_store, ratings
from tables.migrations import MIGRATIONS, SCHEMA_VERSION
from tables.store import SchemaTooNew
from tables.store.dialect import Dialect, numbered, schema_statement
from tables.store.postgres import TABLE_LOCK_SPACE, PostgresStore, redacted
from tests.pgcluster import Cluster
from tests.tables.conftest import (
    BOB,
    CHANNEL,
    GUILD,
    HOST,
    FakeClock,
    Recorder,
    empty_pg_database,
    raw_rows,
    started,
)

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


@pytest.fixture
async def pg_url(pg_cluster: Cluster) -> str:
    """An empty PostgreSQL database at the current schema."""
    return await empty_pg_database(pg_cluster)


@pytest.fixture
async def two_services(pg_url: str, clock: FakeClock) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two services, each on a pool of its own, on one PostgreSQL database: two bot processes."""
    first = TableService(await open_store(pg_url), clock=clock, bot_delay=0)
    second = TableService(await open_store(pg_url), clock=clock, bot_delay=0)
    yield first, second
    await first.close()
    await second.close()


async def test_the_same_click_at_two_services_at_once_is_applied_once(
    two_services: tuple[TableService, TableService], pg_url: str
) -> None:
    first, second = two_services
    table = await started(first)
    await second.get(table.id)  # both processes hold the table at version 0
    seen = [Recorder(), Recorder()]
    first.subscribe(seen[0])
    second.subscribe(seen[1])
    results = await asyncio.gather(
        first.act(table.id, HOST, 0, STRIDE2), second.act(table.id, HOST, 0, STRIDE2), return_exceptions=True
    )
    assert sum(isinstance(r, Update) for r in results) == 1, results
    assert sum(isinstance(r, StaleVersion) for r in results) == 1, results
    log = await raw_rows(pg_url, "SELECT version, action FROM actions WHERE table_id = ?", table.id)
    assert [row[0] for row in log] == [0]
    await first.idle()
    await second.idle()
    assert sum(len(r.updates) for r in seen) == 1, "one board for the one move"
    # The process that lost sees the game as stored: its next click, on the new board, plays.
    loser = second if isinstance(results[1], StaleVersion) else first
    assert (await loser.act(table.id, HOST, 1, ROLL)).table.version == 2


async def test_many_clicks_racing_across_two_services_keep_one_move_per_version(
    two_services: tuple[TableService, TableService], pg_url: str
) -> None:
    first, second = two_services
    table = await started(first)
    for version in range(2):
        action = STRIDE2 if version == 0 else ROLL
        await asyncio.gather(
            *(service.act(table.id, HOST, version, action) for service in (first, second, first, second)),
            return_exceptions=True,
        )
    versions = [
        row[0] for row in await raw_rows(pg_url, "SELECT version FROM actions WHERE table_id = ?", table.id)
    ]
    assert sorted(versions) == [0, 1]
    stored = await first.store.load(table.id)
    assert stored is not None and stored.version == 2


async def test_a_save_waits_for_another_process_holding_the_tables_lock(
    two_services: tuple[TableService, TableService], pg_url: str
) -> None:
    first, _ = two_services
    table = await started(first)
    other = await asyncpg.connect(pg_url)
    try:
        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT pg_advisory_xact_lock($1, $2)", TABLE_LOCK_SPACE, table.id)
        move = asyncio.create_task(first.act(table.id, HOST, 0, STRIDE2))
        await asyncio.sleep(0.3)
        assert not move.done(), "the save went ahead while another process held the table"
        await holding.commit()
        assert (await asyncio.wait_for(move, 10)).table.version == 1
    finally:
        await other.close()


async def test_the_schema_is_sqlites_with_postgresql_types(pg_url: str, tmp_path: Path) -> None:
    sqlite = await Store.open(tmp_path / "meeple.db")
    try:
        lite = await sqlite.read(
            lambda db: db.execute(
                "SELECT m.name, p.name, p.type, p.pk FROM sqlite_master m, pragma_table_info(m.name) p "
                "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'"
            ).fetchall()
        )
    finally:
        await sqlite.close()
    pg = await raw_rows(
        pg_url,
        "SELECT c.table_name, c.column_name, c.data_type, "
        "(SELECT count(*) FROM information_schema.key_column_usage k"
        " JOIN information_schema.table_constraints t"
        " ON t.constraint_name = k.constraint_name AND t.constraint_type = 'PRIMARY KEY'"
        " WHERE k.table_name = c.table_name AND k.column_name = c.column_name) "
        "FROM information_schema.columns c"
        " WHERE c.table_schema = 'public' AND c.table_name <> 'meeple_schema'",
    )
    types = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"}
    assert {(t, c, types[ty], bool(pk)) for t, c, ty, pk in lite} == {
        (t, c, ty, bool(pk)) for t, c, ty, pk in pg
    }
    store = await open_store(pg_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    finally:
        await store.close()


async def test_two_processes_opening_a_new_database_at_once_migrate_it_once(pg_cluster: Cluster) -> None:
    admin = await asyncpg.connect(pg_cluster.url())
    try:
        await admin.execute("DROP DATABASE IF EXISTS meeple_race WITH (FORCE)")
        await admin.execute("CREATE DATABASE meeple_race")
    finally:
        await admin.close()
    url = pg_cluster.url("meeple_race")
    stores = await asyncio.gather(open_store(url), open_store(url), open_store(url))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 3
        assert await raw_rows(url, "SELECT version FROM meeple_schema") == [(SCHEMA_VERSION,)]
    finally:
        for store in stores:
            await store.close()


async def test_an_unreachable_database_is_a_one_line_open_error_without_its_password() -> None:
    with pytest.raises(Exception) as refused:
        await PostgresStore.open("postgresql://meeple:s3cret@127.0.0.1:1/meeple")
    assert "cannot connect to the database postgresql://meeple:***@127.0.0.1:1/meeple" in str(refused.value)
    assert "s3cret" not in str(refused.value)
    assert redacted("postgresql://u@h/db") == "postgresql://u@h/db"


def test_the_dialect_rewrites_placeholders_upserts_and_generated_ids() -> None:
    dialect = Dialect(
        keys={"seats": ("table_id", "seat"), "players": ("user_id",)}, generated_ids=frozenset({"tables"})
    )
    assert numbered("SELECT '?' , ? FROM t WHERE a = ? AND b = \"?\"") == (
        "SELECT '?' , $1 FROM t WHERE a = $2 AND b = \"?\""
    )
    upsert = dialect.statement(
        "INSERT OR REPLACE INTO seats (table_id, seat, name) VALUES (?, ?, ?), (?, ?, ?)"
    )
    assert upsert.text == (
        "INSERT INTO seats (table_id, seat, name) VALUES ($1, $2, $3), ($4, $5, $6)"
        " ON CONFLICT (table_id, seat) DO UPDATE SET name = EXCLUDED.name"
    )
    assert not upsert.returns_rows
    ignore = dialect.statement("INSERT OR IGNORE INTO table_chores (table_id, kind, due_at) VALUES (?, ?, ?)")
    assert ignore.text.endswith("VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
    insert = dialect.statement("INSERT INTO tables (game) VALUES (?)")
    assert insert.text == "INSERT INTO tables (game) VALUES ($1) RETURNING id" and insert.returns_id
    assert dialect.statement("SELECT user_id FROM barred ORDER BY rowid").text.endswith("ORDER BY ctid")
    assert schema_statement("CREATE TABLE x (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL, b BLOB)") == (
        "CREATE TABLE x (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        " at DOUBLE PRECISION, b BYTEA)"
    )
    assert schema_statement("UPDATE t SET note = 'INTEGER'") == "UPDATE t SET note = 'INTEGER'"


async def test_connections_cut_by_the_server_are_replaced_and_the_game_goes_on(
    pg_url: str, clock: FakeClock
) -> None:
    service = TableService(await open_store(pg_url), clock=clock, bot_delay=0)
    try:
        table = await started(service)
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        outcomes: list[object] = []
        for _ in range(3):
            try:
                outcomes.append(await service.act(table.id, HOST, 0, STRIDE2))
                break
            except StoreUnavailable as refused:
                outcomes.append(refused)
        assert isinstance(outcomes[-1], Update) and outcomes[-1].table.version == 1, outcomes
        # Refused at most once, as "try again" (here the pool notices and reconnects first).
        assert all(isinstance(o, StoreUnavailable) for o in outcomes[:-1]) and len(outcomes) <= 2
    finally:
        await service.close()


async def to_last_move(service: TableService, table_id: int) -> tuple[int, int, Action]:
    """Play a race until its next move ends it; that move as (user, version, action)."""
    while True:
        await service.idle()
        table = await service.get(table_id)
        prompt = next(p for p in table.prompts if not table.is_bot(p.seat))
        action = prompt.options[-1] if prompt.kind == "stride" else ROLL
        user = table.seats[prompt.seat].user_id
        assert user is not None
        if table.rules.outcome(table.rules.apply(table.state, prompt.seat, action).state) is not None:
            return user, table.version, action
        await service.act(table_id, user, table.version, action)


async def test_two_games_ending_at_once_in_two_processes_both_count_in_the_ratings(
    two_services: tuple[TableService, TableService],
) -> None:
    first, second = two_services
    tables = []
    for _ in range(2):
        lobby = await first.create("race", GUILD, CHANNEL, HOST, "Host", {"goal": 10})
        await first.join(lobby.id, BOB, "Bob")
        tables.append((await first.start_game(lobby.id, HOST)).table)
    finals = [await to_last_move(first, table.id) for table in tables]
    await second.get(tables[1].id)
    await asyncio.gather(first.act(tables[0].id, *finals[0]), second.act(tables[1].id, *finals[1]))
    for service in (first, second):
        await service.idle()
    for user in (HOST, BOB):
        rated = await first.store.read(ratings.rating_of, GUILD, "race", user)
        assert rated is not None and rated.games == 2, (user, rated)


async def test_a_database_of_a_newer_meeple_is_refused(pg_url: str) -> None:
    raw = await asyncpg.connect(pg_url)
    try:
        await raw.execute("UPDATE meeple_schema SET version = $1", SCHEMA_VERSION + 1)
        with pytest.raises(SchemaTooNew, match=f"has schema {SCHEMA_VERSION + 1}, newer than this Meeple's"):
            await open_store(pg_url)
    finally:
        await raw.execute("UPDATE meeple_schema SET version = $1", SCHEMA_VERSION)
        await raw.close()
