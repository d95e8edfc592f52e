"""Schema 11: Diced Tomatoes games begun before karma at the end of the turn keep their rules."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tables import TableService
from tables.migrations import MIGRATIONS
from tables.store import Store
from tests.tables.conftest import BOB, HOST, FakeClock
from tests.tables.oldschema import copy_into_schema

STEP = next(i for i, script in enumerate(MIGRATIONS) if "end_step_karma" in script)


async def test_tomatoes_games_begun_before_keep_the_turn_ending_as_dice_are_passed(
    db_path: Path, clock: FakeClock
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    old = await service.create("tomatoes", 1, 10, HOST, "Host")
    await service.join(old.id, BOB, "Bob")
    old = (await service.start_game(old.id, HOST)).table
    mover = HOST if old.seats[old.to_move[0]].user_id == HOST else BOB
    for _ in range(2):  # the roll, then a move after it that undo may take back
        old = (await service.act(old.id, mover, old.version, old.prompts[0].options[0])).table
    lobby = await service.create("tomatoes", 1, 10, HOST, "Host")
    await service.close()
    older = db_path.with_name(f"schema{STEP}.db")
    copy_into_schema(db_path, older, STEP)
    with sqlite3.connect(db_path) as source:
        undo = source.execute("SELECT table_id, seq, state FROM undo_states").fetchall()
    source.close()
    with sqlite3.connect(older) as raw:
        raw.executemany("INSERT INTO undo_states (table_id, seq, state) VALUES (?, ?, ?)", undo)
        # As Meeple wrote them before the option existed (options are stored resolved).
        raw.execute("UPDATE tables SET options = json_remove(options, '$.end_step_karma')")
        raw.execute(
            "UPDATE tables SET state = json_remove(state, '$.options.end_step_karma') WHERE state IS NOT NULL"
        )
        raw.execute("UPDATE undo_states SET state = json_remove(state, '$.options.end_step_karma')")
        undo_rows = raw.execute("SELECT count(*) FROM undo_states").fetchone()[0]
    raw.close()
    assert undo_rows >= 1, "the move after the roll left an undo snapshot"

    service = TableService(await Store.open(older), clock=clock, bot_delay=0)
    try:
        migrated = await service.get(old.id)
        assert migrated.options["end_step_karma"] is False
        assert migrated.state.options.end_step_karma is False
        assert "end_step_karma" not in (await service.get(lobby.id)).options, (
            "a lobby starts on today's rules"
        )
    finally:
        await service.close()
    with sqlite3.connect(older) as raw:
        states = [json.loads(row[0]) for row in raw.execute("SELECT state FROM undo_states")]
    raw.close()
    assert states and all(state["options"]["end_step_karma"] is False for state in states)
