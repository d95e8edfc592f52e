"""Seeded bot playouts that yield the states a board is drawn from (samples, tests, benches)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import Options, Rules
from engine.rng import Rng


def states(
    rules: Rules[Any], seats: int, seed: int, options: Options | None = None, policy: str = "greedy"
) -> Iterator[Any]:
    """Every state of a bot game from setup to its end, the end included."""
    state = rules.setup(seats, options, seed)
    chooser = Rng.from_seed(seed, 7)
    while True:
        yield state
        prompts = rules.prompts(state)
        if not prompts:
            return
        prompt = prompts[chooser.below(len(prompts))]
        state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, policy)).state


def state_at(
    rules: Rules[Any], seats: int, seed: int, fraction: float, options: Options | None = None
) -> Any:
    """The state `fraction` (0 to 1) of the way through a seeded greedy-bot game."""
    every = list(states(rules, seats, seed, options))
    return every[min(len(every) - 1, int(len(every) * fraction))]
