"""The project's eight board faces meet the constraints of rules/README.md."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.buttons import RULES
from engine.buttons.faces import FACE_ROWS, FACES, SIZE, Colour, colour_at


def test_there_are_eight_distinct_faces() -> None:
    assert len(FACES) == 8
    assert len(set(FACE_ROWS)) == 8


@pytest.mark.parametrize("face", range(8))
def test_face_constraints(face: int) -> None:
    grid = FACES[face]
    assert len(grid) == SIZE and all(len(row) == SIZE for row in grid)
    assert Counter(c for row in grid for c in row) == dict.fromkeys(Colour, 9)
    columns = [[grid[r][c] for r in range(SIZE)] for c in range(SIZE)]
    for line in [*grid, *columns]:
        counts = Counter(line)
        assert len(counts) >= 3, f"face {face}: a row or column with fewer than 3 colours"
        assert max(counts.values()) <= 2, f"face {face}: a colour more than twice in a line"


def test_colours_have_names_and_distinct_letters() -> None:
    assert [c.letter for c in Colour] == ["R", "Y", "G", "B"]
    assert [c.label for c in Colour] == ["Red", "Yellow", "Green", "Blue"]
    assert all(Colour.from_letter(c.letter) is c for c in Colour)


def test_colour_at_counts_rows_and_columns_from_one() -> None:
    assert FACE_ROWS[0][0] == "GBRRYG"
    assert colour_at(0, 1, 1) is Colour.GREEN
    assert colour_at(0, 1, 3) is Colour.RED
    assert colour_at(0, 6, 6) is Colour.RED
    assert colour_at(0, 2, 4) is Colour.BLUE


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_player_gets_a_different_face_at_random(seats: int) -> None:
    seen: set[tuple[int, ...]] = set()
    for seed in range(40):
        faces = tuple(b.face for b in RULES.setup(seats, seed=seed).boards)
        assert len(set(faces)) == seats
        seen.add(faces)
    assert len(seen) > 30


@pytest.mark.parametrize("face", range(8))
def test_colours_are_spread_over_the_face(face: int) -> None:
    # The design choices faces.py states: every colour in 4+ rows and 4+ columns, few twins.
    grid = FACES[face]
    for colour in Colour:
        assert sum(colour in row for row in grid) >= 4
        assert sum(any(grid[r][c] is colour for r in range(SIZE)) for c in range(SIZE)) >= 4
    twins = sum(grid[r][c] is grid[r][c + 1] for r in range(SIZE) for c in range(SIZE - 1))
    twins += sum(grid[r][c] is grid[r + 1][c] for r in range(SIZE - 1) for c in range(SIZE))
    assert twins <= 4
