"""bot.py with each save timed: the bench's window on the store's commit time, the bot unchanged.

Usage (as bench/bench_scale.py runs it): MEEPLE_BENCH_SAVES=saves.txt python bench/timed_bot.py

`TableCore.save` (the one transaction of an accepted move: action, events, snapshot, seats,
clocks, guarded by the version, under the table's advisory lock on PostgreSQL) is wrapped; each
call appends "monotonic-end seconds" to the file, so the harness can keep the calls of its timed
window. The time is wall time in the bot's loop, so a busy loop lengthens it as the bot sees it.
"""

from __future__ import annotations

import functools
import os
import runpy
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def instrument(path: str) -> None:
    """Wrap TableCore.save so each call's duration is appended to `path`."""
    from tables.service.core import TableCore

    out = open(path, "a", buffering=1, encoding="ascii")  # noqa: SIM115 - open for the process's life
    original = TableCore.save

    @functools.wraps(original)
    async def save(self: Any, *args: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        try:
            return await original(self, *args, **kwargs)
        finally:
            ended = time.monotonic()
            out.write(f"{ended:.6f} {ended - began:.6f}\n")

    TableCore.save = save  # type: ignore[method-assign]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    instrument(os.environ["MEEPLE_BENCH_SAVES"])
    sys.argv = [str(ROOT / "bot.py")]
    runpy.run_path(str(ROOT / "bot.py"), run_name="__main__")
