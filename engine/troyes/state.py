"""The Troyes game state: plain data with a hand-written fast copy."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.core import GameState
from engine.troyes.kinds import Colour, Phase, StepKind


@dataclass(frozen=True, slots=True)
class Die:
    """A coloured die on the city square, in the district of `owner` (NEUTRAL for grey)."""

    id: int
    colour: Colour
    value: int
    owner: int


@dataclass(frozen=True, slots=True)
class Step:
    """One pending sub-decision (or automatic step) of the current action or countering."""

    kind: StepKind
    seat: int
    target: str = ""
    modifier: str = ""
    dice: tuple[int, ...] = ()
    source: str = ""
    count: int = 0


@dataclass(slots=True, kw_only=True)
class Player:
    """One seat's resources; `vp` and `characters` are secret."""

    deniers: int = 0
    influence: int = 0
    vp: int = 0
    supply: int = 0
    """Citizens in the personal supply."""
    owned: int = 0
    """Citizens this player owns anywhere (at most 12)."""
    passed: bool = False
    pass_money: int = 0
    characters: list[str] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)
    """Event cards won."""
    cubes: dict[str, int] = field(default_factory=dict)
    """Cubes on delayed activity cards, by card id."""

    def copy(self) -> Player:
        """An independent copy."""
        return Player(
            deniers=self.deniers,
            influence=self.influence,
            vp=self.vp,
            supply=self.supply,
            owned=self.owned,
            passed=self.passed,
            pass_money=self.pass_money,
            characters=list(self.characters),
            taken=list(self.taken),
            cubes=dict(self.cubes),
        )


@dataclass(slots=True, kw_only=True)
class CardSlot:
    """An activity card on the board: face down until its level's round."""

    id: str
    colour: Colour
    level: int
    revealed: bool = False
    spaces: list[int | None] = field(default_factory=list)
    """Tradesmen on the printed VP spaces, in order (None for a free space)."""
    extra: list[int] = field(default_factory=list)
    """Tradesmen lying on the illustration (0 VP)."""

    def copy(self) -> CardSlot:
        """An independent copy."""
        return CardSlot(
            id=self.id,
            colour=self.colour,
            level=self.level,
            revealed=self.revealed,
            spaces=list(self.spaces),
            extra=list(self.extra),
        )

    def has(self, seat: int) -> bool:
        """Whether `seat` has a tradesman on this card."""
        return seat in self.spaces or seat in self.extra


@dataclass(slots=True, kw_only=True)
class EventSlot:
    """An event in the queue with the cubes on its banners, in banner order."""

    id: str
    cubes: list[int] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class TroyesState(GameState):
    """Everything about a game of Troyes."""

    seats: int = 2
    rounds: int = 4
    round: int = 0
    start: int = 0
    phase: Phase = Phase.PLACEMENT
    turn: int = 0
    tiebreak: bool = False
    players: list[Player] = field(default_factory=list)
    buildings: list[list[int | None]] = field(default_factory=list)
    """Owner of each of the 6 spaces of Palace, Bishopric, City Hall (None: empty)."""
    lying: list[list[int]] = field(default_factory=list)
    """Expelled citizens lying on each building until the end of the round."""
    neutral_supply: int = 0
    cathedral: list[list[int]] = field(default_factory=list)
    """Owners of the cubes in each of the 6 columns, bottom level first."""
    cards: list[CardSlot] = field(default_factory=list)
    queue: list[EventSlot] = field(default_factory=list)
    red_deck: list[str] = field(default_factory=list)
    white_deck: list[str] = field(default_factory=list)
    yellow_deck: list[str] = field(default_factory=list)
    character_deck: list[str] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    next_die: int = 0
    rolled: int = 0
    spent: int = 0
    black: list[int] = field(default_factory=list)
    """Black dice still to counter, highest first."""
    placement_order: list[int] = field(default_factory=list)
    """Seats still to place a setup citizen, in order."""
    stack: list[Step] = field(default_factory=list)
    influence_used: str = ""
    """The one kind of influence use ("reroll", "flip", "citizen") taken before the coming action
    or black die, "" while none was (seed: "tylko z jednego rodzaju takiej czynności")."""

    def copy(self) -> TroyesState:
        """A fast deep copy (dice and steps are immutable and shared)."""
        return TroyesState(
            version=self.version,
            rng=replace(self.rng),
            undo_seat=self.undo_seat,
            undo_depth=self.undo_depth,
            seats=self.seats,
            rounds=self.rounds,
            round=self.round,
            start=self.start,
            phase=self.phase,
            turn=self.turn,
            tiebreak=self.tiebreak,
            players=[p.copy() for p in self.players],
            buildings=[list(b) for b in self.buildings],
            lying=[list(b) for b in self.lying],
            neutral_supply=self.neutral_supply,
            cathedral=[list(c) for c in self.cathedral],
            cards=[c.copy() for c in self.cards],
            queue=[EventSlot(id=e.id, cubes=list(e.cubes)) for e in self.queue],
            red_deck=list(self.red_deck),
            white_deck=list(self.white_deck),
            yellow_deck=list(self.yellow_deck),
            character_deck=list(self.character_deck),
            dice=list(self.dice),
            next_die=self.next_die,
            rolled=self.rolled,
            spent=self.spent,
            black=list(self.black),
            placement_order=list(self.placement_order),
            stack=list(self.stack),
            influence_used=self.influence_used,
        )
