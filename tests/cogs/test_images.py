"""Board images: uploaded with each new board, replaced within a turn only when the board changed."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from PIL import Image

from cogs.games import get_ui
from cogs.platform import board as board_module
from engine.games import get_rules
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, fresh, play_option, table_of
from tests.cogs.test_lobby import private_answer
from tests.cogs.test_turns import mover_and_other, start_two_humans


def tiny_png(version: int) -> bytes:
    """A 2x1 PNG whose first pixel encodes the state version."""
    buffer = io.BytesIO()
    Image.new("RGB", (2, 1), (version % 256, 0, 0)).save(buffer, "PNG")
    return buffer.getvalue()


@dataclass(frozen=True)
class TinyJob:
    """A drawing job (drawn in a thread: the `world` fixture runs no drawing processes) for `tiny_png`."""

    version: int

    def draw(self) -> bytes:
        """The tiny PNG of this version."""
        return tiny_png(self.version)


async def test_boards_carry_the_image_of_the_state_they_show(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roll keeps the image (the caption and buttons say the dice); a die placed replaces it."""
    drawn: list[int] = []

    def fake_job(table, seat=None):  # type: ignore[no-untyped-def]
        drawn.append(table.version)
        return TinyJob(table.version)

    monkeypatch.setattr(board_module, "board_job", fake_job)
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
    assert edited.id == board.id and rolled.version > table.version
    assert [a.filename for a in edited.attachments] == ["board.png"]
    kept = Image.open(io.BytesIO(await edited.attachments[0].read()))
    assert kept.getpixel((0, 0))[0] == table.version % 256, "the roll alone uploads no new image"
    assert drawn == [table.version]
    prompt = rolled.prompt_for(rolled.to_move[0])
    assert prompt is not None
    place = next(i for i, a in enumerate(prompt.options) if a.kind == "place")
    await play_option(world, mover, edited, prompt.seat, place)
    await world.idle()
    placed = await table_of(world)
    now = fresh(world, board)
    if placed.board_message_id == board.id:
        assert [a.filename for a in now.attachments] == ["board.png"]
        second = Image.open(io.BytesIO(await now.attachments[0].read()))
        assert second.getpixel((0, 0))[0] == placed.version % 256, "a die on a vine is drawn again"
    assert drawn[-1] == placed.version


async def test_my_hand_shows_a_seated_player_their_own_view_privately(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For games with hidden information (the flag is switched on for Diced Tomatoes here)."""
    seen: list[int | None] = []

    def fake_job(table, seat=None):  # type: ignore[no-untyped-def]
        seen.append(seat)
        return TinyJob(table.version)

    ui = get_ui("tomatoes")
    monkeypatch.setattr(type(get_rules("tomatoes")), "hidden_information", True)
    monkeypatch.setattr(
        type(ui), "private_text", lambda self, view, seat, names, words: f"secret of {names[seat]}"
    )
    monkeypatch.setattr(board_module, "board_job", fake_job)
    table = await start_two_humans(world)
    _, other = mover_and_other(world, table)
    board = world.board()
    assert "My hand" in buttons(board)
    answer = await other.click(board, label="My hand")
    assert len(answer.followups) == 1 and answer.followups[0].ephemeral
    private = answer.followups[0]
    name = "alice" if other is world.alice else "bob"
    assert private.content.endswith(f"secret of {name}")
    assert [a.filename for a in private.attachments] == ["my-view.png"]
    assert seen[-1] == table.seat_of(other.id), "drawn from the clicker's seat"
    refused = await world.watcher.click(board, label="My hand")
    assert "not playing at this table" in private_answer(refused)
    assert (await table_of(world)).version == table.version
    assert "My hand" in buttons(world.board())
