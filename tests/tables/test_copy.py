"""`python -m tables.copy`: every table, record, setting and rating carried to another store, and checked."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from engine.core import Action
from tables import Store, TableService, open_store
from tables.copy import LEFT_OUT, CopyRefused, copied_tables, copy_between, copy_store, main, read_everything
from tests.pgcluster import Cluster
from tests.tables.conftest import BOB, HOST, FakeClock, empty_pg_database, started
from tests.tables.test_results import play_out

STRIDE2 = Action.of("stride", n=2)


async def _filled(path: Path) -> None:
    """A store with a finished game (results, ratings), a game in play with an undo, a lobby, settings."""
    clock = FakeClock()
    service = TableService(await Store.open(path), clock=clock, bot_delay=0)
    try:
        finished = await started(service, bob=False, bots=1)
        await play_out(service, finished.id, clock)
        playing = await started(service)
        await service.act(playing.id, HOST, 0, STRIDE2)
        await service.undo(playing.id, HOST, 1)
        await service.act(playing.id, HOST, 2, STRIDE2)
        await service.create("race", 1, 10, BOB, "Bob")
        await service.players.update(BOB, time_zone="Europe/Paris", quiet_start=1320, quiet_end=420)
    finally:
        await service.close()


def _everything(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as conn:
        return {t: sorted(map(tuple, conn.execute(f"SELECT * FROM {t}"))) for t in copied_tables()}


def test_the_copied_tables_are_the_schema_s_but_the_running_processes_own() -> None:
    tables = copied_tables()
    assert tables[0] == "tables" and "actions" in tables and "actions_log" not in tables
    assert {"results", "ratings", "rating_history", "players", "packed_logs", "undo_states"} <= set(tables)
    assert not LEFT_OUT & set(tables)


async def test_a_round_trip_gives_the_same_rows_and_every_record_replays(tmp_path: Path) -> None:
    source, middle, back = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    await _filled(source)
    said = await copy_between(str(source), str(middle))
    assert "2 games replayed" in said
    await copy_between(str(middle), str(back))
    rows = _everything(source)
    assert rows["ratings"] and rows["results"] and rows["players"] and rows["packed_logs"]
    assert _everything(middle) == rows == _everything(back)
    # The copy is a working store: its games go on, with new ids after the copied ones.
    service = TableService(await Store.open(back), clock=FakeClock(), bot_delay=0)
    try:
        fresh = await service.create("race", 1, 10, HOST, "Host")
        assert fresh.id > max(int(r[0]) for r in rows["tables"])
    finally:
        await service.close()


async def test_a_target_holding_data_is_refused_unless_replaced(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    await _filled(source)
    other = TableService(await Store.open(target), clock=FakeClock(), bot_delay=0)
    await other.create("race", 2, 20, 999, "Someone")
    await other.close()
    with pytest.raises(CopyRefused, match="already holds data: tables"):
        await copy_between(str(source), str(target))
    # The command line, on a thread of its own (it runs its own event loop).
    assert await asyncio.to_thread(main, [str(source), str(target)]) == 1
    assert await asyncio.to_thread(main, [str(source), str(target), "--replace"]) == 0
    assert _everything(target) == _everything(source)


async def test_a_copy_that_does_not_replay_is_reported(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    await _filled(source)
    with sqlite3.connect(source) as raw:
        # A tampered record: the in-play game's stored seed no longer gives its moves' rolls.
        raw.execute("UPDATE tables SET seed = seed + 1 WHERE status = 'playing'")
    src, dst = await Store.open(source), await Store.open(target)
    try:
        with pytest.raises(CopyRefused, match=r"does not verify|does not give its stored state"):
            await copy_store(src, dst)
        assert set(await src.read(read_everything)) == set(copied_tables())
    finally:
        await src.close()
        await dst.close()


def test_a_missing_source_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "absent.db"), str(tmp_path / "b.db")]) == 1
    assert "there is no database at" in capsys.readouterr().err
    assert not (tmp_path / "b.db").exists()


async def test_sqlite_to_postgresql_and_back_gives_the_same_rows_and_every_record_replays(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    source, back = tmp_path / "a.db", tmp_path / "c.db"
    await _filled(source)
    middle = await empty_pg_database(pg_cluster)
    assert "2 games replayed" in await copy_between(str(source), middle)
    # The PostgreSQL copy is a working store: new ids follow the copied ones.
    service = TableService(await open_store(middle), clock=FakeClock(), bot_delay=0)
    try:
        rows = _everything(source)
        fresh = await service.create("race", 1, 10, HOST, "Host")
        assert fresh.id == max(int(str(r[0])) for r in rows["tables"]) + 1
        await service.cancel(fresh.id, HOST)
        await service.store.write(lambda conn: conn.execute("DELETE FROM tables WHERE id = ?", (fresh.id,)))
    finally:
        await service.close()
    assert "2 games replayed" in await copy_between(middle, str(back))
    assert rows["ratings"] and rows["results"] and rows["players"] and rows["packed_logs"]
    assert _everything(back) == rows
    # Refused into a PostgreSQL database that holds data, as into a file.
    with pytest.raises(CopyRefused, match="already holds data"):
        await copy_between(str(source), middle)
