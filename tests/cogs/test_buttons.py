"""Buttons through Discord: whole games, the gold die answered by two humans at once, turn clocks."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from typing import Any

import pytest

import renderers
from cogs.games.buttons import UI
from cogs.platform import board as board_module
from engine.buttons import RULES as BUTTONS
from engine.buttons.state import Phase
from engine.core import Prompt
from tables.models import SeatInfo, Table, TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, play_greedily, play_option, refs, table_of, user_of
from tests.cogs.test_lobby import lobby_now, slash_answer

NUMBERED = re.compile(r"\bPlayer \d\b")
"""How the engine calls a seat when it is not given the players' names."""


async def open_buttons(world: Harness, *, bot: bool) -> Any:
    """/play buttons by alice, bob joins (and a bot if `bot`), alice starts; returns the table."""
    result = await world.alice.slash(world.channel, "play buttons")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None and "Buttons" in lobby.content
    await world.bob.click(lobby, label="Join")
    if bot:
        await add_bot(world.alice, lobby_now(world, lobby))
    await world.alice.click(lobby_now(world, lobby), label="Start")
    assert world.thread().name == "🔘 Buttons #1"
    await world.idle()
    return await table_of(world)


def both_at_once(table: Any) -> tuple[Prompt, Prompt] | None:
    """(the roller's placement, the other human's gold-die question) when both are open now."""
    humans = {p.kind: p for p in table.prompts if not table.is_bot(p.seat)}
    if set(humans) == {"place", "gold"}:
        return humans["place"], humans["gold"]
    return None


async def answer(world: Harness, table: Any, prompt: Prompt) -> Any:
    """Play `prompt`'s greedy choice through the board's buttons; return the table after it."""
    action = table.rules.bot_action(table.state, prompt, "greedy")
    user = user_of(world, table.seats[prompt.seat].user_id)
    await play_option(world, user, world.board(), prompt.seat, prompt.options.index(action))
    await world.idle()
    return await table_of(world)


async def kinds_played_at(world: Harness, table: Any, version: int) -> list[str]:
    """The kinds of the events the move played on `version` produced."""
    return [e.event.kind for e in await world.bot.tables.log(table.id) if e.version == version]


async def test_two_humans_and_a_bot_play_buttons_to_the_end(world: Harness) -> None:
    table = await open_buttons(world, bot=True)
    rounds_both = 0
    while (table := await table_of(world)).status is TableStatus.PLAYING:
        pair = both_at_once(table)
        if pair is None:
            assert await play_greedily(world, moves=1) == 1
            continue
        rounds_both += 1
        # Alternate who answers first: the roller, or the player offered the gold die.
        first, second = pair if rounds_both % 2 else pair[::-1]
        roll = table.state.roll
        # Both are asked on the same board, each with their own buttons.
        seats_with_buttons = {ref.seat for ref, _, _ in refs(world.board()) if hasattr(ref, "seat")}
        assert {first.seat, second.seat} <= seats_with_buttons
        after_first = await answer(world, table, first)
        assert set(await kinds_played_at(world, table, table.version)) <= {"place", "decline"}
        assert after_first.state.phase is Phase.PLACE and after_first.state.roll == roll
        assert after_first.state.active == table.state.active
        assert after_first.prompt_for(first.seat) is None
        assert after_first.prompt_for(second.seat) == second, "the other player's question stays open"
        assert second.seat in {ref.seat for ref, _, _ in refs(world.board()) if hasattr(ref, "seat")}
        await answer(world, after_first, second)
        moved_on = await kinds_played_at(world, table, after_first.version)
        assert {"turn", "score"} & set(moved_on), "the turn moves on once both have answered"
    assert rounds_both >= 2, "the gold die let both humans decide at once, in either order"
    assert table.status is TableStatus.FINISHED
    message = world.board()
    assert "final scores" in message.content and "stars" in message.content
    history = world.thread().history()
    assert [m for m in history if m.components] == []
    texts = "\n".join(m.content for m in history)
    assert "alice rolls" in texts and "bob rolls" in texts, "log lines name the players"
    assert not NUMBERED.search(texts)


async def test_a_human_who_does_not_answer_in_time_declines_the_gold_die(world: Harness) -> None:
    table = await open_buttons(world, bot=False)
    while (pair := both_at_once(table)) is None:
        assert table.status is TableStatus.PLAYING, "this seed offers the gold die to a human"
        assert await play_greedily(world, moves=1) == 1
        table = await table_of(world)
    place, gold = pair
    assert gold.default is not None and gold.default.kind == "decline"
    table = await answer(world, table, place)
    late = user_of(world, table.seats[gold.seat].user_id)
    # Once the roller has placed, the gold die's window (hours at the daily pace) closes it.
    limit = table.timing.optional_window
    assert limit is not None and limit < (table.timing.timeout_after or 0)
    waiting = table.version
    # Just before the limit the question stays open.
    await world.bot.tables.run_due(time.time() + limit - 60)
    await world.idle()
    table = await table_of(world)
    assert table.version == waiting and table.prompt_for(gold.seat) == gold
    await world.bot.tables.run_due(time.time() + limit + 60)
    await world.idle()
    table = await table_of(world)
    kinds = await kinds_played_at(world, table, waiting)
    assert kinds[0] == "decline" and {"turn", "score"} & set(kinds), "declined, and the turn moved on"
    texts = [m.content for m in world.thread().history()]
    assert not any("Time ran out" in t for t in texts), "an optional choice closing is no timeout"
    assert any(f"{late.name} lets the gold dice pass" in t for t in texts)


def rolled_table() -> tuple[Table, Prompt, Prompt]:
    """A three-seat Buttons table right after a roll that asks seat `place.seat` and seat `gold.seat`."""
    for seed in range(100):
        state = BUTTONS.setup(3, None, seed)
        (turn,) = BUTTONS.prompts(state)
        state = BUTTONS.apply(state, turn.seat, turn.options[0]).state
        kinds = {p.kind: p for p in BUTTONS.prompts(state)}
        if {"place", "gold"} <= set(kinds):
            seats = tuple(
                SeatInfo(user_id=100 + i, bot=None, name=n) for i, n in enumerate(("ann", "bo", "cy"))
            )
            table = Table(
                id=1,
                game="buttons",
                guild_id=1,
                channel_id=2,
                host_id=100,
                status=TableStatus.PLAYING,
                seats=seats,
                options={},
                created_at=0.0,
                updated_at=0.0,
                state=state,
                version=state.version,
            )
            return table, kinds["place"], kinds["gold"]
    raise AssertionError("no seed rolled the gold die for a second player")


def offered_cells(prompt: Prompt) -> list[tuple[int, int]]:
    """The cells a prompt's buttons offer."""
    return [(int(a["row"]), int(a["col"])) for a in prompt.options if a.kind == "place"]


def test_the_viewer_s_legal_cells_reach_the_buttons_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    table, place, gold = rolled_table()
    calls: list[tuple[int | None, dict[str, Any]]] = []
    real = renderers.render_file

    def spy(game: str, view: Any, viewer: int | None, names: Any, **kw: Any) -> bytes:
        calls.append((viewer, kw))
        return real(game, view, viewer, names, **kw)

    monkeypatch.setattr(renderers, "render_file", spy)
    for seat in (place.seat, gold.seat, None):
        image = board_module.render_board(table, seat)
        assert image is not None and image.startswith(b"RIFF"), "the real renderer takes the keyword"
    assert calls == [
        (place.seat, {"language": "en", "legal_cells": offered_cells(place)}),
        (gold.seat, {"language": "en", "legal_cells": offered_cells(gold)}),
        (None, {"language": "en"}),
    ]
    assert len(offered_cells(gold)) == 1 and offered_cells(place)
    # Once a seat has answered, its board is drawn without cells of its own.
    answered = BUTTONS.apply(table.state, gold.seat, gold.default).state
    calls.clear()
    board_module.render_board(replace(table, state=answered, version=answered.version), gold.seat)
    assert calls == [(gold.seat, {"language": "en"})]


async def test_two_dice_per_exit_is_a_table_option_off_by_default(world: Harness) -> None:
    await world.alice.slash(world.channel, "play buttons")
    await world.alice.slash(world.channel, "play buttons", two_dice=True)
    plain, variant = await world.bot.tables.tables_in_channel(world.channel.id)
    assert plain.options["two_dice_2p"] is False and variant.options["two_dice_2p"] is True
    lobbies = [m.content for m in world.channel.history() if "Buttons" in m.content]
    assert any("one plain die" in c for c in lobbies) and any("two plain dice" in c for c in lobbies)


def test_the_star_question_agrees_with_the_number_of_stars() -> None:
    view = BUTTONS.setup(2, {}, 1)

    def asked(due: int) -> str:
        return UI.question(view, Prompt(0, "star", (), context=(("stars_due", due),)), ["Ann", "Bob"])

    assert asked(1).endswith("choose where your star goes.")
    assert asked(2).endswith("choose where your 2 stars go.")
