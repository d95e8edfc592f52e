"""The board ledger in its own table: a database whose ledger sat in `tables` is moved over."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tables import Store, TableService
from tables.store import BoardRecord
from tests.tables.conftest import FakeClock, started
from tests.tables.oldschema import BOARDS_APART, copy_into_schema


async def test_a_database_with_the_ledger_in_tables_moves_it_to_boards(
    tmp_path: Path, clock: FakeClock
) -> None:
    source = tmp_path / "now" / "meeple.db"
    service = TableService(await Store.open(source), clock=clock, bot_delay=0)
    try:
        playing = await service.set_thread((await started(service)).id, 900)
        lobby = await service.create("race", 1, 10, 101, "Host")
        await service.set_lobby_message(lobby.id, 555)
        await service.store.save_board(
            BoardRecord(playing.id, message_id=901, version=0, movers=(0,), posting=1, retired=(899, 900))
        )
    finally:
        await service.close()
    old = tmp_path / "old" / "meeple.db"
    copy_into_schema(source, old, BOARDS_APART)
    with closing(sqlite3.connect(old)) as raw:
        row = raw.execute(
            "SELECT lobby_message_id, board_message_id, board_version, board_posting, board_retired"
            " FROM tables WHERE id = ?",
            (playing.id,),
        ).fetchone()
        assert row == (None, 901, 0, 1, "[899, 900]"), "the old schema holds the ledger in `tables`"

    store = await Store.open(old)
    try:
        assert await store.board(playing.id) == BoardRecord(playing.id, None, 901, 0, (0,), 1, (899, 900))
        assert (await store.board(lobby.id)).lobby_message_id == 555
        assert await store.boards_behind() == [playing.id]
        loaded = await store.load(playing.id)
        assert loaded is not None and loaded.thread_id == 900
    finally:
        await store.close()
    with closing(sqlite3.connect(old)) as raw:
        columns = {str(r[1]) for r in raw.execute("PRAGMA table_info(tables)")}
    assert not columns & {"lobby_message_id", "board_message_id", "board_version", "board_posting"}


async def test_a_new_table_has_an_empty_row_in_the_ledger(tmp_path: Path, clock: FakeClock) -> None:
    service = TableService(await Store.open(tmp_path / "meeple.db"), clock=clock, bot_delay=0)
    try:
        table = await service.create("race", 1, 10, 101, "Host")
        assert await service.store.board(table.id) == BoardRecord(table.id)
        await service.store.save_board(BoardRecord(table.id, message_id=7, version=0))
        assert (await service.store.board(table.id)).message_id == 7
    finally:
        await service.close()


async def test_a_table_without_a_row_gets_one_when_its_board_is_recorded(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "meeple.db"
    service = TableService(await Store.open(path), clock=clock, bot_delay=0)
    try:
        table = await service.create("race", 1, 10, 101, "Host")
        with closing(sqlite3.connect(path)) as raw, raw:
            raw.execute("DELETE FROM boards")  # as a table copied in by hand, without its row
        await service.store.save_board(BoardRecord(table.id, message_id=7, version=0))
        await service.set_lobby_message(table.id, 8)
        assert await service.store.board(table.id) == BoardRecord(table.id, 8, 7, 0)
    finally:
        await service.close()


async def test_an_edits_record_written_with_a_move_never_undoes_a_newer_post(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "meeple.db"
    service = TableService(await Store.open(path), clock=clock, bot_delay=0)
    try:
        table = await service.set_thread((await started(service)).id, 900)
        store = service.store
        await store.save_board(BoardRecord(table.id, message_id=901, version=0, movers=(0,)))
        # A move's save took the edit's record of board 901 while a new board, 902, was recorded:
        # the two writes met in the database thread in that order.
        await store.save_board(BoardRecord(table.id, message_id=902, version=0, movers=(1,)))
        store._boards_later[table.id] = BoardRecord(table.id, message_id=901, version=0, movers=(0,))
        prompt = table.prompts[0]
        user = table.seats[prompt.seat].user_id
        assert user is not None
        await service.act(table.id, user, table.version, prompt.options[0])
        with closing(sqlite3.connect(path)) as raw:
            row = raw.execute(
                "SELECT message_id, movers FROM boards WHERE table_id = ?", (table.id,)
            ).fetchone()
        assert row == (902, "[1]"), "the board recorded last stands"
    finally:
        await service.close()
