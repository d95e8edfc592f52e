"""Determinized Monte Carlo search: the `hard` level's engine, shared by the games that use it.

For each candidate option the bot plays the same few sampled futures (common random numbers:
the seat's view with a freshly seeded generator, so the dice it cannot foresee are drawn anew,
and whatever else the game hides sampled by `determinize`), lets a quicker policy play every
seat for a short horizon, and keeps the option with the best mean evaluation.

With `first` set, the samples are spent by successive halving: every candidate plays `first`
futures, the better half goes on to twice as many (the same futures and new ones), and so on
until one is left or `samples` is reached, so clearly worse options cost little. `budget`
bounds the thinking time: once it is spent no new round starts (a guard for a loaded machine;
in normal play the sample counts end the search first, and the choice is deterministic).
With `drop` off, the rounds keep every candidate: the doubling then only paces the budget.
`until` ends a playout where the game's own phase ends (Buttons: the round), not after a
count of handovers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
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
        handovers: int | Callable[[S], int] = 2,
        max_steps: int = 60,
        first: int | None = None,
        budget: float | None = None,
        drop: bool = True,
        until: Callable[[S], Hashable] | None = None,
        confidence: float | None = None,
        favour: float = 0.0,
        own: Bot[S] | None = None,
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
        """Sampled futures an option plays at most (every option, without halving)."""
        self.handovers = handovers
        """A playout stops once the seat to move has changed this many times (or as many as the
        callable gives for the view searched: further near the end of a game)."""
        self.max_steps = max_steps
        self.first = first
        """Futures per option in the first halving round (None: no halving)."""
        self.budget = budget
        """Seconds after which no new halving round starts (None: no bound)."""
        self.drop = drop
        """Whether each round drops the worse half of the candidates (False: every one plays on)."""
        self.until = until
        """A playout also stops once this key of its state changes (None: only the handovers count)."""
        self.confidence = confidence
        """Stop the batches once the leader's lead over the runner-up, in the same futures, is this
        many standard errors (None: never; only with `first`)."""
        self.favour = favour
        """What the first shortlisted option (the best guess) gains per playout: another option
        must beat it by more than this on average to be chosen (only with `first`)."""
        self.own = own
        """The policy that plays the searching seat's own later decisions in a playout (None: the
        rollout's): a stronger, slower one where those decisions decide most."""

    def choose(self, view: S, prompt: Prompt, rng: Rng) -> Action:
        """The shortlisted option with the best mean playout result for `prompt.seat`."""
        candidates = list(self.shortlist(view, prompt))
        if len(candidates) == 1:
            return candidates[0]
        seeds = [rng.below(2**62) for _ in range(self.samples)]
        # Kept per call, not on self: one bot object serves every table, in several threads.
        horizon = self.handovers if isinstance(self.handovers, int) else self.handovers(view)
        if self.first is None:
            totals = [self._total(view, prompt.seat, action, seeds, horizon) for action in candidates]
            return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]
        return self._halving(view, prompt.seat, candidates, seeds, horizon)

    def _halving(
        self, view: S, seat: int, candidates: list[Action], seeds: list[int], horizon: int
    ) -> Action:
        """Successive halving over the candidates with common sampled futures."""
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        alive = list(range(len(candidates)))
        results: list[list[float]] = [[] for _ in candidates]
        played = 0
        target = min(self.first or 1, len(seeds))
        while True:
            for i in alive:
                results[i].extend(
                    self._playout(view, seat, candidates[i], seed, horizon) for seed in seeds[played:target]
                )
            played = target
            totals = [sum(r) for r in results]
            totals[0] += self.favour * played
            # Ties keep the earlier (better guessed) option.
            alive.sort(key=lambda i: (-totals[i], i))
            if len(alive) == 1 or played >= len(seeds):
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self.confidence is not None and _clear_lead(
                results[alive[0]], results[alive[1]], self.confidence, self._edge(alive[0], alive[1])
            ):
                break
            if self.drop:
                alive = alive[: (len(alive) + 1) // 2]
            if len(alive) == 1:
                break
            target = min(2 * played, len(seeds))
        return candidates[alive[0]]

    def _edge(self, leader: int, runner_up: int) -> float:
        """What `favour` adds to the leader's mean lead over the runner-up."""
        if leader == 0:
            return self.favour
        return -self.favour if runner_up == 0 else 0.0

    def _total(self, view: S, seat: int, action: Action, seeds: Sequence[int], horizon: int) -> float:
        """The summed result of `action` over the sampled futures `seeds`."""
        return sum(self._playout(view, seat, action, seed, horizon) for seed in seeds)

    def _playout(self, view: S, seat: int, action: Action, seed: int, horizon: int) -> float:
        """Play `action` in one sampled world, then the rollout policy for a short horizon."""
        rules = self.rules
        world = view if self.determinize is None else self.determinize(view, seat, Rng.from_seed(seed, 1))
        # One private copy per playout, played on in place: no copy and no check per step.
        state = rules.clone(world)
        state.rng = Rng.from_seed(seed)
        until = self.until
        phase = None if until is None else until(state)
        rollout = self.rollout
        own = rollout if self.own is None else self.own
        rules.play_owned(state, seat, action)
        mover, handovers = seat, 0
        for step in range(self.max_steps):
            if rules.outcome(state) is not None:
                break
            if until is not None and until(state) != phase:
                break
            prompt = rules.prompts(state)[0]
            if prompt.seat != mover:
                mover, handovers = prompt.seat, handovers + 1
                if handovers >= horizon:
                    break
            policy = own if prompt.seat == seat else rollout
            choice = policy.choose(self.seen(state, prompt.seat), prompt, Rng.from_seed(seed, step))
            rules.play_owned(state, prompt.seat, choice)
        return self.evaluate(state, seat)


def _clear_lead(
    leader: Sequence[float], runner_up: Sequence[float], confidence: float, edge: float = 0.0
) -> bool:
    """Whether the leader's mean lead (plus `edge`) over the same futures is `confidence` standard errors."""
    diffs = [a - b + edge for a, b in zip(leader, runner_up, strict=True)]
    count = len(diffs)
    mean = sum(diffs) / count
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
    return mean * mean * count >= confidence * confidence * spread
