"""Fixtures for the table tests: toy games registered, a fake clock, a service on each store.

`database` is parametrized: a SQLite file, then a PostgreSQL database of a throwaway cluster
(tests/pgcluster.py), so every test that opens its store through it runs on both.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from engine import games
from tables import Notice, Table, TableService, Update, open_store
from tables.store.dialect import numbered
from tables.store.postgres import is_postgres_url
from tests.pgcluster import Cluster

HOST, BOB, CAROL, DAN, EVE = 101, 102, 103, 104, 105
GUILD, CHANNEL = 1, 10


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move time forward and return the new time."""
        self.now += seconds
        return self.now


class Recorder:
    """A listener that keeps everything it is sent."""

    def __init__(self) -> None:
        self.items: list[Update | Notice] = []

    async def __call__(self, item: Update | Notice) -> None:
        self.items.append(item)

    @property
    def updates(self) -> list[Update]:
        """The updates received, in order."""
        return [i for i in self.items if isinstance(i, Update)]

    @property
    def notices(self) -> list[Notice]:
        """The notices received, in order."""
        return [i for i in self.items if isinstance(i, Notice)]


@pytest.fixture(autouse=True)
def toy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy games so tables can be made of them."""
    for game, module in (
        ("race", "tests.toygame"),
        ("vote", "tests.tables.votegame"),
        ("claim", "tests.tables.claimgame"),
    ):
        monkeypatch.setitem(games.GAMES, game, games.registration(game, (2,), rules=module, renderer=None))


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock shared by the service under test."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test database lives (its folder does not exist yet)."""
    return tmp_path / "data" / "meeple.db"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for this test process, started when a test first needs it."""
    cluster = Cluster.start()
    yield cluster
    cluster.stop()


_DATABASE = "meeple_tests"


async def empty_pg_database(cluster: Cluster) -> str:
    """The URL of the cluster's test database at the current schema, every table emptied.

    One database per test process, emptied before each test (TRUNCATE, ids from 1 again):
    about 0.04 s, where cloning a database from a template takes 0.2 s (more under load).
    """
    url = cluster.url(_DATABASE)
    admin = await asyncpg.connect(cluster.url())
    try:
        if not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", _DATABASE):
            await admin.execute(f"CREATE DATABASE {_DATABASE}")
            await (await open_store(url)).close()
            return url
    finally:
        await admin.close()
    raw = await asyncpg.connect(url)
    try:
        names = await raw.fetch(
            "SELECT tablename FROM pg_tables"
            " WHERE schemaname = current_schema() AND tablename <> 'meeple_schema'"
        )
        await raw.execute(f"TRUNCATE {', '.join(str(n[0]) for n in names)} RESTART IDENTITY CASCADE")
    finally:
        await raw.close()
    return url


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """What MEEPLE_DB would say: a fresh SQLite file, or an empty PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(db_path)
    return await empty_pg_database(request.getfixturevalue("pg_cluster"))


async def raw_rows(database: str, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Rows read on a connection of their own, as another process would see them (SQLite's dialect)."""
    if not is_postgres_url(database):
        with closing(sqlite3.connect(database)) as raw:
            return [tuple(row) for row in raw.execute(sql, params).fetchall()]
    raw_pg = await asyncpg.connect(database)
    try:
        return [tuple(row) for row in await raw_pg.fetch(numbered(sql), *params)]
    finally:
        await raw_pg.close()


async def columns(database: str, table: str) -> set[str]:
    """The column names of one of the schema's tables."""
    if is_postgres_url(database):
        sql = "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
    else:
        sql = "SELECT name FROM pragma_table_info(?)"
    return {str(row[0]) for row in await raw_rows(database, sql, table)}


def io_error(database: str) -> Exception:
    """What the database's driver raises when the disk fails under a write."""
    if is_postgres_url(database):
        return asyncpg.exceptions.DiskFullError("could not extend file: No space left on device")
    return sqlite3.OperationalError("disk I/O error")


@pytest.fixture
async def service(database: str, clock: FakeClock) -> AsyncIterator[TableService]:
    """A service on a fresh database (each store in turn), bots moving at once."""
    store = await open_store(database)
    svc = TableService(store, clock=clock, bot_delay=0)
    yield svc
    await svc.close()


@pytest.fixture
def recorder(service: TableService) -> Recorder:
    """A listener subscribed to the service."""
    rec = Recorder()
    service.subscribe(rec)
    return rec


async def started(service: TableService, game: str = "race", *, bob: bool = True, bots: int = 0) -> Table:
    """A started table: the host, optionally Bob, then `bots` random bots."""
    table = await service.create(game, GUILD, CHANNEL, HOST, "Host")
    if bob:
        await service.join(table.id, BOB, "Bob")
    for _ in range(bots):
        await service.add_bot(table.id, HOST, "random")
    return (await service.start_game(table.id, HOST)).table
