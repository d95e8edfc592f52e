"""Hidden VP and characters: views, event payloads and prompt contexts (rules §1, §9)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Event
from engine.rng import Rng
from engine.troyes import RULES, TroyesState
from engine.troyes.data import characters
from engine.troyes.kinds import HIDDEN, Phase
from engine.troyes.purse import gain_vp
from tests.engine.troyes.helpers import table

SECRET_KEYS = {"vp", "characters", "character"}


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*strings(k), *strings(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


def check_event(event: Event) -> None:
    """An event another seat may see carries no VP total and no character."""
    names = {c.name for c in characters().values()} | set(characters())
    assert not names & set(strings(dict(event.data))), f"{event.kind} names a character"
    if event.kind == "vp":
        assert event.visible_to == frozenset({event.data["seat"]}), "VP changes are private"
    else:
        assert not SECRET_KEYS & set(event.data), f"{event.kind} carries a secret field"
        assert "VP" not in RULES.describe(event) or event.kind == "not_countered"


def check_views(state: TroyesState) -> None:
    """Each seat sees only its own VP and characters; a spectator sees none (until the end)."""
    over = state.phase is Phase.OVER
    for viewer in [None, *range(state.seats)]:
        seen = RULES.view(state, viewer)
        for seat, (mine, real) in enumerate(zip(seen.players, state.players, strict=True)):
            if over or seat == viewer:
                assert (mine.vp, mine.characters) == (real.vp, real.characters)
            else:
                assert mine.vp == 0 and mine.characters == [HIDDEN] * len(real.characters)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_events_prompts_and_views_keep_vp_and_characters_secret(seats: int) -> None:
    state = RULES.setup(seats, seed=40 + seats)
    chooser = Rng.from_seed(seats, 7)
    names = {c.name for c in characters().values()} | set(characters())
    vp_events = 0
    while RULES.outcome(state) is None:
        (prompt,) = RULES.prompts(state)
        context = dict(prompt.context)
        assert not SECRET_KEYS & set(context) and not names & set(strings(list(context.values())))
        if state.version % 5 == 0:
            check_views(state)
        policy = "greedy" if chooser.below(2) else "random"
        transition = RULES.apply(state, prompt.seat, RULES.bot_action(state, prompt, policy))
        for event in transition.events:
            check_event(event)
            vp_events += event.kind == "vp"
        state = transition.state
    check_views(state)
    assert vp_events > 0


def test_a_vp_change_is_seen_by_its_seat_only() -> None:
    state = table(3)
    event = gain_vp(state, 1, 3, "test")
    assert [event.visible(seat) for seat in (None, 0, 1, 2)] == [False, False, True, False]
