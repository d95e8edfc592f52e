"""Never stuck: the stored board outbox, atomic start, bots that retry, tables delivered independently."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.core import Action
from tables import (
    NotEnoughPlayers,
    NotHost,
    Store,
    StoreUnavailable,
    TableService,
    TableStatus,
    Update,
    UpdateKind,
)
from tables.migrations import MIGRATIONS
from tables.store import BoardRecord, open_store
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST, FakeClock, Recorder, started

STRIDE2 = Action.of("stride", n=2)


async def test_the_board_ledger_survives_a_restart(database: str, clock: FakeClock) -> None:
    service = TableService(await open_store(database), clock=clock, bot_delay=0)
    table = await started(service)
    table = await service.set_thread(table.id, 900)
    store = service.store
    assert (await store.board(table.id)).behind(table.version) and await store.boards_behind() == [table.id]
    await store.save_board(BoardRecord(table.id, message_id=901, version=0, movers=(0,)))
    assert await store.boards_behind() == []
    await service.act(table.id, HOST, table.version, STRIDE2)
    # A move leaves the ledger as it was; the board is now one version behind.
    assert await store.boards_behind() == [table.id]
    # A repost records its intent first (the ledger would not otherwise look behind).
    await store.save_board(replace(await store.board(table.id), posting=1))
    await service.close()

    service = TableService(await open_store(database), clock=clock, bot_delay=0)
    store = service.store
    try:
        found = await store.board(table.id)
        assert (found.message_id, found.version, found.posting) == (901, 0, 1)
        assert await store.boards_behind() == [table.id]
        await store.save_board(replace(found, message_id=902, version=1, posting=None, retired=(901,)))
        assert await store.boards_behind() == [table.id], "the previous board's buttons are still to strip"
        await store.save_board(replace(await store.board(table.id), retired=()))
        assert await store.boards_behind() == []
        assert await store.board(table.id) == BoardRecord(table.id, None, 902, 1, (0,), None, ())
    finally:
        await service.close()


async def test_an_edit_is_recorded_with_the_next_move_in_its_transaction(
    db_path: Path, clock: FakeClock
) -> None:
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        await _edit_then_move(service, db_path)
    finally:
        await service.close()


async def _edit_then_move(service: TableService, db_path: Path) -> None:
    table = await service.set_thread((await started(service)).id, 900)
    store = service.store
    await store.save_board(BoardRecord(table.id, message_id=901, version=0, movers=(0,)))
    moved = await service.act(table.id, HOST, 0, STRIDE2)
    # The board message was edited to show version 1: kept, not written, until the next save.
    edited = replace(await store.board(table.id), version=moved.table.version)
    store.board_later(edited)
    assert await store.board(table.id) == edited and await store.boards_behind() == []

    def stored_version() -> int | None:
        with sqlite3.connect(db_path) as raw:
            row = raw.execute("SELECT version FROM boards WHERE table_id = ?", (table.id,)).fetchone()
        return None if row[0] is None else int(row[0])

    assert stored_version() == 0
    prompt = moved.table.prompts[0]
    user = moved.table.seats[prompt.seat].user_id
    assert user is not None
    await service.act(table.id, user, moved.table.version, prompt.options[0])
    assert stored_version() == 1, "written in the move's transaction"
    # What an edit left waiting is written when the store closes.
    store.board_later(replace(edited, version=2))
    await service.close()
    assert stored_version() == 2


async def test_a_database_of_schema_2_counts_its_boards_as_shown(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.executescript(MIGRATIONS[1])
        raw.execute("PRAGMA user_version = 2")
        for status, board in (("playing", 50), ("playing", None), ("finished", None), ("lobby", None)):
            raw.execute(
                "INSERT INTO tables (game, guild_id, channel_id, thread_id, board_message_id, host_id, "
                "status, options, version, created_at, updated_at) VALUES "
                "('race', 1, 10, 40, ?, 101, ?, '{}', 3, 0, 0)",
                (board, status),
            )
    store = await Store.open(db_path)
    try:
        assert await store.boards_behind() == [2], "only the game in play with no board recorded"
        first = await store.board(1)
        assert first.version == 3 and first.retired == () and first.message_id == 50
    finally:
        await store.close()


async def test_start_records_the_thread_in_the_same_write(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(NotEnoughPlayers):
        await service.check_start((await service.create("vote", GUILD, CHANNEL, HOST, "Host")).id, HOST)
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.check_start(table.id, BOB)
    assert (await service.check_start(table.id, HOST)).status is TableStatus.LOBBY
    update = await service.start_game(table.id, HOST, thread_id=777)
    stored = await service.store.load(table.id)
    assert stored is not None and (stored.status, stored.thread_id) == (TableStatus.PLAYING, 777)
    assert update.table == stored and (await service.store.board(table.id)).behind(stored.version)


async def test_bots_play_on_after_a_long_storage_outage(
    database: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(
        await open_store(database), clock=clock, bot_delay=0, retry_base=0.001, retry_cap=0.004
    )
    recorder = Recorder()
    service.subscribe(recorder)
    try:
        table = await started(service, bob=False, bots=1)
        await service.act(table.id, HOST, 0, STRIDE2)
        # Storage fails on every bot move from now on: far more tries than the old six.
        original = Store.save
        failed = 0

        async def outage(self: Store, old: object, new: object, **kwargs: Any) -> bool:
            nonlocal failed
            if any(entry.source == "bot" for entry in kwargs.get("append", ())):
                failed += 1
                raise StoreUnavailable()
            return await original(self, old, new, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Store, "save", outage)
        update = await service.act(table.id, HOST, 1, Action("roll"))
        assert update.table.to_move == (1,)
        await asyncio.sleep(0.5)
        assert failed > 20 and (await service.get(table.id)).version == 2
        monkeypatch.setattr(Store, "save", original)
        await asyncio.wait_for(_until_seat_moves(service, table.id, 0), timeout=5)
        assert any(u.kind is UpdateKind.BOT_MOVE for u in recorder.updates)
        assert f"table {table.id}: bot move not saved" in caplog.text
    finally:
        await service.close()


async def _until_seat_moves(service: TableService, table_id: int, seat: int) -> None:
    while (await service.get(table_id)).to_move != (seat,):
        await asyncio.sleep(0.01)


async def test_an_unexpected_bot_error_is_logged_and_retried(
    database: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(await open_store(database), clock=clock, bot_delay=0, retry_base=0.01)
    try:
        table = await started(service, bob=False, bots=1)
        rules = type(table.rules)
        original = rules.bot_action
        calls = 0

        def flaky(self: object, *args: object) -> Action:
            nonlocal calls
            calls += 1
            if calls <= 2:
                raise RuntimeError("a bug in the bot")
            return original(self, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(rules, "bot_action", flaky)
        caplog.set_level(logging.ERROR, logger="tables.service")
        await service.act(table.id, HOST, 0, STRIDE2)
        await service.act(table.id, HOST, 1, Action("roll"))
        await asyncio.wait_for(_until_seat_moves(service, table.id, 0), timeout=5)
        assert calls >= 3
        assert caplog.text.count(f"table {table.id}: bot move failed") == 2
        assert "a bug in the bot" in caplog.text
    finally:
        await service.close()


async def test_a_slow_table_does_not_delay_another(service: TableService) -> None:
    slow = await started(service)
    quick = await started(service)
    await service.idle()
    release = asyncio.Event()
    seen: list[tuple[int, int]] = []

    async def listener(item: object) -> None:
        assert isinstance(item, Update)
        if item.table.id == slow.id:
            await release.wait()  # a rate-limited thread
        seen.append((item.table.id, item.table.version))

    service.subscribe(listener)
    await service.act(slow.id, HOST, 0, STRIDE2)
    await service.act(quick.id, HOST, 0, STRIDE2)
    await service.act(quick.id, HOST, 1, Action("roll"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert seen == [(quick.id, 1), (quick.id, 2)]
    await service.act(slow.id, HOST, 1, Action("roll"))
    release.set()
    await service.idle()
    assert seen[2:] == [(slow.id, 1), (slow.id, 2)], "each table's updates keep their order"


async def test_a_write_waiting_for_another_process_does_not_block_reads(
    db_path: Path, clock: FakeClock
) -> None:
    service = TableService(await Store.open(db_path, busy_timeout_ms=3000), clock=clock, bot_delay=0)
    try:
        table = await started(service)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        move = asyncio.create_task(service.act(table.id, HOST, 0, STRIDE2))
        await asyncio.sleep(0.2)
        assert not move.done()
        # Reads of the store go on meanwhile (SQLite's busy wait is not held under the store's lock).
        loaded = await asyncio.wait_for(service.store.load(table.id), timeout=0.5)
        assert loaded is not None and loaded.version == 0
        other.execute("ROLLBACK")
        other.close()
        assert (await asyncio.wait_for(move, timeout=2)).table.version == 1
    finally:
        await service.close()
