"""The Buttons game state: plain data (boards, dice, phase) with small read-only helpers.

Cells are (row, col) pairs counted from 1 like the dice: the white die gives the row,
a black die the column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.buttons.faces import SIZE, Colour, colour_at
from engine.core import GameState

Cell = tuple[int, int]
"""(row, col), each from 1 to 6."""

PLAIN_DICE = 4
"""Plain black dice (white pips) in the pool at the start of a round."""

LINE = 5
"""Stars in a straight orthogonal run that make a line."""

LINE_BONUS = 100
"""BGA's score for a line of 5 (rules/buttons.md section 6)."""

TARGET = 12
"""A score at which the game ends at the end of the round."""

ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1))


class Phase(Enum):
    """What the game waits for."""

    TURN = "turn"
    """The active player chooses to roll or to opt out."""
    PLACE = "place"
    """A roll is open: the active player must place, the others may use the gold dice."""
    STARS = "stars"
    """End of round: players choose which of this round's buttons become stars."""
    OVER = "over"


class Status(Enum):
    """A player's standing in the current round."""

    IN = "in"
    OPTED_OUT = "opted_out"
    BUSTED = "busted"


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    (r, c): tuple(
        (nr, nc)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 1 <= nr <= SIZE and 1 <= nc <= SIZE
    )
    for r, c in ALL_CELLS
}


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The orthogonal neighbours of a cell that lie on the board."""
    return _NEIGHBOURS[cell]


@dataclass(slots=True, kw_only=True)
class PlayerBoard:
    """One player's board: its face, permanent stars, this round's buttons and cards."""

    face: int
    stars: list[Cell] = field(default_factory=list)
    """Permanent stars, sorted."""
    buttons: list[Cell] = field(default_factory=list)
    """This round's buttons, in the order placed."""
    bonus: list[Colour] = field(default_factory=list)
    """The bonus colour cards held this round (two with 2 players)."""
    status: Status = Status.IN
    dice_aside: int = 0
    """Plain black dice this player took out of the pool this round."""
    stars_due: int = 0
    """During star placement: stars earned this round and not placed yet."""
    earned: int = 0
    """Stars earned at the last end of round (shown until the next one)."""

    def colour(self, cell: Cell) -> Colour:
        """The colour printed under a cell of this board."""
        return colour_at(self.face, cell[0], cell[1])

    def can_place(self, cell: Cell) -> bool:
        """A button may go on an empty cell with no orthogonal neighbour holding a button.

        Stars do not block their neighbours (rules/buttons.md section 4.2, item 2).
        """
        if cell in self.buttons or cell in self.stars:
            return False
        buttons = self.buttons
        return not any(n in buttons for n in _NEIGHBOURS[cell])

    def legal_cells(self) -> list[Cell]:
        """Every cell where a button may go now, in row then column order."""
        return [cell for cell in ALL_CELLS if self.can_place(cell)]

    def colour_counts(self) -> dict[Colour, int]:
        """This round's buttons counted by the colour underneath."""
        counts = dict.fromkeys(Colour, 0)
        for cell in self.buttons:
            counts[self.colour(cell)] += 1
        return counts

    def round_stars(self) -> dict[str, int]:
        """Stars this board earns at the end of the round, by reason (rules/buttons.md section 5)."""
        sets = [colour for colour, count in self.colour_counts().items() if count >= 3]
        return {
            "opt_out": 1 if self.status is Status.OPTED_OUT else 0,
            "colours": len(sets),
            "bonus": sum(1 for colour in sets if colour in self.bonus),
        }

    def has_line(self) -> bool:
        """Whether five stars run in a row or a column without a gap."""
        return longest_run(self.stars) >= LINE

    @property
    def score(self) -> int:
        """BGA's score: stars, plus 100 for a line of 5."""
        return len(self.stars) + (LINE_BONUS if self.has_line() else 0)


def longest_run(cells: list[Cell]) -> int:
    """The longest orthogonal run of consecutive cells among `cells`."""
    present = set(cells)
    best = 0
    for r, c in present:
        if (r, c - 1) not in present:
            length = 1
            while (r, c + length) in present:
                length += 1
            best = max(best, length)
        if (r - 1, c) not in present:
            length = 1
            while (r + length, c) in present:
                length += 1
            best = max(best, length)
    return best


@dataclass(slots=True, kw_only=True)
class Roll:
    """The dice of one roll: the white die (row), the gold black die and the plain ones."""

    white: int
    gold: int
    plain: list[int] = field(default_factory=list)
    seat: int = 0
    """Who rolled."""
    bust: bool = False
    """Whether the roller busted on it."""

    def columns(self) -> list[int]:
        """Every black die rolled, gold first."""
        return [self.gold, *self.plain]


@dataclass(slots=True, kw_only=True)
class ButtonsState(GameState):
    """A whole game of Buttons."""

    boards: list[PlayerBoard] = field(default_factory=list)
    """One per seat, in clockwise order."""
    round: int = 1
    phase: Phase = Phase.TURN
    active: int = 0
    """The seat whose turn it is (during a roll: the seat that rolled)."""
    starter: int = 0
    """The seat holding the red card, who started this round."""
    pool: int = PLAIN_DICE
    """Plain black dice still rolled this round."""
    roll: Roll | None = None
    """The latest roll of this round (kept for display after it is resolved)."""
    waiting: list[int] = field(default_factory=list)
    """During a roll: the seats that still have to place or decline, sorted."""
    removed: Colour | None = None
    """With 3 players, the bonus card set aside for the whole game."""
    two_dice_2p: bool = False
    """Table option: with 2 players, leaving the round takes two plain dice instead of one."""

    @property
    def seats(self) -> int:
        """Number of players."""
        return len(self.boards)

    def dice_per_exit(self) -> int:
        """Plain dice a player takes when leaving the round: one (the seed), two with 2 players by option."""
        return 2 if self.two_dice_2p and self.seats == 2 else 1

    def candidate_cells(self, seat: int) -> list[Cell]:
        """Cells the open roll lets `seat` place on now (empty once that seat has answered)."""
        if self.phase is not Phase.PLACE or self.roll is None or seat not in self.waiting:
            return []
        board = self.boards[seat]
        columns = self.roll.columns() if seat == self.active else [self.roll.gold]
        cells = sorted({(self.roll.white, col) for col in columns})
        return [cell for cell in cells if board.can_place(cell)]
