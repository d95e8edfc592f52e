"""A fourth game, registered by a test with its own rules, renderer and turn UI, plays through Discord.

The race (tests/toygame.py) is registered with one `registration` entry naming modules of this
test package; nothing else of the project learns about it, yet `/play race` opens its table, its
boards carry its own image and a "My hand" button (its rules hide information), and it plays to
the final scores.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from cogs.platform import drawing
from engine import games
from tables.models import TableStatus
from tests.cogs.conftest import Harness, running
from tests.cogs.helpers import buttons, play_option, table_of, user_of
from tests.cogs.test_lobby import lobby_now, private_answer, slash_answer

RACE = games.registration(
    "race", (2,), rules="tests.toygame", renderer="tests.cogs.race_board", ui="tests.cogs.race_ui"
)


@pytest.fixture
async def race_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The simulated world with the race registered before the bot starts, boards drawn in threads."""
    monkeypatch.setitem(games.GAMES, RACE.id, RACE)
    monkeypatch.setattr(drawing.DrawingPool, "workers", 0)
    async with running(tmp_path) as harness:
        yield harness


async def test_a_registered_fourth_game_plays_a_whole_game_through_discord(race_world: Harness) -> None:
    world = race_world
    opened = await world.alice.slash(world.channel, "play race")
    assert "is open" in slash_answer(opened)
    lobby = world.channel.last_message
    assert lobby is not None and "Race" in lobby.content
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()

    board = world.board()
    assert [a.filename for a in board.attachments] == ["board.webp"]
    image = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert image.size == (240, 50), "drawn by the race's own renderer"
    assert "My hand" in buttons(board), "the race's rules hide information"
    table = await table_of(world)
    mover = user_of(world, table.seats[table.to_move[0]].user_id)
    secret = table.state.secret[table.to_move[0]]
    assert private_answer(await mover.click(board, label="My hand")).endswith(
        f"Your secret number is {secret}."
    )

    for _ in range(200):
        table = await table_of(world)
        if table.status is not TableStatus.PLAYING:
            break
        (prompt,) = table.prompts
        # Stride 3, then Roll: each a button the race's UI labels.
        labels = buttons(world.board())
        assert ("Stride 3" if prompt.kind == "stride" else "Roll") in labels, labels
        await play_option(
            world,
            user_of(world, table.seats[prompt.seat].user_id),
            world.board(),
            prompt.seat,
            2 if prompt.kind == "stride" else 0,
        )
        await world.idle()
    table = await table_of(world)
    assert table.status is TableStatus.FINISHED
    assert max(table.state.positions) >= table.state.goal
    final = world.board().content
    assert final.startswith("🏁 **Race** · table #1 · final scores"), final
    winner = (
        "alice"
        if table.seat_of(world.alice.id) == table.state.positions.index(max(table.state.positions))
        else "bob"
    )
    assert f"🎉 {winner} wins!" in final
