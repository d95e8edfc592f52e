"""Moves on SQLite and on PostgreSQL side by side: the same race games through TableService.act,
one at a time (the latency of one click's save) and many tables at once (throughput), on a
throwaway PostgreSQL cluster (tests/pgcluster.py) and a fresh SQLite file.
Usage: .venv/bin/python bench/bench_stores.py [--tables 20] [--moves 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from engine import games  # noqa: E402
from engine.core import Action  # noqa: E402
from tables import TableService, TableStatus, open_store  # noqa: E402
from tests.pgcluster import Cluster  # noqa: E402

HOST, BOB = 101, 102


async def play(service: TableService, table_id: int, moves: int, latencies: list[float]) -> None:
    """Up to `moves` moves of one race (shortest stride, then roll), each timed."""
    for _ in range(moves):
        table = await service.get(table_id)
        if table.status is not TableStatus.PLAYING:
            return
        prompt = table.prompts[0]
        action = prompt.options[0] if prompt.kind == "stride" else Action("roll")
        user = table.seats[prompt.seat].user_id
        assert user is not None
        started = time.perf_counter()
        await service.act(table_id, user, table.version, action)
        latencies.append(time.perf_counter() - started)


async def run(database: str, tables: int, moves: int) -> dict[str, float]:
    """p50/p95 of one move alone, and moves a second with `tables` tables playing at once."""
    service = TableService(await open_store(database), bot_delay=0)
    try:
        ids = []
        for _ in range(tables + 1):
            lobby = await service.create("race", 1, 10, HOST, "Host", {"goal": 60})
            await service.join(lobby.id, BOB, "Bob")
            ids.append((await service.start_game(lobby.id, HOST)).table.id)
        alone: list[float] = []
        await play(service, ids[0], 40, alone)
        together: list[float] = []
        started = time.perf_counter()
        await asyncio.gather(*(play(service, table_id, moves, together) for table_id in ids[1:]))
        elapsed = time.perf_counter() - started
        await service.idle()
    finally:
        await service.close()
    ordered = sorted(alone)
    return {
        "alone p50 ms": statistics.median(ordered) * 1e3,
        "alone p95 ms": ordered[int(len(ordered) * 0.95) - 1] * 1e3,
        "together moves/s": len(together) / elapsed,
        "together p95 ms": sorted(together)[int(len(together) * 0.95) - 1] * 1e3,
    }


async def main_async(tables: int, moves: int) -> None:
    games.register("race", (2,), rules="tests.toygame", renderer=None)
    cluster = Cluster.start()
    try:
        admin = await asyncpg.connect(cluster.url())
        await admin.execute("CREATE DATABASE bench")
        await admin.close()
        with tempfile.TemporaryDirectory(prefix="bench-stores-") as tmp:
            figures = {
                "sqlite": await run(str(Path(tmp) / "meeple.sqlite3"), tables, moves),
                "postgresql": await run(cluster.url("bench"), tables, moves),
            }
    finally:
        cluster.stop()
    names = list(figures["sqlite"])
    print(f"{'':12}" + "".join(f"{name:>18}" for name in names))
    for store, row in figures.items():
        print(f"{store:12}" + "".join(f"{row[name]:>18.1f}" for name in names))


def main() -> None:
    """Parse the arguments, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main_async(args.tables, args.moves))


if __name__ == "__main__":
    main()
