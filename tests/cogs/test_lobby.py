"""Lobby flows through Discord: /play, Join, Leave, Add bot, Start, Cancel."""

from __future__ import annotations

from tests.cogs.conftest import Harness


def buttons(message) -> dict[str, str]:
    """Button label -> custom_id of a message."""
    found = {}
    for row in message.components:
        for child in row.children:
            if getattr(child, "label", None):
                found[child.label] = child.custom_id
    return found


async def open_table(world: Harness):
    result = await world.alice.slash(world.channel, "play tomatoes")
    assert result.ephemeral
    lobby = world.channel.last_message
    assert lobby is not None and "Diced Tomatoes" in lobby.content
    return lobby


async def test_play_opens_a_lobby_with_its_buttons(world: Harness) -> None:
    lobby = await open_table(world)
    assert set(buttons(lobby)) == {"Join", "Leave", "Add bot", "Start", "Cancel"}
    assert "alice" in lobby.content or str(world.alice.id) in lobby.content
