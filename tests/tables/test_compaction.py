"""Storage that stays small: undo snapshots apart from the log, and a finished game keeps only its moves."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine import recordfile
from engine.core import Action, replay
from engine.verify import verify
from tables import Store, TableService, TableStatus, UpdateKind
from tables.migrations import SCHEMA_VERSION
from tests.tables.conftest import HOST, FakeClock, Recorder, columns, raw_rows, started
from tests.tables.oldschema import UNDO_APART, copy_into_schema

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


def file_rows(db_path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Rows read with a separate connection (what is really on disk)."""
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute(sql, params).fetchall()
    raw.close()
    return rows


async def play_to_the_end(service: TableService, table_id: int) -> None:
    """The host strides 2 and rolls; the bots play their seats; until the game ends."""
    while True:
        await service.idle()
        table = await service.get(table_id)
        if table.status is not TableStatus.PLAYING:
            return
        prompt = table.prompt_for(0)
        assert prompt is not None
        await service.act(table_id, HOST, table.version, STRIDE2 if prompt.kind == "stride" else ROLL)


async def test_undo_snapshots_live_apart_and_only_while_undo_may_use_them(
    service: TableService, database: str
) -> None:
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE2)
    kept = await raw_rows(database, "SELECT seq FROM undo_states WHERE table_id = ?", table.id)
    assert kept == [(1,)]
    assert "before" not in await columns(database, "actions")
    await service.undo(table.id, HOST, 1)
    assert await raw_rows(database, "SELECT seq FROM undo_states") == [], "the snapshot undo used is deleted"
    await service.act(table.id, HOST, 2, STRIDE2)
    await service.act(table.id, HOST, 3, ROLL)
    assert await raw_rows(database, "SELECT seq FROM undo_states") == [], "a roll (checkpoint) ends undo"


async def test_a_finished_game_keeps_its_moves_and_its_record_replays_and_verifies(
    service: TableService, recorder: Recorder, database: str
) -> None:
    table = await started(service, bob=False, bots=2)
    await play_to_the_end(service, table.id)
    final = await service.get(table.id)
    assert final.status is TableStatus.FINISHED

    # Compacted: the moves are packed in one row; their events and every undo snapshot are gone.
    assert await raw_rows(database, "SELECT * FROM actions WHERE table_id = ?", table.id) == []
    assert await raw_rows(database, "SELECT * FROM undo_states WHERE table_id = ?", table.id) == []
    assert len(await raw_rows(database, "SELECT moves FROM packed_logs WHERE table_id = ?", table.id)) == 1
    rows = await service.store.actions(table.id)
    assert rows and not any(row.events_kept or row.events for row in rows)

    # The log gives the events every player was sent, replayed from the seed.
    sent = [e for u in recorder.updates if u.kind is not UpdateKind.START for e in u.events]
    assert await service.log(table.id) == sent

    record = await service.record(table.id)
    assert len(record.moves) == len(rows)
    assert final.rules.encode(replay(final.rules, record)[-1]) == final.rules.encode(final.state)
    document = recordfile.build(record, "ab" * 32, reveal=True, table=table.id)
    checked = verify(json.loads(recordfile.dumps(document)))
    assert checked.moves == len(rows) and "did not finish" not in checked.result


async def test_a_database_of_the_previous_schema_keeps_its_games_undoable_and_replayable(
    db_path: Path, clock: FakeClock
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    playing = await started(service)
    await service.act(playing.id, HOST, 0, STRIDE2)
    finished = await started(service, bob=False, bots=1)
    await play_to_the_end(service, finished.id)
    finished_log = await service.log(finished.id)
    await service.close()
    older = db_path.with_name("older.db")
    copy_into_schema(db_path, older, UNDO_APART)
    before = file_rows(older, "SELECT table_id, seq, before IS NOT NULL FROM actions ORDER BY table_id, seq")
    assert (playing.id, 1, 1) in before, "the old log holds the undo snapshot"

    service = TableService(await Store.open(older), clock=clock, bot_delay=0)
    try:
        assert await service.store.schema_version() == SCHEMA_VERSION
        assert file_rows(older, "SELECT table_id, seq FROM undo_states") == [(playing.id, 1)]
        assert file_rows(older, "SELECT COUNT(*) FROM actions WHERE table_id = ?", finished.id) == [(0,)]
        assert len(file_rows(older, "SELECT moves FROM packed_logs WHERE table_id = ?", finished.id)) == 1

        assert await service.log(finished.id) == finished_log
        undone = await service.undo(playing.id, HOST, 1)
        assert undone.table.state.stride == 0
        await service.act(playing.id, HOST, 2, STRIDE2)
        table = await service.get(playing.id)
        record = await service.record(playing.id)
        assert table.rules.encode(replay(table.rules, record)[-1]) == table.rules.encode(table.state)
        record = await service.record(finished.id)
        done = await service.get(finished.id)
        assert done.rules.encode(replay(done.rules, record)[-1]) == done.rules.encode(done.state)
    finally:
        await service.close()
