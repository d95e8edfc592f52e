"""Turns through Discord: two-step choices, undo, out-of-turn and outdated clicks, bad ids."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.games import get_ui
from cogs.games.tomatoes import TomatoesUI
from cogs.platform import views
from cogs.platform.answers import WATCHER
from cogs.platform.ids import ActRef, GroupRef, UndoRef
from cogs.platform.layout import ButtonSpec, OptionItem, SelectSpec, main_rows
from cogs.platform.text import names_of
from tables.errors import GameNotRunning
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, fresh, pinged, play_greedily, refs, table_of, user_of
from tests.cogs.test_lobby import lobby_now, open_table, private_answer


class RawClick:
    """A component click as discord.py receives it, answered into a list (for the cog's on_interaction)."""

    type = discord.InteractionType.component
    locale = discord.Locale.american_english

    def __init__(
        self, channel_id: int, message: discord.Message, data: dict[str, Any], user_id: int, client: Any
    ) -> None:
        self.client = client
        self.channel_id = channel_id
        self.user = discord.Object(user_id)
        self.message = message
        self.data = data
        self.answers: list[str] = []
        self.response = self
        self.followup = self

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        assert ephemeral
        self.answers.append(content)

    async def defer(self) -> None:
        """A turn click is acknowledged first (the cog then answers through the followup)."""

    async def send(self, content: str, *, ephemeral: bool = False) -> None:
        assert ephemeral
        self.answers.append(content)


async def start_two_humans(world: Harness) -> Any:
    """alice and bob at a started table; returns it."""
    lobby = await open_table(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    return await table_of(world)


def mover_and_other(world: Harness, table: Any) -> tuple[Any, Any]:
    """The member to move and the other seated member."""
    seat = table.to_move[0]
    mover = user_of(world, table.seats[seat].user_id)
    other = world.bob if mover is world.alice else world.alice
    return mover, other


async def inject(world: Harness, table: Any, rows: list[Any], content: str = "old board") -> discord.Message:
    """Have the bot post components as a stale client might still show them."""
    thread = world.bot.get_channel(table.thread_id)
    await thread.send(content, view=views.build_view(rows))
    await world.env.settle()
    return world.board()


async def test_clicks_out_of_turn_are_refused_privately(world: Harness) -> None:
    table = await start_two_humans(world)
    _, other = mover_and_other(world, table)
    board = world.board()
    first = next(iter(buttons(board)))
    refused = await other.click(board, label=first)
    assert private_answer(refused) == "It is not your turn."
    watcher = await world.watcher.click(board, label=first)
    assert "not playing at this table" in private_answer(watcher)
    after = await table_of(world)
    assert after.version == table.version
    assert fresh(world, board).content == board.content


async def test_an_outdated_button_is_refused_and_changes_nothing(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    ui, seat = get_ui(table.game), table.to_move[0]
    stale_rows = main_rows(table.id, table.version, ui, table.view(None), table.prompts, names_of(table), [])
    await mover.click(world.board(), label="Roll the dice")
    await world.idle()
    moved = await table_of(world)
    assert moved.version > table.version
    old = await inject(world, moved, stale_rows)
    refused = await mover.click(old, custom_id=ActRef(table.id, table.version, seat, 0).custom_id())
    assert private_answer(refused) == f"That board is out of date: use the latest one: {moved.board_link()}"
    assert (await table_of(world)).version == moved.version


async def test_a_click_on_a_component_an_edit_replaced_is_answered(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    before = world.board()
    roll = buttons(before)["Roll the dice"]
    await mover.click(before, label="Roll the dice")
    await world.idle()
    moved = await table_of(world)
    assert moved.board_message_id == before.id and roll not in buttons(fresh(world, before)).values()
    # The player's client still showed the old buttons; Discord sends the message as it is now,
    # so discord.py finds no component to call (simcord cannot click it: this is the raw event).
    data = {"custom_id": roll, "component_type": 2}
    click = RawClick(world.thread().id, fresh(world, before), data, mover.id, world.bot)
    await world.bot.get_cog("Games").on_interaction(click)  # type: ignore[union-attr]
    assert click.answers == [f"That board is out of date: use the latest one: {moved.board_link()}"]
    # A watcher's click on it is told they are not playing (not that the board moved on).
    watched = RawClick(world.thread().id, fresh(world, before), data, world.watcher.id, world.bot)
    await world.bot.get_cog("Games").on_interaction(watched)  # type: ignore[union-attr]
    assert watched.answers == [WATCHER]
    # A click discord.py does hand to a component is left to it.
    live = fresh(world, before)
    handled = RawClick(
        world.thread().id,
        live,
        {"custom_id": next(iter(buttons(live).values())), "component_type": 2},
        mover.id,
        world.bot,
    )
    await world.bot.get_cog("Games").on_interaction(handled)  # type: ignore[union-attr]
    assert handled.answers == []
    unknown = RawClick(
        world.thread().id, live, {"custom_id": "somebody-else:1", "component_type": 2}, mover.id, world.bot
    )
    await world.bot.get_cog("Games").on_interaction(unknown)  # type: ignore[union-attr]
    assert unknown.answers == [f"That board is out of date: use the latest one: {moved.board_link()}"]
    assert (await table_of(world)).version == moved.version


async def test_a_click_on_an_old_board_of_an_ended_game_says_the_game_is_over(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    before = world.board()
    data = {"custom_id": buttons(before)["Roll the dice"], "component_type": 2}
    await world.alice.slash(world.thread(), "game abandon")
    await world.idle()
    assert (await table_of(world)).status is TableStatus.ABANDONED
    # Neither the player nor a watcher is sent to a latest board there is no more.
    for user_id in (mover.id, world.watcher.id):
        click = RawClick(world.thread().id, fresh(world, before), data, user_id, world.bot)
        await world.bot.get_cog("Games").on_interaction(click)  # type: ignore[union-attr]
        assert click.answers == [GameNotRunning.message]


async def test_malformed_custom_ids_get_a_short_answer(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    seat = table.to_move[0]
    bad = [
        ButtonSpec("mp:act:1:x:0:0", "garbled"),
        ButtonSpec("mp:launch:1:2", "unknown kind"),
        ButtonSpec(ActRef(table.id, table.version, seat, 99).custom_id(), "no such option"),
        ButtonSpec(ActRef(424242, 0, 0, 0).custom_id(), "no such table"),
        ButtonSpec(GroupRef(table.id, table.version, seat, 77).custom_id(), "no such group"),
    ]
    select = SelectSpec("mp:pick:1:0:0", "pick", (OptionItem("bad value", "zz"),))
    message = await inject(world, table, [tuple(bad), select])
    answers = [private_answer(await mover.click(message, custom_id=spec.custom_id)) for spec in bad]
    assert answers[0] == answers[1] == answers[2] == answers[4]
    assert "not one I know" in answers[0]
    assert answers[3] == "That game table no longer exists."
    picked = await mover.select(message, ["zz"], custom_id="mp:pick:1:0:0")
    assert "not one I know" in private_answer(picked)
    assert (await table_of(world)).version == table.version
    assert world.env.errors == []


async def test_die_then_target_then_undo(world: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    # The two-step way (die, then target), as when a die's targets do not all fit on the board.
    monkeypatch.setattr(TomatoesUI, "direct", lambda self, group: False)
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    seat = table.to_move[0]
    board = world.board()
    await mover.click(board, label="Roll the dice")
    await world.idle()
    rolled = await table_of(world)
    board = world.board()
    assert board.id == rolled.board_message_id
    placements = [i for i, a in enumerate(rolled.prompt_for(seat).options) if a.kind == "place"]
    assert placements, "the seeded game's first roll has a die that fits"
    target = rolled.prompt_for(seat).options[placements[0]]
    groups = [ref for ref, _, _ in refs(board) if isinstance(ref, GroupRef)]
    die_group = next(g for g in groups if g.group == 0)
    opened = await mover.click(board, custom_id=die_group.custom_id())
    assert not opened.followups
    board = fresh(world, board)
    assert "go?" in board.content and "Back" in buttons(board)
    await mover.click(board, label="Back")
    board = fresh(world, board)
    assert "Back" not in buttons(board)
    await mover.click(board, custom_id=die_group.custom_id())
    board = fresh(world, board)
    index = next(ref.index for ref, _, _ in refs(board) if isinstance(ref, ActRef))
    assert rolled.prompt_for(seat).options[index].kind in ("place", target.kind)
    await mover.click(board, custom_id=ActRef(rolled.id, rolled.version, seat, index).custom_id())
    await world.idle()
    placed = await table_of(world)
    assert placed.version == rolled.version + 1
    board = fresh(world, board)
    assert board.id == placed.board_message_id, "a move within the turn edits the same message"
    edits = [r.path for r in world.env.http_requests if r.method == "PATCH"]
    assert edits[-1].startswith("/webhooks/"), "edited through the interaction response"
    assert "Undo" in buttons(board)
    await mover.click(board, custom_id=UndoRef(placed.id, placed.version, seat).custom_id())
    await world.idle()
    undone = await table_of(world)
    assert undone.version == placed.version + 1
    assert undone.state.rolled == rolled.state.rolled
    assert [p.tokens for p in undone.state.players] == [p.tokens for p in rolled.state.players]


async def test_a_new_turn_posts_a_new_board_pings_once_and_strips_the_old(world: Harness) -> None:
    table = await start_two_humans(world)
    first_board = world.board()
    first_seat = table.to_move[0]
    while (await table_of(world)).to_move == (first_seat,):
        assert await play_greedily(world, moves=1) == 1
    now = await table_of(world)
    new_board = world.board()
    assert new_board.id != first_board.id and new_board.id == now.board_message_id
    assert fresh(world, first_board).components == [], "the previous turn's buttons are removed"
    new_mover = now.seats[now.to_move[0]].user_id
    assert pinged(world, new_board) == {new_mover}
    assert ping_requests(world) == [[str(m)] for m in (table.seats[first_seat].user_id, new_mover)], (
        "one per turn"
    )


def ping_requests(world: Harness) -> list[list[str]]:
    """The users each message the bot sent or edited was allowed to ping, for those that ping anyone."""
    found = []
    for request in world.env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        users = (body.get("allowed_mentions") or {}).get("users") or []
        if users:
            found.append([str(u) for u in users])
    return found


async def test_a_discord_failure_after_a_move_says_the_move_stands(world: Harness) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)
    world.env.inject_error("*", "/webhooks/*/*/messages/*", status=500, times=None)
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    result = await mover.click(world.board(), label="Roll the dice")
    assert "Your move was played" in private_answer(result)
    moved = await table_of(world)
    assert moved.version == table.version + 1 and moved.board_behind
    # Discord is back: the failed delivery is retried without anyone asking for it.
    world.env.errors.clear()
    world.env.backend.faults.clear()
    await world.env.advance_time(5)
    await world.idle()
    shown = await table_of(world)
    assert not shown.board_behind and shown.board_version == moved.version
    assert shown.board_message_id == world.board().id and buttons(world.board())


async def test_an_unexpected_error_is_logged_and_answered_politely(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await start_two_humans(world)
    mover, _ = mover_and_other(world, table)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(world.bot.tables, "choose", broken)
    result = await mover.click(world.board(), label="Roll the dice")
    assert (
        private_answer(result) == "Something went wrong on my side; the game is unchanged. Please try again."
    )
    assert (await table_of(world)).version == table.version


async def test_picking_colours_is_a_two_step_roll(world: Harness) -> None:
    lobby = await open_table(world, pick_colours=True)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby_now(world, lobby), label="Start")
    table = await table_of(world)
    mover, _ = mover_and_other(world, table)
    board = world.board()
    assert "Take and roll…" in buttons(board)
    await mover.click(board, label="Take and roll…")
    mixes = [label for label in buttons(fresh(world, board)) if label != "Back"]
    assert "3 red" in mixes and "2 red, 1 black" in mixes
    await mover.click(fresh(world, board), label="2 red, 1 black")
    await world.idle()
    rolled = await table_of(world)
    colours = sorted(d.colour.value for d in rolled.state.rolled)
    assert colours == ["black", "red", "red"]
