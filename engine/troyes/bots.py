"""Troyes bots: a random player and a greedy one that reasons from its seat's view."""

from __future__ import annotations

from engine.core import Action, Prompt
from engine.rng import Rng
from engine.troyes.state import TroyesState

_BACK = Action("back")


class RandomTroyesBot:
    """Any legal option, uniformly, except backing out of a started action when it can go on."""

    def choose(self, view: TroyesState, prompt: Prompt, rng: Rng) -> Action:
        """Return a random option."""
        forward = [o for o in prompt.options if o != _BACK] or list(prompt.options)
        return rng.choice(forward)


class GreedyBot(RandomTroyesBot):
    """Placeholder replaced below."""
