"""Buttons through Discord: a second game plugged in by its mapping module alone."""

from __future__ import annotations

from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import play_greedily, table_of
from tests.cogs.test_lobby import lobby_now, slash_answer


async def test_two_humans_and_a_bot_play_buttons_to_the_end(world: Harness) -> None:
    result = await world.alice.slash(world.channel, "play buttons")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and "Buttons" in lobby.content
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Add bot")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert world.thread().name == "🔘 Buttons #1"
    simultaneous = 0
    while (table := await table_of(world)).status is TableStatus.PLAYING:
        humans = [p for p in table.prompts if not table.is_bot(p.seat)]
        simultaneous += len(humans) > 1
        assert await play_greedily(world, moves=1) == 1
    assert simultaneous > 0, "the gold die lets several players decide at once"
    final = await table_of(world)
    assert final.status is TableStatus.FINISHED
    message = world.board()
    assert "final scores" in message.content and "stars" in message.content
    assert [m for m in world.thread().history() if m.components] == []
