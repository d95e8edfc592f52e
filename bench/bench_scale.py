"""The same busy tables on one SQLite process and on two shard processes sharing PostgreSQL.

Usage: .venv/bin/python bench/bench_scale.py [--tables 100 200 500] [--seconds 60] [--modes sqlite pg]

For each number of tables, and each mode in turn, a fresh stand-in (tests/fakediscord, one
harness loop serving every gateway session) and bench_load's scripted humans (one per table,
their tables spread over two servers, one on each shard of two):
  sqlite - one bot.py on a SQLite file (no sharding: today's default);
  pg     - two bot.py processes, MEEPLE_SHARD_COUNT=2 and MEEPLE_SHARDS=0 / 1, on one database
           of a throwaway PostgreSQL cluster (tests/pgcluster.py, started once for the run).
Each bot runs as bench/timed_bot.py, which times every TableCore.save (the move's one
transaction) without changing the bot. Printed side by side: click-to-board p50/p95, the save
p95, CPU seconds of each bot process (and its drawing workers), of the PostgreSQL server, and of
the harness, and the harness loop's lag (when it is high, the stand-in is the bottleneck).
Opening is bounded (--open-limit): tables not open by then are left to keep trying, and the
run is timed with those that opened (the row says how many).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_load import Figures, Load, _status_kib, cpu_of, descendants, sample_lag  # noqa: E402
from timing import nearest_rank  # noqa: E402

from tables.shards import shard_of  # noqa: E402
from tests.e2e.botprocess import child_env  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.pgcluster import Cluster  # noqa: E402

SHARDS = 2


@dataclass
class Scale(Figures):
    """One run's figures, with what bench_load does not measure."""

    mode: str = ""
    tables: int = 0
    opened: int = 0
    saves: list[float] = field(default_factory=list)
    cpu_procs: list[tuple[float, float]] = field(default_factory=list)
    """(bot, its workers) CPU seconds while timed, per bot process."""
    cpu_pg: float = 0.0
    waits: list[float] = field(default_factory=list)
    """Seconds each bot process's threads waited for a core while timed (the CPU it was denied)."""
    wait_bench: float = 0.0
    load_avg: str = ""


def runqueue_wait(pids: list[int]) -> float:
    """Seconds these processes (their threads) spent runnable but waiting for a core (schedstat)."""
    total = 0
    for pid in pids:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                total += int((task / "schedstat").read_text().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


def two_shard_guilds(fake: FakeDiscord) -> list[int]:
    """Servers until one lies on each of the two shards; the others are dropped."""
    found: dict[int, int] = {}
    while len(found) < SHARDS:
        guild = fake.add_guild(f"Bench {len(fake.guilds)}")
        if shard_of(guild, SHARDS) in found:
            del fake.guilds[guild]
            continue
        found[shard_of(guild, SHARDS)] = guild
    return [found[s] for s in range(SHARDS)]


def postgres_pids(cluster: Cluster) -> list[int]:
    """The postmaster and every backend below it."""
    postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
    return [postmaster, *descendants(postmaster)]


async def run_scale(
    mode: str, tables: int, seconds: float, think: float, bot_delay: float, open_limit: float,
    cluster: Cluster | None,
) -> Scale:  # fmt: skip
    """Start the stand-in and the bot process(es) of `mode`, play at every table, return the figures."""
    fake = FakeDiscord()
    await fake.start()
    guilds = two_shard_guilds(fake)
    channels = [fake.add_text_channel(guilds[i % SHARDS], f"games-{i}") for i in range(tables)]
    users = [fake.add_user(f"Player{i}") for i in range(tables)]
    load = Load(fake, think, bot_delay)
    figures = Scale(mode=mode, tables=tables)
    load.figures = figures
    procs: list[asyncio.subprocess.Process] = []
    players: list[asyncio.Task[None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "sqlite":
            layouts: list[dict[str, str]] = [{"MEEPLE_DB": str(Path(tmp) / "meeple.sqlite3")}]
        else:
            assert cluster is not None
            url = await cluster.fresh_database(f"scale_{tables}")
            layouts = [
                {"MEEPLE_DB": url, "MEEPLE_SHARD_COUNT": str(SHARDS), "MEEPLE_SHARDS": str(s)}
                for s in range(SHARDS)
            ]
        saves = [Path(tmp) / f"saves-{i}.txt" for i in range(len(layouts))]
        try:
            for index, layout in enumerate(layouts):
                env = child_env(
                    DISCORD_TOKEN=fake.token,
                    MEEPLE_LOG_LEVEL="WARNING",
                    MEEPLE_BOT_DELAY=str(bot_delay),
                    MEEPLE_DISCORD_API_BASE=fake.api_base,
                    MEEPLE_BENCH_SAVES=str(saves[index]),
                    **layout,
                )
                with (Path(tmp) / f"bot-{index}.log").open("wb") as log:
                    procs.append(
                        await asyncio.create_subprocess_exec(
                            sys.executable,
                            str(ROOT / "bench" / "timed_bot.py"),
                            cwd=tmp,
                            env=env,
                            stdin=asyncio.subprocess.DEVNULL,
                            stdout=log,
                            stderr=asyncio.subprocess.STDOUT,
                        )
                    )
                await fake.wait_connected(60)
                await asyncio.sleep(2.5)  # on_ready comes 2 s after the last GUILD_CREATE
            opening = time.monotonic()
            opener = asyncio.Semaphore(10)
            players = [
                asyncio.create_task(load.table(i, tables, channels[i], users[i], opener))
                for i in range(tables)
            ]
            try:
                await asyncio.wait_for(load.all_open.wait(), open_limit)
            except TimeoutError:
                figures.problems.append(
                    f"only {load.opened} of {tables} tables open after {open_limit:.0f} s"
                )
            figures.opened = load.opened
            figures.open_seconds = time.monotonic() - opening
            figures.load_avg = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            tops = [p.pid for p in procs]
            cpu_top = [cpu_of([pid]) for pid in tops]
            cpu_below = [cpu_of(descendants(pid)) for pid in tops]
            wait_top = [runqueue_wait([pid]) for pid in tops]
            wait_bench = runqueue_wait([os.getpid()])
            pg_before = cpu_of(postgres_pids(cluster)) if cluster and mode == "pg" else 0.0
            bench_cpu = time.process_time()
            began = time.monotonic()
            uploads_before = len(fake.uploads)
            load.measuring = True
            lag_stop = asyncio.Event()
            lagger = asyncio.create_task(sample_lag(figures.lag, lag_stop))
            await asyncio.sleep(seconds)
            load.measuring = False
            lag_stop.set()
            await lagger
            ended = time.monotonic()
            figures.window = ended - began
            figures.cpu_bench = time.process_time() - bench_cpu
            figures.window_uploads = len(fake.uploads) - uploads_before
            figures.cpu_procs = [
                (cpu_of([pid]) - top, cpu_of(descendants(pid)) - below)
                for pid, top, below in zip(tops, cpu_top, cpu_below, strict=True)
            ]
            figures.waits = [runqueue_wait([pid]) - w for pid, w in zip(tops, wait_top, strict=True)]
            figures.wait_bench = runqueue_wait([os.getpid()]) - wait_bench
            figures.cpu_pg = cpu_of(postgres_pids(cluster)) - pg_before if cluster and mode == "pg" else 0.0
            figures.peak = max(_status_kib(pid, "VmHWM") for pid in tops) / 1024
            figures.load_avg += " -> " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
            for path in saves:
                for line in path.read_text().splitlines() if path.exists() else ():
                    at, took = (float(x) for x in line.split())
                    if began <= at <= ended:
                        figures.saves.append(took)
            figures.problems += list(fake.problems)[:5]
        finally:
            load.stop.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            for proc in procs:
                if proc.returncode is None:
                    proc.terminate()
            for proc in procs:
                try:
                    await asyncio.wait_for(proc.wait(), 30)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
            for index in range(len(procs)):
                text = (Path(tmp) / f"bot-{index}.log").read_text(errors="replace")
                errors = [line for line in text.splitlines() if "ERROR" in line or "Traceback" in line]
                if errors:
                    figures.problems.append(
                        f"bot {index}: {len(errors)} error line(s), first: {errors[0][:200]}"
                    )
            await fake.close()
    return figures


def ms(values: list[float], fraction: float) -> str:
    """A percentile in milliseconds, or '-' for no values."""
    return f"{nearest_rank(values, fraction) * 1e3:.0f}" if values else "-"


def rows(f: Scale) -> dict[str, str]:
    """The printed figures of one run."""
    per = " + ".join(f"{bot:.0f}/{below:.0f}" for bot, below in f.cpu_procs)
    total = sum(bot + below for bot, below in f.cpu_procs) + f.cpu_pg
    return {
        "tables open / asked": f"{f.opened} / {f.tables} in {f.open_seconds:.0f} s",
        "moves timed / missed": f"{len(f.board)} / {f.missed}",
        "click -> board p50 / p95 ms": f"{ms(f.board, 0.5)} / {ms(f.board, 0.95)}",
        "click -> board max ms": ms(f.board, 1.0),
        "click -> ack p50 / p95 ms": f"{ms(f.ack, 0.5)} / {ms(f.ack, 0.95)}",
        "save p50 / p95 / max ms": f"{ms(f.saves, 0.5)} / {ms(f.saves, 0.95)} / {ms(f.saves, 1.0)}",
        "saves while timed": str(len(f.saves)),
        "board uploads while timed": str(f.window_uploads),
        "CPU s per bot process (bot/draw)": per,
        "s waiting for a core: bots/harness": (
            " + ".join(f"{w:.0f}" for w in f.waits) + f" / {f.wait_bench:.0f}"
        ),
        "CPU s PostgreSQL server": f"{f.cpu_pg:.0f}" if f.mode == "pg" else "-",
        "CPU s all Meeple (+ PG)": f"{total:.0f} ({total / max(f.window, 1):.2f} cores)",
        "CPU s harness (stand-in+players)": f"{f.cpu_bench:.0f} ({f.cpu_bench / max(f.window, 1):.2f} cores)",
        "harness lag p50 / p99 / max ms": f"{ms(f.lag, 0.5)} / {ms(f.lag, 0.99)} / {ms(f.lag, 1.0)}",
        "bot peak RSS MiB (largest)": f"{f.peak:.0f}",
        "load avg start -> end": f.load_avg,
        "openings timed out (retried)": str(len(f.open_failures)),
    }


async def run_all(args: argparse.Namespace) -> list[Scale]:
    """Every size, every mode, one after the other; a cluster for the PostgreSQL runs."""
    cluster = Cluster.start() if "pg" in args.modes else None
    results = []
    try:
        for tables in args.tables:
            for mode in args.modes:
                print(f"-- {tables} tables, {mode} ...", file=sys.stderr, flush=True)
                limit = args.open_limit or 60 + tables * 1.5
                found = await run_scale(
                    mode, tables, args.seconds, args.think, args.bot_delay, limit, cluster
                )
                results.append(found)
                print_table([found])
    finally:
        if cluster is not None:
            cluster.stop()
    return results


def print_table(results: list[Scale]) -> None:
    """One column per run."""
    table = [(f"{f.tables} {f.mode}", rows(f)) for f in results]
    print(f"{'':34}" + "".join(f" | {name:>22}" for name, _ in table))
    for key in table[0][1]:
        print(f"{key:34}" + "".join(f" | {cells[key]:>22}" for _, cells in table))
    for f in results:
        for problem in f.problems[:6]:
            print(f"  {f.tables} {f.mode}: {problem}")
    sys.stdout.flush()


def main() -> None:
    """Parse the arguments, run, print every column side by side."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 200, 500])
    parser.add_argument("--modes", nargs="+", default=["sqlite", "pg"], choices=["sqlite", "pg"])
    parser.add_argument("--seconds", type=float, default=60.0, help="timed window of each run")
    parser.add_argument("--think", type=float, default=6.0, help="a human's mean seconds before a click")
    parser.add_argument("--bot-delay", type=float, default=1.5, help="MEEPLE_BOT_DELAY of the bots")
    parser.add_argument(
        "--open-limit", type=float, help="seconds to open the tables (default 60 + 1.5 a table)"
    )
    args = parser.parse_args()
    print(
        f"bench_scale: think {args.think} s, bot delay {args.bot_delay} s,"
        f" {args.seconds:.0f} s timed, pid {os.getpid()}"
    )
    results = asyncio.run(run_all(args))
    print("\n== side by side ==")
    print_table(results)


if __name__ == "__main__":
    main()
