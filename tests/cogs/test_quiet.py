"""Quiet, quick turns: who is pinged, when a board is edited rather than posted, clicks per die."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cogs.games import get_ui
from cogs.platform import board as board_module
from cogs.platform.board_messages import BoardMessages
from cogs.platform.ids import ActRef, parse, parse_value
from cogs.platform.layout import SelectSpec, groups_of, main_rows
from engine.buttons.state import Phase
from engine.games import get_rules
from engine.tomatoes.forced import PLACE_REST
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import add_bot, draw_boards_as, pinged, play_greedily, table_of
from tests.cogs.test_buttons import answer, open_buttons
from tests.cogs.test_lobby import lobby_now, slash_answer
from tests.cogs.test_turns import start_two_humans


async def test_the_gold_die_pings_nobody_and_every_answer_edits_the_turns_board(world: Harness) -> None:
    # Everyone counts as away, so only the optional rule keeps the gold die from pinging.
    world.bot.get_cog("Games").presenter.present_for = 0.0  # type: ignore[union-attr]
    table = await open_buttons(world, bot=False)
    rolls_with_gold = answered_on_same_board = 0
    while table.status is TableStatus.PLAYING and answered_on_same_board < 2:
        prompt = next(p for p in table.prompts if not table.is_bot(p.seat))
        board = world.board().id
        assert await play_greedily(world, moves=1) == 1
        rolled = await table_of(world)
        gold = [p for p in rolled.prompts if p.kind == "gold"]
        if prompt.kind != "turn" or not gold or rolled.state.active != prompt.seat:
            table = rolled
            continue
        rolls_with_gold += 1
        assert rolled.board_message_id == board, "the roll edits the board of the turn, not a new message"
        decider = rolled.seats[gold[0].seat].user_id
        since = [m for m in world.thread().history() if m.id >= board]
        assert not any(decider in pinged(world, m) for m in since), "an optional decision pings nobody"
        table = await answer(world, rolled, gold[0])
        if table.state.phase is Phase.PLACE:
            assert table.board_message_id == board, "a gold-die answer edits the same board"
            answered_on_same_board += 1
    assert rolls_with_gold >= 2 and answered_on_same_board >= 1


async def test_a_player_who_just_moved_is_not_pinged_but_one_back_from_away_is(world: Harness) -> None:
    now = [1_000_000.0]
    world.bot.tables.clock = lambda: now[0]
    table = await start_two_humans(world)
    first = table.seats[table.to_move[0]].user_id
    assert first in pinged(world, world.board()), "the first turn pings its player"
    turn_boards: dict[int, list[set[int]]] = {}
    while len(turn_boards.get(first, [])) < 3:
        table = await table_of(world)
        mover = table.seats[table.to_move[0]].user_id
        board = world.board().id
        away = mover != first and len(turn_boards.get(first, [])) >= 2
        now[0] += 3600.0 if away else 30.0  # from the third turn on, the other one takes an hour
        assert await play_greedily(world, moves=1) == 1
        new = [m for m in world.thread().history() if m.id > board]
        after = await table_of(world)
        if new and after.seats[after.to_move[0]].user_id == first and mover != first:
            turn_boards.setdefault(first, []).append(pinged(world, new[-1]))
    back, later, returned = turn_boards[first]
    assert first not in back and first not in later, "a player who moved a minute ago is watching: no ping"
    assert first in returned, "after an hour away the turn pings them"


async def test_a_bots_tomatoes_turn_is_at_most_two_uploads(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    draw_boards_as(monkeypatch, lambda table, seat: b"board image")
    shown: list[tuple[int, ...]] = []
    for name in ("post", "edit", "finish"):
        real = getattr(BoardMessages, name)

        async def counted(self: Any, table: Any, *args: Any, _real: Any = real) -> None:
            await _real(self, table, *args)
            shown.append(board_module.awaited_seats(table))

        monkeypatch.setattr(BoardMessages, name, counted)
    result = await world.alice.slash(world.channel, "play tomatoes")
    assert "is open" in slash_answer(result)
    lobby = world.channel.last_message
    assert lobby is not None
    await add_bot(world.alice, lobby_now(world, lobby))
    await world.alice.click(lobby_now(world, lobby), label="Start")
    await world.idle()
    await play_greedily(world, moves=40)
    table = await table_of(world)
    bot = next(i for i, s in enumerate(table.seats) if s.is_bot)
    runs: list[int] = []  # uploads of each bot turn: a run of boards showing the bot awaited
    previous: tuple[int, ...] = ()
    for awaited in shown:
        if awaited == (bot,):
            if previous == (bot,):
                runs[-1] += 1
            else:
                runs.append(1)
        previous = awaited
    log = await world.bot.tables.log(table.id)
    bot_steps = sum(1 for e in log if e.seat == bot and e.event.kind in ("roll", "place"))
    assert len(runs) >= 3 and bot_steps >= 3 * len(runs), "the bot played whole turns of several steps"
    assert max(runs) <= 2, f"uploads per bot turn: {runs}"


def test_a_tomatoes_die_goes_where_it_goes_in_one_click() -> None:
    rules = get_rules("tomatoes")
    ui = get_ui("tomatoes")
    names = ["Ann", "Bob", "Cid"]
    single = spread = 0
    for seed in range(6):
        state = rules.setup(3, {}, seed)
        while rules.outcome(state) is None:
            prompt = rules.prompts(state)[0]
            if prompt.kind == "place":
                view = rules.view(state, None)
                rows = main_rows(1, state.version, ui, view, [prompt], names, [])
                direct = {ref.index for ref in first_step_refs(rows) if isinstance(ref, ActRef)}
                for group in groups_of(ui, view, prompt, names):
                    if not group.head.group.startswith("die:"):
                        continue
                    if len({choice.label for _, choice in group.members}) == 1:
                        single += 1
                        assert group.members[0][0] in direct, "a die with one target: one click"
                    elif all(index in direct for index, _ in group.members[:1]):
                        spread += 1
            state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt)).state
    assert single > 20 and spread > 100, (single, spread)


def first_step_refs(rows: list[Any]) -> list[Any]:
    """What every button and select option of a first step refers to."""
    found = []
    for row in rows:
        if isinstance(row, SelectSpec):
            pick = parse(row.custom_id)
            assert pick is not None
            found += [parse_value(pick.table, pick.version, option.value) for option in row.options]
        else:
            found += [parse(button.custom_id) for button in row]
    return found


def test_a_forced_rest_is_one_button_and_the_question_names_each_die() -> None:
    rules = get_rules("tomatoes")
    ui = get_ui("tomatoes")
    names = ["Ann", "Bob", "Cid"]
    shown = 0
    for seed in range(40):
        state = rules.setup(3, {}, seed)
        while rules.outcome(state) is None and shown < 3:
            prompt = rules.prompts(state)[0]
            if PLACE_REST in prompt.options:
                view = rules.view(state, None)
                rows = main_rows(1, state.version, ui, view, [prompt], names, [])
                index = prompt.options.index(PLACE_REST)
                (button,) = [
                    b
                    for row in rows
                    if isinstance(row, tuple)
                    for b in row
                    if parse(b.custom_id) == ActRef(1, state.version, prompt.seat, index)
                ]
                assert button.label.startswith("Place the rest") and len(button.label) <= 40
                placed = sum(1 for a in prompt.options if a.kind == "place")
                question = ui.question(view, prompt, names)
                assert question.count("→") == placed, "every die of the rest is named"
                shown += 1
            state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt)).state
    assert shown >= 3


async def test_a_click_on_a_board_a_bots_move_replaced_is_played(world: Harness) -> None:
    """Issue 33: the player's button was built before a bot answered its own decision (a gold
    die, a star); the bot's move edited the board, so Discord sends the click with a custom_id
    the message no longer holds. The click still offers what the player chose: it is played."""
    from simcord.actors import _component_interaction

    from tests.cogs.helpers import refs, user_of

    table = await open_buttons(world, bot=True)
    raced = 0
    while table.status is TableStatus.PLAYING and raced < 2:
        humans = [p for p in table.prompts if not table.is_bot(p.seat)]
        built = {p.seat: table.seats[p.seat].prompt_version for p in humans}
        late = next((p for p in humans if built[p.seat] < table.version), None)
        board = world.board()
        if late is None:
            assert await play_greedily(world, moves=1) == 1
            table = await table_of(world)
            continue
        action = table.rules.bot_action(table.state, late, "greedy")
        old = ActRef(table.id, built[late.seat], late.seat, late.options.index(action))
        if any(ref == old for ref, _, _ in refs(board)):
            assert await play_greedily(world, moves=1) == 1  # the board was not edited meanwhile
            table = await table_of(world)
            continue
        user = user_of(world, table.seats[late.seat].user_id)
        stored = world.env.backend.get_message(board.channel.id, board.id)
        click = {"custom_id": old.custom_id(), "component_type": 2}
        result = await _component_interaction(user, stored, click)
        await world.idle()
        said = [f.content or "" for f in result.followups]
        assert not any("out of date" in text for text in said), said
        rows = await world.bot.tables.actions(table.id)
        assert any(
            r.seat == late.seat and r.action == action and r.version >= table.version and r.source == "human"
            for r in rows
        ), "the click was played"
        raced += 1
        table = await table_of(world)
    assert raced == 2


async def test_a_buttons_game_is_at_most_one_message_per_roll_and_a_roll_uploads_no_image(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: a bot's turn has no board of its own, and a roll (said by the caption and the
    cell buttons) keeps the board's image; the boards that follow a placement show it."""
    draw_boards_as(monkeypatch, lambda table, seat: f"board {table.version}".encode())
    uploads: list[tuple[str, int, bool]] = []  # (how, version shown, only bots awaited)
    for name in ("post", "edit", "finish"):
        real = getattr(BoardMessages, name)

        async def counted(
            self: Any,
            table: Any,
            thread: Any,
            board: Any,
            *args: Any,
            _real: Any = real,
            _how: str = f"_{name}",
        ) -> None:
            await _real(self, table, thread, board, *args)
            if board.image is not None:
                movers = board_module.awaited_seats(table)
                uploads.append((_how, table.version, bool(movers) and all(table.is_bot(s) for s in movers)))

        monkeypatch.setattr(BoardMessages, name, counted)
    table = await open_buttons(world, bot=True)
    while table.status is TableStatus.PLAYING:
        assert await play_greedily(world, moves=1) == 1
        table = await table_of(world)
    rows = await world.bot.tables.actions(table.id)
    rolls = sum(1 for row in rows if row.action.kind == "roll")
    messages = len(world.thread().history())
    assert rolls >= 20 and messages <= rolls, f"{messages} messages for {rolls} rolls"
    posted_for_bots = [v for how, v, bots in uploads if how == "_post" and bots and v > 0]
    assert not posted_for_bots, f"boards posted while only a bot was awaited: {posted_for_bots}"
    # Since the image before, only rolls were played (a bust takes buttons off: drawn again).
    by_version = {row.version: row for row in rows}
    after_roll = []
    for (_, before, _), (how, version, _) in itertools.pairwise(uploads):
        moves = [by_version[v] for v in range(before, version) if v in by_version]
        if (
            how == "_edit"
            and moves
            and all(m.action.kind == "roll" and "bust" not in {e.kind for e in m.events} for m in moves)
        ):
            after_roll.append(version)
    assert not after_roll, f"images uploaded for rolls alone: {after_roll}"
    # About one image a roll (the old boards drew about three: every step of every turn).
    assert len(uploads) <= 2 * rolls, f"{len(uploads)} uploads for {rolls} rolls"


async def test_a_troyes_step_that_logs_nothing_keeps_the_image_and_a_move_replaces_it(
    world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: choosing an action, then its dice one by one, is said by the caption and the
    buttons; the board is drawn again when the action is played (it logs what happened)."""
    from tests.cogs.troyes_play import open_troyes

    draw_boards_as(monkeypatch, lambda table, seat: f"board {table.version}".encode())
    edits: list[tuple[int, bool]] = []  # (version shown, with a new image)
    real = BoardMessages.edit

    async def counted(self: Any, table: Any, thread: Any, board: Any, *args: Any) -> None:
        await real(self, table, thread, board, *args)
        edits.append((table.version, board.image is not None))

    monkeypatch.setattr(BoardMessages, "edit", counted)
    table = await open_troyes(world)
    await play_greedily(world, moves=80)
    table = await table_of(world)
    rows = await world.bot.tables.actions(table.id)
    by_version = {row.version: row for row in rows}
    quiet = drawn = 0
    shown = 0
    for version, uploaded in edits:
        moves = [by_version[v] for v in range(shown, version) if v in by_version]
        silent = all(not any(e.visible(None) for e in m.events) for m in moves)
        if moves and silent:
            assert not uploaded, f"a step that logged nothing uploaded an image at version {version}"
            quiet += 1
        drawn += uploaded
        shown = version
    assert quiet >= 5 and drawn >= 1, (quiet, drawn)
