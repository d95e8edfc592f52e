"""Checks every game must pass, run over random playouts (shared by the games' tests)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import Action, IllegalAction, Move, Options, Record, Rules, replay
from engine.rng import Rng

Invariant = Callable[[Any], None]

_NOT_OFFERED = Action.of("not-a-real-action", x=1)


def random_playout(
    rules: Rules[Any],
    seats: int,
    seed: int,
    options: Options | None = None,
    invariant: Invariant | None = None,
    max_steps: int = 20_000,
    check_every: int = 1,
    policy: str = "random",
) -> Any:
    """Play a game to its end with bots, checking the contract after every step; return the end state."""
    state = rules.setup(seats, options, seed)
    chooser = Rng.from_seed(seed, 99)
    moves: list[Move] = []
    for step in range(max_steps):
        if invariant is not None:
            invariant(state)
        if step % check_every == 0:
            check_codec(rules, state)
        prompts = rules.prompts(state)
        if rules.outcome(state) is not None:
            assert prompts == (), "a finished game still asks for decisions"
            break
        assert prompts, f"no prompt and no outcome at version {state.version}"
        prompt = prompts[chooser.below(len(prompts))]
        assert prompt.options, f"prompt {prompt.kind} offers nothing"
        assert len(set(prompt.options)) == len(prompt.options), f"duplicate options in {prompt.kind}"
        with pytest.raises(IllegalAction):
            rules.apply(state, prompt.seat, _NOT_OFFERED)
        action = rules.bot_action(state, prompt, policy)
        assert action in prompt.options, f"bot chose {action} outside the options"
        before = rules.encode(state)
        new = rules.apply(state, prompt.seat, action).state
        assert rules.encode(state) == before, "apply mutated its input"
        assert new.version == state.version + 1
        moves.append(Move(prompt.seat, action))
        state = new
    else:
        pytest.fail(f"{rules.id} did not end within {max_steps} steps (seed {seed})")
    record = Record(rules.id, seats, rules.resolve_options(options or {}), seed, tuple(moves))
    assert rules.encode(replay(rules, record)[-1]) == rules.encode(state), "replay differs from snapshot"
    check_codec(rules, state)
    return state


def check_codec(rules: Rules[Any], state: Any) -> None:
    """JSON round trip is exact and the snapshot is canonical JSON."""
    text = rules.encode(state)
    again = rules.decode(text)
    assert again == state
    assert rules.encode(again) == text
    json.loads(text)
