"""Start-up loads only the games waiting on a bot; every other game is loaded on its first use."""

from __future__ import annotations

from pathlib import Path

from engine.core import Action
from tables import Store, TableService, UpdateKind
from tables.models import HOUR, NoticeKind
from tests.tables.conftest import BOB, HOST, FakeClock, Recorder, started

STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


def loaded(service: TableService) -> set[int]:
    """The ids of the tables the service holds in memory."""
    return set(service._cache)


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


async def _nothing() -> list[int]:
    return []
