"""Commit time under load: many tables saving at once into one SQLite file, through the service.

Run by hand: .venv/bin/python bench/bench_commits.py [--tables 100] [--seconds 20] [--pace 3] [--no-draw]
    [--ref main]

Each table is a game whose seats are all "humans"; a task per table clicks a random legal
option through `TableService.act`, draws the new board in a thread as the presenter does
(unless --no-draw: drawing holds the interpreter lock, so the database thread waits for
it at each trip), then waits a random 0..2x `--pace` seconds. Timed: each `Store.save`
call (wall clock, from the call to its return on the event loop: encoding, the wait for the
database thread and the transaction), and each whole `act`. The interpreter lock's switch
interval is the one bot.py sets (bot.SWITCH_INTERVAL, Python's default where it has none).
With --ref, the same run is made first on that commit (a temporary git worktree, its own
process), so both columns come from one invocation.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
if __name__ == "__main__":
    # Run as a script: this tree's code. Imported by --ref: the other tree's, first on the path.
    sys.path.insert(0, str(HERE.parent))

from refs import measure_on, without_ref  # noqa: E402
from timing import spread  # noqa: E402


async def measure(
    game: str, players: int, tables: int, seconds: float, pace: float, draw: bool
) -> dict[str, Any]:
    """Run the load; return the save and act times in seconds."""
    import bot
    from renderers import render_file
    from tables import Store, TableService, TableStatus

    # The interpreter lock's hand-over interval the bot sets for itself, if it does.
    sys.setswitchinterval(getattr(bot, "SWITCH_INTERVAL", sys.getswitchinterval()))

    saves: list[float] = []
    acts: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        save = store.save

        async def timed_save(*args: Any, **kwargs: Any) -> bool:
            start = time.perf_counter()
            try:
                return await save(*args, **kwargs)
            finally:
                saves.append(time.perf_counter() - start)

        service = TableService(store, bot_delay=0, clock_loop=False)
        ids = []
        for number in range(tables):
            host = 1000 * (number + 1)
            table = await service.create(game, 1, 1, host, "P0")
            for seat in range(1, players):
                await service.join(table.id, host + seat, f"P{seat}")
            ids.append((await service.start_game(table.id, host, thread_id=number + 1)).table.id)
        store.save = timed_save  # type: ignore[method-assign]
        deadline = time.perf_counter() + seconds
        rng = random.Random(1)

        async def play(table_id: int) -> None:
            # Tables start out of step, as players do (else the first round is one burst).
            await asyncio.sleep(rng.uniform(0, 2 * pace))
            while time.perf_counter() < deadline:
                table = await service.get(table_id)
                if table.status is not TableStatus.PLAYING:
                    return
                prompt = table.prompts[0]
                action = rng.choice(prompt.options)
                user = table.seats[prompt.seat].user_id
                start = time.perf_counter()
                update = await service.act(table_id, user, table.version, action)
                acts.append(time.perf_counter() - start)
                if draw:
                    # As the presenter draws the new board today: in a thread, holding the GIL.
                    names = [seat.name for seat in table.seats]
                    await asyncio.to_thread(render_file, game, update.table.view(None), None, names)
                await asyncio.sleep(rng.uniform(0, 2 * pace))

        await asyncio.gather(*(play(table_id) for table_id in ids))
        await service.close()
    return {"saves": saves, "acts": acts}


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="troyes")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=3.0, help="mean pause between a table's clicks, s")
    parser.add_argument("--no-draw", action="store_true", help="do not draw the board after each click")
    parser.add_argument("--ref", help="also run on this git ref (for example main)")
    return parser.parse_args(argv)


async def measure_args(argv: list[str]) -> dict[str, Any]:
    """`measure` with the command-line arguments (what --ref runs in the other tree)."""
    args = parse(argv)
    return await measure(args.game, args.players, args.tables, args.seconds, args.pace, not args.no_draw)


def main() -> None:
    """Run and print."""
    argv = sys.argv[1:]
    args = parse(argv)
    plain = without_ref(argv)
    columns = []
    if args.ref:
        columns.append((args.ref, measure_on(args.ref, "bench_commits", plain)))
    columns.append(("this tree", asyncio.run(measure_args(plain))))
    print(
        f"{args.tables} tables of {args.game} ({args.players} seats) clicking for {args.seconds:.0f} s,"
        f" pause 0..{2 * args.pace:.1f} s between a table's clicks,"
        f" {'no board' if args.no_draw else 'board'} drawn"
    )
    for name, result in columns:
        print(f"{name}:")
        print(
            f"  save (one commit) {spread(result['saves'], ('p50', 'p95', 'p99', 'max'), 'ms', '7.2f')}"
            f"  n={len(result['saves'])}"
        )
        print(f"  act (click)       {spread(result['acts'], ('p50', 'p95', 'p99', 'max'), 'ms', '7.2f')}")


if __name__ == "__main__":
    main()
