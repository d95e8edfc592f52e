"""The click journal's cost per click (tables/clicks.py): one INSERT before the acknowledgement
and, for a click that stores no move, one DELETE after its answer (a move deletes its row in its
own transaction). Usage: .venv/bin/python bench/bench_journal.py [--clicks 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tables import Store  # noqa: E402
from tables.clicks import PendingClick  # noqa: E402


async def run(clicks: int) -> tuple[float, float]:
    """Milliseconds per journal INSERT and per DELETE on a fresh file database."""
    with tempfile.TemporaryDirectory(prefix="bench-journal-") as tmp:
        store = await Store.open(Path(tmp) / "meeple.sqlite3")
        try:
            started = time.perf_counter()
            for number in range(clicks):
                await store.journal_click(PendingClick(number, 1, "t" * 70, 5, True, time.time()))
            inserted = time.perf_counter()
            for number in range(clicks):
                await store.close_click(number)
            deleted = time.perf_counter()
        finally:
            await store.close()
    return (inserted - started) / clicks * 1e3, (deleted - inserted) / clicks * 1e3


def main() -> None:
    """Parse the arguments, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clicks", type=int, default=2000)
    args = parser.parse_args()
    insert, delete = asyncio.run(run(args.clicks))
    print(f"journal INSERT {insert:.3f} ms, DELETE {delete:.3f} ms per click ({args.clicks} clicks)")


if __name__ == "__main__":
    main()
