"""Buildings, the cathedral and citizens: placement, expulsion, counting."""

from __future__ import annotations

from engine.troyes.data import board
from engine.troyes.kinds import NEUTRAL
from engine.troyes.state import TroyesState


def row_for(building: int, value: int) -> tuple[int, ...]:
    """The spaces of the row a die of `value` enters, leftmost first."""
    spec = board().buildings[building]
    return spec.rows[spec.row_of_value[value - 1]]


def entry_result(state: TroyesState, building: int, value: int) -> tuple[list[int | None], int | None]:
    """The building's spaces after a citizen (marked -99) enters by `value`, and who is expelled."""
    spaces = list(state.buildings[building])
    row = row_for(building, value)
    gap = next((i for i, s in enumerate(row) if spaces[s] is None), None)
    expelled: int | None = None
    end = gap if gap is not None else len(row) - 1
    if gap is None:
        expelled = spaces[row[-1]]
    # Shift the row right up to the first gap (rules §2.3: the gap absorbs the shift).
    for i in range(end, 0, -1):
        spaces[row[i]] = spaces[row[i - 1]]
    spaces[row[0]] = -99
    return spaces, expelled


def can_enter(state: TroyesState, building: int, value: int) -> bool:
    """Whether a citizen may enter by `value`: an expulsion must not hit a protected colour."""
    if not 1 <= value <= 6:
        return False
    _, expelled = entry_result(state, building, value)
    return expelled is None or expelled not in state.lying[building]


def enter(state: TroyesState, building: int, value: int, owner: int) -> int | None:
    """Put `owner`'s citizen in by `value`; the expelled citizen (if any) lies on the building."""
    spaces, expelled = entry_result(state, building, value)
    state.buildings[building] = [owner if s == -99 else s for s in spaces]
    if expelled is not None:
        state.lying[building].append(expelled)
    return expelled


def standing(state: TroyesState, building: int, owner: int) -> int:
    """How many of `owner`'s citizens stand in `building`."""
    return sum(1 for s in state.buildings[building] if s == owner)


def on_buildings(state: TroyesState, owner: int) -> int:
    """How many of `owner`'s citizens stand in the three buildings."""
    return sum(standing(state, b, owner) for b in range(3))


def neutral_on_board(state: TroyesState) -> int:
    """Grey citizens standing or lying on the buildings."""
    return sum(standing(state, b, NEUTRAL) + state.lying[b].count(NEUTRAL) for b in range(3))


def cathedral_column_free(state: TroyesState, column: int, extra: int = 1) -> bool:
    """Whether `extra` more cubes fit in a column (0-based)."""
    return len(state.cathedral[column]) + extra <= board().cathedral_levels


def cathedral_cubes(state: TroyesState, owner: int) -> int:
    """Cubes of `owner` in the cathedral."""
    return sum(col.count(owner) for col in state.cathedral)


def cathedral_levels_with(state: TroyesState, owner: int) -> int:
    """On how many levels `owner` has at least one cube."""
    levels = board().cathedral_levels
    return sum(1 for lv in range(levels) if any(len(c) > lv and c[lv] == owner for c in state.cathedral))


def lowest_empty_space(state: TroyesState) -> int | None:
    """The column of the empty space with the lowest value on the lowest level (Traveling Builders)."""
    for level in range(board().cathedral_levels):
        for col, cubes in enumerate(state.cathedral):
            if len(cubes) == level:
                return col
    return None


def highest_occupied_space(state: TroyesState) -> int | None:
    """The column of the cube with the highest value on the highest level (Interrupted Work)."""
    for level in range(board().cathedral_levels - 1, -1, -1):
        for col in range(len(state.cathedral) - 1, -1, -1):
            if len(state.cathedral[col]) == level + 1:
                return col
    return None
