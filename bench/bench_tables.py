"""Table layer speed on a file database: commit time per action and load time of a table.

Run by hand: .venv/bin/python bench/bench_tables.py [--game tomatoes] [--players 4] [--games 3]

Every seat is a "human" whose clicks are chosen by the greedy bot and sent through
`TableService.act`, so each timed action is the whole path a button click takes: lock,
checks, `Rules.apply`, encoding the snapshot (and the undo snapshot), one SQLite transaction
(log + snapshot + seats + clocks, WAL, synchronous=NORMAL) and the Update. Times are wall
clock (time.perf_counter), since the disk is part of what is measured; "engine" is the same
action's `Rules.apply` alone, for comparison. "load" opens nothing new: it reads one table
(row, seats, clocks, decoding the snapshot) from the database, as after a restart.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import spread

from engine.games import GAMES
from tables import Store, TableService, TableStatus


def millis(values: list[float]) -> str:
    """p50 / p95 / p99 / max in milliseconds."""
    return spread(values, ("p50", "p95", "p99", "max"), "ms", "7.2f")


async def play_one(
    service: TableService, game: str, players: int, seed_user: int
) -> tuple[int, list[float], list[float]]:
    """Play one game to its end through `act`; return its id, the act times and the engine times."""
    host = seed_user
    table = await service.create(game, 1, 1, host, "P0")
    for seat in range(1, players):
        await service.join(table.id, host + seat, f"P{seat}")
    table = (await service.start_game(table.id, host)).table
    acts: list[float] = []
    engine: list[float] = []
    rules = table.rules
    while table.status is TableStatus.PLAYING:
        prompt = table.prompts[0]
        action = rules.bot_action(table.state, prompt, "greedy")
        start = time.perf_counter()
        rules.apply(table.state, prompt.seat, action)
        engine.append(time.perf_counter() - start)
        user = table.seats[prompt.seat].user_id
        assert user is not None
        start = time.perf_counter()
        update = await service.act(table.id, user, table.version, action)
        acts.append(time.perf_counter() - start)
        table = update.table
    return table.id, acts, engine


async def main(game: str, players: int, games: int) -> None:
    """Run the benchmark and print the figures."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        service = TableService(await Store.open(path), bot_delay=0)
        acts: list[float] = []
        engine: list[float] = []
        ids: list[int] = []
        wall = time.perf_counter()
        for number in range(games):
            table_id, game_acts, game_engine = await play_one(service, game, players, 1000 * (number + 1))
            ids.append(table_id)
            acts += game_acts
            engine += game_engine
        wall = time.perf_counter() - wall
        await service.close()

        store = await Store.open(path)
        loads: list[float] = []
        sizes: list[int] = []
        for _ in range(20):
            for table_id in ids:
                start = time.perf_counter()
                table = await store.load(table_id)
                loads.append(time.perf_counter() - start)
                assert table is not None
                sizes.append(len(table.rules.encode(table.state)))
        log_start = time.perf_counter()
        rows = await store.actions(ids[0])
        log_time = time.perf_counter() - log_start
        await store.close()
        db_bytes = sum(p.stat().st_size for p in Path(folder).iterdir())

    print(f"{game}, {players} players, {games} games, {len(acts)} actions, file database (WAL)")
    print(f"act (click -> committed)  {millis(acts)}")
    print(f"  of which Rules.apply    {millis(engine)}")
    print(f"actions per second, one table at a time: {len(acts) / wall:8.0f}")
    print(f"load one table            {millis(loads)}   (snapshot ~{sum(sizes) // len(sizes)} bytes)")
    print(f"read a whole log ({len(rows)} rows): {log_time * 1e3:.2f} ms")
    print(f"database files after {games} games: {db_bytes / 1e6:.2f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tomatoes", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.game, args.players, args.games))
