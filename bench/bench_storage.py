"""Bytes on disk of one finished game, played through the table service into a fresh SQLite file.

Run by hand: .venv/bin/python bench/bench_storage.py [--game troyes] [--players 4] [--seed 1] [--ref main]

Every seat is a "human" whose clicks are chosen by a bot policy and sent through
`TableService.act`, so the log holds what a real game writes (undo snapshots while they
live, events, the final snapshot). Reported: the file after `VACUUM` (every page full, no
free list: the bytes the game needs), less an empty database's (one page per table and
index), the file before it (pages as the game left them, WAL checkpointed; free pages are
reused by the next games), the payload bytes per table and column (`length()` of each
value), and the stored record checked by engine.verify (replayed from the seed). With
--ref, the same game (same seed and clicks) is also played on that commit (a temporary
git worktree, its own process), first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
if __name__ == "__main__":
    # Run as a script: this tree's code. Imported by --ref: the other tree's, first on the path.
    sys.path.insert(0, str(HERE.parent))

from refs import measure_on, without_ref  # noqa: E402


async def play(path: Path, game: str, players: int, bot: str, seed: int) -> tuple[int, int]:
    """Play one game to its end; return its table id and the number of actions."""
    from tables import Store, TableService, TableStatus

    # The same game on every tree (new_seed is there since 733d39c).
    service = TableService(await Store.open(path), bot_delay=0, clock_loop=False, new_seed=lambda: seed)
    host = 1000
    table = await service.create(game, 1, 1, host, "P0")
    for seat in range(1, players):
        await service.join(table.id, host + seat, f"P{seat}")
    table = (await service.start_game(table.id, host, thread_id=5)).table
    actions = 0
    while table.status is TableStatus.PLAYING:
        prompt = table.prompts[0]
        action = table.rules.bot_action(table.state, prompt, bot)
        user = table.seats[prompt.seat].user_id
        assert user is not None
        table = (await service.act(table.id, user, table.version, action)).table
        actions += 1
    await service.close()
    return table.id, actions


def payload(path: Path) -> list[tuple[str, str, int]]:
    """(table, column, bytes) of every text column, largest first."""
    sizes = []
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in tables:
            if name.startswith("sqlite_"):
                continue
            for column in db.execute(f"PRAGMA table_info({name})"):
                total = db.execute(f"SELECT COALESCE(SUM(LENGTH({column[1]})), 0) FROM {name}").fetchone()[0]
                if total:
                    sizes.append((name, str(column[1]), int(total)))
    db.close()
    return sorted(sizes, key=lambda item: -item[2])


def file_bytes(path: Path) -> int:
    """Size of the database file, its WAL checkpointed into it first."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path.stat().st_size


def vacuumed_bytes(path: Path) -> int:
    """Size of the database file after VACUUM."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path.stat().st_size


async def verified(path: Path, table_id: int) -> str:
    """Check the stored record of the game with engine.verify (seed revealed): its verdict."""
    from engine import recordfile
    from engine.verify import verify
    from tables import Store, TableService

    service = TableService(await Store.open(path), clock_loop=False)
    try:
        record = await service.record(table_id)
    finally:
        await service.close()
    document = json.loads(recordfile.dumps(recordfile.build(record, "00" * 32, reveal=True)))
    found = verify(document)
    return f"{found.moves} moves replayed and checked, {found.result}"


async def measure(game: str, players: int, bot: str, seed: int) -> dict[str, Any]:
    """Play one game into a fresh file and measure it."""
    from tables import Store

    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.db"
        await (await Store.open(empty)).close()
        baseline = vacuumed_bytes(empty)
        path = Path(folder) / "game.db"
        table_id, actions = await play(path, game, players, bot, seed)
        before = file_bytes(path)
        columns = payload(path)
        after = vacuumed_bytes(path)
        verdict = await verified(path, table_id)
    return {
        "actions": actions,
        "before": before,
        "after": after,
        "baseline": baseline,
        "verdict": verdict,
        "columns": columns[:8],
    }


async def measure_args(argv: list[str]) -> dict[str, Any]:
    """`measure` with the options of a command line."""
    args = parse(argv)
    result: dict[str, Any] = await measure(args.game, args.players, args.bot, args.seed)
    return result


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="troyes")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (the same game on every tree)")
    parser.add_argument("--ref", help="also play it on this git ref (for example main)")
    return parser.parse_args(argv)


def main() -> None:
    """Play, measure and print."""
    argv = sys.argv[1:]
    args = parse(argv)
    plain = without_ref(argv)
    columns = []
    if args.ref:
        columns.append((args.ref, measure_on(args.ref, "bench_storage", plain)))
    columns.append(("this tree", asyncio.run(measure(args.game, args.players, args.bot, args.seed))))
    for name, r in columns:
        print(
            f"{name}: {args.game}, {args.players} players ({args.bot} clicks, seed {args.seed}),"
            f" {r['actions']} actions"
        )
        print(f"  file as left by the game (WAL checkpointed): {r['before'] / 1000:8.1f} KB")
        print(f"  file after VACUUM:                           {r['after'] / 1000:8.1f} KB")
        print(f"    of which an empty database (VACUUMed):     {r['baseline'] / 1000:8.1f} KB")
        print(f"  record as stored: {r['verdict']}")
        print("  payload by column (bytes): " + ", ".join(f"{t}.{c} {n:,}" for t, c, n in r["columns"]))


if __name__ == "__main__":
    main()
