"""The custom_ids of Meeple's buttons and selects: what a click refers to, parsed back safely."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, fields
from typing import Any, ClassVar

PREFIX = "mp:"
"""Every Meeple component id starts with this; the persistent handler matches on it."""
MAX_CUSTOM_ID = 100
"""Discord's limit on a custom_id (and on a select option's value)."""
NAT = r"(?:0|[1-9][0-9]{0,17})"
"""A field's number: only canonical non-negative decimals (int() would also take "+1", " 1", "01")."""


def template(kind: str, **patterns: str) -> re.Pattern[str]:
    """The custom_ids of one kind: `mp:<kind>:<field>:...`, each field a named group."""
    return re.compile(re.escape(PREFIX) + kind + "".join(f":(?P<{name}>{p})" for name, p in patterns.items()))


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

    KIND: ClassVar[str] = "lobby"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, op="|".join(op.value for op in LobbyOp))

    table: int
    op: LobbyOp

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}lobby:{self.table}:{self.op.value}"


@dataclass(frozen=True, slots=True)
class ActRef:
    """Play option `index` of `seat`'s prompt, as the state stood at `version`."""

    KIND: ClassVar[str] = "act"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, version=NAT, seat=NAT, index=NAT)

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

    KIND: ClassVar[str] = "grp"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(
        KIND, table=NAT, version=NAT, seat=NAT, group=NAT, page=NAT
    )

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

    KIND: ClassVar[str] = "main"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, version=NAT, page=NAT)

    table: int
    version: int
    page: int = 0

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}main:{self.table}:{self.version}:{self.page}"


@dataclass(frozen=True, slots=True)
class UndoRef:
    """Take back `seat`'s last move, from the state at `version`."""

    KIND: ClassVar[str] = "undo"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, version=NAT, seat=NAT)

    table: int
    version: int
    seat: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}undo:{self.table}:{self.version}:{self.seat}"


@dataclass(frozen=True, slots=True)
class PickRef:
    """A select menu whose values are ActRef or GroupRef values of the same table and version."""

    KIND: ClassVar[str] = "pick"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, version=NAT, slot=NAT)

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

    KIND: ClassVar[str] = "mine"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT)

    table: int

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}mine:{self.table}"


@dataclass(frozen=True, slots=True)
class ReplayRef:
    """Show turn `turn` (from 1) of a finished table's replay, privately."""

    KIND: ClassVar[str] = "replay"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, turn=NAT, slot=NAT)

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

    KIND: ClassVar[str] = "hist"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, page=NAT)

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

    KIND: ClassVar[str] = "log"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, page=NAT)

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

    KIND: ClassVar[str] = "vote"
    TEMPLATE: ClassVar[re.Pattern[str]] = template(KIND, table=NAT, seat=NAT, since=NAT)

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

    KIND: ClassVar[str] = "top"
    # A game id: a lower-case ASCII identifier of at most 32 characters.
    TEMPLATE: ClassVar[re.Pattern[str]] = template(
        KIND, game=r"(?=[a-z0-9_]*[a-z])[a-z_][a-z0-9_]{0,31}", page=NAT
    )

    def custom_id(self) -> str:
        """The custom_id of this button."""
        return f"{PREFIX}{self.KIND}:{self.game}:{self.page}"


TABLE_REFS: tuple[type[Ref], ...] = (
    LobbyRef,
    ActRef,
    GroupRef,
    MainRef,
    UndoRef,
    PickRef,
    MineRef,
    ReplayRef,
    HistoryRef,
    LogRef,
    VoteRef,
)
"""Every kind of reference `parse` reads (the leaderboard's is read by `parse_leaderboard`)."""
_BY_KIND: dict[str, type[Ref]] = {cls.KIND: cls for cls in TABLE_REFS}


def from_match(cls: type[Any], match: re.Match[str]) -> Any:
    """The reference of kind `cls` a fullmatch of its TEMPLATE stands for."""
    values: dict[str, Any] = {}
    for field in fields(cls):
        text = match[field.name]
        values[field.name] = (
            LobbyOp(text) if field.name == "op" else text if field.name == "game" else int(text)
        )
    return cls(**values)


def parse(custom_id: str) -> Ref | None:
    """The reference a custom_id stands for, or None when it is malformed."""
    if not custom_id.startswith(PREFIX) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    cls = _BY_KIND.get(custom_id[len(PREFIX) :].partition(":")[0])
    match = cls.TEMPLATE.fullmatch(custom_id) if cls is not None else None
    return from_match(cls, match) if cls is not None and match is not None else None


def parse_leaderboard(custom_id: str) -> LeaderboardRef | None:
    """The leaderboard page a custom_id stands for, or None when it is malformed."""
    match = LeaderboardRef.TEMPLATE.fullmatch(custom_id) if len(custom_id) <= MAX_CUSTOM_ID else None
    return from_match(LeaderboardRef, match) if match is not None else None


def _nat(text: str) -> int | None:
    return int(text) if re.fullmatch(NAT, text) else None


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
