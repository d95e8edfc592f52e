"""Boards drawn in worker processes: a worker that dies is replaced and the board still posted."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cogs.platform import board as board_module
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
    """Whether a process with this id still runs (a zombie no longer does)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The processes still running after waiting up to `seconds` for them to exit."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


BOT_WITH_WORKERS = """
import asyncio
from cogs.platform.drawing import DrawingPool, DrawJob
from engine.games import get_rules

async def main():
    pool = DrawingPool()
    pool.workers = 2
    rules = get_rules("tomatoes")
    view = rules.view(rules.setup(2, None, 5), None)
    await pool.draw(DrawJob("tomatoes", view, None, ("Ann", "Bo")))
    print(*pool.pids(), flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


async def test_a_worker_that_dies_while_drawing_is_replaced_and_the_board_posted(
    drawn_world: Harness, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marker = tmp_path / "a worker died"
    real_job = board_module.board_job

    def dying_job(table: Any, seat: int | None = None) -> Any:
        job = real_job(table, seat)
        return None if job is None else DiesOnce(job, str(marker))

    monkeypatch.setattr(board_module, "board_job", dying_job)
    await start_two_humans(drawn_world)
    board = drawn_world.board()
    assert marker.exists(), "a worker was killed while drawing"
    assert [a.filename for a in board.attachments] == ["board.webp"]
    image = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert image.width > 500, "the real board, drawn by a new worker"
    pool = drawn_world.bot.get_cog("Games").presenter.drawing  # type: ignore[union-attr]
    assert pool.replaced >= 1


async def test_workers_that_keep_dying_leave_the_board_to_a_thread() -> None:
    pool = DrawingPool()
    pool.workers, pool.retries = 1, 1
    try:
        image = await pool.draw(DiesInWorkers(tomatoes_job()))  # type: ignore[arg-type]
    finally:
        await pool.close()
    assert image.startswith(b"RIFF")
    assert pool.replaced == 2, "the first pool and its one replacement both lost their worker"


async def test_closing_the_pool_stops_every_worker() -> None:
    pool = DrawingPool()
    pool.workers = 2
    pool.start()
    image = await pool.draw(tomatoes_job())
    assert image.startswith(b"RIFF")
    workers = pool.pids()
    assert workers and os.getpid() not in workers
    await pool.close()
    assert wait_gone(workers, 5) == []
    assert await pool.draw(tomatoes_job()) == image, "a closed pool still draws, in a thread"


def test_workers_leave_when_the_bot_is_killed_outright() -> None:
    """kill -9 gives the bot no chance to stop them: they notice on their own."""
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT_WITH_WORKERS], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(pid) for pid in workers)
    finally:
        bot.kill()
        bot.wait()
    assert wait_gone(workers) == []
