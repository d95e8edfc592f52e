"""Playing: moves, stale buttons, double clicks, simultaneous prompts, undo, bots, leaving."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import Action, replay
from tables import (
    GameNotRunning,
    IllegalMove,
    NotAllowed,
    NothingToUndo,
    Notice,
    NoticeKind,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    TableService,
    TableStatus,
    Update,
    UpdateKind,
)
from tests.tables.conftest import BOB, CAROL, CHANNEL, GUILD, HOST, Recorder, started

STRIDE1 = Action.of("stride", n=1)
STRIDE2 = Action.of("stride", n=2)
ROLL = Action("roll")


async def test_start_opens_the_first_prompt_and_pings_once(service: TableService, recorder: Recorder) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    update = await service.start_game(table.id, HOST)
    assert update.kind is UpdateKind.START
    assert update.table.status is TableStatus.PLAYING
    assert update.table.seed is not None and update.table.version == 0
    assert update.new_to_move == (0,) and update.ping_user_ids == (HOST,)
    assert [p.kind for p in update.prompts] == ["stride"]
    await service.idle()
    assert recorder.updates == [update]


async def test_a_turn_pings_the_next_player_only_when_the_turn_passes(service: TableService) -> None:
    table = await started(service)
    first = await service.act(table.id, HOST, 0, STRIDE2)
    assert first.kind is UpdateKind.MOVE and first.seat == 0 and first.action == STRIDE2
    assert [(e.version, e.seat, e.event.kind) for e in first.events] == [(0, 0, "stride")]
    assert not first.new_to_move and first.table.version == 1
    second = await service.act(table.id, HOST, 1, ROLL)
    assert [e.event.kind for e in second.events] == ["roll"]
    assert second.events[0].event.checkpoint
    assert second.new_to_move == (1,) and second.ping_user_ids == (BOB,)
    die = second.events[0].event.data["die"]
    assert second.table.state.positions == [2 * die, 0]
    log = await service.log(table.id)
    assert [(e.version, e.event.kind) for e in log] == [(0, "stride"), (1, "roll")]


async def test_refusals(service: TableService) -> None:
    table = await started(service)
    with pytest.raises(NotSeated):
        await service.act(table.id, CAROL, 0, STRIDE1)
    with pytest.raises(NotYourTurn):
        await service.act(table.id, BOB, 0, STRIDE1)
    with pytest.raises(IllegalMove):
        await service.act(table.id, HOST, 0, ROLL)
    with pytest.raises(IllegalMove):
        await service.act(table.id, HOST, 0, Action.of("stride", n=9))
    with pytest.raises(StaleVersion):
        await service.act(table.id, HOST, 5, STRIDE1)
    await service.act(table.id, HOST, 0, STRIDE1)
    with pytest.raises(StaleVersion):
        await service.act(table.id, HOST, 0, STRIDE1)
    after = await service.get(table.id)
    assert after.version == 1 and after.state.stride == 1
    assert len(await service.store.actions(table.id)) == 1


async def test_two_identical_clicks_at_once_apply_once(service: TableService, recorder: Recorder) -> None:
    table = await started(service)
    results = await asyncio.gather(
        service.act(table.id, HOST, 0, STRIDE2),
        service.act(table.id, HOST, 0, STRIDE2),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    stored = await service.store.load(table.id)
    assert stored is not None and stored.version == 1
    assert [row.action for row in await service.store.actions(table.id)] == [STRIDE2]
    await service.idle()
    assert [u.kind for u in recorder.updates] == [UpdateKind.START, UpdateKind.MOVE]


async def test_simultaneous_prompts_keep_other_seats_buttons_valid(service: TableService) -> None:
    table = await started(service, "vote")
    pick = Action.of("pick", n=3)
    bob = await service.act(table.id, BOB, 0, Action.of("pick", n=2))
    assert bob.table.version == 1 and not bob.new_to_move
    # The host's board was built at version 0; Bob's move did not change the host's prompt.
    host = await service.act(table.id, HOST, 0, pick)
    assert [e.event.kind for e in host.events] == ["reveal"]
    assert host.table.state.scores == [3, 2]
    with pytest.raises(StaleVersion):
        await service.act(table.id, HOST, 0, pick)
    with pytest.raises(StaleVersion):
        await service.act(table.id, BOB, 1, pick)


async def test_the_discord_layer_accepts_a_simultaneous_answer_on_the_board_the_player_sees(
    service: TableService,
) -> None:
    """Bob answered first; the host's board, drawn before, still offers the host's unchanged decision."""
    table = await started(service, "vote")
    host_prompt = table.prompt_for(0)
    assert host_prompt is not None
    three = host_prompt.options.index(Action.of("pick", n=3))
    await service.act(table.id, BOB, 0, Action.of("pick", n=2))
    now = await service.get(table.id)
    assert now.version == 1 and now.shows_current_prompt(0, 0) and not now.shows_current_prompt(1, 0)
    with pytest.raises(StaleVersion):
        await service.choose(table.id, BOB, 0, 1, 0)  # Bob's decision changed: his board is out of date
    with pytest.raises(StaleVersion):
        await service.choose(table.id, HOST, 2, 0, three)  # a version from the future is never accepted
    # A click goes through the service's one check: no "out of date" for the host's unchanged board.
    done = await service.choose(table.id, HOST, 0, 0, three)
    assert done.table.state.scores == [3, 2]


async def test_bots_answer_simultaneous_prompts_by_themselves(
    service: TableService, recorder: Recorder
) -> None:
    table = await started(service, "vote", bots=2)
    await service.idle()
    table = await service.get(table.id)
    assert table.to_move == (0, 1)
    assert {u.seat for u in recorder.updates if u.kind is UpdateKind.BOT_MOVE} == {2, 3}
    version = table.version
    await service.act(table.id, HOST, 0, Action.of("pick", n=1))
    await service.act(table.id, BOB, version, Action.of("pick", n=2))
    await service.idle()
    table = await service.get(table.id)
    assert table.state.round == 1 and table.to_move == (0, 1)


async def test_undo_takes_back_own_moves_only_until_a_roll(service: TableService) -> None:
    table = await started(service)
    with pytest.raises(NothingToUndo):
        await service.undo(table.id, HOST, 0)
    await service.act(table.id, HOST, 0, STRIDE2)
    with pytest.raises(NothingToUndo):
        await service.undo(table.id, BOB, 1)
    with pytest.raises(StaleVersion):
        await service.undo(table.id, HOST, 0)
    undone = await service.undo(table.id, HOST, 1)
    assert undone.kind is UpdateKind.UNDO and undone.table.version == 2
    assert undone.table.state.stride == 0
    assert [p.kind for p in undone.prompts] == ["stride"]
    await service.act(table.id, HOST, 2, STRIDE1)
    await service.act(table.id, HOST, 3, ROLL)
    with pytest.raises(NothingToUndo):
        await service.undo(table.id, HOST, 4)
    rows = await service.store.actions(table.id)
    assert [(r.action.kind, r.undone) for r in rows] == [
        ("stride", True),
        ("undo", False),
        ("stride", False),
        ("roll", False),
    ]
    assert all(r.before is None for r in rows), "undo snapshots outlive the last checkpoint"


async def test_undo_walks_back_a_chain_of_own_moves(service: TableService) -> None:
    table = await started(service, bob=False)
    # Stride 2, then "stride 0" (back to choosing), then stride 1: three undoable moves in a row.
    await service.act(table.id, HOST, 0, STRIDE2)
    await service.act(table.id, HOST, 1, Action.of("stride", n=0))
    await service.act(table.id, HOST, 2, STRIDE1)
    strides = []
    for version in (3, 4, 5):
        update = await service.undo(table.id, HOST, version)
        strides.append(update.table.state.stride)
    assert strides == [0, 2, 0]
    with pytest.raises(NothingToUndo):
        await service.undo(table.id, HOST, 6)
    record = await service.record(table.id)
    final = await service.get(table.id)
    assert final.rules.encode(replay(final.rules, record)[-1]) == final.rules.encode(final.state)


async def test_a_whole_game_with_bots_replays_to_the_snapshot(
    service: TableService, recorder: Recorder
) -> None:
    table = await started(service, bob=False, bots=2)
    while True:
        await service.idle()
        table = await service.get(table.id)
        if table.status is not TableStatus.PLAYING:
            break
        prompt = table.prompt_for(0)
        assert prompt is not None, "the game waits on a bot that does not move"
        await service.act(table.id, HOST, table.version, STRIDE2 if prompt.kind == "stride" else ROLL)
    assert table.status is TableStatus.FINISHED and table.outcome is not None
    assert table.deadlines == ()
    finals = [u for u in recorder.updates if u.outcome is not None]
    assert len(finals) == 1 and finals[0].table.status is TableStatus.FINISHED
    versions = [u.table.version for u in recorder.updates]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    record = await service.record(table.id)
    assert table.rules.encode(replay(table.rules, record)[-1]) == table.rules.encode(table.state)
    with pytest.raises(GameNotRunning):
        await service.act(table.id, HOST, table.version, STRIDE1)


async def test_leaving_a_game_hands_the_seat_to_a_bot_and_it_can_be_reclaimed(
    service: TableService, recorder: Recorder
) -> None:
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE1)
    await service.act(table.id, HOST, 1, ROLL)
    table = await service.leave(table.id, BOB)
    assert table.seats[1].replaced and table.seats[1].bot == "normal" and table.seats[1].user_id == BOB
    await service.idle()
    assert [n.kind for n in recorder.notices] == [NoticeKind.REPLACED]
    table = await service.get(table.id)
    assert table.to_move == (0,) and table.state.positions[1] > 0, "the bot did not play Bob's turn"
    with pytest.raises(NotAllowed):
        await service.reclaim(table.id, HOST)
    table = await service.reclaim(table.id, BOB)
    assert not table.seats[1].is_bot and not table.seats[1].replaced
    await service.act(table.id, HOST, table.version, STRIDE1)
    update = await service.act(table.id, HOST, table.version + 1, ROLL)
    await service.idle()
    assert update.ping_user_ids == (BOB,)
    assert (await service.get(table.id)).to_move == (1,), "a bot played a reclaimed seat"


async def test_a_move_from_a_replaced_player_reclaims_the_seat(
    service: TableService, recorder: Recorder
) -> None:
    table = await started(service)
    table = await service.leave(table.id, HOST)
    await service.idle()
    table = await service.get(table.id)
    assert table.to_move == (1,) and table.state.positions[0] > 0
    await service.act(table.id, BOB, table.version, STRIDE1)
    update = await service.act(table.id, BOB, table.version + 1, ROLL)
    assert update.new_to_move == (0,) and update.ping_user_ids == (), "a replaced seat was pinged"
    # Back before the bot's pause ends, the host plays from the board of that turn.
    table = update.table
    assert table.is_bot(0)
    back = await service.act(table.id, HOST, table.version, STRIDE1)
    assert not back.table.is_bot(0) and not back.table.seats[0].replaced
    await service.act(table.id, HOST, back.table.version, ROLL)
    await service.idle()
    assert (await service.get(table.id)).to_move == (1,)
    assert [n.kind for n in recorder.notices] == [NoticeKind.REPLACED, NoticeKind.RECLAIMED]


async def test_the_last_human_leaving_abandons_the_game(service: TableService, recorder: Recorder) -> None:
    table = await started(service, bob=False, bots=1)
    table = await service.leave(table.id, HOST)
    assert table.status is TableStatus.ABANDONED and table.deadlines == ()
    await service.idle()
    assert recorder.updates[-1].kind is UpdateKind.ABANDON


async def test_abandon_needs_the_host_or_a_manager(service: TableService, recorder: Recorder) -> None:
    table = await started(service)
    with pytest.raises(NotAllowed):
        await service.abandon(table.id, BOB)
    update = await service.abandon(table.id, BOB, is_manager=True)
    assert update.kind is UpdateKind.ABANDON and update.table.status is TableStatus.ABANDONED
    with pytest.raises(GameNotRunning):
        await service.act(table.id, HOST, 0, STRIDE1)
    with pytest.raises(GameNotRunning):
        await service.abandon(table.id, HOST)
    assert (await service.get(table.id)).status is TableStatus.ABANDONED


async def test_a_failing_listener_does_not_stop_the_others(service: TableService) -> None:
    calls: list[UpdateKind] = []

    async def broken(item: Update | Notice) -> None:
        assert isinstance(item, Update)
        calls.append(item.kind)
        raise RuntimeError("listener bug")

    service.subscribe(broken)
    recorder = Recorder()
    service.subscribe(recorder)
    table = await started(service)
    await service.act(table.id, HOST, 0, STRIDE1)
    await service.idle()
    assert calls == [UpdateKind.START, UpdateKind.MOVE]
    assert [u.kind for u in recorder.updates] == [UpdateKind.START, UpdateKind.MOVE]


async def test_a_click_raced_by_a_bots_move_on_another_decision_is_played(service: TableService) -> None:
    """The bot's pick changed the host's options (its number is gone); the host's click on a
    number still offered stands, the one on the number the bot took does not, nor a second click."""
    table = await started(service, "claim", bob=False, bots=1)
    built = table.version
    offered = table.prompt_for(0)
    assert offered is not None and len(offered.options) == 4
    await service.idle()  # the bot picks meanwhile
    now = await service.get(table.id)
    taken = now.state.picks[1]
    assert now.version == built + 1 and taken and not now.shows_current_prompt(0, built)
    gone = Action.of("pick", n=taken)
    free = next(a for a in offered.options if a != gone)
    with pytest.raises(StaleVersion):
        await service.choose(table.id, HOST, built, 0, offered.options.index(gone))  # the button
    with pytest.raises(StaleVersion):
        await service.act(table.id, HOST, built, gone)  # no longer offered: out of date
    played = await service.choose(table.id, HOST, built, 0, offered.options.index(free))
    assert played.action == free
    assert [e.event.kind for e in played.events] == ["reveal"]
    assert played.events[0].event.data["picks"] == [free["n"], taken]
    with pytest.raises(StaleVersion):
        await service.act(table.id, HOST, built, free)  # the same click again: the host has moved since
    with pytest.raises(StaleVersion):
        await service.choose(table.id, HOST, built, 0, offered.options.index(free))
