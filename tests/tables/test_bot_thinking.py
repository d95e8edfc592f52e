"""A bot thinks without the table's lock: the others keep answering, and its move lands once."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.core import Action, Prompt
from engine.games import get_rules
from tables import StaleVersion, TableService, UpdateKind
from tests.tables import votegame
from tests.tables.conftest import BOB, CHANNEL, GUILD, HOST, Recorder, started

WAIT = 5.0
"""Seconds a test waits on a thread before it calls the run stuck."""


class SlowBots:
    """Holds the bot decisions `held` picks until the test lets them go; counts what bots thought about."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        rules: Any = votegame.RULES,
        held: Callable[[Any, Prompt], bool] = lambda state, prompt: True,
    ) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()
        self.thought: list[tuple[int, int, int]] = []
        """(seat, state version, round) of every decision a bot made."""
        original = rules.bot_action

        def slow(state: Any, prompt: Prompt, policy: str = "normal") -> Action:
            if held(state, prompt):
                self.thought.append((prompt.seat, state.version, getattr(state, "round", 0)))
                self.thinking.set()
                assert self.go.wait(WAIT), "the test never let the bot finish"
            return original(state, prompt, policy)

        monkeypatch.setattr(rules, "bot_action", slow)

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


async def test_buttons_gold_die_is_taken_while_the_bot_places(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = get_rules("buttons")

    def rolled_gold_for_the_host(state: Any, prompt: Prompt) -> bool:
        return prompt.kind == "place" and rules.prompt_for(state, 0) is not None

    slow = SlowBots(monkeypatch, rules, rolled_gold_for_the_host)
    table = await service.create("buttons", GUILD, CHANNEL, HOST, "Host")
    await service.add_bot(table.id, HOST, "normal")
    table = (await service.start_game(table.id, HOST)).table
    # The host plays plainly (declining every gold die) until the bot rolls a gold die the host may use.
    while not slow.thinking.is_set():
        await asyncio.sleep(0.01)
        table = await service.get(table.id)
        prompt = table.prompt_for(0)
        assert table.outcome is None, "no gold die for the host in a whole game"
        if prompt is None or slow.thinking.is_set():
            continue
        choice = Action("decline") if prompt.kind == "gold" else prompt.default or prompt.options[0]
        if prompt.kind == "turn":
            choice = Action("roll")
        with contextlib.suppress(StaleVersion):  # a bot moved in between: look again
            await service.act(table.id, HOST, table.version, choice)
    table = await service.get(table.id)
    gold = table.prompt_for(0)
    assert gold is not None and gold.kind == "gold" and gold.optional
    bot = table.prompt_for(1)
    assert bot is not None and bot.kind == "place"
    version = table.version
    done = await asyncio.wait_for(service.act(table.id, HOST, version, gold.options[0]), WAIT)
    assert done.table.to_move == (1,), "the host's gold die was not taken while the bot thought"
    slow.go.set()
    await service.idle()
    rows = await service.store.actions(table.id)
    played = [(r.version, r.seat, r.action.kind) for r in rows if r.version >= version]
    assert played[:2] == [(version, 0, "place"), (version + 1, 1, "place")], "bot move lost or doubled"
    assert len(slow.thought) == 1, "the bot thought again about an unchanged decision"
