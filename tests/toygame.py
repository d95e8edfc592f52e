"""A tiny dice race used to test the engine contract and the tables without a real game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core import Action, Event, GameState, OptionSpec, Outcome, Prompt, Rules, Scalar, rank
from engine.rng import Rng


@dataclass(slots=True, kw_only=True)
class RaceState(GameState):
    """Seats take turns: choose a stride (undoable), then roll a die and move stride x die."""

    positions: list[int] = field(default_factory=list)
    turn: int = 0
    stride: int = 0
    goal: int = 30
    secret: list[int] = field(default_factory=list)
    """A per-seat secret number, hidden from other seats by `view`."""


class RaceRules(Rules[RaceState]):
    """Rules of the toy race."""

    id = "race"
    name = "Race"
    min_players = 1
    max_players = 4
    state_type = RaceState
    hidden_information = True
    option_specs = (OptionSpec("goal", "Goal", 30, (10, 30, 60)),)

    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> RaceState:
        goal = options["goal"]
        assert isinstance(goal, int)
        secret = [rng.die(100) for _ in range(seats)]
        return RaceState(rng=rng, positions=[0] * seats, goal=goal, secret=secret)

    def prompts(self, state: RaceState) -> tuple[Prompt, ...]:
        if self.outcome(state) is not None:
            return ()
        if state.stride == 0:
            options = tuple(Action.of("stride", n=n) for n in (1, 2, 3))
            return (Prompt(state.turn, "stride", options, default=options[0]),)
        return (Prompt(state.turn, "roll", (Action("roll"), Action.of("stride", n=0))),)

    def _play(self, state: RaceState, seat: int, action: Action) -> Iterable[Event]:
        if action.kind == "stride":
            state.stride = action["n"]
            return [Event("stride", {"seat": seat, "n": state.stride})]
        die = state.rng.die()
        state.positions[seat] += state.stride * die
        state.stride = 0
        state.turn = (state.turn + 1) % len(state.positions)
        return [Event("roll", {"seat": seat, "die": die}, checkpoint=True)]

    def _redact(self, state: RaceState, seat: int | None) -> None:
        state.secret = [s if i == seat else 0 for i, s in enumerate(state.secret)]

    def outcome(self, state: RaceState) -> Outcome | None:
        if max(state.positions) < state.goal:
            return None
        return Outcome(tuple(state.positions), rank(state.positions))


RULES = RaceRules()
