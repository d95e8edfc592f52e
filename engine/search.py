"""Determinized Monte Carlo search: the `hard` level's engine, shared by the games that use it.

For each candidate option the bot plays the same few sampled futures (common random numbers:
the seat's view with a freshly seeded generator, so the dice it cannot foresee are drawn anew,
and whatever else the game hides sampled by `determinize`), lets a quicker policy play every
seat for a short horizon, and keeps the option with the best mean evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic

from engine.core import Action, Bot, Prompt, Rules, S
from engine.rng import Rng


class MonteCarloBot(Generic[S]):
    """Picks among a shortlist of options by the mean result of sampled, short playouts."""

    def __init__(
        self,
        rules: Rules[S],
        rollout: Bot[S],
        *,
        shortlist: Callable[[S, Prompt], Sequence[Action]],
        evaluate: Callable[[S, int], float],
        seen: Callable[[S, int], S],
        determinize: Callable[[S, int, Rng], S] | None = None,
        samples: int = 6,
        handovers: int = 2,
        max_steps: int = 60,
    ) -> None:
        self.rules = rules
        self.rollout = rollout
        self.shortlist = shortlist
        """The options worth searching, best guess first (one option: no search)."""
        self.evaluate = evaluate
        """How good a state is for a seat (higher is better)."""
        self.seen = seen
        """What a seat sees of a state, for the rollout policy."""
        self.determinize = determinize
        """A full state consistent with a seat's view (default: the view with a new generator)."""
        self.samples = samples
        self.handovers = handovers
        """A playout stops once the seat to move has changed this many times."""
        self.max_steps = max_steps

    def choose(self, view: S, prompt: Prompt, rng: Rng) -> Action:
        """The shortlisted option with the best mean playout result for `prompt.seat`."""
        candidates = list(self.shortlist(view, prompt))
        if len(candidates) == 1:
            return candidates[0]
        seeds = [rng.below(2**62) for _ in range(self.samples)]
        best, best_total = candidates[0], float("-inf")
        for action in candidates:
            total = sum(self._playout(view, prompt.seat, action, seed) for seed in seeds)
            if total > best_total:
                best, best_total = action, total
        return best

    def _playout(self, view: S, seat: int, action: Action, seed: int) -> float:
        """Play `action` in one sampled world, then the rollout policy for a short horizon."""
        rules = self.rules
        if self.determinize is not None:
            state = self.determinize(view, seat, Rng.from_seed(seed, 1))
        else:
            state = rules.clone(view)
        state.rng = Rng.from_seed(seed)
        state = rules.apply(state, seat, action).state
        mover, handovers = seat, 0
        for step in range(self.max_steps):
            if rules.outcome(state) is not None:
                break
            prompt = rules.prompts(state)[0]
            if prompt.seat != mover:
                mover, handovers = prompt.seat, handovers + 1
                if handovers >= self.handovers:
                    break
            choice = self.rollout.choose(self.seen(state, prompt.seat), prompt, Rng.from_seed(seed, step))
            state = rules.apply(state, prompt.seat, choice).state
        return self.evaluate(state, seat)
