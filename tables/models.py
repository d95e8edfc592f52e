"""What a table is: status, seats, turn clocks, and the updates and notices sent to listeners."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import commitment as commit
from engine.core import Action, Event, Outcome, Prompt, Rules, Scalar
from engine.games import get_rules

HOUR = 3600.0
DAY = 24 * HOUR


class TableStatus(enum.StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """Whether the table is still a lobby or a game in progress."""
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


class DeadlineKind(enum.StrEnum):
    """The clocks kept for a seat that owes a decision."""

    REMIND = "remind"
    """Ping the player again."""
    TIMEOUT = "timeout"
    """Take the prompt's default, when it has one."""
    REPLACE = "replace"
    """Hand the seat of a long-absent player to a bot."""
    OPTIONAL = "optional"
    """Take the default of an optional decision the game is only waiting on (see Timing.optional_window)."""
    PING = "ping"
    """Tell the player it is their move: the turn's ping, held over their quiet hours."""


@dataclass(frozen=True, slots=True)
class Timing:
    """A table's turn clocks, in seconds; None switches a clock off."""

    remind_after: float | None = 12 * HOUR
    """First reminder, counted from when the seat must decide."""
    remind_every: float | None = DAY
    """Later reminders, while the seat still has not decided."""
    timeout_after: float | None = DAY
    """After this the prompt's default (pass, decline) is taken, if it has one."""
    replace_after: float | None = 3 * DAY
    """A seat that has not acted itself for this long while owing moves goes to a bot."""
    optional_window: float | None = 4 * HOUR
    """Once the game waits only on optional decisions (Prompt.optional), defaults after this."""
    pace: str = "daily"
    """The named pace these clocks come from (tables.paces), or "custom"."""

    def to_json(self) -> dict[str, float | str | None]:
        """JSON form."""
        return {
            "remind_after": self.remind_after,
            "remind_every": self.remind_every,
            "timeout_after": self.timeout_after,
            "replace_after": self.replace_after,
            "optional_window": self.optional_window,
            "pace": self.pace,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timing:
        """Inverse of `to_json`; missing keys take the defaults."""
        default = cls()
        return cls(
            remind_after=data.get("remind_after", default.remind_after),
            remind_every=data.get("remind_every", default.remind_every),
            timeout_after=data.get("timeout_after", default.timeout_after),
            replace_after=data.get("replace_after", default.replace_after),
            optional_window=data.get("optional_window", default.optional_window),
            pace=str(data.get("pace", default.pace)),
        )


@dataclass(frozen=True, slots=True)
class Deadline:
    """One armed clock: at `due_at` (unix seconds) do `kind` for `seat`."""

    seat: int
    kind: DeadlineKind
    due_at: float
    count: int = 0
    """How many times it already fired (reminders)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a user, a bot, or a user's seat a bot plays for them."""

    user_id: int | None
    bot: str | None
    """The bot policy name when a bot plays this seat."""
    name: str
    """Display name."""
    replaced: bool = False
    """True when a bot took over a human's seat (timeout or leaving); the user may reclaim it."""
    idle_since: float | None = None
    """Since when the human has owed decisions without acting (drives the replace clock)."""
    prompt_version: int = 0
    """The state version at which this seat's current prompt opened; older buttons are stale."""

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat now."""
        return self.bot is not None


_PROMPTS_SEEN: dict[int, tuple[Any, tuple[Prompt, ...]]] = {}
"""Recent states' open decisions by the state object's id (the entry keeps the state, so the id
cannot be reused while it is there). A click reads a table's prompts many times, across the
service, the cog and the presenter; states are never changed in place (`Rules.apply` returns a
new one), so the decisions of one state object are worked out once."""
_PROMPTS_KEPT = 256


def prompts_of(rules: Rules[Any], state: Any) -> tuple[Prompt, ...]:
    """`rules.prompts(state)`, worked out once per state object."""
    seen = _PROMPTS_SEEN.get(id(state))
    if seen is not None and seen[0] is state:
        return seen[1]
    prompts = tuple(rules.prompts(state))
    if len(_PROMPTS_SEEN) >= _PROMPTS_KEPT:
        _PROMPTS_SEEN.clear()
    _PROMPTS_SEEN[id(state)] = (state, prompts)
    return prompts


@dataclass(frozen=True, slots=True)
class Table:
    """A lobby or a game in progress (or over), as stored; never mutate `state`."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    seats: tuple[SeatInfo, ...]
    options: Mapping[str, Scalar]
    created_at: float
    updated_at: float
    thread_id: int | None = None
    """The thread the game is played in (its messages are the board ledger's, tables.store.boards)."""
    seed: int | None = None
    state: Any = None
    """The engine state (a GameState); None in the lobby."""
    version: int = 0
    """The state version (0 in the lobby); buttons carry it."""
    timing: Timing = field(default_factory=Timing)
    deadlines: tuple[Deadline, ...] = ()
    revision: int = 0
    """Bumped by every write; guards against lost updates."""
    salt: str | None = None
    """The secret drawn with the seed and hashed with it into the commitment (engine.commitment)."""
    barred: tuple[tuple[int, str], ...] = ()
    """(user id, name) of each person the host removed from the lobby: they may not Join until let back."""
    language: str = "en"
    """The language of its public posts and boards (one of engine.words.LANGUAGES), chosen at /play."""

    @property
    def commitment(self) -> str | None:
        """The SHA-256 commitment to the seed shown when the game starts; None before it has a seed."""
        if self.seed is None or self.salt is None:
            return None
        return commit.commitment(self.seed, self.salt)

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished or abandoned): its seed may be revealed."""
        return self.status in (TableStatus.FINISHED, TableStatus.ABANDONED)

    @property
    def rules(self) -> Rules[Any]:
        """The game's rules object."""
        return get_rules(self.game)

    def seat_of(self, user_id: int) -> int | None:
        """The seat held by a user, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays `seat` now."""
        return self.seats[seat].is_bot

    def standing_may_answer(self, prompt: Prompt) -> bool:
        """Whether `prompt` is a person's optional decision that a standing answer may settle
        (whether one does is read from their settings, tables.waits)."""
        return prompt.optional and prompt.default is not None and not self.is_bot(prompt.seat)

    @property
    def may_move_unasked(self) -> bool:
        """Whether an open decision may be played with nobody clicking: a bot's, or a standing answer's."""
        return any(self.is_bot(p.seat) or self.standing_may_answer(p) for p in self.prompts)

    @property
    def prompts(self) -> tuple[Prompt, ...]:
        """The decisions open now (none in the lobby or once over)."""
        if self.state is None or self.status is not TableStatus.PLAYING:
            return ()
        return prompts_of(self.rules, self.state)

    def prompt_for(self, seat: int) -> Prompt | None:
        """The open decision of one seat, or None."""
        for prompt in self.prompts:
            if prompt.seat == seat:
                return prompt
        return None

    def shows_current_prompt(self, seat: int, version: int) -> bool:
        """Whether a board drawn at `version` still offers `seat` its current decision.

        True for the current version, and for an older board while the seat's prompt is the
        same as then (another player's simultaneous answer moved the version on, not theirs).
        """
        if version == self.version:
            return True
        if version > self.version or not 0 <= seat < len(self.seats):
            return False
        return self.prompt_for(seat) is not None and version >= self.seats[seat].prompt_version

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that must decide now."""
        return tuple(sorted({p.seat for p in self.prompts}))

    @property
    def outcome(self) -> Outcome | None:
        """The final result, once the game is over."""
        if self.state is None:
            return None
        return self.rules.outcome(self.state)

    def view(self, seat: int | None) -> Any:
        """What `seat` (None: a spectator) may see of the state; None in the lobby."""
        if self.state is None:
            return None
        return self.rules.view(self.state, seat)

    def deadline(self, seat: int, kind: DeadlineKind) -> Deadline | None:
        """The armed clock of that kind for a seat, if any."""
        for deadline in self.deadlines:
            if deadline.seat == seat and deadline.kind is kind:
                return deadline
        return None


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """An engine event with the state version of the action that produced it."""

    version: int
    """The version of the state the action was played on."""
    seat: int | None
    """The seat whose action produced it (None for table-level events)."""
    event: Event


class UpdateKind(enum.StrEnum):
    """What changed a game in play."""

    START = "start"
    MOVE = "move"
    """A human's own move."""
    BOT_MOVE = "bot_move"
    TIMEOUT_MOVE = "timeout_move"
    """The default of a prompt, taken because its clock ran out."""
    UNDO = "undo"
    ABANDON = "abandon"


@dataclass(frozen=True, slots=True)
class Update:
    """A change to a game in play, as sent to listeners and returned to the caller."""

    kind: UpdateKind
    table: Table
    """The table after the change."""
    seat: int | None = None
    """The seat that acted (None for start and abandon)."""
    action: Action | None = None
    events: tuple[LoggedEvent, ...] = ()
    new_to_move: tuple[int, ...] = ()
    """Seats that must decide now and did not just before: ping these once."""
    prompts: tuple[Prompt, ...] = ()
    """The decisions open after the change."""
    outcome: Outcome | None = None
    """Set when this change ended the game."""

    @property
    def ping_user_ids(self) -> tuple[int, ...]:
        """User ids of the humans newly to move (bots and replaced seats are never pinged)."""
        ids: list[int] = []
        for seat in self.new_to_move:
            info = self.table.seats[seat]
            if not info.is_bot and info.user_id is not None:
                ids.append(info.user_id)
        return tuple(ids)


class NoticeKind(enum.StrEnum):
    """Clock and seat notices that are not moves."""

    REMINDER = "reminder"
    """The seat still owes a decision; ping its player."""
    TIMED_OUT = "timed_out"
    """The seat's clock ran out and its prompt's default was taken (an Update follows)."""
    REPLACED = "replaced"
    """A bot now plays the seat (the player was absent too long, or left)."""
    RECLAIMED = "reclaimed"
    """The player took their seat back from the bot."""
    TURN = "turn"
    """The seat's turn began during its player's quiet hours: the held ping, sent at their end."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice about one seat of a table, sent to listeners."""

    kind: NoticeKind
    table: Table
    seat: int
    user_id: int | None
    count: int = 1
    """For reminders: 1 for the first, 2 for the second, and so on."""
