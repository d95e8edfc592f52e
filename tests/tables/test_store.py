"""Persistence: restart, migrations, crashes and database failures leave old or new, never half."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import games
from engine.core import Action
from tables import StoreUnavailable, Table, TableError, TableService, TableStatus, Timing, UpdateKind
from tables.database import DatabaseLock
from tables.errors import DatabaseProblem, StoreOpenError, StorePaused
from tables.migrations import MIGRATIONS, SCHEMA_VERSION
from tables.models import DAY
from tables.store import SchemaTooNew, Store, open_store
from tests.tables.conftest import BOB, HOST, FakeClock, Recorder, io_error, started
from tests.tables.oldschema import copy_into_schema

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")
ROOT = Path(__file__).resolve().parents[2]


def same(a: Table, b: Table) -> None:
    """Two tables hold the same game (states compared by their canonical JSON)."""
    assert a.rules.encode(a.state) == b.rules.encode(b.state)
    assert (a.version, a.revision, a.seats, a.deadlines, a.status, a.seed) == (
        b.version,
        b.revision,
        b.seats,
        b.deadlines,
        b.status,
        b.seed,
    )


async def test_a_new_store_service_on_the_same_file_continues_the_game(
    database: str, clock: FakeClock
) -> None:
    first = TableService(await open_store(database), clock=clock, bot_delay=0)
    table = await started(first)
    await first.act(table.id, HOST, 0, STRIDE2)
    before = await first.get(table.id)
    await first.close()

    second = TableService(await open_store(database), clock=clock, bot_delay=0)
    try:
        after = await second.get(table.id)
        same(before, after)
        # The undo snapshot survived the restart too.
        undone = await second.undo(table.id, HOST, 1)
        assert undone.table.state.stride == 0
        await second.act(table.id, HOST, 2, STRIDE2)
        rolled = await second.act(table.id, HOST, 3, ROLL)
        assert rolled.ping_user_ids == (BOB,)
    finally:
        await second.close()


async def test_bots_waiting_at_shutdown_move_after_start_up(database: str, clock: FakeClock) -> None:
    first = TableService(await open_store(database), clock=clock, bot_delay=3600)
    table = await started(first, bob=False, bots=1)
    await first.act(table.id, HOST, 0, STRIDE2)
    await first.act(table.id, HOST, 1, ROLL)
    await first.close()  # the bot was still waiting out its pause

    second = TableService(await open_store(database), clock=clock, bot_delay=0)
    recorder = Recorder()
    second.subscribe(recorder)
    try:
        assert (await second.get(table.id)).to_move == (1,)
        await second.start()
        await second.idle()
        assert (await second.get(table.id)).to_move == (0,)
        assert {u.kind for u in recorder.updates} == {UpdateKind.BOT_MOVE}
    finally:
        await second.close()


async def test_open_creates_a_current_schema_with_wal_and_foreign_keys(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert db_path.exists()
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        async with store.reading() as db:
            async with db.execute("PRAGMA journal_mode") as cur:
                assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
            async with db.execute("PRAGMA foreign_keys") as cur:
                assert (await cur.fetchone())[0] == 1  # type: ignore[index]
    finally:
        await store.close()


async def test_an_old_database_is_migrated_and_its_tables_kept(db_path: Path, clock: FakeClock) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute("PRAGMA user_version = 1")
        raw.execute(
            "INSERT INTO tables (id, game, guild_id, channel_id, host_id, status, options, created_at, "
            "updated_at) VALUES (7, 'race', 1, 10, ?, 'lobby', '{\"goal\": 10}', 5.0, 5.0)",
            (HOST,),
        )
        raw.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (7, 0, ?, 'Host')", (HOST,))
    raw.close()
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        assert await service.store.schema_version() == SCHEMA_VERSION
        table = await service.get(7)
        assert table.status is TableStatus.LOBBY and table.options == {"goal": 10}
        assert table.timing == Timing() and table.revision == 0
        await service.join(7, BOB, "Bob")
        update = await service.start_game(7, HOST)
        assert update.table.state.goal == 10
        assert {d.kind.value for d in update.table.deadlines} == {"remind", "timeout", "replace"}
    finally:
        await service.close()


async def test_buttons_games_begun_before_the_one_die_rule_keep_two_dice_per_exit(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    old = await service.create("buttons", 1, 10, HOST, "Host")
    await service.join(old.id, BOB, "Bob")
    old = (await service.start_game(old.id, HOST)).table
    lobby = await service.create("buttons", 1, 10, HOST, "Host")
    await service.close()
    # The file at schema 3, as a 2-player Buttons game and a lobby stored then looked.
    older = db_path.with_name("schema3.db")
    copy_into_schema(db_path, older, 3)
    with sqlite3.connect(older) as raw:
        raw.execute("UPDATE tables SET options = json_remove(options, '$.two_dice_2p')")
        raw.execute("UPDATE tables SET state = json_remove(state, '$.two_dice_2p') WHERE state IS NOT NULL")
    raw.close()

    service = TableService(await Store.open(older), clock=clock, bot_delay=0)
    try:
        migrated = await service.get(old.id)
        assert migrated.options["two_dice_2p"] is True and migrated.state.two_dice_2p is True
        assert migrated.state.dice_per_exit() == 2
        assert (await service.get(lobby.id)).options.get("two_dice_2p", False) is False
    finally:
        await service.close()


async def test_a_failing_migration_leaves_the_previous_schema(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tables.store.connection as store_module

    broken = (*MIGRATIONS, "CREATE TABLE extra (x INTEGER); THIS IS NOT SQL")
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(broken))
    with pytest.raises(StoreUnavailable):
        await Store.open(db_path)
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    raw.close()


async def test_a_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    with sqlite3.connect(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(SchemaTooNew):
        await Store.open(db_path)


async def test_an_unusable_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(StoreUnavailable):
        await Store.open(blocker / "meeple.db")
    with pytest.raises(StoreUnavailable):
        await Store.open(tmp_path)


async def test_a_failure_inside_the_transaction_leaves_the_game_unchanged(
    service: TableService, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE2)
    before = await service.get(table.id)

    def broken(*args: object) -> None:
        raise io_error(database)

    # Fails after the snapshot UPDATE and the log INSERT ran: both must be rolled back.
    original = Store._write_seats
    monkeypatch.setattr(Store, "_write_seats", broken)
    with pytest.raises(StoreUnavailable) as refused:
        await service.act(table.id, HOST, 1, ROLL)
    assert "try again" in str(refused.value)
    same(before, await service.get(table.id))
    assert len(await service.store.actions(table.id)) == 1
    monkeypatch.setattr(Store, "_write_seats", original)
    update = await service.act(table.id, HOST, 1, ROLL)
    assert update.table.version == 2
    assert len(await service.store.actions(table.id)) == 2


async def test_a_locked_database_is_a_store_error_and_changes_nothing(
    db_path: Path, clock: FakeClock
) -> None:
    service = TableService(await Store.open(db_path, busy_timeout_ms=50), clock=clock, bot_delay=0)
    try:
        table = await started(service)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreUnavailable) as refused:
            await service.act(table.id, HOST, 0, STRIDE2)
        # Busy is passing: the player is asked to try again, the game is not paused.
        assert not isinstance(refused.value, StorePaused) and "try again" in str(refused.value)
        other.execute("ROLLBACK")
        other.close()
        assert (await service.get(table.id)).version == 0
        assert (await service.act(table.id, HOST, 0, STRIDE2)).table.version == 1
    finally:
        await service.close()


CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from engine import games
    from engine.core import Action
    from tables import TableService, open_store
    from tables.store import Store as S

    games.register("race", (2,), rules="tests.toygame", renderer=None)

    async def main():
        service = TableService(await open_store(sys.argv[1]), bot_delay=0)
        def die(*args):
            os._exit(3)  # the process dies between two statements of the transaction
        S._write_seats = die
        await service.act(int(sys.argv[2]), int(sys.argv[3]), 1, Action("roll"))

    asyncio.run(main())
    """
)


async def test_a_process_killed_inside_the_transaction_leaves_the_old_state(
    database: str, clock: FakeClock
) -> None:
    service = TableService(await open_store(database), clock=clock, bot_delay=0)
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE2)
    before = await service.get(table.id)
    await service.close()
    done = subprocess.run(
        [sys.executable, "-c", CRASH, database, str(table.id), str(HOST)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr
    again = TableService(await open_store(database), clock=clock, bot_delay=0)
    try:
        same(before, await again.get(table.id))
        assert len(await again.store.actions(table.id)) == 1
        assert (await again.act(table.id, HOST, 1, ROLL)).table.version == 2
    finally:
        await again.close()


def test_tables_imports_no_discord() -> None:
    code = (
        "import sys, tables, tables.service, tables.store; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


async def test_a_table_of_a_game_no_longer_installed_does_not_stop_the_others(
    database: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = TableService(await open_store(database), clock=clock, bot_delay=3600)
    race = await started(first, bob=False, bots=1)
    vote = await started(first, "vote")
    await first.act(race.id, HOST, 0, STRIDE2)
    await first.act(race.id, HOST, 1, ROLL)
    await first.close()

    monkeypatch.delitem(games.GAMES, "vote")
    second = TableService(await open_store(database), clock=clock, bot_delay=0)
    try:
        await second.start()
        await second.idle()
        assert (await second.get(race.id)).to_move == (0,)
        with pytest.raises(TableError, match="not installed"):
            await second.get(vote.id)
        assert [t.id for t in await second.tables_of_user(HOST)] == [race.id]
        await second.run_due(clock.now + 1 * DAY)
    finally:
        await second.close()


async def _fill_until_full(service: TableService) -> StoreUnavailable:
    """Open lobbies until the store refuses one; return the refusal."""
    for _ in range(2000):
        try:
            await service.create("race", 1, 2, HOST, "Host " + "x" * 200)
        except StoreUnavailable as refused:
            return refused
    raise AssertionError("the database never filled up")


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)  # SQLite's page cap stands for the disk
async def test_a_full_disk_pauses_the_games_logged_once_with_its_cause(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    table = await started(service)
    # SQLite's page cap makes the file "full" for real: SQLITE_FULL, as a full disk gives.
    async with service.store.reading() as db, db.execute("PRAGMA page_count") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    async with service.store.reading() as db:
        await (await db.execute(f"PRAGMA max_page_count = {int(row[0])}")).close()
    caplog.clear()
    refused = await _fill_until_full(service)
    assert isinstance(refused, StorePaused)
    assert "paused" in str(refused) and "try again" not in str(refused)
    for _ in range(3):
        with pytest.raises(StorePaused):
            await service.create("race", 1, 2, HOST, "Host " + "x" * 200)
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert "full" in errors[0].getMessage() and "SQLITE_FULL" in errors[0].getMessage()
    assert errors[0].exc_info is None and "rollback" not in caplog.text

    async with service.store.reading() as db:
        await (await db.execute("PRAGMA max_page_count = 1073741823")).close()
    await service.create("race", 1, 2, HOST, "Host")
    assert "works again" in caplog.text
    # The game was never touched, and plays on.
    assert (await service.act(table.id, HOST, 0, STRIDE2)).table.version == 1


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (
            lambda p: p.write_bytes(b"SQLite format 2\x00" + bytes(range(256)) * 20),
            DatabaseProblem.NOT_A_DATABASE,
        ),
        (lambda p: p.mkdir(), DatabaseProblem.IS_A_FOLDER),
        (lambda p: None, None),
    ],
)
async def test_open_names_what_is_wrong_with_the_file(
    tmp_path: Path, make: Callable[[Path], object], problem: DatabaseProblem | None
) -> None:
    path = tmp_path / "meeple.db"
    make(path)
    if problem is None:
        await (await Store.open(path)).close()
        return
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(path)
    assert refused.value.problem is problem and str(path) in str(refused.value)
    assert "\n" not in str(refused.value)


async def test_open_creates_only_the_last_missing_folder(tmp_path: Path) -> None:
    await (await Store.open(tmp_path / "data" / "meeple.db")).close()
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(tmp_path / "typo" / "data" / "meeple.db")
    assert refused.value.problem is DatabaseProblem.NO_FOLDER
    assert not (tmp_path / "typo").exists()


def test_the_database_lock_admits_one_holder_at_a_time(tmp_path: Path) -> None:
    db = tmp_path / "data" / "meeple.db"
    with DatabaseLock.acquire(db) as held:
        assert held.path == tmp_path / "data" / "meeple.db"
        with pytest.raises(StoreOpenError) as refused:
            DatabaseLock.acquire(db)
        assert refused.value.problem is DatabaseProblem.LOCKED
        assert f"pid {os.getpid()}" in str(refused.value) and str(db) in str(refused.value)
    DatabaseLock.acquire(db).release()


async def test_a_new_database_is_announced_in_one_line(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="tables.store"):
        store = await Store.open(db_path)
        await store.close()
        again = await Store.open(db_path)
        await again.close()
    lines = [r.getMessage() for r in caplog.records if "schema" in r.getMessage()]
    assert lines == [f"database {db_path} created (schema {SCHEMA_VERSION})"]


async def test_an_old_database_is_brought_up_to_date_in_one_line(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute("PRAGMA user_version = 1")
    raw.close()
    with caplog.at_level(logging.INFO, logger="tables.store"):
        store = await Store.open(db_path)
        await store.close()
    lines = [r.getMessage() for r in caplog.records if "schema" in r.getMessage()]
    assert lines == [f"database {db_path} brought up to date: schema 1 to {SCHEMA_VERSION}"]
