"""The custom_ids of Meeple's buttons and selects: what a click refers to, parsed back safely."""

from __future__ import annotations

import enum
from dataclasses import dataclass

PREFIX = "mp:"
"""Every Meeple component id starts with this; the persistent handler matches on it."""
MAX_CUSTOM_ID = 100
"""Discord's limit on a custom_id (and on a select option's value)."""


class LobbyOp(enum.Enum):
    """What a lobby button does."""

    JOIN = "join"
    LEAVE = "leave"
    BOT = "bot"
    START = "start"
    CANCEL = "cancel"
    REMOVE = "remove"
    """The host's "Remove a player or bot" select (a user id, "bot:<seat>:<name>" or "back:<user id>")."""
    PACE = "pace"
    """The host's select of the table's pace."""
    ANSWER = "answer"
    """A seated player's standing answer to optional decisions at this table."""


@dataclass(frozen=True, slots=True)
class LobbyRef:
    """A lobby button of one table."""

    table: int
    op: LobbyOp

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}lobby:{self.table}:{self.op.value}"


@dataclass(frozen=True, slots=True)
class ActRef:
    """Play option `index` of `seat`'s prompt, as the state stood at `version`."""

    table: int
    version: int
    seat: int
    index: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}act:{self.table}:{self.version}:{self.seat}:{self.index}"

    def value(self) -> str:
        """The select option value standing for this choice."""
        return f"a{self.seat}.{self.index}"


@dataclass(frozen=True, slots=True)
class GroupRef:
    """Open group `group` of `seat`'s options (second step: "where does this die go?")."""

    table: int
    version: int
    seat: int
    group: int
    page: int = 0

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}grp:{self.table}:{self.version}:{self.seat}:{self.group}:{self.page}"

    def value(self) -> str:
        """The select option value standing for this group."""
        return f"g{self.seat}.{self.group}"


@dataclass(frozen=True, slots=True)
class MainRef:
    """The first step of the turn's choices (Back, or another page of it)."""

    table: int
    version: int
    page: int = 0

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}main:{self.table}:{self.version}:{self.page}"


@dataclass(frozen=True, slots=True)
class UndoRef:
    """Take back `seat`'s last move, from the state at `version`."""

    table: int
    version: int
    seat: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}undo:{self.table}:{self.version}:{self.seat}"


@dataclass(frozen=True, slots=True)
class PickRef:
    """A select menu whose values are ActRef or GroupRef values of the same table and version."""

    table: int
    version: int
    slot: int
    """Which select of the message (custom_ids must be unique within a message)."""

    def custom_id(self) -> str:
        """The custom_id of this select."""
        return f"{PREFIX}pick:{self.table}:{self.version}:{self.slot}"


@dataclass(frozen=True, slots=True)
class MineRef:
    """Show the clicker what their own seat sees (hidden information), privately."""

    table: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}mine:{self.table}"


@dataclass(frozen=True, slots=True)
class ReplayRef:
    """Show turn `turn` (from 1) of a finished table's replay, privately."""

    table: int
    turn: int
    slot: int
    """Which button of the message (First and Previous may lead to the same turn)."""

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}replay:{self.table}:{self.turn}:{self.slot}"


@dataclass(frozen=True, slots=True)
class HistoryRef:
    """Page `page` (from 0) of the server's finished games."""

    page: int

    @property
    def table(self) -> None:
        """A history page is about no one table."""
        return None

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}hist:{self.page}"


@dataclass(frozen=True, slots=True)
class LogRef:
    """Show the clicker page `page` (0: the oldest lines) of a table's log, privately; see cogs/gamelog.py."""

    table: int
    page: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}log:{self.table}:{self.page}"


LATEST_PAGE = 10**15
"""A LogRef page past any real one: the newest page (the "Full log" button of a turn ping)."""


@dataclass(frozen=True, slots=True)
class VoteRef:
    """Vote to hand `seat` of a table to a bot now (the reminder's button; cogs/platform/votes.py)."""

    table: int
    seat: int
    since: int
    """The whole seconds of the seat's idle_since when the reminder was sent: a move since ends the vote."""

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}vote:{self.table}:{self.seat}:{self.since}"


Ref = (
    LobbyRef
    | ActRef
    | GroupRef
    | MainRef
    | UndoRef
    | PickRef
    | MineRef
    | ReplayRef
    | HistoryRef
    | LogRef
    | VoteRef
)


@dataclass(frozen=True, slots=True)
class LeaderboardRef:
    """A page of a server's leaderboard of one game (routed to the stats cog, not a table)."""

    game: str
    page: int

    KIND = "top"

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}{self.KIND}:{self.game}:{self.page}"


def parse_leaderboard(custom_id: str) -> LeaderboardRef | None:
    """The leaderboard page a custom_id stands for, or None when it is malformed."""
    head = f"{PREFIX}{LeaderboardRef.KIND}:"
    if not custom_id.startswith(head) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    parts = custom_id[len(head) :].split(":")
    if len(parts) != 2 or (page := _nat(parts[1])) is None:
        return None
    game = parts[0]
    if not (game.isascii() and game.isidentifier() and game.islower() and len(game) <= 32):
        return None
    return LeaderboardRef(game, page)


_INT_FIELDS: dict[str, tuple[type[Ref], int]] = {
    "act": (ActRef, 4),
    "grp": (GroupRef, 5),
    "main": (MainRef, 3),
    "undo": (UndoRef, 3),
    "pick": (PickRef, 3),
    "mine": (MineRef, 1),
    "replay": (ReplayRef, 3),
    "hist": (HistoryRef, 1),
    "log": (LogRef, 2),
    "vote": (VoteRef, 3),
}


def _nat(text: str) -> int | None:
    # Only canonical non-negative decimals: int() would also take "+1", " 1", "01" or "1_0".
    if not text.isascii() or not text.isdigit() or len(text) > 18 or (text[0] == "0" and text != "0"):
        return None
    return int(text)


def parse(custom_id: str) -> Ref | None:
    """The reference a custom_id stands for, or None when it is malformed."""
    if not custom_id.startswith(PREFIX) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    kind, _, rest = custom_id[len(PREFIX) :].partition(":")
    parts = rest.split(":")
    if kind == "lobby":
        if len(parts) != 2 or (table := _nat(parts[0])) is None:
            return None
        try:
            return LobbyRef(table, LobbyOp(parts[1]))
        except ValueError:
            return None
    if kind not in _INT_FIELDS:
        return None
    cls, count = _INT_FIELDS[kind]
    numbers = [_nat(part) for part in parts]
    if len(numbers) != count or any(n is None for n in numbers):
        return None
    return cls(*numbers)  # type: ignore[arg-type]


def parse_value(table: int, version: int, value: str) -> ActRef | GroupRef | None:
    """The choice a select option value stands for, or None when it is malformed."""
    if len(value) < 2 or value[0] not in "ag":
        return None
    seat_text, _, number_text = value[1:].partition(".")
    seat, number = _nat(seat_text), _nat(number_text)
    if seat is None or number is None:
        return None
    if value[0] == "a":
        return ActRef(table, version, seat, number)
    return GroupRef(table, version, seat, number)
