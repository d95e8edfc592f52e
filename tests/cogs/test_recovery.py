"""Never stuck: a process stopped at any instant of posting a board or of Start recovers by itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogs.platform.board_messages import BoardMessages
from cogs.platform.ids import ActRef, parse
from tables.models import TableStatus
from tables.service import TableService
from tables.store import BoardRecord, Store
from tests.cogs.conftest import Harness
from tests.cogs.helpers import components, refs, table_of, user_of
from tests.cogs.test_lobby import lobby_now, open_table
from tests.cogs.test_turns import start_two_humans

INSTANTS = ("intent recorded", "message sent", "old buttons stripped", "message recorded")
"""Where a new board's posting is cut: after each step, before the next (a post records an intent
only when the ledger shows its version as current, a repost: elsewhere that instant is no cut)."""


class Crash(Exception):
    """The process stops here (the test then restarts the bot on the same database)."""


def cut_at(monkeypatch: pytest.MonkeyPatch, instant: str, cuts: list[str] | None = None) -> None:
    """Make the next board post stop at `instant` (each cut is added to `cuts`)."""
    save_board = Store.save_board
    strip = BoardMessages._strip
    cuts = [] if cuts is None else cuts

    def crash() -> Crash:
        cuts.append(instant)
        return Crash(instant)

    async def saving(self: Store, record: BoardRecord) -> None:
        intent = record.posting is not None
        if instant == "old buttons stripped" and not intent:
            raise crash()
        await save_board(self, record)
        if (instant == "intent recorded" and intent) or (instant == "message recorded" and not intent):
            raise crash()

    async def stripping(self: BoardMessages, *args: Any) -> bool:
        if instant == "message sent":
            raise crash()
        return await strip(self, *args)

    monkeypatch.setattr(Store, "save_board", saving)
    monkeypatch.setattr(BoardMessages, "_strip", stripping)


def live_messages(world: Harness) -> list[Any]:
    """The bot's messages in the game thread that still have components."""
    me = world.bot.user
    assert me is not None
    return [m for m in world.thread().history() if m.author.id == me.id and components(m)]


async def assert_one_live_board(world: Harness) -> None:
    """The board is recorded, up to date, and the only message of the thread with live buttons."""
    table = await table_of(world)
    assert table.status is TableStatus.PLAYING and not table.board_behind, table
    live = live_messages(world)
    assert [m.id for m in live] == [table.board_message_id]
    versions = {getattr(parse(c.custom_id or ""), "version", None) for c in components(live[0])}
    assert versions - {None} == {table.version}


async def crash_and_restart(
    world: Harness, monkeypatch: pytest.MonkeyPatch, instant: str, action: Callable[[], Awaitable[Any]]
) -> int:
    """Run `action` cut at `instant`, restart; return how many live messages the cut left."""
    with monkeypatch.context() as patched:
        cut_at(patched, instant)
        await action()
    left = len(live_messages(world))
    await world.restart()
    await world.idle()
    return left


@pytest.mark.parametrize("instant", INSTANTS)
async def test_a_repost_cut_at_any_instant_leaves_one_live_board(
    world: Harness, monkeypatch: pytest.MonkeyPatch, instant: str
) -> None:
    await start_two_humans(world)
    left = await crash_and_restart(
        world, monkeypatch, instant, lambda: world.alice.slash(world.thread(), "game show")
    )
    # Cut between sending the new board and stripping the old one: two live boards, for now.
    assert left == (2 if instant == "message sent" else 1)
    await assert_one_live_board(world)


@pytest.mark.parametrize("instant", INSTANTS)
async def test_a_first_board_cut_at_any_instant_is_posted_after_a_restart(
    world: Harness, monkeypatch: pytest.MonkeyPatch, instant: str
) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await crash_and_restart(
        world, monkeypatch, instant, lambda: world.alice.click(lobby_now(world, lobby), label="Start")
    )
    await assert_one_live_board(world)
    assert "Start" not in {c.label for c in components(lobby_now(world, lobby))}


@pytest.mark.parametrize("instant", INSTANTS[1:])
async def test_a_new_turns_board_cut_at_any_instant_leaves_one_live_board_after_a_restart(
    world: Harness, monkeypatch: pytest.MonkeyPatch, instant: str
) -> None:
    """A new turn's board records no intent first (the ledger is behind): a restart finds the stray."""
    await start_two_humans(world)
    cuts: list[str] = []
    with monkeypatch.context() as patched:
        cut_at(patched, instant, cuts)
        for _ in range(60):
            table = await table_of(world)
            seats = {p.seat for p in table.prompts if not table.is_bot(p.seat)}
            board = world.board()
            choice = next(
                (
                    (ref, cid, value)
                    for ref, cid, value in refs(board)
                    if isinstance(ref, ActRef) and ref.seat in seats
                ),
                None,
            )
            assert choice is not None, "a Tomatoes board offers its options as buttons"
            ref, custom_id, value = choice
            user = user_of(world, table.seats[ref.seat].user_id)
            if value is None:
                await user.click(board, custom_id=custom_id)
            else:
                await user.select(board, [value], custom_id=custom_id)
            await world.idle()
            if cuts:
                break
    assert cuts == [instant]
    await world.restart()
    await world.idle()
    await assert_one_live_board(world)


async def test_a_move_whose_board_was_cut_is_shown_after_a_restart(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_two_humans(world)
    mover = world.alice if table.seats[table.to_move[0]].user_id == world.alice.id else world.bob

    def crash(self: Store, *args: Any) -> Any:
        raise Crash("the board edit is not recorded")

    with monkeypatch.context() as patched:
        patched.setattr(Store, "board_later", crash)
        await mover.click(world.board(), label="Roll the dice")
    assert (await table_of(world)).board_behind
    await world.restart()
    await world.idle()
    await assert_one_live_board(world)


async def test_a_start_cut_before_the_game_began_is_still_a_lobby(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")

    async def crash(self: TableService, *args: Any, **kwargs: Any) -> Any:
        raise Crash("stopped after the thread was opened")

    with monkeypatch.context() as patched:
        patched.setattr(TableService, "start_game", crash)
        await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.restart()
    table = await table_of(world)
    assert table.status is TableStatus.LOBBY and table.thread_id == world.thread().id
    assert await world.bot.tables.boards_behind() == []
    # Start again: the same thread is used, the game begins with its board.
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    assert (await table_of(world)).thread_id == world.thread().id
    await assert_one_live_board(world)
