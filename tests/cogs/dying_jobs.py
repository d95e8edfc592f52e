"""Drawing jobs that kill the worker process drawing them (importable by the workers: no test imports)."""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

from cogs.platform.drawing import DrawJob

WORKER_DIED = 70
"""The exit status of a worker a job killed."""


def in_a_worker() -> bool:
    """Whether this code runs in a worker process (not in the test's own process)."""
    return multiprocessing.parent_process() is not None


@dataclass(frozen=True)
class DiesOnce:
    """Kills the first worker that draws it (the marker file remembers), then draws `job`."""

    job: DrawJob
    marker: str

    def draw(self) -> bytes:
        """Die the first time in a worker, draw afterwards."""
        if in_a_worker():
            try:
                Path(self.marker).touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                os._exit(WORKER_DIED)
        return self.job.draw()


@dataclass(frozen=True)
class DiesInWorkers:
    """Kills every worker that draws it; only a thread of the test's own process can draw it."""

    job: DrawJob

    def draw(self) -> bytes:
        """Die in a worker, draw in the test's process."""
        if in_a_worker():
            os._exit(WORKER_DIED)
        return self.job.draw()
