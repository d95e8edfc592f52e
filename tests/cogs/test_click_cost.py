"""What one click costs (issue 35): a table's decisions worked out once per state, the move checked once."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from engine.games import GAMES
from tables import models
from tables.service import turns
from tests.cogs.conftest import Harness
from tests.cogs.helpers import play_option, table_of, user_of
from tests.cogs.test_days import open_game

CHECKS = (
    (turns.Turns, "checked"),
    (turns.Turns, "act"),
)
"""Where a move is checked in the service: Turns.checked (one check for act and a click's choose);
before it, Turns.act checked inline."""


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_click_works_out_the_prompts_at_most_twice_and_checks_the_move_once(
    world: Harness, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    table = await open_game(world, game)
    seat = next(s for s in table.to_move if not table.is_bot(s))
    user = user_of(world, table.seats[seat].user_id)
    worked_out: list[int] = []
    real = type(table.rules).prompts

    def counted(self: Any, state: Any) -> Any:
        worked_out.append(state.version)
        return real(self, state)

    monkeypatch.setattr(type(table.rules), "prompts", counted)
    checks: list[str] = []

    def counting(owner: Any, name: str) -> None:
        real = getattr(owner, name)

        def check(*args: Any, **kwargs: Any) -> Any:
            checks.append(f"{getattr(owner, '__name__', owner)}.{name}")
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, check)

    # Every place a move could be checked: the cog (check_turn, before), the service, the engine.
    for owner, name in CHECKS:
        if hasattr(owner, name):
            counting(owner, name)
    play = sys.modules["cogs.play"]  # the module the bot loaded as its extension
    if hasattr(play, "check_turn"):
        counting(play, "check_turn")
    counting(type(table.rules), "apply")
    counting(type(table.rules), "is_offered")
    models._PROMPTS_SEEN.clear()  # the click pays for the board it was made on too
    await play_option(world, user, world.board(), seat, 0)
    await world.idle()
    after = await table_of(world)
    assert after.version == table.version + 1, "one move, no forced step: the count is one click's"
    # The state clicked on and the state it led to (it was 17 for a Tomatoes roll before).
    assert len(worked_out) <= 2, worked_out
    # Checked once, in the service (it was three times: the cog, the service and Rules.apply).
    assert len(checks) == 1, checks
