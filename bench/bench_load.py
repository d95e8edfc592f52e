"""Click-to-board time with many busy tables: the real bot.py in a child process, the fake on 127.0.0.1.

Usage: .venv/bin/python bench/bench_load.py [--tables 100] [--clicks 600] [--seconds 90] [--ref main]

Every table has its own channel and one scripted human (plus bot seats): Diced Tomatoes (1 bot),
Buttons (2 bots) and Troyes (2 bots) in turn. The humans think a while (--think, seconds, drawn
uniformly between half and one and a half times it) and click the first move offered; a game
that ends is followed by a new one. Once every table is open, for --seconds or until --clicks
moves are timed:
  board  - a click that completes a move -> the first upload of that table's new board image;
  missed - such clicks with no new board within 10 s (a click that raced a bot's move, say).
  ack    - the same clicks -> the bot's answer to the interaction (its event loop's delay).
At the end: the bot process's resident memory (now and peak), that of its drawing workers
(every process below it), and the CPU both used while measuring.

With --ref <commit>, the same load first runs against that commit's bot.py (checked out into
a temporary git worktree), and both columns are printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import nearest_rank  # noqa: E402

from engine.games import GAMES as REGISTERED  # noqa: E402
from tests.e2e.botprocess import child_env  # noqa: E402
from tests.e2e.players import choices, find_choice, press  # noqa: E402
from tests.fakediscord import Channel, FakeDiscord, User  # noqa: E402

GAMES = tuple((game, 1 if game == "tomatoes" else 2) for game in REGISTERED)
"""Game and bot seats per table, dealt to the tables in turn (a solo-friendly Tomatoes table: one bot)."""
BOARD_WAIT = 10.0
PAGE = 4096


@dataclass
class Figures:
    """What one run measured."""

    board: list[float] = field(default_factory=list)
    ack: list[float] = field(default_factory=list)
    missed: int = 0
    clicks: int = 0
    games: int = 0
    open_seconds: float = 0.0
    window: float = 0.0
    rss: float = 0.0
    peak: float = 0.0
    workers: int = 0
    workers_rss: float = 0.0
    cpu_bot: float = 0.0
    cpu_workers: float = 0.0
    uploads: int = 0
    window_uploads: int = 0
    cpu_bench: float = 0.0
    open_failures: list[str] = field(default_factory=list)
    """Openings (lobby, bot seats, start) that timed out and were tried again."""
    lag: list[float] = field(default_factory=list)
    """The harness loop's lag (sampled every 0.1 s while timed): the stand-in answers the bot from it."""
    problems: list[str] = field(default_factory=list)


def _stat(pid: int) -> tuple[int, float]:
    """Parent pid and CPU seconds (user + system) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = 100.0
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks


def _status_kib(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return float(line.split()[1])
    return 0.0


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (drawing workers, their fork server)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = _stat(int(entry.name))[0]
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


def cpu_of(pids: list[int]) -> float:
    """CPU seconds used so far by these processes (those still alive)."""
    total = 0.0
    for pid in pids:
        try:
            total += _stat(pid)[1]
        except OSError:
            continue
    return total


async def open_game(fake: FakeDiscord, channel: Channel, user: User, game: str, bots: int) -> int:
    """Open a lobby, seat the bots, start; return the game thread's id."""
    known = {t.id for t in fake.threads_of(channel.id)}
    old = {m.id for m in fake.channel_messages(channel.id)}
    await fake.wait_answered(await fake.slash(f"play {game}", user, channel), 30)
    lobby = await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(fake.channel_messages(channel.id))
                if not m.loading and "Start" in m.labels() and m.id not in old
            ),
            None,
        ),
        30,
        "a lobby",
    )
    add_bot = next(cid for cid in lobby.custom_ids() if cid.endswith(":bot"))
    for seated in range(1, bots + 1):
        await fake.wait_answered(await fake.select(lobby, add_bot, ["normal"], user), 30)
        await fake.wait_for(lambda count=seated: lobby.edited >= count, 30, "a bot seated")
    await fake.wait_answered(await fake.click_label(lobby, "Start", user), 30)
    threads = await fake.wait_for(
        lambda: [t for t in fake.threads_of(channel.id) if t.id not in known], 30, "the game thread"
    )
    return threads[0].id


class BoardUpload:
    """When the first board image for a table (its thread or an interaction) arrived after a point.

    Called on every change the fake sees, it reads each upload once (a cursor into
    `fake.uploads`): rescanning every request since the click made the harness itself, which
    shares its loop with the stand-in, the bottleneck at 200 tables.
    """

    def __init__(self, fake: FakeDiscord, thread_id: int) -> None:
        self.fake = fake
        self.seen = len(fake.uploads)
        self.since = time.monotonic()
        self.thread = f"/channels/{thread_id}/"
        self.token = ""

    def __call__(self) -> float | None:
        """The upload's arrival time, once there is one."""
        uploads = self.fake.uploads
        for request in uploads[self.seen :]:
            if request.at >= self.since and (
                self.thread in request.path or (self.token and self.token in request.path)
            ):
                return request.at
        self.seen = len(uploads)
        return None


class Load:
    """The scripted humans of every table, and what their clicks measured."""

    def __init__(self, fake: FakeDiscord, think: float, bot_delay: float) -> None:
        self.fake = fake
        self.think = think
        self.idle_limit = 4 * bot_delay + 15.0
        self.figures = Figures()
        self.measuring = False
        self.stop = asyncio.Event()
        self.opened = 0
        self.all_open = asyncio.Event()

    async def table(
        self, index: int, tables: int, channel: Channel, user: User, opener: asyncio.Semaphore
    ) -> None:
        """Play game after game at one table until the run stops (games opened a few at a time)."""
        game, bots = GAMES[index % len(GAMES)]
        rng = random.Random(index)
        first = True
        while not self.stop.is_set():
            try:
                async with opener:
                    thread_id = await open_game(self.fake, channel, user, game, bots)
            except TimeoutError as exc:
                # Counted, and tried again: a table whose opening timed out once used to end its
                # player, so every table never opened and the run waited out its 60 + 3 s a table.
                self.figures.open_failures.append(str(exc))
                continue
            self.figures.games += 1
            if first:
                first = False
                self.opened += 1
                if self.opened == tables:
                    self.all_open.set()
            while not self.stop.is_set():
                try:
                    await self.fake.wait_for(
                        lambda thread=thread_id: find_choice(self.fake, thread, user, choices),
                        self.idle_limit,
                        "a move",
                    )
                except TimeoutError:
                    break  # the game is over
                await asyncio.sleep(rng.uniform(0.5, 1.5) * self.think)
                found = find_choice(self.fake, thread_id, user, choices)
                if found is None or self.stop.is_set():
                    continue
                await self.click(thread_id, user, *found)

    async def click(self, thread_id: int, user: User, msg: object, item: dict[str, object]) -> None:
        """Click and, for a move, time the new board."""
        first = len(self.fake.requests)
        upload = BoardUpload(self.fake, thread_id)
        start = time.monotonic()
        measured = self.measuring
        try:
            interaction, final = await press(self.fake, msg, item, user)  # type: ignore[arg-type]
        except (TimeoutError, AssertionError):
            return  # the component went away meanwhile
        if not final:
            return
        upload.token = interaction.token
        try:
            at = await self.fake.wait_for(upload, BOARD_WAIT, "a board")
        except TimeoutError:
            if measured and self.measuring:
                self.figures.missed += 1
            return
        if measured and self.measuring:
            callback = f"/interactions/{interaction.id}/"
            acked = [r.at - start for r in self.fake.requests[first:] if callback in r.path]
            self.figures.ack += acked[:1]
            self.figures.board.append(at - start)
            self.figures.clicks += 1


async def sample_lag(into: list[float], stop: asyncio.Event) -> None:
    """How late a 0.1 s sleep wakes, until `stop`: the lag of the loop the stand-in and the players share."""
    while not stop.is_set():
        began = time.monotonic()
        await asyncio.sleep(0.1)
        into.append(time.monotonic() - began - 0.1)


async def run_load(
    root: Path,
    tables: int,
    clicks: int,
    seconds: float,
    think: float,
    bot_delay: float,
    profile: str | None = None,
) -> Figures:
    """Start the fake and `root`/bot.py, play at every table, return the figures."""
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Bench")
    channels = [fake.add_text_channel(guild, f"games-{i}") for i in range(tables)]
    users = [fake.add_user(f"Player{i}") for i in range(tables)]
    load = Load(fake, think, bot_delay)
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(
            DISCORD_TOKEN=fake.token,
            MEEPLE_DB=str(Path(tmp) / "meeple.sqlite3"),
            MEEPLE_LOG_LEVEL="WARNING",
            MEEPLE_BOT_DELAY=str(bot_delay),
            MEEPLE_DISCORD_API_BASE=fake.api_base,
        )
        with (Path(tmp) / "bot.log").open("wb") as log:
            # --profile: the bot's own process under cProfile (its workers are not profiled).
            profiler = ["-m", "cProfile", "-o", str(Path(profile).resolve())] if profile else []
            proc = await asyncio.create_subprocess_exec(
                sys.executable, *profiler, str(root / "bot.py"), cwd=tmp, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
        players: list[asyncio.Task[None]] = []
        try:
            await fake.wait_connected(60)
            await asyncio.sleep(2.5)  # on_ready comes 2 s after the last GUILD_CREATE
            opening = time.monotonic()
            opener = asyncio.Semaphore(10)
            players = [
                asyncio.create_task(load.table(i, tables, channels[i], users[i], opener))
                for i in range(tables)
            ]
            await asyncio.wait_for(load.all_open.wait(), 60 + tables * 3)
            figures = load.figures
            figures.open_seconds = time.monotonic() - opening
            below = [proc.pid, *descendants(proc.pid)]
            cpu_bot, cpu_workers = cpu_of([proc.pid]), cpu_of(below[1:])
            uploads_before = sum(1 for r in fake.requests if r.files)
            bench_cpu = time.process_time()
            began = time.monotonic()
            load.measuring = True
            lag_stop = asyncio.Event()
            lagger = asyncio.create_task(sample_lag(figures.lag, lag_stop))
            deadline = began + seconds
            while time.monotonic() < deadline and figures.clicks < clicks:
                await asyncio.sleep(0.2)
            load.measuring = False
            lag_stop.set()
            await lagger
            figures.window = time.monotonic() - began
            figures.cpu_bench = time.process_time() - bench_cpu
            figures.window_uploads = sum(1 for r in fake.requests if r.files) - uploads_before
            below = descendants(proc.pid)
            figures.cpu_bot = cpu_of([proc.pid]) - cpu_bot
            figures.cpu_workers = cpu_of(below) - cpu_workers
            figures.rss = _status_kib(proc.pid, "VmRSS") / 1024
            figures.peak = _status_kib(proc.pid, "VmHWM") / 1024
            figures.workers = len(below)
            figures.workers_rss = sum(_status_kib(p, "VmRSS") for p in below) / 1024
            figures.uploads = sum(1 for r in fake.requests if r.files)
            figures.problems = list(fake.problems)
            load.stop.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            proc.terminate()
            await asyncio.wait_for(proc.wait(), 30)
            # The fork server and multiprocessing's resource tracker leave when they see the bot gone.
            give_up = time.monotonic() + 5
            while (
                leftover := [p for p in below if Path(f"/proc/{p}").exists()]
            ) and time.monotonic() < give_up:
                await asyncio.sleep(0.1)
            if leftover:
                figures.problems.append(f"processes left after the bot stopped: {leftover}")
        finally:
            for task in players:
                task.cancel()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await fake.close()
    return figures


def on_ref(ref: str, run: dict[str, float]) -> Figures:
    """Run the same load on `ref`'s bot.py, checked out into a temporary git worktree."""
    from refs import checkout

    with checkout(ref) as where:
        return asyncio.run(run_load(where, **run))  # type: ignore[arg-type]


def rows(figures: Figures) -> dict[str, str]:
    """The printed figures of one run."""
    board = figures.board or [float("nan")]
    ack = figures.ack or [float("nan")]
    ms = lambda fraction, values=board: f"{nearest_rank(values, fraction) * 1e3:.0f} ms"  # noqa: E731
    return {
        "click -> ack p50 / p95": f"{ms(0.5, ack)} / {ms(0.95, ack)}",
        "click -> board p50": ms(0.5),
        "click -> board p95": ms(0.95),
        "click -> board max": f"{max(board) * 1e3:.0f} ms",
        "moves timed / missed": f"{len(figures.board)} / {figures.missed}",
        "timed over": f"{figures.window:.0f} s",
        "tables opened in": f"{figures.open_seconds:.0f} s",
        "bot RSS at the end / peak": f"{figures.rss:.0f} / {figures.peak:.0f} MiB",
        "processes below the bot, RSS": f"{figures.workers}, {figures.workers_rss:.0f} MiB",
        "CPU while timed: bot / below": f"{figures.cpu_bot:.0f} / {figures.cpu_workers:.0f} s",
        "board uploads while timed": str(figures.window_uploads),
        "CPU per board upload (bot + below)": (
            f"{(figures.cpu_bot + figures.cpu_workers) / max(1, figures.window_uploads) * 1e3:.0f} ms"
        ),
        "CPU of this harness while timed": f"{figures.cpu_bench:.0f} s",
        "openings timed out (tried again)": str(len(figures.open_failures)),
        "harness loop lag p50 / p99 / max": (
            f"{ms(0.5, figures.lag or [float('nan')])} / {ms(0.99, figures.lag or [float('nan')])}"
            f" / {max(figures.lag or [float('nan')]) * 1e3:.0f} ms"
        ),
    }


def revision(ref: str) -> str:
    """A short commit id for a ref."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref], capture_output=True, text=True
    )
    return done.stdout.strip() or ref


def main() -> None:
    """Parse the arguments, run the load (on --ref too), print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clicks", type=int, default=600, help="stop after this many timed moves")
    parser.add_argument("--seconds", type=float, default=90.0, help="stop timing after this long")
    parser.add_argument("--think", type=float, default=6.0, help="a human's mean seconds before a click")
    parser.add_argument("--bot-delay", type=float, default=1.5, help="MEEPLE_BOT_DELAY of the bot")
    parser.add_argument("--ref", help="also run this commit's bot.py (for example main)")
    parser.add_argument("--profile", help="write cProfile stats of this tree's bot process to this file")
    args = parser.parse_args()
    run = {
        "tables": args.tables,
        "clicks": args.clicks,
        "seconds": args.seconds,
        "think": args.think,
        "bot_delay": args.bot_delay,
    }
    columns: list[tuple[str, Figures]] = []
    if args.ref:
        columns.append((f"{args.ref} ({revision(args.ref)})", on_ref(args.ref, run)))
    mine = asyncio.run(run_load(ROOT, **run, profile=args.profile))  # type: ignore[arg-type]
    columns.append((f"this tree ({revision('HEAD')}+)", mine))
    print(
        f"bench_load: {args.tables} tables ({', '.join(g for g, _ in GAMES)} in turn), think {args.think} s,"
        f" bot delay {args.bot_delay} s, up to {args.clicks} moves or {args.seconds:.0f} s"
    )
    table = [(name, rows(figures)) for name, figures in columns]
    print(f"{'':32}" + "".join(f" | {name:>24}" for name, _ in table))
    for key in table[0][1]:
        print(f"{key:32}" + "".join(f" | {cells[key]:>24}" for _, cells in table))
    for name, figures in columns:
        for problem in figures.problems[:5]:
            print(f"  {name}: {problem}")


if __name__ == "__main__":
    main()
