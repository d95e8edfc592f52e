"""Lobbies: seats, bots, options, permissions, hand-over and cancelling."""

from __future__ import annotations

import pytest

from engine.core import Action
from tables import (
    AlreadySeated,
    BadTableOptions,
    GameNotRunning,
    LobbyClosed,
    LobbyFull,
    NoSuchTable,
    NotAllowed,
    NotEnoughPlayers,
    NotHost,
    NotSeated,
    TableService,
    TableStatus,
    UnknownBot,
    UnknownGame,
)
from tables.service import random_seed
from tables.store import BoardRecord
from tests.tables.conftest import BOB, CAROL, CHANNEL, DAN, EVE, GUILD, HOST


async def test_create_seats_the_host_and_fills_in_default_options(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    assert table.id > 0
    assert table.status is TableStatus.LOBBY
    assert [(s.user_id, s.name, s.bot) for s in table.seats] == [(HOST, "Host", None)]
    assert table.options == {"goal": 30}
    assert table.state is None and table.version == 0
    assert await service.get(table.id) == table


async def test_bad_options_and_unknown_games_are_refused(service: TableService) -> None:
    with pytest.raises(BadTableOptions):
        await service.create("race", GUILD, CHANNEL, HOST, "Host", {"goal": 7})
    with pytest.raises(BadTableOptions):
        await service.create("race", GUILD, CHANNEL, HOST, "Host", {"speed": 1})
    with pytest.raises(UnknownGame):
        await service.create("chess", GUILD, CHANNEL, HOST, "Host")
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host", {"goal": 10})
    assert table.options == {"goal": 10}
    assert (await service.set_options(table.id, HOST, {"goal": 60})).options == {"goal": 60}
    with pytest.raises(NotHost):
        await service.set_options(table.id, BOB, {"goal": 10})


async def test_join_until_full(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(AlreadySeated):
        await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CAROL, "Carol")
    table = await service.join(table.id, DAN, "Dan")
    assert [s.user_id for s in table.seats] == [HOST, BOB, CAROL, DAN]
    with pytest.raises(LobbyFull):
        await service.join(table.id, EVE, "Eve")
    with pytest.raises(LobbyFull):
        await service.add_bot(table.id, HOST, "random")
    with pytest.raises(NoSuchTable):
        await service.join(9999, EVE, "Eve")


async def test_bots_are_added_and_removed_by_the_host_only(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(NotHost):
        await service.add_bot(table.id, BOB, "random")
    with pytest.raises(UnknownBot):
        await service.add_bot(table.id, HOST, "genius")
    await service.add_bot(table.id, HOST, "random")
    table = await service.add_bot(table.id, HOST, "random")
    assert [s.name for s in table.seats] == ["Host", "Bot", "Bot 2"]
    assert table.is_bot(1) and table.seats[1].user_id is None and not table.seats[1].replaced
    with pytest.raises(NotAllowed):
        await service.remove_bot(table.id, HOST, 0)
    with pytest.raises(NotHost):
        await service.remove_bot(table.id, BOB, 1)
    table = await service.remove_bot(table.id, HOST, 1)
    assert [s.name for s in table.seats] == ["Host", "Bot 2"]
    table = await service.add_bot(table.id, HOST, "normal")
    assert [s.name for s in table.seats] == ["Host", "Bot 2", "Bot"] and table.seats[2].bot == "normal"


async def test_host_leaving_hands_over_then_cancels(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.add_bot(table.id, HOST, "random")
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotSeated):
        await service.leave(table.id, CAROL)
    table = await service.leave(table.id, HOST)
    assert table.host_id == BOB and table.status is TableStatus.LOBBY
    assert [s.name for s in table.seats] == ["Bot", "Bob"]
    table = await service.leave(table.id, BOB)
    assert table.status is TableStatus.CANCELLED
    with pytest.raises(LobbyClosed):
        await service.join(table.id, CAROL, "Carol")


async def test_cancel_needs_the_host_or_a_manager(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotAllowed):
        await service.cancel(table.id, BOB)
    table = await service.cancel(table.id, BOB, is_manager=True)
    assert table.status is TableStatus.CANCELLED
    assert (await service.get(table.id)).status is TableStatus.CANCELLED
    with pytest.raises(LobbyClosed):
        await service.start_game(table.id, HOST)


async def test_start_needs_the_host_and_enough_players(service: TableService) -> None:
    table = await service.create("vote", GUILD, CHANNEL, HOST, "Host")
    with pytest.raises(NotEnoughPlayers, match="at least 2"):
        await service.start_game(table.id, HOST)
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.start_game(table.id, BOB)
    with pytest.raises(GameNotRunning):
        await service.act(table.id, HOST, 0, Action.of("pick", n=1))
    update = await service.start_game(table.id, HOST)
    assert update.table.status is TableStatus.PLAYING
    with pytest.raises(LobbyClosed):
        await service.join(table.id, CAROL, "Carol")


async def test_queries_by_channel_thread_and_user(service: TableService) -> None:
    first = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    second = await service.create("race", GUILD, CHANNEL, BOB, "Bob")
    elsewhere = await service.create("race", GUILD, CHANNEL + 1, BOB, "Bob")
    await service.join(second.id, HOST, "Host")
    assert [t.id for t in await service.tables_in_channel(CHANNEL)] == [first.id, second.id]
    assert [t.id for t in await service.tables_of_user(HOST)] == [first.id, second.id]
    assert [t.id for t in await service.tables_of_user(BOB)] == [second.id, elsewhere.id]
    await service.set_thread(second.id, 555)
    await service.set_lobby_message(second.id, 556)
    await service.store.save_board(BoardRecord(second.id, message_id=557))
    table = await service.get(second.id)
    board = await service.store.board(second.id)
    assert (table.thread_id, board.lobby_message_id, board.message_id) == (555, 556, 557)
    found = await service.table_for_thread(555)
    assert found is not None and found.id == second.id
    assert await service.table_for_thread(554) is None
    await service.cancel(first.id, HOST)
    assert [t.id for t in await service.tables_in_channel(CHANNEL)] == [second.id]
    assert [t.id for t in await service.tables_in_channel(CHANNEL, (TableStatus.CANCELLED,))] == [first.id]


async def test_each_game_takes_its_seed_from_the_services_seed_source(service: TableService) -> None:
    seeds = iter([7, 8])
    service.new_seed = lambda: next(seeds)
    started = []
    for _ in range(2):
        table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
        await service.join(table.id, BOB, "Bob")
        started.append((await service.start_game(table.id, HOST)).table)
    assert [table.seed for table in started] == [7, 8]
    stored = await service.store.load(started[0].id)
    assert stored is not None and stored.seed == 7


def test_the_default_seeds_are_63_random_bits() -> None:
    seeds = {random_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert max(seeds) >= 2**56  # 64 draws of 63 bits: all below 2**56 has odds 2**-448


async def test_a_removed_player_cannot_join_again_until_the_host_lets_them_back(
    service: TableService,
) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    table = await service.remove_player(table.id, HOST, BOB)
    assert [s.user_id for s in table.seats] == [HOST] and table.barred == ((BOB, "Bob"),)
    with pytest.raises(NotAllowed, match="removed you"):
        await service.join(table.id, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.let_back(table.id, CAROL, BOB)
    with pytest.raises(NotAllowed):
        await service.let_back(table.id, HOST, CAROL)
    table = await service.let_back(table.id, HOST, BOB)
    assert table.barred == ()
    table = await service.join(table.id, BOB, "Bob")
    assert [s.user_id for s in table.seats] == [HOST, BOB]


async def test_the_barred_list_survives_a_restart(service: TableService) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    await service.remove_player(table.id, HOST, BOB)
    service._forget(table.id)  # read it back from the database
    assert (await service.get(table.id)).barred == ((BOB, "Bob"),)


async def test_a_bot_is_removed_by_name_so_an_older_select_cannot_remove_another(
    service: TableService,
) -> None:
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await service.add_bot(table.id, HOST, "random")
    await service.add_bot(table.id, HOST, "random")
    await service.remove_bot(table.id, HOST, 1, "Bot")
    with pytest.raises(NotAllowed, match="no longer"):
        await service.remove_bot(table.id, HOST, 1, "Bot")  # seat 1 is Bot 2 now
    table = await service.remove_bot(table.id, HOST, 1, "Bot 2")
    assert [s.name for s in table.seats] == ["Host"]
