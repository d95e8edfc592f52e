"""Board images drawn in a pool of worker processes, so drawing never holds the bot's interpreter lock.

Drawing is most of the bot's CPU (issue 11). In threads it competed with the event loop for
the interpreter lock; in processes it runs beside it, on every core. Only a small job crosses
the process boundary: the game id, the view (plain engine data), the viewer, the names and
the renderer's options, a few kilobytes pickled in well under a millisecond (a whole Table
costs the same, but drawing it would need discord.py in every worker).

Workers come from a fork server started once per bot process with the renderers imported, so
a new worker starts in milliseconds; each worker then draws one board of every game before it
takes work, so fonts, palettes and glyph caches are loaded once per worker, not on a click.
A worker that dies (killed, out of memory, a crash in native code) breaks the whole pool: the
pool is replaced and the draw tried again, a bounded number of times, and then drawn in a
thread of the bot itself as a last resort, so the board is still posted.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

log = logging.getLogger("meeple.cogs.drawing")
T = TypeVar("T")


def renderer_modules() -> list[str]:
    """Imported once in the fork server, so every worker starts with them loaded: the registry and
    each registered game's renderer."""
    from engine.games import GAMES

    return ["engine.games", *(game.renderer for game in GAMES.values() if game.renderer is not None)]


@dataclass(frozen=True, slots=True)
class DrawJob:
    """One board to draw: everything the renderer needs, and nothing of Discord or the store."""

    game: str
    view: Any
    viewer: int | None
    names: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    language: str = "en"
    """The table's language, the words drawn on the board (a code: the job crosses to a worker)."""

    def draw(self) -> bytes:
        """The board as an image file's bytes (blocking: a worker process or thread calls it)."""
        from renderers import render_file  # type: ignore[attr-defined,unused-ignore]

        image: bytes = render_file(
            self.game, self.view, self.viewer, self.names, language=self.language, **self.options
        )
        return image


def start_worker(bot_pid: int) -> None:
    """Set a new worker up: leave with the bot, ignore Ctrl-C, warm the renderers' caches."""
    threading.Thread(target=_exit_with, args=(bot_pid,), name="meeple-bot-watch", daemon=True).start()
    # Ctrl-C reaches the whole process group: the bot stops its workers itself, once its
    # last boards are drawn.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_worker()


def _exit_with(bot_pid: int) -> None:
    # A worker holds both ends of its task queue and the fork server's liveness pipe, so
    # neither it nor the fork server would notice a bot killed outright (kill -9, OOM):
    # without this watch they would wait forever as orphans.
    try:
        handle = os.pidfd_open(bot_pid)
    except OSError:
        handle = None
    if handle is not None:
        select.select([handle], [], [])
    else:
        while _alive(bot_pid):
            time.sleep(1.0)
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def warm_worker() -> None:
    """Draw one board of every game, so a worker's first real board finds its caches loaded."""
    from engine.games import GAMES, get_rules
    from renderers import has_renderer
    from renderers.text import warm

    warm()  # every font's character map: a name in Korean or emoji costs nothing on a click
    for game in GAMES:
        if not has_renderer(game):
            continue
        rules = get_rules(game)
        seats = max(2, rules.min_players)
        state = rules.setup(seats, None, 1)
        DrawJob(game, rules.view(state, None), None, tuple(f"Player {i + 1}" for i in range(seats))).draw()


def _ready() -> int:
    return os.getpid()


class DrawingPool:
    """A process pool sized to the machine that draws boards; replaced when a worker dies.

    Every pool call (start a worker, hand over a job, wait for its image) runs in a thread of
    the bot, so the event loop only awaits that thread. The thread runs in an empty context:
    multiprocessing's waits read time.monotonic, and a test harness that makes the clock
    virtual through a context variable (simcord) would freeze those waits.
    """

    workers: int | None = None
    """Worker processes (None: one per core); 0 draws in threads of the bot instead."""
    retries = 2
    """New pools tried after a worker died during a draw, before drawing in a thread."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        # Threads of its own that wait on the workers, so a queue of boards never holds up
        # the bot's other blocking calls (asyncio's default executor has cores + 4 threads).
        self._waiters = ThreadPoolExecutor(max_workers=32, thread_name_prefix="meeple-draw")
        self._closed = False
        self.replaced = 0
        """Pools replaced after a worker died (for the log and the tests)."""

    @property
    def size(self) -> int:
        """How many worker processes the pool runs."""
        return (os.cpu_count() or 1) if self.workers is None else self.workers

    def start(self) -> asyncio.Future[ProcessPoolExecutor | None] | None:
        """Start the workers and let them warm up, in a thread the caller need not wait for."""
        if self._closed or self.size == 0:
            return None
        return asyncio.get_running_loop().run_in_executor(self._waiters, _outside, self._current)

    async def draw(self, job: DrawJob) -> bytes:
        """The job's image, drawn in a worker; the event loop only waits on the result."""
        return await self.run(job.draw)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker (a module-level function, picklable arguments); drawing only."""
        if self._closed or self.size == 0:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._waiters, _outside, self._run, function, *args)

    def _current(self) -> ProcessPoolExecutor | None:
        # The pool, made (and its workers started) if there is none yet; None once closed.
        with self._lock:
            if self._pool is None and not self._closed:
                self._pool = self._new_pool()
                # One task per worker: the executor starts a worker for each task no idle worker takes.
                for _ in range(self.size):
                    self._pool.submit(_ready)
            return self._pool

    def _new_pool(self) -> ProcessPoolExecutor:
        # Not fork: the bot has threads (aiosqlite's, the executor's own) that a fork would copy
        # mid-step. The fork server is a fresh single-threaded interpreter with the renderers
        # (and the bot's main module) imported once; workers fork from it.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", *renderer_modules()])
        return ProcessPoolExecutor(
            self.size, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
        )

    def _run(self, function: Callable[..., T], *args: Any) -> T:
        # Blocking, in a thread: a worker draws; a dead worker costs a new pool and another try.
        for attempt in range(self.retries + 1):
            pool = self._current()
            if pool is None:
                break  # closed meanwhile
            try:
                return pool.submit(function, *args).result()
            except BrokenProcessPool:
                tries = self.retries + 1
                log.warning("a drawing worker died (try %d of %d): starting new workers", attempt + 1, tries)
                self._replace(pool)
            except RuntimeError:
                if self._pool is not pool:
                    continue  # replaced or closed by another draw meanwhile
                raise
            except CancelledError:
                if self._closed:
                    break  # the bot closed the pool while this board waited: draw it here
                raise
        else:
            log.error("drawing workers keep dying: drawing in a thread")
        return function(*args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        # Every draw in flight on the broken pool lands here; the first one replaces it.
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = None
            self.replaced += 1
        broken.shutdown(wait=False, cancel_futures=True)
        self._current()

    def pids(self) -> list[int]:
        """The worker processes' ids (for the tests)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return list(processes)

    async def close(self) -> None:
        """Stop the workers and wait until they have exited; later draws run in threads."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(self._waiters, _outside, self._shut, pool)
        self._waiters.shutdown(wait=False)

    @staticmethod
    def _shut(pool: ProcessPoolExecutor) -> None:
        pool.shutdown(wait=True, cancel_futures=True)


def _outside(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in an empty context (no context variable of the caller)."""
    return contextvars.Context().run(function, *args)
