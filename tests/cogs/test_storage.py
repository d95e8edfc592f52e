"""What players are told when the database fails: paused for a lasting fault, try again when busy."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from tables.store import Store
from tests.cogs.conftest import Harness
from tests.cogs.helpers import table_of
from tests.cogs.test_lobby import private_answer
from tests.cogs.test_turns import mover_and_other, start_two_humans


def sqlite_error(message: str, code: int, name: str) -> sqlite3.OperationalError:
    """An error as sqlite3 raises it, with SQLite's result code."""
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("error", "answer"),
    [
        (sqlite_error("database or disk is full", 13, "SQLITE_FULL"), "paused"),
        (sqlite_error("attempt to write a readonly database", 8, "SQLITE_READONLY"), "paused"),
        (sqlite_error("disk I/O error", 778, "SQLITE_IOERR_WRITE"), "paused"),
        (sqlite_error("database is locked", 5, "SQLITE_BUSY"), "try again"),
    ],
)
async def test_a_click_during_a_storage_fault_gets_the_right_answer(
    world: Harness,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: sqlite3.OperationalError,
    answer: str,
) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)

    def broken(*args: object) -> None:
        raise error

    original = Store._write_seats
    monkeypatch.setattr(Store, "_write_seats", broken)
    caplog.clear()
    for _ in range(3):
        refused = await mover.click(world.board(), label="Roll the dice")
        assert answer in private_answer(refused)
    await world.idle()
    assert (await table_of(world)).version == table.version
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    if answer == "paused":
        assert len(logged) == 1 and str(error) in logged[0].getMessage(), caplog.text
        assert "try again" not in private_answer(refused)
    else:
        assert logged == [], caplog.text
    assert "Traceback" not in caplog.text and all(r.exc_info is None for r in logged)

    monkeypatch.setattr(Store, "_write_seats", original)
    await mover.click(world.board(), label="Roll the dice")
    await world.idle()
    assert (await table_of(world)).version > table.version
