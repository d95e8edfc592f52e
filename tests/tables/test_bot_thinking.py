"""A bot thinks without the table's lock: the others keep answering, and its move lands once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import Action, Prompt
from tables import TableService, UpdateKind
from tests.tables import votegame
from tests.tables.conftest import BOB, HOST, Recorder, started

WAIT = 5.0
"""Seconds a test waits on a thread before it calls the run stuck."""


class SlowBots:
    """Holds every bot decision until the test lets it go, and counts what the bots thought about."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()
        self.thought: list[tuple[int, int, int]] = []
        """(seat, state version, round) of every decision a bot made."""
        original = votegame.RULES.bot_action

        def slow(state: votegame.VoteState, prompt: Prompt, policy: str = "normal") -> Action:
            self.thought.append((prompt.seat, state.version, state.round))
            self.thinking.set()
            assert self.go.wait(WAIT), "the test never let the bot finish"
            return original(state, prompt, policy)

        monkeypatch.setattr(votegame.RULES, "bot_action", slow)

    async def started_thinking(self) -> None:
        """Wait until a bot is in the middle of a decision."""
        assert await asyncio.to_thread(self.thinking.wait, WAIT), "no bot started thinking"


@pytest.fixture
def slow_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowBots]:
    """Bots of the vote game that think until released (released at the end in any case)."""
    bots = SlowBots(monkeypatch)
    yield bots
    bots.go.set()


def moves(rows: list[Any]) -> list[tuple[int, int, str]]:
    """(version played on, seat, source) of each stored move."""
    return [(row.version, row.seat, row.source) for row in rows]


async def test_a_human_answers_while_a_bot_thinks_and_the_bot_move_lands_once(
    service: TableService, recorder: Recorder, slow_bots: SlowBots
) -> None:
    table = await started(service, "vote", bob=False, bots=1)
    await slow_bots.started_thinking()
    # The bot holds no lock while it thinks: the host's simultaneous pick is taken at once.
    done = await asyncio.wait_for(service.act(table.id, HOST, 0, Action.of("pick", n=3)), WAIT)
    assert done.table.version == 1 and done.table.to_move == (1,)
    slow_bots.go.set()
    await service.idle()
    table = await service.get(table.id)
    assert table.state.round == 1, "the bot's pick of round 1 did not land"
    rows = await service.store.actions(table.id)
    assert moves(rows)[:2] == [(0, 0, "human"), (1, 1, "bot")]
    assert [t for t in slow_bots.thought if t[2] == 0] == [(1, 0, 0)], "the bot thought twice"
    bot_moves = [u for u in recorder.updates if u.kind is UpdateKind.BOT_MOVE]
    assert [u.table.version for u in bot_moves] == [2, 3], "one bot move per round, none doubled"


async def test_a_seat_taken_back_while_its_bot_thinks_gets_no_bot_move(
    service: TableService, recorder: Recorder, slow_bots: SlowBots
) -> None:
    table = await started(service, "vote")
    await service.act(table.id, HOST, 0, Action.of("pick", n=1))
    await service.leave(table.id, BOB)
    await slow_bots.started_thinking()
    # Bob comes back and answers from the board he still sees while his bot is thinking.
    back = await asyncio.wait_for(service.act(table.id, BOB, 1, Action.of("pick", n=2)), WAIT)
    assert not back.table.is_bot(1) and back.table.state.round == 1
    slow_bots.go.set()
    await service.idle()
    table = await service.get(table.id)
    assert table.version == 2 and table.to_move == (0, 1), "the bot played a stale state"
    rows = await service.store.actions(table.id)
    assert moves(rows) == [(0, 0, "human"), (1, 1, "human")]
    assert not [u for u in recorder.updates if u.kind is UpdateKind.BOT_MOVE]


async def test_a_bot_whose_decision_changed_while_it_thought_thinks_again(
    service: TableService, slow_bots: SlowBots
) -> None:
    table = await started(service, "vote")
    await service.act(table.id, HOST, 0, Action.of("pick", n=1))
    await service.leave(table.id, BOB)
    await slow_bots.started_thinking()
    # Bob answers round 1 and leaves again: his bot, still thinking about round 1, is now asked
    # about round 2 (the same options, but a decision that came after the one it saw).
    await service.act(table.id, BOB, 1, Action.of("pick", n=2))
    await service.leave(table.id, BOB)
    slow_bots.go.set()
    await service.idle()
    table = await service.get(table.id)
    assert slow_bots.thought == [(1, 1, 0), (1, 2, 1)], "the bot did not think again on the new state"
    rows = await service.store.actions(table.id)
    assert moves(rows) == [(0, 0, "human"), (1, 1, "human"), (2, 1, "bot")]
    assert table.state.round == 1 and table.to_move == (0,)
