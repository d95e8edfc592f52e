"""Boards drawn in worker processes: a worker that dies is replaced and the board still posted."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cogs.platform import presenter
from cogs.platform.drawing import DrawingPool, DrawJob
from engine.games import get_rules
from tests.cogs.conftest import Harness
from tests.cogs.dying_jobs import DiesInWorkers, DiesOnce
from tests.cogs.test_turns import start_two_humans


def tomatoes_job() -> DrawJob:
    """A real job: the first board of a two-player Diced Tomatoes game."""
    rules = get_rules("tomatoes")
    state = rules.setup(2, None, 5)
    return DrawJob("tomatoes", rules.view(state, None), None, ("Ann", "Bo"))


def alive(pid: int) -> bool:
    """Whether a process with this id still exists (a zombie counts as alive)."""
    return Path(f"/proc/{pid}").exists()


async def test_a_worker_that_dies_while_drawing_is_replaced_and_the_board_posted(
    drawn_world: Harness, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marker = tmp_path / "a worker died"
    real_job = presenter.board_job

    def dying_job(table: Any, seat: int | None = None) -> Any:
        job = real_job(table, seat)
        return None if job is None else DiesOnce(job, str(marker))

    monkeypatch.setattr(presenter, "board_job", dying_job)
    await start_two_humans(drawn_world)
    board = drawn_world.board()
    assert marker.exists(), "a worker was killed while drawing"
    assert [a.filename for a in board.attachments] == ["board.png"]
    image = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert image.width > 500, "the real board, drawn by a new worker"
    pool = drawn_world.bot.get_cog("Games").presenter.drawing  # type: ignore[union-attr]
    assert pool.replaced >= 1


async def test_workers_that_keep_dying_leave_the_board_to_a_thread() -> None:
    pool = DrawingPool()
    pool.workers, pool.retries = 1, 1
    try:
        png = await pool.draw(DiesInWorkers(tomatoes_job()))  # type: ignore[arg-type]
    finally:
        await pool.close()
    assert png.startswith(b"\x89PNG")
    assert pool.replaced == 2, "the first pool and its one replacement both lost their worker"


async def test_closing_the_pool_stops_every_worker() -> None:
    pool = DrawingPool()
    pool.workers = 2
    pool.start()
    png = await pool.draw(tomatoes_job())
    assert png.startswith(b"\x89PNG")
    workers = pool.pids()
    assert workers and os.getpid() not in workers
    await pool.close()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    assert await pool.draw(tomatoes_job()) == png, "a closed pool still draws, in a thread"
