"""Turn clocks: reminders, timeouts taking the default, absent seats handed to bots, restarts."""

from __future__ import annotations

import asyncio
from typing import TypeVar

import pytest

from engine.core import Action
from tables import (
    BadTableOptions,
    DeadlineKind,
    NotHost,
    NoticeKind,
    TableService,
    TableStatus,
    Timing,
    UpdateKind,
)
from tables.models import DAY, HOUR
from tables.store import open_store
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST, FakeClock, Recorder, started

T = TypeVar("T")

STRIDE1 = Action.of("stride", n=1)
ROLL = Action("roll")


async def test_reminders_come_after_the_delay_then_daily(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service)
    assert table.deadline(0, DeadlineKind.REMIND) is not None
    assert table.deadline(1, DeadlineKind.REMIND) is None, "a seat not to move has a clock"
    assert await service.run_due(t0 + 12 * HOUR - 1) == 0
    assert await service.run_due(t0 + 12 * HOUR) == 1
    await service.idle()
    [notice] = recorder.notices
    assert (notice.kind, notice.seat, notice.user_id, notice.count) == (NoticeKind.REMINDER, 0, HOST, 1)
    assert await service.run_due(t0 + 12 * HOUR + 1) == 0
    again = (await service.get(table.id)).deadline(0, DeadlineKind.REMIND)
    assert again is not None and again.due_at == t0 + 36 * HOUR and again.count == 1


async def test_moving_restarts_the_clocks(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service)
    clock.advance(11 * HOUR)
    table = (await service.act(table.id, HOST, 0, STRIDE1)).table
    remind = table.deadline(0, DeadlineKind.REMIND)
    replace = table.deadline(0, DeadlineKind.REPLACE)
    assert remind is not None and remind.due_at == t0 + 23 * HOUR
    assert replace is not None and replace.due_at == t0 + 11 * HOUR + 3 * DAY
    assert await service.run_due(t0 + 12 * HOUR) == 0
    clock.advance(1 * HOUR)
    table = (await service.act(table.id, HOST, 1, ROLL)).table
    assert {d.seat for d in table.deadlines} == {1}
    bob = table.deadline(1, DeadlineKind.REMIND)
    assert bob is not None and bob.due_at == t0 + 24 * HOUR
    assert recorder.notices == []


async def test_a_timeout_takes_the_prompts_default(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service)
    # The reminder and the timeout are both due: the timeout wins, and no late reminder follows.
    assert await service.run_due(t0 + 1 * DAY) == 1
    await service.idle()
    table = await service.get(table.id)
    assert table.version == 1 and table.state.stride == 1
    assert [n.kind for n in recorder.notices] == [NoticeKind.TIMED_OUT]
    update = recorder.updates[-1]
    assert (update.kind, update.seat, update.action) == (UpdateKind.TIMEOUT_MOVE, 0, STRIDE1)
    rows = await service.store.actions(table.id)
    assert [(r.source, r.action) for r in rows] == [("timeout", STRIDE1)]
    # The roll has no default: its timeout passes without a move, the reminder still comes.
    assert await service.run_due(t0 + 2 * DAY) == 1
    await service.idle()
    assert (await service.get(table.id)).version == 1
    assert [n.kind for n in recorder.notices] == [NoticeKind.TIMED_OUT, NoticeKind.REMINDER]


async def test_an_absent_player_is_replaced_by_a_bot(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service)
    for day in (1, 2):
        await service.run_due(t0 + day * DAY)
    assert not (await service.get(table.id)).is_bot(0)
    await service.run_due(t0 + 3 * DAY)
    await service.idle()
    table = await service.get(table.id)
    assert table.seats[0].replaced and table.is_bot(0) and table.seats[0].user_id == HOST
    assert table.to_move == (1,), "the bot did not finish the absent player's turn"
    assert NoticeKind.REPLACED in [n.kind for n in recorder.notices]
    assert recorder.updates[-1].ping_user_ids == (BOB,)
    assert all(d.seat == 1 for d in table.deadlines)


async def test_a_timed_out_turn_does_not_reset_the_absence_clock(
    service: TableService, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service)
    await service.run_due(t0 + 1 * DAY)  # stride 1 taken for the host
    await service.run_due(t0 + 2 * DAY)
    table = await service.get(table.id)
    replace = table.deadline(0, DeadlineKind.REPLACE)
    assert replace is not None and replace.due_at == t0 + 3 * DAY


async def test_the_last_absent_human_abandons_the_game(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service, bob=False, bots=1)
    await service.run_due(t0 + 3 * DAY)
    await service.idle()
    table = await service.get(table.id)
    assert table.status is TableStatus.ABANDONED and table.deadlines == ()
    assert recorder.updates[-1].kind is UpdateKind.ABANDON
    assert await service.store.next_due() is None


async def test_other_seats_clocks_keep_running_in_simultaneous_phases(
    service: TableService, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await started(service, "vote")
    clock.advance(5 * HOUR)
    table = (await service.act(table.id, BOB, 0, Action.of("pick", n=2))).table
    host = table.deadline(0, DeadlineKind.REMIND)
    assert host is not None and host.due_at == t0 + 12 * HOUR
    assert table.deadline(1, DeadlineKind.REMIND) is None


async def test_clocks_survive_a_restart(database: str, clock: FakeClock) -> None:
    t0 = clock.now
    first = TableService(await open_store(database), clock=clock, bot_delay=0)
    table = await started(first)
    await first.close()
    second = TableService(await open_store(database), clock=clock, bot_delay=0)
    recorder = Recorder()
    second.subscribe(recorder)
    try:
        assert await second.store.next_due() == t0 + 12 * HOUR
        assert await second.run_due(t0 + 12 * HOUR) == 1
        await second.idle()
        assert [(n.kind, n.table.id, n.user_id) for n in recorder.notices] == [
            (NoticeKind.REMINDER, table.id, HOST)
        ]
    finally:
        await second.close()


async def test_the_background_loop_fires_due_clocks(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    service.poll_interval = 0.01
    await started(service)
    await service.start()
    clock.advance(12 * HOUR)
    for _ in range(300):
        if recorder.notices:
            break
        await asyncio.sleep(0.01)
    assert [n.kind for n in recorder.notices] == [NoticeKind.REMINDER]


async def test_without_the_clock_loop_only_run_due_fires_clocks(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    service.poll_interval = 0.01
    service.clock_loop = False
    await started(service)
    await service.start()
    clock.advance(12 * HOUR)
    await asyncio.sleep(0.1)
    assert recorder.notices == []
    assert await service.run_due() == 1
    await service.idle()
    assert [n.kind for n in recorder.notices] == [NoticeKind.REMINDER]


async def test_reminders_do_not_pile_up_after_downtime(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    t0 = clock.now
    table = await service.create(
        "race", GUILD, CHANNEL, HOST, "Host", timing=Timing(timeout_after=None, replace_after=None)
    )
    await service.join(table.id, BOB, "Bob")
    await service.start_game(table.id, HOST)
    assert await service.run_due(t0 + 10 * DAY) == 1
    later = (await service.get(table.id)).deadline(0, DeadlineKind.REMIND)
    assert later is not None and later.due_at == t0 + 11 * DAY


async def test_the_host_sets_the_clocks(service: TableService, clock: FakeClock) -> None:
    t0 = clock.now
    table = await started(service)
    with pytest.raises(NotHost):
        await service.set_timing(table.id, BOB, Timing())
    with pytest.raises(BadTableOptions):
        await service.set_timing(table.id, HOST, Timing(remind_after=-1))
    clock.advance(1 * HOUR)
    quick = Timing(remind_after=HOUR, remind_every=HOUR, timeout_after=None, replace_after=None)
    table = await service.set_timing(table.id, HOST, quick)
    assert table.timing == quick
    assert [(d.kind, d.due_at) for d in table.deadlines] == [(DeadlineKind.REMIND, t0 + 2 * HOUR)]
