"""Two bot.py shard processes on one PostgreSQL database: one click at both, one process killed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from tables.shards import shard_of
from tests.e2e.botprocess import BotProcess, child_env
from tests.e2e.conftest import World
from tests.e2e.lane import best_choice
from tests.e2e.test_week import SimulatedClock, open_table
from tests.fakediscord import Message
from tests.fakediscord.payloads import EPHEMERAL
from tests.pgcluster import Cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for this module."""
    started = Cluster.start()
    yield started
    started.stop()


@dataclass
class Pair:
    """The two processes: `home` holds the test server's shard, `other` the other shard of two."""

    home: BotProcess
    other: BotProcess
    url: str
    clock: SimulatedClock

    async def rows(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """Rows read on a connection of the test's own."""
        con = await asyncpg.connect(self.url)
        try:
            return list(await con.fetch(sql, *args))
        finally:
            await con.close()


@pytest.fixture
async def pair(
    world: World, cluster: Cluster, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Pair]:
    """Both processes ready, the home one started first (so its shard's clock lease is its own)."""
    url = await cluster.fresh_database(f"shards_{request.node.name.lower()[:40]}")
    clock = SimulatedClock(tmp_path / "clock-offset")
    home_shard = shard_of(world.guild_id, 2)
    made = []
    for shard in (home_shard, 1 - home_shard):
        env = child_env(
            DISCORD_TOKEN=world.fake.token,
            MEEPLE_DB=url,
            MEEPLE_LOG_LEVEL="INFO",
            MEEPLE_BOT_DELAY="0.05",
            MEEPLE_DISCORD_API_BASE=world.fake.api_base,
            MEEPLE_CLOCK_FILE=str(clock.path),
            MEEPLE_SHARD_COUNT="2",
            MEEPLE_SHARDS=str(shard),
        )
        process = BotProcess(env, tmp_path, tmp_path / f"bot-{shard}.log")
        made.append(process)
        await process.start()
        await process.wait_output("ready as", timeout=60)
    try:
        yield Pair(made[0], made[1], url, clock)
    finally:
        for process in made:
            await process.kill()
        for shard, process in zip((home_shard, 1 - home_shard), made, strict=True):
            print(f"== bot.py shard {shard} ==", process.output()[-6000:], sep="\n")


async def started_game(world: World, pair: Pair) -> tuple[int, int, int]:
    """A live game of Diced Tomatoes between Alice and Bob: (table id, version, thread id)."""
    fake = world.fake
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    thread_id = await open_table(fake, world, "tomatoes", "live", [alice, bob])
    await fake.wait_for(
        lambda: any(m.custom_ids() and m.pinged for m in fake.channel_messages(thread_id)) or None,
        20,
        "the first board",
    )
    (table_id, version), *_ = await pair.rows("SELECT id, version FROM tables")
    return int(table_id), int(version), thread_id


async def test_one_click_at_both_processes_is_applied_once_and_its_board_posted_once(
    world: World, pair: Pair
) -> None:
    fake = world.fake
    table_id, version, thread_id = await started_game(world, pair)
    board = [m for m in fake.channel_messages(thread_id) if m.custom_ids() and m.pinged][-1]
    mover = next(u for u in fake.users.values() if u.id in board.pinged)
    found = best_choice(fake, thread_id, mover, version)
    assert found is not None and found[2], "the mover has a move on the first board"
    msg, item, _ = found
    seen = len(fake.requests)
    fake.interactions_everywhere = True
    try:
        await fake.click(msg, str(item["custom_id"]), mover)
    finally:
        fake.interactions_everywhere = False
    twins = fake.twins
    assert len(twins) == 2, "the click reached both processes, each as an interaction to answer"
    for twin in twins:
        await fake.wait_answered(twin)
    await asyncio.sleep(2)  # anything either process would still post (a sweep, a retry)
    human = await pair.rows("SELECT seat FROM actions WHERE table_id = $1 AND source = 'human'", table_id)
    assert len(human) == 1, f"the click was applied {len(human)} times"
    (row,) = await pair.rows("SELECT version FROM tables WHERE id = $1", table_id)
    assert row["version"] > version
    shown = [
        r
        for r in fake.requests[seen:]
        if r.method in ("POST", "PATCH")
        and isinstance(r.json, dict)
        and r.json.get("components")
        and not int(r.json.get("flags") or 0) & EPHEMERAL
    ]
    assert len(shown) == 1, [f"{r.method} {r.path}" for r in shown]
    refusals = [
        m.text() for twin in twins for mid in twin.followups if (m := fake.messages.get(mid)) is not None
    ]
    assert any("out of date" in text for text in refusals), refusals


async def test_another_process_fires_the_reminders_of_a_killed_one_within_a_minute(
    world: World, pair: Pair
) -> None:
    fake = world.fake
    table_id, _, thread_id = await started_game(world, pair)
    (row,) = await pair.rows("SELECT MIN(due_at) AS at FROM deadlines WHERE table_id = $1", table_id)
    due = float(row["at"])
    shard = shard_of(world.guild_id, 2)
    assert pair.home.proc is not None

    async def lease() -> asyncpg.Record:
        (found,) = await pair.rows("SELECT holder, expires_at FROM clock_leases WHERE shard = $1", shard)
        return found

    def reminders() -> list[Message]:
        return [m for m in fake.channel_messages(thread_id) if m.content.startswith("⏰")]

    deadline = time.monotonic() + 30
    while f":{pair.home.proc.pid}:" not in (held := await lease())["holder"]:
        assert time.monotonic() < deadline, f"the table's process never held its shard's clocks: {held}"
        await asyncio.sleep(0.2)
    pair.home.proc.kill()  # SIGKILL: its lease is not given up, it runs out
    await pair.home.proc.wait()
    killed = time.monotonic()
    held = await lease()
    # The reminder falls due at once (rather than in 15 minutes): the other process has never
    # loaded this table, so it reads the deadline from the store.
    await pair.rows(
        "UPDATE deadlines SET due_at = $1 WHERE table_id = $2 AND due_at = $3", time.time(), table_id, due
    )
    await asyncio.sleep(2)
    assert reminders() == [], "the other process fired a clock of a shard whose lease still ran"
    # The rest of the lease passes (the clock file), and the other process takes the shard over.
    pair.clock.set(float(held["expires_at"]) + 0.5)
    await fake.wait_for(lambda: reminders() or None, 60, "the reminder from the other process")
    took = time.monotonic() - killed
    print(f"reminder fired by the other process {took:.1f} s after the kill (the lease's rest skipped)")
    assert took < 60 and len(reminders()) == 1
    assert "firing the clocks of shards 0-1 of 2" in pair.other.output()
