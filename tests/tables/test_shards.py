"""Shard processes: bot seats play only where the table's shard is held; clock work follows a lease."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.platform import clicks
from engine.core import Action
from tables import DeadlineKind, NoticeKind, Store, Table, TableService, open_store
from tables.clicks import PendingClick
from tables.models import HOUR
from tables.shards import (
    LEASE_SECONDS,
    RENEW_SECONDS,
    Lease,
    ShardSet,
    parse_shard_ids,
    plan_leases,
    shard_of,
    spans,
)
from tables.store import BoardRecord
from tests.tables.conftest import CHANNEL, HOST, FakeClock, Recorder

ON_0 = 4 << 22 | 12345
"""A server on shard 0 of 2."""
ON_1 = 7 << 22 | 999
"""A server on shard 1 of 2."""
STRIDE1 = Action.of("stride", n=1)
ROLL = Action("roll")


def test_a_server_s_shard_is_discord_s_formula() -> None:
    assert shard_of(ON_0, 2) == 0 and shard_of(ON_1, 2) == 1
    # A server id of Discord's size: its top bits (the time it was made) pick the shard.
    assert shard_of(81384788765712384, 4) == 19403826 % 4 == 2
    assert ShardSet(2, frozenset({1})).holds(ON_1) and not ShardSet(2, frozenset({1})).holds(ON_0)


def test_shard_ids_are_read_as_ranges_and_lists() -> None:
    assert parse_shard_ids("0-3", 8) == frozenset({0, 1, 2, 3})
    assert parse_shard_ids("0,2, 5-6", 8) == frozenset({0, 2, 5, 6})
    for bad in ("4", "0-", "3-1", "a", "1,,2", "-1"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad, 4)
    assert spans([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """One database file the processes of a test share."""
    opened = await Store.open(tmp_path / "shared.db")
    yield opened
    await opened.close()


async def _game_with_a_bot(service: TableService, guild: int) -> Table:
    """A race between the host and a bot, the host to move first."""
    table = await service.create("race", guild, CHANNEL, HOST, "Host")
    await service.add_bot(table.id, HOST, "random")
    return (await service.start_game(table.id, HOST)).table


async def test_bot_seats_play_only_in_the_process_holding_the_table_s_shard(store: Store) -> None:
    service = TableService(store, bot_delay=0, clock_loop=False, shards=ShardSet(2, frozenset({0})))
    mine = await _game_with_a_bot(service, ON_0)
    theirs = await _game_with_a_bot(service, ON_1)
    for table in (mine, theirs):
        await service.act(table.id, HOST, 0, STRIDE1)
        await service.act(table.id, HOST, 1, ROLL)
    await service.idle()
    assert (await service.get(mine.id)).state.turn == 0, "the bot of a table on this shard moved"
    waiting = await service.get(theirs.id)
    assert waiting.state.turn == 1 and waiting.version == 2, "the bot of another shard's table moved here"
    assert service.owns(mine) and not service.owns(theirs)
    # Its own process plays it: at start-up it resumes the bots of its shard's games.
    other = TableService(store, bot_delay=0, clock_loop=False, shards=ShardSet(2, frozenset({1})))
    await other.start()
    await other.idle()
    assert (await other.get(theirs.id)).state.turn == 0


async def test_unsharded_service_plays_every_table(store: Store) -> None:
    service = TableService(store, bot_delay=0, clock_loop=False)
    table = await _game_with_a_bot(service, ON_1)
    await service.act(table.id, HOST, 0, STRIDE1)
    await service.act(table.id, HOST, 1, ROLL)
    await service.idle()
    assert (await service.get(table.id)).state.turn == 0


async def test_a_dead_process_s_clocks_are_fired_by_another_once_its_lease_runs_out(
    store: Store, tmp_path: Path
) -> None:
    clock = FakeClock()
    first = TableService(store, clock=clock, clock_loop=False, shards=ShardSet(2, frozenset({0})))
    second_store = await Store.open(tmp_path / "shared.db")
    second = TableService(second_store, clock=clock, clock_loop=False, shards=ShardSet(2, frozenset({1})))
    heard = Recorder()
    first.subscribe(heard)
    t0 = clock.now
    table = await first.create("race", ON_1, CHANNEL, HOST, "Host")
    await first.join(table.id, 102, "Bob")
    table = (await first.start_game(table.id, HOST)).table
    assert table.deadline(0, DeadlineKind.REMIND) is not None
    due = t0 + 12 * HOUR
    start = due - 2 * RENEW_SECONDS
    # The first process to claim takes every shard nobody holds; the other's own comes back to it.
    assert await first.clocks.claim_leases(start) == frozenset({0, 1})
    assert await second.clocks.claim_leases(start) == frozenset()
    assert await first.clocks.claim_leases(start + RENEW_SECONDS) == frozenset({0})
    assert await second.clocks.claim_leases(start + RENEW_SECONDS) == frozenset({1})
    # The second process dies after that renewal; its lease runs until `ends`.
    ends = start + RENEW_SECONDS + LEASE_SECONDS
    assert await first.run_due(due) == 0, "fired the clock of a shard another process holds"
    assert await first.run_due(ends - 1) == 0
    # Taken over at the first renewal after the lease ran out: within LEASE + RENEW seconds.
    assert await first.run_due(ends - 1 + RENEW_SECONDS) == 1
    await first.idle()
    assert [n.kind for n in heard.notices] == [NoticeKind.REMINDER]
    assert first.clocks.held == frozenset({0, 1})
    # The second process comes back: it asks for its shard, the first hands it back, it takes it.
    back = ends + 2 * RENEW_SECONDS
    assert await second.clocks.claim_leases(back) == frozenset()
    assert await first.clocks.claim_leases(back + 1, force=True) == frozenset({0})
    assert await second.clocks.claim_leases(back + 2, force=True) == frozenset({1})
    # A clean stop gives the leases up at once.
    await second.close()
    assert await first.clocks.claim_leases(back + 3, force=True) == frozenset({0, 1})


def test_two_processes_reading_the_same_lapsed_lease_cannot_both_write_it() -> None:
    lapsed = {1: Lease(1, "dead", 100.0, None, 7)}
    home0 = ShardSet(2, frozenset({0}))
    a = plan_leases(lapsed, home0, "a", now=200.0)
    b = plan_leases(lapsed, home0, "b", now=200.0)
    # Both plan to take shard 1 over the row they read: the store writes only over generation 7.
    assert [w for w in a if w.shard == 1] == [Lease(1, "a", 200.0 + LEASE_SECONDS, None, 8)]
    assert [w for w in b if w.shard == 1] == [Lease(1, "b", 200.0 + LEASE_SECONDS, None, 8)]


async def test_the_lease_write_is_guarded_by_the_generation_read(store: Store) -> None:
    home0 = ShardSet(2, frozenset({0}))
    assert await store.claim_clock_leases(ShardSet(2, frozenset({1})), "b", 100.0) == frozenset({0, 1})
    # "a" takes shard 0 back from b (its own shard, once lapsed), and shard 1 only when lapsed.
    assert await store.claim_clock_leases(home0, "a", 100.0 + LEASE_SECONDS) == frozenset({0, 1})
    assert await store.claim_clock_leases(home0, "a", 100.0 + LEASE_SECONDS + 1) == frozenset({0, 1})


async def test_board_checks_and_owed_clicks_keep_to_the_process_s_shards(database: str) -> None:
    """The board sweep, upkeep's board checks and the start-up's owed clicks: this process's shards only."""
    store = await open_store(database)
    first = TableService(store, bot_delay=0, clock_loop=False, shards=ShardSet(2, frozenset({0})))
    second = TableService(store, bot_delay=0, clock_loop=False, shards=ShardSet(2, frozenset({1})))
    alone = TableService(store, bot_delay=0, clock_loop=False)
    try:
        games = {}
        for guild, thread in ((ON_0, 900), (ON_1, 910)):
            table = await first.create("race", guild, CHANNEL, HOST, "Host")
            await first.join(table.id, 102, "Bob")
            table = await first.set_thread((await first.start_game(table.id, HOST)).table.id, thread)
            # A board posted for an earlier version: in play, and behind.
            await store.save_board(BoardRecord(table.id, message_id=thread + 1, version=-1))
            games[guild] = table.id
        mine, theirs = games[ON_0], games[ON_1]
        assert await first.boards_behind() == [mine]
        assert await second.boards_behind() == [theirs]
        assert await alone.boards_behind() == [mine, theirs]
        assert await first.boards_in_play() == [(mine, 900, 901)]
        assert await second.boards_in_play() == [(theirs, 910, 911)]
        assert await second.boards_in_play(after=theirs) == []
        assert len(await alone.boards_in_play()) == 2

        journal = [
            PendingClick(1, 7, "t1", mine, True, 1.0, ON_0),
            PendingClick(2, 7, "t2", theirs, True, 2.0, ON_1),
            PendingClick(3, 7, "t3", None, False, 3.0, ON_1),  # a leaderboard page on shard 1's server
            PendingClick(4, 7, "t4", None, False, 4.0, None),  # a direct message: shard 0's
        ]
        for click in journal:
            await store.journal_click(click)
        assert [c.id for c in await clicks.owed(store, first.shards)] == [1, 4]
        assert [c.id for c in await clicks.owed(store, second.shards)] == [2, 3]
        assert [c.id for c in await clicks.owed(store)] == [1, 2, 3, 4]
        assert (await clicks.owed(store, second.shards))[1].guild_id == ON_1
    finally:
        await first.close()
        await store.close()
