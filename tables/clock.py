"""A clock a test can move: the system time plus an offset read from a file (a simulated week)."""

from __future__ import annotations

import os
import time
from pathlib import Path


class OffsetClock:
    """`time.time()` plus the seconds written in a file; a missing or unreadable file adds nothing.

    The end-to-end tests run the real bot over a simulated week by writing ever larger offsets;
    the file is read again only when it changed.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._offset = 0.0

    def offset(self) -> float:
        """The offset now in the file, in seconds."""
        try:
            status = os.stat(self.path)
        except OSError:
            return self._offset
        stamp = (status.st_mtime_ns, status.st_size)
        if stamp != self._stamp:
            try:
                self._offset = float(self.path.read_text(encoding="ascii").strip() or 0)
                self._stamp = stamp
            except (OSError, ValueError):
                pass  # half written: keep the last offset, read it again next time
        return self._offset

    def __call__(self) -> float:
        return time.time() + self.offset()
