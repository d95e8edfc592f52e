"""Start-up loads only the games waiting on a bot or a standing answer; every other one on its first use."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from engine.core import Action
from tables import Store, StoreUnavailable, Table, TableService, UpdateKind
from tables.migrations import MIGRATIONS
from tables.models import HOUR, NoticeKind
from tables.players import StandingAnswer
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST, FakeClock, Recorder, started
from tests.tables.oldschema import BOARDS_APART, board_columns_back

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


def loaded(service: TableService) -> set[int]:
    """The ids of the tables the service holds in memory."""
    return set(service._cache)


def mark_every_game(db_path: Path) -> None:
    """What migration 10 does to every game in play: it cannot tell which ones wait on a person."""
    with closing(sqlite3.connect(db_path)) as raw, raw:
        raw.execute("UPDATE tables SET bot_to_move = 1")


async def loaded_at_start_up(db_path: Path, clock: FakeClock) -> set[int]:
    """The ids of the tables a service starting on this database loads."""
    service = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        await service.start()
        return loaded(service)
    finally:
        await service.close()


async def test_start_up_loads_only_the_games_a_bot_must_move_in(db_path: Path, clock: FakeClock) -> None:
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=3600)
    humans = await started(first)
    with_bot = await started(first, bob=False, bots=1)
    await first.act(with_bot.id, HOST, 0, STRIDE2)
    await first.act(with_bot.id, HOST, 1, ROLL)
    lobby = await first.create("race", 1, 10, HOST, "Host")
    await first.close()  # the bot was still waiting out its pause

    second = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    recorder = Recorder()
    second.subscribe(recorder)
    try:
        await second.start()
        assert loaded(second) == {with_bot.id}
        await second.idle()
        assert {u.kind for u in recorder.updates} == {UpdateKind.BOT_MOVE}
        # The others come in on their first use and play on like any other.
        assert (await second.act(humans.id, HOST, 0, STRIDE2)).table.version == 1
        assert (await second.join(lobby.id, BOB, "Bob")).seats[1].user_id == BOB
        assert loaded(second) == {with_bot.id, humans.id, lobby.id}
    finally:
        await second.close()


async def test_a_game_not_loaded_still_gets_its_clocks(db_path: Path, clock: FakeClock) -> None:
    t0 = clock.now
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    table = await started(first)
    await first.close()

    second = TableService(await Store.open(db_path), clock=clock, bot_delay=0, clock_loop=False)
    recorder = Recorder()
    second.subscribe(recorder)
    try:
        await second.start()
        assert loaded(second) == set()
        assert await second.run_due(t0 + 12 * HOUR) == 1
        await second.idle()
        assert [(n.kind, n.table.id, n.user_id) for n in recorder.notices] == [
            (NoticeKind.REMINDER, table.id, HOST)
        ]
    finally:
        await second.close()


async def test_a_game_whose_bot_must_move_is_resumed_when_first_used(db_path: Path, clock: FakeClock) -> None:
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=3600)
    table = await started(first, bob=False, bots=1)
    await first.act(table.id, HOST, 0, STRIDE2)
    await first.act(table.id, HOST, 1, ROLL)
    await first.close()

    second = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        # As a database whose mark was lost would: the game is not listed at start-up.
        second.store.bot_to_move = _nothing  # type: ignore[method-assign]
        await second.start()
        assert loaded(second) == set()
        assert (await second.get(table.id)).to_move == (1,)
        await second.idle()
        assert (await second.get(table.id)).to_move == (0,), "the bot moved once the game was loaded"
    finally:
        await second.close()


@pytest.mark.parametrize("saved_by", ["this version", "a version before the mark covered standing answers"])
async def test_a_game_waiting_only_on_a_standing_answer_is_resumed_at_start_up(
    db_path: Path, clock: FakeClock, saved_by: str
) -> None:
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=3600)
    await first.start()
    await first.players.update(BOB, standing=StandingAnswer.DECLINE)
    table = await first.create("buttons", GUILD, CHANNEL, HOST, "Host")
    await first.join(table.id, BOB, "Bob")
    table = (await first.start_game(table.id, HOST)).table
    table = await _until_only_bobs_gold_die_is_open(first, table)
    waiting = table.version
    await first.close()  # the standing answer was still waiting out its pause
    if saved_by != "this version":
        with closing(sqlite3.connect(db_path)) as raw, raw:
            raw.execute("UPDATE tables SET bot_to_move = 0")
            # The schema before the step that marks every game in play (later steps may follow it).
            mark = next(
                i
                for i, step in enumerate(MIGRATIONS)
                if "SET bot_to_move = 1 WHERE status = 'playing'" in step
            )
            # The steps after it run again: drop the columns one of them adds (no script to repeat).
            raw.execute("ALTER TABLE tables DROP COLUMN language")
            raw.execute("ALTER TABLE players DROP COLUMN language")
            raw.execute("ALTER TABLE pending_clicks DROP COLUMN guild_id")
            raw.execute("ALTER TABLE pending_clicks DROP COLUMN language")
            raw.execute("ALTER TABLE pending_clicks DROP COLUMN command")
            raw.execute(f"PRAGMA user_version = {mark}")
            if mark <= BOARDS_APART:
                board_columns_back(raw)

    second = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        await second.start()
        await second.idle()
        rows = await second.store.actions(table.id)
        answered = [r for r in rows if r.version == waiting]
        assert [(r.seat, r.action.kind, r.source) for r in answered] == [(1, "decline", "standing")]
    finally:
        await second.close()


async def test_a_game_marked_by_the_upgrade_that_waits_on_a_person_is_loaded_at_one_start_up_only(
    db_path: Path, clock: FakeClock
) -> None:
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    table = await started(first)
    await first.close()
    mark_every_game(db_path)

    assert [await loaded_at_start_up(db_path, clock) for _ in range(3)] == [{table.id}, set(), set()]
    again = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    try:
        assert (await again.act(table.id, HOST, 0, STRIDE2)).table.version == 1
    finally:
        await again.close()


async def test_a_database_fault_on_dropping_the_mark_leaves_the_start_up_whole(
    db_path: Path, clock: FakeClock
) -> None:
    first = TableService(await Store.open(db_path), clock=clock, bot_delay=3600)
    humans = await started(first)
    with_bot = await started(first, bob=False, bots=1)
    await first.act(with_bot.id, HOST, 0, STRIDE2)
    await first.act(with_bot.id, HOST, 1, ROLL)
    await first.close()  # the bot was still waiting out its pause
    mark_every_game(db_path)

    second = TableService(await Store.open(db_path), clock=clock, bot_delay=0)
    second.store.unmark_bot_to_move = _fails  # type: ignore[method-assign]
    try:
        await second.start()
        await second.idle()
        assert loaded(second) == {humans.id, with_bot.id}
        assert (await second.get(with_bot.id)).to_move == (0,), "the bot moved"
    finally:
        await second.close()
    # The bot's move saved its game unmarked; the other game keeps its mark a start-up more.
    assert await loaded_at_start_up(db_path, clock) == {humans.id}


async def _fails(table: Table) -> None:
    raise StoreUnavailable("disk I/O error")


async def _until_only_bobs_gold_die_is_open(service: TableService, table: Table) -> Table:
    """Play both seats plainly (Bob's gold dice left to his standing answer) until only one is open."""
    for _ in range(500):
        prompts = table.prompts
        if [(p.seat, p.kind) for p in prompts] == [(1, "gold")]:
            return table
        prompt = next(p for p in prompts if p.kind != "gold" or p.seat == 0)
        choice = Action("roll") if prompt.kind == "turn" else prompt.options[0]
        user = HOST if prompt.seat == 0 else BOB
        table = (await service.act(table.id, user, table.version, choice)).table
    raise AssertionError("Bob was never offered a gold die alone")


async def _nothing() -> list[int]:
    return []
