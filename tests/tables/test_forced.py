"""A person's own next step with a single option plays itself, recorded so the game replays."""

from __future__ import annotations

import pytest

from engine.core import Record, replay
from tables import TableService, UpdateKind
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST


@pytest.fixture(autouse=True)
def fixed_seed(service: TableService) -> None:
    """The same game every run."""
    service.new_seed = lambda: 4242


async def test_an_end_of_turn_with_nothing_left_to_decide_plays_itself_and_replays(
    service: TableService,
) -> None:
    table = await service.create("tomatoes", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    await service.start_game(table.id, HOST)
    users = {0: HOST, 1: BOB}
    forced = None
    for _ in range(400):
        table = await service.get(table.id)
        prompt = table.prompts[0]
        action = table.rules.bot_action(table.state, prompt, "normal")
        update = await service.act(table.id, users[prompt.seat], table.version, action)
        assert update.kind is UpdateKind.MOVE and update.action == action
        if update.table.version > table.version + 1:
            forced = (prompt.seat, update)
            break
    assert forced is not None, "a turn ended with nothing left to decide"
    seat, update = forced
    record = await service.record(table.id)
    last = record.moves[-1]
    assert last.seat == seat and last.action.kind == "end_turn", "the end of turn is a recorded action"
    assert update.table.state.active != seat, "the turn passed on without a click"
    kinds = [e.event.kind for e in update.events]
    assert "turn" in kinds and kinds[0] != "turn", "the update holds the move and the step it forced"
    moves = Record(record.game, record.seats, record.options, record.seed, record.moves)
    again = replay(update.table.rules, moves)
    assert update.table.rules.encode(again[-1]) == update.table.rules.encode(update.table.state)


async def test_a_turn_handed_to_someone_else_waits_for_their_first_click(service: TableService) -> None:
    table = await service.create("tomatoes", GUILD, CHANNEL, HOST, "Host")
    await service.join(table.id, BOB, "Bob")
    update = await service.start_game(table.id, HOST)
    # The first roll has one option (no vine to spend karma on yet), yet it waits for its player.
    prompt = update.table.prompts[0]
    assert prompt.kind == "roll" and len(prompt.options) == 1
    assert update.table.version == 0
