"""Restart of the real bot.py over generated stores: time to ready, to the first click answered, and RSS.

Run by hand: .venv/bin/python bench/bench_restart.py [--sizes 1000,10000,50000] [--ref main]

For each size: bot.py (a child process against the local stand-in Discord) starts on an
empty database, a player opens a Diced Tomatoes game and makes one move; bot.py stops. The
database is then filled by script to `size` tables, copied from template games that this
tree's table service played (most finished, some in play with bot seats and a human to
move, some lobbies; Diced Tomatoes, Buttons and Troyes), each with its board shown. bot.py
is started again and timed from the spawn of the process:
  ready   - its log says "table service started" (the gateway ready, the games resumed);
  click   - the player's next click on the game opened before is answered (the callback);
  RSS     - the process's resident memory once that click is answered (/proc, VmRSS).
With --ref, the same runs are made on that commit (a temporary git worktree: its bot.py,
its own template games), first, so both columns come from one invocation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sqlite3
import subprocess
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

TEMPLATES: list[tuple[str, int, int, int | None, float]] = [
    # (game, humans, bots, human moves before it stops (None: to the end), share of the tables)
    ("tomatoes", 2, 0, None, 0.20),
    ("tomatoes", 1, 2, None, 0.15),
    ("buttons", 2, 1, None, 0.15),
    ("buttons", 4, 0, None, 0.10),
    ("troyes", 4, 0, None, 0.10),
    ("troyes", 2, 1, None, 0.15),
    ("tomatoes", 1, 1, 6, 0.04),
    ("buttons", 2, 1, 10, 0.03),
    ("troyes", 3, 1, 40, 0.03),
    ("tomatoes", 2, 0, 0, 0.03),
    ("troyes", 1, 0, 0, 0.02),
]
"""85% finished, 10% in play (a human to move), 5% lobbies (0 moves: never started)."""

READY = "table service started"


async def make_templates(path: str) -> list[tuple[int, float]]:
    """Play the template games into a new database at `path`; return (table id, share) pairs."""
    from tables import Store, TableService, TableStatus

    service = TableService(await Store.open(path), bot_delay=0, clock_loop=False)
    made = []
    for number, (game, humans, bots, moves, share) in enumerate(TEMPLATES):
        host = 1000 * (number + 1)
        table = await service.create(game, 1, 1, host, "P1")
        for seat in range(1, humans):
            await service.join(table.id, host + seat, f"P{seat + 1}")
        for _ in range(bots):
            await service.add_bot(table.id, host, "random")
        made.append((table.id, share))
        if moves == 0:
            continue
        table = (await service.start_game(table.id, host, thread_id=number + 1)).table
        played = 0
        while moves is None or played < moves:
            await service.idle()
            table = await service.get(table.id)
            waiting = [p for p in table.prompts if not table.is_bot(p.seat)]
            if table.status is not TableStatus.PLAYING or not waiting:
                break
            prompt = waiting[0]
            action = table.rules.bot_action(table.state, prompt, "greedy")
            user = table.seats[prompt.seat].user_id
            await service.act(table.id, user, table.version, action)
            played += 1
        await service.idle()
    await service.close()
    return made


def fill(templates: Path, shares: list[tuple[int, float]], target: Path, count: int, seed: int = 1) -> None:
    """Add `count` tables to `target`, each a copy of a template game, boards shown, ids fresh."""
    src = sqlite3.connect(templates)
    dst = sqlite3.connect(target, isolation_level=None)
    kinds = [
        name
        for name in ("tables", "boards", "seats", "actions", "deadlines", "undo_states")
        if src.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    ]
    columns = {name: [str(r[1]) for r in src.execute(f"PRAGMA table_info({name})")] for name in kinds}
    rows: dict[int, dict[str, list[tuple[Any, ...]]]] = {}
    for table_id, _ in shares:
        rows[table_id] = {}
        for name in kinds:
            key = "id" if name == "tables" else "table_id"
            rows[table_id][name] = src.execute(
                f"SELECT * FROM {name} WHERE {key} = ?", (table_id,)
            ).fetchall()
    src.close()
    table_cols = columns["tables"]
    at = {name: table_cols.index(name) for name in table_cols}
    first = (dst.execute("SELECT COALESCE(MAX(id), 0) FROM tables").fetchone()[0] or 0) + 1
    rng = random.Random(seed)
    picks = rng.choices([t for t, _ in shares], weights=[s for _, s in shares], k=count)
    dst.execute("BEGIN")
    batch: dict[str, list[tuple[Any, ...]]] = {name: [] for name in kinds}
    for offset, template in enumerate(picks):
        new_id = first + offset
        (row,) = rows[template]["tables"]
        copy = list(row)
        copy[at["id"]] = new_id
        copy[at["guild_id"]] = 10 + new_id % 50
        copy[at["channel_id"]] = 1000 + new_id % 500
        if copy[at["status"]] != "lobby":
            copy[at["thread_id"]] = 10**15 + new_id
        batch["tables"].append(tuple(copy))
        for name in kinds[1:]:
            batch[name].extend((new_id, *r[1:]) for r in rows[template][name])
        if copy[at["status"]] != "lobby":
            # The board ledger (its own table): shown, nothing in flight or left to strip.
            board = dict(zip(columns["boards"], batch["boards"].pop(), strict=True))
            board.update(message_id=2 * 10**15 + new_id, version=copy[at["version"]])
            board.update(posting=None, retired="[]")
            batch["boards"].append(tuple(board.values()))
        if offset % 2000 == 1999 or offset == count - 1:
            for name in kinds:
                marks = ", ".join("?" * len(columns[name]))
                dst.executemany(
                    f"INSERT INTO {name} ({', '.join(columns[name])}) VALUES ({marks})", batch[name]
                )
                batch[name] = []
    dst.execute("COMMIT")
    dst.close()


def templates_in(tree: Path, folder: Path) -> tuple[Path, list[tuple[int, float]]]:
    """The template games played by `tree`'s table service (in its own process)."""
    path = folder / "templates.db"
    code = (
        f"import sys, json, asyncio; sys.path[:0] = [{str(tree)!r}, {str(HERE)!r}]; "
        "import tables; assert tables.__file__.startswith(sys.path[0]), tables.__file__; "
        "import bench_restart as b; print(json.dumps(asyncio.run(b.make_templates(sys.argv[1]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], check=True, capture_output=True, text=True, cwd=tree
    )
    shares = [(int(t), float(s)) for t, s in json.loads(done.stdout.splitlines()[-1])]
    return path, shares


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Child:
    """`python <tree>/bot.py`, its output in a log file."""

    def __init__(self, tree: Path, env: dict[str, str], folder: Path) -> None:
        self.tree, self.env, self.folder = tree, env, folder
        self.log = folder / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None
        self.offset = 0

    async def start(self) -> float:
        """Spawn the bot; return the time it was spawned (monotonic)."""
        self.offset = self.log.stat().st_size if self.log.exists() else 0
        spawned = time.monotonic()
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(self.tree / "bot.py"),
                cwd=self.folder,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        return spawned

    async def wait_line(self, text: str, timeout: float = 120.0) -> float:
        """Wait until `text` is in this run's output; return when it was seen (monotonic)."""
        deadline = time.monotonic() + timeout
        while True:
            with self.log.open("rb") as out:
                out.seek(self.offset)
                if text.encode() in out.read():
                    return time.monotonic()
            assert self.proc is not None
            if self.proc.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError(f"no {text!r} from bot.py:\n{self.log.read_text()[-3000:]}")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """SIGTERM, then kill if it lingers."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


async def restart(
    tree: Path, templates: Path, shares: list[tuple[int, float]], size: int
) -> dict[str, float]:
    """One measured restart of `tree`'s bot.py over a store of `size` tables."""
    from bench_discord import open_game

    from tests.e2e.botprocess import child_env
    from tests.e2e.players import next_move, play_move, press
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord()
    await fake.start()
    channel = fake.add_text_channel(fake.add_guild("Bench"))
    alice = fake.add_user("Alice")
    try:
        with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
            folder = Path(tmp)
            db = folder / "meeple.sqlite3"
            env = child_env(
                DISCORD_TOKEN=fake.token,
                MEEPLE_DB=str(db),
                MEEPLE_LOG_LEVEL="INFO",
                MEEPLE_BOT_DELAY="0",
                MEEPLE_DISCORD_API_BASE=fake.api_base,
            )
            child = Child(tree, env, folder)
            try:
                await child.start()
                await child.wait_line(READY)
                thread_id = await open_game(fake, channel, alice, 0)
                version, _ = await play_move(fake, thread_id, alice, -1)
                await next_move(fake, thread_id, alice, version)
                await child.stop()

                fill(templates, shares, db, size - 1)
                stored = db.stat().st_size
                spawned = await child.start()
                ready = await child.wait_line(READY) - spawned
                msg, item = await next_move(fake, thread_id, alice, version)
                asked = len(fake.requests)
                interaction, _ = await press(fake, msg, item, alice)
                answered = next(
                    r.at
                    for r in fake.requests[asked:]
                    if r.path.startswith(f"/interactions/{interaction.id}/")
                )
                assert child.proc is not None
                rss = rss_mib(child.proc.pid)
            finally:
                await child.stop()
    finally:
        await fake.close()
    return {"ready": ready, "click": answered - spawned, "rss": rss, "mb": stored / 1e6}


async def measure(tree: Path, sizes: list[int]) -> dict[int, dict[str, float]]:
    """Every size on one tree (its own template games)."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-templates-") as tmp:
        templates, shares = templates_in(tree, Path(tmp))
        for size in sizes:
            results[size] = await restart(tree, templates, shares, size)
            print(f"  {tree.name}: {size} tables: {results[size]}", file=sys.stderr, flush=True)
    return results


def main() -> None:
    """Run and print."""
    from refs import ROOT, checkout

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--ref", help="also run on this git ref (for example main)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    columns = []
    if args.ref:
        with checkout(args.ref) as tree:
            columns.append((args.ref, asyncio.run(measure(tree, sizes))))
    columns.append(("this tree", asyncio.run(measure(ROOT, sizes))))
    print("restart of bot.py: seconds from spawn to ready / to the first click answered; RSS after it")
    for name, results in columns:
        print(f"{name}:")
        for size, r in results.items():
            print(
                f"  {size:>6} tables ({r['mb']:6.1f} MB file): ready {r['ready']:5.2f} s"
                f"  click {r['click']:5.2f} s  RSS {r['rss']:5.0f} MiB"
            )


if __name__ == "__main__":
    main()
