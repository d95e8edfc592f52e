"""The contract every game follows: actions, prompts, events, rules, bots, undo and replay."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine import codec
from engine.codec import JSON
from engine.rng import Rng
from engine.words import ENGLISH, N_, Words

Scalar = int | str | bool | None
ArgValue = Scalar | tuple[int, ...] | tuple[str, ...]
Options = Mapping[str, Scalar]


class EngineError(Exception):
    """Base of the errors the engine raises for a refused request."""


class IllegalAction(EngineError):
    """The action is not among the options offered to that seat now."""


class StaleAction(EngineError):
    """The action was built for another version of the state."""


class BadOptions(EngineError):
    """The table options or the number of seats are not valid for the game."""


@dataclass(frozen=True, slots=True)
class Action:
    """One choice a seat can make: a kind plus a few named scalar arguments."""

    kind: str
    args: tuple[tuple[str, ArgValue], ...] = ()

    @classmethod
    def of(cls, kind: str, **args: ArgValue) -> Action:
        """Build an action with its arguments in a canonical (sorted) order."""
        return cls(kind, tuple(sorted(args.items())))

    def __getitem__(self, name: str) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        """Return an argument, or `default` when the action has none of that name."""
        for key, value in self.args:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, JSON]:
        """Return {"kind": ..., "args": {...}} with tuples as lists."""
        return {
            "kind": self.kind,
            "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of `to_json`; malformed data raises IllegalAction."""
        try:
            kind = data["kind"]
            raw = data.get("args", {})
            if not isinstance(kind, str) or not isinstance(raw, Mapping):
                raise TypeError
            args = {str(k): tuple(v) if isinstance(v, list) else v for k, v in raw.items()}
            return cls.of(kind, **args)
        except (KeyError, TypeError, AttributeError) as exc:
            raise IllegalAction(f"malformed action: {data!r}") from exc


UNDO = Action("undo")
"""The action a seat sends to take back its own last move (see `Rules.can_undo`)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision one seat must make now, with every legal option listed."""

    seat: int
    kind: str
    options: tuple[Action, ...]
    default: Action | None = None
    """What a timeout or an absent player chooses, when the rules give a natural default."""
    context: tuple[tuple[str, ArgValue], ...] = ()
    """Facts the interface needs to phrase the question (for example the die being placed)."""
    optional: bool = False
    """An extra chance the turn does not hinge on (Buttons' gold die for the non-rollers): its
    seat is not pinged for it, and the table may take its `default` after a short window."""


@dataclass(frozen=True, slots=True)
class Event:
    """A fact for the log and the notifications; random outcomes are events too."""

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None
    """The seats that may see it; None means everyone."""
    checkpoint: bool = False
    """True for a roll, a draw or a reveal: no undo can go back past it."""

    def visible(self, seat: int | None) -> bool:
        """Whether `seat` (None for a spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


S = TypeVar("S", bound="GameState")
S_contra = TypeVar("S_contra", bound="GameState", contravariant=True)


@dataclass(frozen=True, slots=True)
class Transition(Generic[S]):
    """The result of an accepted action: the new state and what happened."""

    state: S
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result: score and rank per seat (ties share a rank), with a breakdown."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    summary: str = ""
    """A one-line result (solo mode: won or lost)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def rank(keys: Sequence[Sequence[int] | int]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4) for per-seat keys where higher is better."""
    normal = [tuple(k) if isinstance(k, Sequence) else (k,) for k in keys]
    return tuple(1 + sum(1 for other in normal if other > mine) for mine in normal)


def player_name(seat: int, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
    """A seat in a log line: its entry of `names`, else "Player N" (seats count from 1 for people)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return words.gettext("Player {number}", number=seat + 1)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option the host sets when creating a game."""

    key: str
    label: str
    default: bool | int | str
    choices: tuple[bool | int | str, ...] = ()
    """Allowed values; empty means any bool for a bool default."""
    help: str = ""
    """What it does, as a phrase that reads after the label ("Label: help")."""
    short: str = ""
    """The short name a host sets it by when opening a table; empty: not offered there (the default holds)."""


@dataclass(slots=True, kw_only=True)
class GameState:
    """Fields every game state carries; each game subclasses it with its own fields."""

    version: int = 0
    rng: Rng = field(default_factory=Rng)
    undo_seat: int | None = None
    """The seat whose trailing actions may be taken back, if any."""
    undo_depth: int = 0
    """How many of that seat's actions may be taken back."""


class Bot(Protocol[S_contra]):
    """A policy that picks one of a prompt's options from what its seat may see."""

    def choose(self, view: S_contra, prompt: Prompt, rng: Rng) -> Action:
        """Return one of `prompt.options`."""
        ...


class RandomBot(Generic[S]):
    """Plays any legal option, uniformly."""

    def choose(self, view: S, prompt: Prompt, rng: Rng) -> Action:
        """Return a uniformly random option."""
        return rng.choice(prompt.options)


LEVELS: tuple[str, ...] = (N_("easy"), N_("normal"), N_("hard"))
"""The bot levels a game offers to players, weakest first ("random" stays for tests and benches)."""
DEFAULT_LEVEL = "normal"
"""The level of a bot nobody chose: one that takes over a leaver's seat, or an unknown stored name."""
POLICY_ALIASES: Mapping[str, str] = {"greedy": "normal"}
"""Policy names stored by older versions and the level they play now."""


def level_name(policy: str) -> str:
    """The level a stored policy name stands for ("greedy" is "normal"), for captions."""
    return POLICY_ALIASES.get(policy, policy)


class MistakeBot(Generic[S]):
    """Plays like `inner`, but picks a uniformly random option on a share of its decisions."""

    def __init__(self, inner: Bot[S], mistakes: float) -> None:
        self.inner = inner
        self.mistakes = mistakes

    def choose(self, view: S, prompt: Prompt, rng: Rng) -> Action:
        """Return `inner`'s choice, or, with probability `mistakes`, any legal option."""
        if len(prompt.options) > 1 and rng.below(1000) < self.mistakes * 1000:
            return rng.choice(prompt.options)
        return self.inner.choose(view, prompt, rng)


class Rules(ABC, Generic[S]):
    """A game's rules: stateless code over plain-data states.

    Subclasses write `_setup`, `prompts`, `_play` (which mutates a private copy) and
    `outcome`; this class makes `apply` validate, copy, version and track undo the
    same way for every game.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type[GameState]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    hidden_information: ClassVar[bool] = False
    """Whether a seat sees more than spectators do (`_redact` hides something): boards then carry
    a "My hand" button that shows a player their own view, privately."""

    # -- setup -------------------------------------------------------------

    def setup(self, seats: int, options: Options | None = None, seed: int = 0) -> S:
        """Return the initial state for `seats` players with validated options."""
        if not self.min_players <= seats <= self.max_players:
            raise BadOptions(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {seats}"
            )
        state = self._setup(seats, self.resolve_options(options or {}), Rng.from_seed(seed))
        state.version = 0
        return state

    def resolve_options(self, options: Options) -> dict[str, Scalar]:
        """Fill in defaults and refuse unknown keys or values."""
        specs = {spec.key: spec for spec in self.option_specs}
        unknown = set(options) - set(specs)
        if unknown:
            raise BadOptions(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}")
        resolved: dict[str, Scalar] = {}
        for key, spec in specs.items():
            value = options.get(key, spec.default)
            if type(value) is not type(spec.default):
                raise BadOptions(f"option {key} must be a {type(spec.default).__name__}")
            if spec.choices and value not in spec.choices:
                raise BadOptions(f"option {key} must be one of {spec.choices}")
            resolved[key] = value
        return resolved

    @abstractmethod
    def _setup(self, seats: int, options: dict[str, Scalar], rng: Rng) -> S:
        """Build the initial state; the rng given is the game's own and goes in the state."""

    # -- play --------------------------------------------------------------

    @abstractmethod
    def prompts(self, state: S) -> tuple[Prompt, ...]:
        """Every decision pending now, one prompt per seat that must decide."""

    def prompt_for(self, state: S, seat: int) -> Prompt | None:
        """The prompt of one seat, or None when that seat has nothing to decide."""
        for prompt in self.prompts(state):
            if prompt.seat == seat:
                return prompt
        return None

    def is_offered(self, state: S, seat: int, action: Action) -> bool:
        """Whether `action` is among the options offered to `seat` now (what `apply` checks).

        A game may override it with a direct check that is cheaper than building the prompts,
        provided it gives exactly the same answer as this membership test.
        """
        prompt = self.prompt_for(state, seat)
        return prompt is not None and action in prompt.options

    def apply(self, state: S, seat: int, action: Action, version: int | None = None) -> Transition[S]:
        """Play `action` for `seat`, validated; the input state is never changed.

        Raises StaleAction when `version` is given and differs from the state's, and
        IllegalAction for anything that is not offered to that seat now.
        """
        if version is not None and version != state.version:
            raise StaleAction(f"built for version {version}, the game is at {state.version}")
        if action == UNDO:
            raise IllegalAction("undo needs the earlier state: use undo()")
        if not self.is_offered(state, seat, action):
            if self.prompt_for(state, seat) is None:
                raise IllegalAction(f"seat {seat} has nothing to decide now")
            raise IllegalAction(f"{action.kind} is not a legal choice for seat {seat} now")
        return self.apply_checked(state, seat, action)

    def apply_checked(self, state: S, seat: int, action: Action) -> Transition[S]:
        """`apply` for a caller that has already checked `action` is offered to `seat` now.

        The table service checks a click once, against the prompts it holds, and hands the
        result here, so the move is not validated twice; bots, tests and replays call `apply`.
        """
        new = self.clone(state)
        events = tuple(self._play(new, seat, action))
        new.version = state.version + 1
        if any(e.checkpoint for e in events) or self.outcome(new) is not None:
            new.undo_seat, new.undo_depth = None, 0
        elif state.undo_seat == seat:
            new.undo_seat, new.undo_depth = seat, state.undo_depth + 1
        else:
            new.undo_seat, new.undo_depth = seat, 1
        return Transition(new, events)

    @abstractmethod
    def _play(self, state: S, seat: int, action: Action) -> Iterable[Event]:
        """Carry out a validated action on a private copy, running automatic steps after it."""

    def play_owned(self, state: S, seat: int, action: Action) -> None:
        """Play an offered option straight onto a state the caller owns (a search playout's).

        No validation, no copy, no undo bookkeeping: only for an option of the current prompt,
        on a private copy nothing else reads.
        """
        for _ in self._play(state, seat, action):
            pass
        state.version += 1

    def can_undo(self, state: S, seat: int) -> bool:
        """BGA's policy: only your own consecutive actions since the last roll or reveal."""
        return state.undo_seat == seat and state.undo_depth > 0

    def undo(self, state: S, seat: int, before: S) -> Transition[S]:
        """Take back `seat`'s last action, given `before`, the state that action was played on."""
        if not self.can_undo(state, seat):
            raise IllegalAction("nothing of yours can be taken back now")
        if before.version >= state.version:
            raise IllegalAction("the earlier state given is not earlier")
        restored = self.clone(before)
        restored.version = state.version + 1
        return Transition(restored, (Event("undo", {"seat": seat}),))

    # -- information -------------------------------------------------------

    def view(self, state: S, seat: int | None) -> S:
        """What `seat` (None for a spectator) may see: a copy with secrets hidden.

        The default hides the generator so no one can foresee rolls; games with
        hidden information override `_redact` as well.
        """
        seen = self.clone(state)
        seen.rng = Rng(0)
        self._redact(seen, seat)
        return seen

    def _redact(self, state: S, seat: int | None) -> None:
        """Hide in place what `seat` may not see (nothing, by default)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The final result, or None while the game goes on."""

    def describe(self, event: Event, names: Sequence[str] | None = None, *, words: Words = ENGLISH) -> str:
        """One line for the game log in the language of `words`, seats called by `names` (None: "Player N").

        Games word it in their `text.describe` and call seats through `player_name(seat, names, words=words)`.
        """
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind

    # -- bots --------------------------------------------------------------

    def bots(self) -> Mapping[str, Bot[S]]:
        """The bot policies by name: "random", and the LEVELS "easy", "normal", "hard" where written.

        A game joins the levels by adding its three policies under those names; until then its
        other policies ("greedy") still play, and `policy` maps level names onto them.
        """
        return {"random": RandomBot()}

    def levels(self) -> tuple[str, ...]:
        """The LEVELS this game's bots play, weakest first (at least DEFAULT_LEVEL)."""
        bots = self.bots()
        return tuple(level for level in LEVELS if level in bots) or (DEFAULT_LEVEL,)

    def policy(self, name: str) -> str:
        """The policy of `bots()` that plays for a stored or requested name.

        Old stored names keep working ("greedy" plays "normal"); a game without levels plays
        its "greedy" for any level; an unknown name plays the default level.
        """
        bots = self.bots()
        for candidate in (name, POLICY_ALIASES.get(name, name), DEFAULT_LEVEL, "greedy"):
            if candidate in bots:
                return candidate
        return "random"

    def bot_action(self, state: S, prompt: Prompt, policy: str = DEFAULT_LEVEL) -> Action:
        """Let a bot choose for `prompt.seat` from that seat's view, deterministically."""
        bot = self.bots()[self.policy(policy)]
        # Seeded from public facts only, so a bot's choice reveals nothing of the game's dice.
        rng = Rng.from_seed(state.version, prompt.seat)
        return bot.choose(self.view(state, prompt.seat), prompt, rng)

    def opening(self, state: S) -> tuple[Event, ...]:
        """The events that announce a new game (its first turn or round) for the log."""
        return ()

    # -- codec -------------------------------------------------------------

    def clone(self, state: S) -> S:
        """A deep, independent copy of a state."""
        return copy.deepcopy(state)

    def encode(self, state: S) -> str:
        """The canonical JSON snapshot of a state."""
        return codec.dumps(state)

    def decode(self, text: str) -> S:
        """Rebuild a state from its JSON snapshot."""
        state: S = codec.loads(self.state_type, text)  # type: ignore[assignment]
        return state


@dataclass(frozen=True, slots=True)
class Move:
    """One entry of a game's action log."""

    seat: int
    action: Action

    def to_json(self) -> dict[str, JSON]:
        """JSON form of the entry."""
        return {"seat": self.seat, "action": self.action.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """Inverse of `to_json`."""
        return cls(int(data["seat"]), Action.from_json(data["action"]))


@dataclass(frozen=True, slots=True)
class Record:
    """Everything needed to reproduce a game: the seed, the options and the action log."""

    game: str
    seats: int
    options: Mapping[str, Scalar]
    seed: int
    moves: tuple[Move, ...] = ()


def replay(rules: Rules[S], record: Record) -> list[S]:
    """Replay a record from its seed; return the states that undo can reach, current last."""
    history = [rules.setup(record.seats, record.options, record.seed)]
    for move in record.moves:
        history = play(rules, history, move.seat, move.action)
    return history


def play(rules: Rules[S], history: list[S], seat: int, action: Action) -> list[S]:
    """Apply one logged action (UNDO included) to a history whose last state is current."""
    return advance(rules, history, seat, action)[0]


def advance(
    rules: Rules[S], history: list[S], seat: int, action: Action
) -> tuple[list[S], tuple[Event, ...]]:
    """`play`, also returning the events the action produced."""
    current = history[-1]
    if action == UNDO:
        if len(history) < 2:
            raise IllegalAction("nothing of yours can be taken back now")
        undone = rules.undo(current, seat, history[-2])
        return [*history[:-2], undone.state], undone.events
    done = rules.apply(current, seat, action)
    new = done.state
    # Keep exactly the earlier states that undo can still return to.
    kept = history[len(history) - new.undo_depth :] if new.undo_depth else []
    return [*kept, new], done.events
