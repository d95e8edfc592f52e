"""The Diced Tomatoes game state: dice, tomato tokens and vines, score tracks, karma, bushel."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.core import GameState

TOKENS_PER_PLAYER = 3
"""Each player owns three tomato tokens."""
SLOTS_PER_TRACK = 6
"""A score track has six slots, filled in order 1..6."""
VINE_HARVEST_SIZE = 4
"""A vine is harvested (or found overripe) the moment it holds this many dice."""
START_KARMA = 3
"""Every karma heart starts here."""
BITS_PER_KARMA = 3
"""Karma bits convert to one karma when this many are collected (Karma Overload)."""


class Colour(enum.Enum):
    """The colour of a die: red tomatoes, rotten black dice and Sunny Golden Hybrid gold dice."""

    RED = "red"
    BLACK = "black"
    GOLD = "gold"


class Phase(enum.Enum):
    """What the active player is doing now."""

    ROLL = "roll"
    """Start of a turn: take dice from the bushel (choosing colours if the table allows) and roll."""
    PLACE = "place"
    """The placement loop: place rolled dice, spend karma, end the turn when nothing fits."""
    CLEAR = "clear"
    """End of turn, dice passed: the active player may clear their own vines worth 0 or less and
    spend karma (that earned for the passed dice too) before karma is cut to the resting cap."""
    OVER = "over"
    """The game has ended."""


class GameEnd(enum.Enum):
    """Why the game ended (NONE while it goes on)."""

    NONE = "none"
    FINAL_ROUND = "final_round"
    """The last player finished the round in which a 6th tomato was harvested."""
    BUSHEL_EMPTY = "bushel_empty"
    """The bushel was empty at the start of a turn (multiplayer)."""
    SOLO_HARVESTED = "solo_harvested"
    """Solo: the turn in which the 6th tomato was harvested is over (a win)."""
    SOLO_OUT_OF_DICE = "solo_out_of_dice"
    """Solo: the bushel is empty and no held die can ever be placed."""


@dataclass(frozen=True, slots=True)
class Die:
    """One die: its colour and the face it shows (1..6)."""

    colour: Colour
    """Red, black or gold."""
    value: int
    """The face showing, 1..6."""


@dataclass(slots=True, kw_only=True)
class Token:
    """A tomato token: empty, or holding a vine of 1 to 3 dice whose first die is the seed."""

    dice: list[Die] = field(default_factory=list)
    """The vine in placement order; dice[0] is the seed (always red). Empty list = empty token."""

    @property
    def seed(self) -> Die | None:
        """The seed die, or None for an empty token."""
        return self.dice[0] if self.dice else None

    @property
    def empty(self) -> bool:
        """Whether no vine grows on this token."""
        return not self.dice

    @property
    def value(self) -> int:
        """The vine value: seed pips, -1 per black die, +1 per gold die (0 for an empty token)."""
        if not self.dice:
            return 0
        value = self.dice[0].value
        for die in self.dice:
            if die.colour is Colour.BLACK:
                value -= 1
            elif die.colour is Colour.GOLD:
                value += 1
        return value


@dataclass(frozen=True, slots=True)
class ScoreSlot:
    """A filled slot of a score track: the harvested seed die and what it scored."""

    die: Die
    """The seed die moved here at harvest; it never returns to the bushel."""
    points: int
    """The vine value at harvest (seed pips adjusted by black and gold dice; may be 0 or less)."""
    bonus: int = 0
    """Dicey Tomato Rules slot-match bonus (tops the slot up to 7, or 6 under the older text)."""
    star: bool = False
    """A golden star: the value matched the slot number (Dicey Tomato Rules, and solo matches)."""

    @property
    def total(self) -> int:
        """Points plus bonus."""
        return self.points + self.bonus


@dataclass(slots=True, kw_only=True)
class PlayerState:
    """Everything one player owns on the table."""

    tokens: list[Token] = field(default_factory=list)
    """The three tomato tokens, index 0..2."""
    slots: list[ScoreSlot] = field(default_factory=list)
    """Filled score slots in order; len(slots) is the number of tomatoes harvested (slot k = index k-1)."""
    karma: int = START_KARMA
    """Karma on the karma track (0..6, up to the in-turn cap of 12 during this player's turn)."""
    karma_bits: int = 0
    """Karma bits collected (0..2); three become one karma (Karma Overload)."""
    hand: list[Die] = field(default_factory=list)
    """Dice passed to this player, waiting to be rolled at the start of their next turn."""
    turns: int = 0
    """How many turns this player has started."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOptions:
    """The table's variants and rule versions, fixed when the game is created."""

    golden_hybrid: bool = True
    """Sunny Golden Hybrid: one gold die per player (+1 to a vine's value)."""
    dicey_rules: bool = True
    """Dicey Tomato Rules: a value matching its slot number is topped up to `match_total`, with a star."""
    karma_overload: bool = True
    """Karma Overload: completion karma equals the harvested value; karma bits are in play."""
    pick_colours: bool = False
    """The active player picks the colours of the dice taken from the bushel (else drawn at random)."""
    match_total: int = 7
    """What a matched slot is worth in total (7 in the latest text, 6 before 2022)."""
    karma_bits: bool = True
    """Karma bits on/off (only ever with Karma Overload)."""
    bits_for_passing: bool = True
    """A karma bit for each die passed, not only for dice placed on opponents' vines."""
    turn_karma_cap: int = 12
    """How high karma may go during your own turn (6 under the older text)."""
    rest_karma_cap: int = 6
    """The karma cap outside your turn; karma is cut to it at the end of your turn."""
    unfinished_vines: str = "red_dice"
    """Unfinished vines at the end: "red_dice" (1 per 3 red dice) or "three_dice_vines" (1 per vine of 3)."""
    first_to_six_bonus: int = 2
    """Points for harvesting a 6th tomato first (the print game gave 3)."""
    clean_target: str = "any"
    """Which vines the "clean the vine" karma action may target: "any" player's or only "own"."""
    negative_harvest: str = "allow"
    """A harvest worth 0 or less scores its value ("allow") or 0 ("floor_zero")."""
    end_step_karma: bool = True
    """Karma earned for passed dice (and karma the end-of-turn cut would take) may be spent at
    the end-of-turn step, which offers karma too (the seed: "at any time during active
    player's turn"). False: the turn ends as the dice are passed, as in tables begun before."""


@dataclass(slots=True, kw_only=True)
class TomatoState(GameState):
    """A whole game of Diced Tomatoes."""

    options: TableOptions = field(default_factory=TableOptions)
    """The table's variants and rule versions."""
    players: list[PlayerState] = field(default_factory=list)
    """One entry per seat, in turn order."""
    bushel: dict[Colour, int] = field(default_factory=dict)
    """Dice waiting in the shared bushel, counted by colour (unrolled dice of a colour are alike)."""
    rolled: list[Die] = field(default_factory=list)
    """The active player's rolled dice not yet placed (karma actions target these by index)."""
    active: int = 0
    """The seat whose turn it is."""
    first_seat: int = 0
    """The first player; the seat before it is the last player (holder of the ketchup splatter)."""
    phase: Phase = Phase.ROLL
    """What the active player is doing now."""
    final_round: bool = False
    """A 6th tomato was harvested: the game ends when the last player finishes their turn."""
    first_to_six: int | None = None
    """The seat that harvested a 6th tomato first, if any (it earns the bonus)."""
    total_dice: int = 0
    """How many dice the game started with (13 or 14 per player): dice are never created or lost."""
    ended: GameEnd = GameEnd.NONE
    """Why the game ended, or NONE while it goes on."""

    @property
    def last_seat(self) -> int:
        """The last player in turn order: the seat before the first player."""
        return (self.first_seat - 1) % len(self.players)

    @property
    def solo(self) -> bool:
        """Whether this is a one-player game."""
        return len(self.players) == 1

    @property
    def bushel_size(self) -> int:
        """How many dice are in the bushel."""
        return sum(self.bushel.values())

    def to_bushel(self, dice: list[Die]) -> None:
        """Put dice back in the shared bushel."""
        for die in dice:
            self.bushel[die.colour] = self.bushel.get(die.colour, 0) + 1
