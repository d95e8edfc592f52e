"""Bot policies for Buttons at three levels: each weighs the chance of busting on the actual board.

`normal` looks one roll ahead and knows the race to 12 stars; `easy` is the same judgement
with no eye on the race and random slips. `hard` (engine/buttons/hard.py) searches with
playouts of `RolloutBot`, a quick policy of the same kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from engine.buttons.actions import DECLINE, ROLL, STOP, cell_of
from engine.buttons.faces import FACES, SIZE, Colour
from engine.buttons.state import (
    ALL_CELLS,
    LINE,
    LINE_BONUS,
    TARGET,
    ButtonsState,
    Cell,
    PlayerBoard,
    Status,
    neighbours,
)
from engine.core import Action, MistakeBot, Prompt
from engine.rng import Rng

_COLOURS = tuple(Colour)
_SET = 3
"""Buttons of one colour that earn a star."""

# Every window of five cells in a row or a column, and the windows through each cell.
_WINDOWS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple((r, c + i) for i in range(LINE)) for r in range(1, SIZE + 1) for c in range(1, SIZE - LINE + 2)
) + tuple(
    tuple((r + i, c) for i in range(LINE)) for c in range(1, SIZE + 1) for r in range(1, SIZE - LINE + 2)
)
_WINDOWS_AT: dict[Cell, tuple[tuple[Cell, ...], ...]] = {
    cell: tuple(w for w in _WINDOWS if cell in w) for cell in ALL_CELLS
}
# P(k black dice all miss m given columns), indexed [k][m]: the bust odds of a row.
_MISS = tuple(tuple(((SIZE - m) / SIZE) ** k for m in range(SIZE + 1)) for k in range(SIZE + 1))


# Colours as indices into _COLOURS: the evaluation runs thousands of times per game.
_COLOUR_AT: tuple[dict[Cell, int], ...] = tuple(
    {cell: _COLOURS.index(face[cell[0] - 1][cell[1] - 1]) for cell in ALL_CELLS} for face in FACES
)


def line_potential(stars: set[Cell], cell: Cell) -> int:
    """Stars already in the best window of five through `cell` (4 means a star there makes a line)."""
    return max(sum(1 for c in window if c in stars) for window in _WINDOWS_AT[cell])


@lru_cache(maxsize=1024)
def line_potentials(stars: frozenset[Cell]) -> Mapping[Cell, int]:
    """`line_potential` for every cell at once (cached: stars change only between rounds)."""
    return MappingProxyType({cell: best for cell, (best, _) in star_ranks(stars).items()})


@lru_cache(maxsize=1024)
def star_ranks(stars: frozenset[Cell]) -> Mapping[Cell, tuple[int, int]]:
    """For every cell, the stars of its best window of five and how many of its windows hold that many
    (cached: the hard bot's playouts place thousands of stars on the same few boards)."""
    ranks = dict.fromkeys(ALL_CELLS, (-1, 0))
    for window in _WINDOWS:
        count = sum(1 for c in window if c in stars)
        for cell in window:
            best, windows = ranks[cell]
            if count > best:
                ranks[cell] = (count, 1)
            elif count == best:
                ranks[cell] = (best, windows + 1)
    return MappingProxyType(ranks)


@dataclass(frozen=True, slots=True)
class Weights:
    """The greedy bot's judgement, in stars."""

    progress: tuple[float, float, float] = (0.0, 0.05, 0.2)
    """Share of a colour's stars counted for 0, 1 or 2 buttons: the rolls still to come."""
    line: tuple[float, float, float, float] = (0.0, 0.02, 0.1, 0.4)
    """Value of a button whose best window of five already holds 0 to 3 stars."""
    win: float = 10.0
    """Value of a button that completes a line of 5 if it becomes a star (a won game)."""


@dataclass(frozen=True, slots=True)
class Race:
    """Where one player stands in the race to TARGET stars, as their seat sees it mid-round."""

    score: int
    """The player's score before this round's stars."""
    to_beat: int
    """The best final score an opponent is already sure of (stars kept by those out of the round)."""
    ends: bool
    """Whether the game surely ends at the end of this round (an opponent is sure of TARGET)."""

    @classmethod
    def of(cls, view: ButtonsState, seat: int) -> Race:
        """The race as `seat` sees it on `view`."""
        sure = [_sure_score(board) for other, board in enumerate(view.boards) if other != seat]
        best = max(sure, default=0)
        return cls(view.boards[seat].score, best, best >= TARGET)

    def stop_bonus(self, earned: int, win: float) -> float:
        """What stopping with `earned` stars adds for the race: a likely win, or a certain loss."""
        after = self.score + earned
        if not (self.ends or after >= TARGET):
            return 0.0
        if after < self.to_beat:
            return -win  # the game ends this round behind a score already sure: a certain loss
        return win if after > self.to_beat else 0.0


NEVER = SIZE * SIZE + 1
"""`stars_to_finish` when no line can be made: more stars than a board has cells."""


@dataclass(frozen=True, slots=True)
class Gaps:
    """The empty cells of the windows of five that one round's buttons could all cover.

    Stars on every gap of such a window make a line. Windows whose gaps touch are left out:
    buttons never sit side by side, so those need two rounds.
    """

    every: tuple[frozenset[Cell], ...]
    """Each window's gaps (a set of gaps shared by several windows once)."""
    at: Mapping[Cell, tuple[frozenset[Cell], ...]]
    """The gaps of `every` that include a cell, for the cells in any."""


@lru_cache(maxsize=1024)
def closing_gaps(stars: frozenset[Cell]) -> Gaps:
    """The `Gaps` of a board with these stars (cached: stars change only between rounds)."""
    every: dict[frozenset[Cell], None] = {}
    for window in _WINDOWS:
        gaps = frozenset(cell for cell in window if cell not in stars)
        if gaps and not any(n in gaps for cell in gaps for n in neighbours(cell)):
            every[gaps] = None
    at: dict[Cell, tuple[frozenset[Cell], ...]] = {}
    for gaps in every:
        for cell in gaps:
            at[cell] = (*at.get(cell, ()), gaps)
    return Gaps(tuple(every), MappingProxyType(at))


def stars_to_finish(gaps: Gaps, buttons: set[Cell] | frozenset[Cell]) -> int:
    """The fewest stars on these buttons that make a line of five (NEVER if none can)."""
    return min((len(g) for g in gaps.every if g <= buttons), default=NEVER)


def stars_to_finish_with(gaps: Gaps, buttons: set[Cell] | frozenset[Cell], cell: Cell) -> int:
    """`stars_to_finish` for these buttons and one more on `cell`, counting only lines through it."""
    return min(
        (len(g) for g in gaps.at.get(cell, ()) if all(c == cell or c in buttons for c in g)),
        default=NEVER,
    )


def _sure_score(board: PlayerBoard) -> int:
    """The score a player is sure of at the end of this round: more than their stars once out.

    One who opted out keeps the stars their buttons earn, and with buttons on every gap of a
    window of five, and stars enough for them, they will make that line (worth LINE_BONUS).
    """
    if board.status is not Status.OPTED_OUT:
        return board.score
    earned = sum(board.round_stars().values())
    score = board.score + earned
    needed = stars_to_finish(closing_gaps(frozenset(board.stars)), set(board.buttons))
    if not board.has_line() and needed <= earned:
        score += LINE_BONUS
    return score


def set_stars(board: PlayerBoard) -> list[int]:
    """Stars a set of each colour earns this round (index as in Colour): 2 for a bonus colour."""
    return [2 if c in board.bonus else 1 for c in _COLOURS]


def colour_counts(colour: dict[Cell, int], buttons: list[Cell]) -> list[int]:
    """Buttons by colour (index as in Colour), with `colour` the board's colour index by cell."""
    counts = [0, 0, 0, 0]
    for cell in buttons:
        counts[colour[cell]] += 1
    return counts


def free_cells(buttons: list[Cell], stars: set[Cell] | list[Cell]) -> list[Cell]:
    """Cells where a button may go with these buttons and stars on the board."""
    blocked = set(buttons)
    blocked.update(stars)
    for cell in buttons:
        blocked.update(neighbours(cell))
    return [cell for cell in ALL_CELLS if cell not in blocked]


def best_star(board: PlayerBoard, options: tuple[Action, ...]) -> Action:
    """The star that finishes a line of five with the stars still due, else the best by `star_key`."""
    by_cell = {cell_of(a): a for a in options}
    buttons = set(by_cell)
    gaps = closing_gaps(frozenset(board.stars)).every
    finishing = [g for g in gaps if len(g) <= board.stars_due and g <= buttons]
    if finishing:
        fewest = min(finishing, key=len)
        return by_cell[min(fewest)]
    return max(options, key=lambda a: star_key(board, cell_of(a)))


class Evaluator:
    """Values one player's round from their board: stars if they stop now, odds if they roll."""

    def __init__(self, board: PlayerBoard, dice: int, weights: Weights, race: Race | None = None) -> None:
        self.dice = min(dice, SIZE)
        """Black dice the next roll will use (gold included)."""
        self.w = weights
        self.race = race
        """The race to TARGET, when the bot minds it."""
        self._memo: dict[tuple[frozenset[Cell], int], float] = {}
        self._after: dict[tuple[int | bool, ...], float] = {}
        self.stars = set(board.stars)
        self.weight = set_stars(board)
        """Stars a set of each colour earns (index as in Colour)."""
        self.colour = _COLOUR_AT[board.face]
        self.potential = line_potentials(frozenset(board.stars))
        self.gaps = closing_gaps(frozenset(board.stars))

    def counts(self, buttons: list[Cell]) -> list[int]:
        """Buttons by colour (index as in Colour)."""
        return colour_counts(self.colour, buttons)

    def progress(self, counts: list[int]) -> float:
        """The share of stars counted for colours still short of a set."""
        return sum(self.weight[c] * self.w.progress[n] for c, n in enumerate(counts) if n < _SET)

    def needed(self, buttons: list[Cell]) -> int:
        """The fewest stars on these buttons that make a line of five (NEVER if none can)."""
        if not self.gaps.every:
            return NEVER
        return stars_to_finish(self.gaps, set(buttons))

    def earned(self, counts: list[int]) -> int:
        """Stars earned by opting out with buttons of these colour counts (at least one)."""
        return 1 + sum(self.weight[c] for c, n in enumerate(counts) if n >= _SET)

    def banked(self, buttons: list[Cell]) -> float:
        """Stars earned by opting out now, plus the game won if they can finish a line."""
        if not buttons:
            return 0.0
        return self._stop_value(self.counts(buttons), self.needed(buttons))

    def _stop_value(self, counts: list[int], needed: int) -> float:
        """`banked` for a board holding buttons of these colour counts (at least one) that need
        `needed` stars for a line."""
        earned = self.earned(counts)
        stars = float(earned)
        if needed <= earned:
            stars += self.w.win
        elif self.race is not None:
            stars += self.race.stop_bonus(earned, self.w.win)
        return stars

    def cell_value(
        self, buttons: list[Cell], banked: float, counts: list[int], cell: Cell, needed: int | None = None
    ) -> float:
        """What the round is worth after a button goes on `cell` (buttons already counted; `needed`:
        their own `needed`, if known)."""
        if needed is None:
            needed = self.needed(buttons)
        after = needed
        if cell in self.gaps.at:
            after = min(needed, stars_to_finish_with(self.gaps, set(buttons), cell))
        colour = self.colour[cell]
        if self.race is not None:
            # The race makes a round's worth depend on its total: judge the whole new board.
            return self._raced(counts, colour, after) + self.line_value(cell)
        n = counts[colour] + 1
        value = banked if buttons else 1.0
        if n == _SET:
            value += self.weight[colour]
        elif n < _SET:
            value += self.weight[colour] * (self.w.progress[n] - self.w.progress[n - 1])
        if after != NEVER:
            grown = counts.copy()
            grown[colour] += 1
            held = bool(buttons) and needed <= self.earned(counts)
            if not held and after <= self.earned(grown):
                value += self.w.win
        return value + self.line_value(cell)

    def _raced(self, counts: list[int], colour: int, needed: int) -> float:
        """Stopping value plus progress once a button of `colour` joins `counts` (memoized: a
        roll's cells share a handful of colours, and this runs for each cell in every playout)."""
        key = (*counts, colour, needed)
        found = self._after.get(key)
        if found is None:
            after = counts.copy()
            after[colour] += 1
            found = self._after[key] = self._stop_value(after, needed) + self.progress(after)
        return found

    def free_cells(self, buttons: list[Cell]) -> list[Cell]:
        """Cells where a button may go with these buttons on the board."""
        return free_cells(buttons, self.stars)

    def roll_value(self, buttons: list[Cell], depth: int = 1) -> float:
        """Expected value of rolling and placing on the best cell the dice allow (0 on a bust).

        With `depth` above 1 the player may roll again after placing, up to `depth` rolls
        in all (expectimax over its own dice; other players' turns are not modelled).
        """
        counts = self.counts(buttons)
        banked = self.banked(buttons) + self.progress(counts)
        needed = self.needed(buttons)
        by_row: list[list[float]] = [[] for _ in range(SIZE + 1)]
        for cell in self.free_cells(buttons):
            if depth > 1:
                after = [*buttons, cell]
                later = self._deeper(after, depth - 1) + self.line_value(cell)
                value = max(self.cell_value(buttons, banked, counts, cell, needed), later)
            else:
                value = self.cell_value(buttons, banked, counts, cell, needed)
            by_row[cell[0]].append(value)
        miss = _MISS[self.dice]
        total = 0.0
        for values in by_row:
            values.sort(reverse=True)
            # The j-th best cell is used when the dice miss the j-1 better ones and hit it.
            for j, value in enumerate(values):
                total += (miss[j] - miss[j + 1]) * value
        return total / SIZE

    def _deeper(self, buttons: list[Cell], depth: int) -> float:
        """`roll_value` at `depth`, remembered per set of buttons (orders of placing meet again)."""
        key = (frozenset(buttons), depth)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self.roll_value(buttons, depth)
        return found

    def line_value(self, cell: Cell) -> float:
        """What a button's place is worth for a future line (a finished line counts in `banked`)."""
        p = self.potential[cell]
        return 0.0 if p == LINE - 1 else self.w.line[p]

    def worth(self, buttons: list[Cell]) -> float:
        """The round's value with these buttons: the better of stopping and rolling once more."""
        return max(self.banked(buttons), self.roll_value(buttons))


class NormalBot:
    """Rolls while the expected gain beats the risk of busting; aims for colour sets and lines.

    Looks `depth` of its own rolls ahead; with `race` it minds the end at TARGET stars: it
    stops when that wins, and never opts out into a certain loss.
    """

    def __init__(self, weights: Weights | None = None, depth: int = 1, race: bool = True) -> None:
        self.weights = weights or Weights()
        self.depth = depth
        self.race = race

    def choose(self, view: ButtonsState, prompt: Prompt, rng: Rng) -> Action:
        """Pick an option for `prompt` from what the seat sees."""
        board = view.boards[prompt.seat]
        if prompt.kind == "star":
            return best_star(board, prompt.options)
        race = Race.of(view, prompt.seat) if self.race else None
        evaluator = Evaluator(board, 1 + view.pool, self.weights, race)
        depth = self.depth
        if prompt.kind == "turn":
            if STOP not in prompt.options:
                return ROLL
            stop = evaluator.banked(board.buttons)
            return STOP if stop >= evaluator.roll_value(board.buttons, depth) else ROLL
        # "place" and "gold": the cell that leaves the round worth the most.
        scored = [
            (
                self._worth(evaluator, [*board.buttons, cell_of(a)]) + evaluator.line_value(cell_of(a)),
                cell_of(a),
                a,
            )
            for a in prompt.options
            if a != DECLINE
        ]
        worth, _, best = max(scored)
        if DECLINE in prompt.options and worth < self._worth(evaluator, board.buttons):
            return DECLINE
        return best

    def _worth(self, evaluator: Evaluator, buttons: list[Cell]) -> float:
        """The round's value with these buttons: the better of stopping and rolling on."""
        if not buttons:
            return evaluator.roll_value(buttons, self.depth)
        return max(evaluator.banked(buttons), evaluator.roll_value(buttons, self.depth))


GreedyBot = NormalBot
"""The name of the `normal` policy before levels existed."""

EASY_MISTAKES = 0.4
"""Share of an easy bot's decisions taken at random."""


def easy_bot() -> MistakeBot[ButtonsState]:
    """The `easy` level: one roll ahead, blind to the race, and a random slip now and then."""
    return MistakeBot(NormalBot(race=False), EASY_MISTAKES)


def star_key(board: PlayerBoard, cell: Cell) -> tuple[int, int, Cell]:
    """How good a button is as a star: the stars of its best window of five, then how many such windows."""
    return (*star_ranks(frozenset(board.stars))[cell], cell)


ROLLOUT_PROGRESS = (0.15, 0.35, 1.0)
"""The rollout's value of a button that makes 1, 2 or 3 of a colour (times the colour's stars)."""
ROLLOUT_LINE = (0.0, 0.02, 0.1, 0.4, 3.0)
"""The rollout's value of a button whose best window of five holds 0 to 4 stars."""


class RolloutBot:
    """The quick policy for the other seats in the hard bot's playouts: 10 µs a placement, 55 for normal.

    It places by colour sets and lines and always takes a gold button. It rolls or stops as
    `normal` does: the real opponent's timing sets how long a round lasts, so the gold buttons
    its rolls bring and the dice its exit takes (hard won 61.0% of seeds 400..799 against normal
    this way, 57.6% with a quick rule of its own).
    """

    def choose(self, view: ButtonsState, prompt: Prompt, rng: Rng) -> Action:
        """Pick an option for `prompt` from what the seat sees."""
        kind = prompt.kind
        board = view.boards[prompt.seat]
        if kind == "gold":
            return prompt.options[0]
        if kind == "star":
            return best_star(board, prompt.options)
        if kind == "turn":
            return _TIMING.choose(view, prompt, rng)
        colour = _COLOUR_AT[board.face]
        counts = colour_counts(colour, board.buttons)
        weight = set_stars(board)
        potential = line_potentials(frozenset(board.stars))
        return max(
            prompt.options,
            key=lambda a: _rollout_cell(weight, counts, potential, colour, cell_of(a)),
        )


_TIMING = NormalBot()
"""Whose roll-or-stop judgement the rollout plays."""


def _rollout_cell(
    weight: list[int], counts: list[int], potential: Mapping[Cell, int], colour: dict[Cell, int], cell: Cell
) -> float:
    """The rollout's value of a button on `cell`."""
    c = colour[cell]
    progress = ROLLOUT_PROGRESS[counts[c]] if counts[c] < _SET else 0.02
    return weight[c] * progress + ROLLOUT_LINE[potential[cell]]
