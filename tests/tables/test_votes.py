"""Votes on a long-due seat and the after-game chores, at the table level (no Discord)."""

from __future__ import annotations

import pytest

from engine.core import Action
from tables import NotAllowed, NoticeKind, NotSeated, TableService, TableStatus
from tables.chores import LOBBY_LIFETIME, ChoreKind, Chores, lobby_expired
from tables.models import HOUR
from tables.votes import SeatVotes, votable
from tests.tables.conftest import BOB, CAROL, CHANNEL, DAN, GUILD, HOST, FakeClock, Recorder

STRIDE1 = Action.of("stride", n=1)


async def four_humans(service: TableService) -> int:
    """A started race of the host, Bob, Carol and Dan (the host is to move); its id."""
    table = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    for user, name in ((BOB, "Bob"), (CAROL, "Carol"), (DAN, "Dan")):
        await service.join(table.id, user, name)
    return (await service.start_game(table.id, HOST)).table.id


async def test_a_majority_of_the_other_humans_hands_the_seat_to_a_bot(
    service: TableService, recorder: Recorder, clock: FakeClock
) -> None:
    table_id = await four_humans(service)
    votes = SeatVotes(service)
    with pytest.raises(NotAllowed, match="Too early"):
        await votes.vote(table_id, 0, BOB)
    clock.advance(13 * HOUR)
    assert votable(await service.get(table_id), 0, clock.now)
    first = await votes.vote(table_id, 0, BOB)
    assert (first.yes, first.voters, first.needed, first.carried) == (1, 3, 2, False)
    again = await votes.vote(table_id, 0, BOB)
    assert again.yes == 1, "one vote per player"
    with pytest.raises(NotAllowed, match="your seat"):
        await votes.vote(table_id, 0, HOST)
    with pytest.raises(NotSeated):
        await votes.vote(table_id, 0, 999)
    carried = await votes.vote(table_id, 0, CAROL)
    assert carried.carried and carried.yes == 2
    await service.idle()
    table = await service.get(table_id)
    assert table.seats[0].replaced and table.version > 0, "the bot played the seat's turn"
    assert [n.kind for n in recorder.notices] == [NoticeKind.REPLACED]


async def test_a_move_by_the_player_ends_the_vote(service: TableService, clock: FakeClock) -> None:
    table_id = await four_humans(service)
    votes = SeatVotes(service)
    clock.advance(13 * HOUR)
    offered = (await service.get(table_id)).seats[0].idle_since
    assert offered is not None
    await votes.vote(table_id, 0, BOB, int(offered))
    await service.act(table_id, HOST, 0, STRIDE1)  # a step of the turn: still to move
    with pytest.raises(NotAllowed, match="played since"):
        await votes.vote(table_id, 0, CAROL, int(offered))
    with pytest.raises(NotAllowed, match="Too early"):
        await votes.vote(table_id, 0, CAROL)  # the move began a new due period
    clock.advance(13 * HOUR)
    fresh = await votes.vote(table_id, 0, CAROL)
    assert fresh.yes == 1, "Bob's vote from before the move does not count"
    with pytest.raises(NotAllowed, match="played since"):
        await service.hand_to_bot(table_id, 0, 0.0)


async def test_chores_are_armed_once_and_lobbies_expire_after_a_week(
    service: TableService, clock: FakeClock
) -> None:
    chores = Chores(service)
    lobby = await service.create("race", GUILD, CHANNEL, HOST, "Host")
    await chores.schedule(lobby.id, ChoreKind.ARCHIVE_THREAD, clock.now + 10)
    await chores.schedule(lobby.id, ChoreKind.ARCHIVE_THREAD, clock.now + 99)
    assert await chores.due(clock.now + 10) == [(lobby.id, ChoreKind.ARCHIVE_THREAD)]
    await chores.done(lobby.id, ChoreKind.ARCHIVE_THREAD)
    assert await chores.due(clock.now + 100) == []
    assert await chores.expired_lobbies(clock.now + LOBBY_LIFETIME - 1) == []
    clock.advance(LOBBY_LIFETIME)
    assert [t.id for t in await chores.expired_lobbies(clock.now)] == [lobby.id]
    cancelled = await service.cancel(lobby.id, HOST)
    assert cancelled.status is TableStatus.CANCELLED and lobby_expired(cancelled)
