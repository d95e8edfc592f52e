"""A toy game with simultaneous prompts: every seat picks 1-3 at once, for a few rounds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.core import Action, Bot, Event, GameState, Outcome, Prompt, RandomBot, Rules, Scalar, rank
from engine.rng import Rng


@dataclass(slots=True, kw_only=True)
class VoteState(GameState):
    """Each round every seat picks a number; a seat scores its pick if nobody else picked it."""

    picks: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    round: int = 0
    rounds: int = 3


class VoteRules(Rules[VoteState]):
    """Rules of the toy vote."""

    id = "vote"
    name = "Vote"
    min_players = 2
    max_players = 4
    state_type = VoteState

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> VoteState:
        return VoteState(rng=rng, picks=[0] * seats, scores=[0] * seats)

    def prompts(self, state: VoteState) -> tuple[Prompt, ...]:
        if state.round >= state.rounds:
            return ()
        options = tuple(Action.of("pick", n=n) for n in (1, 2, 3))
        return tuple(
            Prompt(seat, "pick", options, default=options[0])
            for seat, pick in enumerate(state.picks)
            if pick == 0
        )

    def _play(self, state: VoteState, seat: int, action: Action) -> Iterable[Event]:
        state.picks[seat] = action["n"]
        if 0 in state.picks:
            return [Event("picked", {"seat": seat}, visible_to=frozenset({seat}))]
        for i, pick in enumerate(state.picks):
            if state.picks.count(pick) == 1:
                state.scores[i] += pick
        revealed = list(state.picks)
        state.picks = [0] * len(state.picks)
        state.round += 1
        return [Event("reveal", {"picks": revealed}, checkpoint=True)]

    def _redact(self, state: VoteState, seat: int | None) -> None:
        state.picks = [p if i == seat else (-1 if p else 0) for i, p in enumerate(state.picks)]

    def outcome(self, state: VoteState) -> Outcome | None:
        if state.round < state.rounds:
            return None
        return Outcome(tuple(state.scores), rank(state.scores))

    def bots(self) -> Mapping[str, Bot[VoteState]]:
        return {"random": RandomBot(), "greedy": RandomBot()}


RULES = VoteRules()
