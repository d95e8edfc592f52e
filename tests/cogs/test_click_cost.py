"""What one click costs (issue 35): a table's decisions are worked out once per state, not per read."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import GAMES
from tables import models
from tests.cogs.conftest import Harness
from tests.cogs.helpers import play_option, table_of, user_of
from tests.cogs.test_days import open_game


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_click_works_out_the_prompts_at_most_twice(
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
    models._PROMPTS_SEEN.clear()  # the click pays for the board it was made on too
    await play_option(world, user, world.board(), seat, 0)
    await world.idle()
    after = await table_of(world)
    assert after.version == table.version + 1, "one move, no forced step: the count is one click's"
    # The state clicked on and the state it led to (it was 17 for a Tomatoes roll before).
    assert len(worked_out) <= 2, worked_out
