"""Board images: uploaded with each new board, replaced on each edit within a turn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.platform import presenter
from tests.cogs.conftest import Harness
from tests.cogs.helpers import fresh, table_of
from tests.cogs.test_turns import mover_and_other, start_two_humans


def tiny_png(version: int) -> bytes:
    """A 2x1 PNG whose first pixel encodes the state version."""
    buffer = io.BytesIO()
    Image.new("RGB", (2, 1), (version % 256, 0, 0)).save(buffer, "PNG")
    return buffer.getvalue()


async def test_boards_carry_the_image_of_the_state_they_show(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []

    def fake_render(table):  # type: ignore[no-untyped-def]
        drawn.append(table.version)
        return tiny_png(table.version)

    monkeypatch.setattr(presenter, "render_board", fake_render)
    table = await start_two_humans(world)
    board = world.board()
    assert [a.filename for a in board.attachments] == ["board.png"]
    first = Image.open(io.BytesIO(await board.attachments[0].read()))
    assert first.getpixel((0, 0))[0] == table.version % 256
    mover, _ = mover_and_other(world, table)
    await mover.click(board, label="Roll the dice")
    await world.idle()
    rolled = await table_of(world)
    edited = fresh(world, board)
    assert edited.id == board.id and [a.filename for a in edited.attachments] == ["board.png"]
    second = Image.open(io.BytesIO(await edited.attachments[0].read()))
    assert second.getpixel((0, 0))[0] == rolled.version % 256
    assert drawn[-1] == rolled.version
