"""The eight board faces: the project's own layouts, not the published game's.

The real Buttons boards could not be transcribed (rules/buttons.md section 2.3), so the
project designed these. Each face is a 6x6 grid: 9 cells of each colour, at least 3
colours in every row and column, no colour more than twice in a row or column, every
colour in at least 4 rows and 4 columns, and few same-colour neighbours. Row r (top to
bottom) is the white die's value, column c (left to right) a black die's value.
"""

from __future__ import annotations

from enum import Enum

SIZE = 6
"""Rows and columns on a board, one per face of a die."""


class Colour(Enum):
    """A colour printed on a board cell (and on a bonus colour card)."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        """The one-letter code shown beside the colour (R, Y, G, B)."""
        return self.value[0].upper()

    @property
    def label(self) -> str:
        """The colour's name, capitalised for display."""
        return self.value.capitalize()

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour whose one-letter code is `letter`."""
        return _BY_LETTER[letter.upper()]


_BY_LETTER = {colour.letter: colour for colour in Colour}

# One string per row, one letter per column (R, Y, G, B).
FACE_ROWS: tuple[tuple[str, ...], ...] = (
    ("GBRRYG", "RYGBBR", "BRYGRY", "YBRGYG", "GYYBGB", "RGBYBR"),
    ("RGYRYB", "BYGYRG", "GRBBGR", "YGBGBY", "YBRYBR", "BRGRYG"),
    ("GBGRYY", "RGBGBR", "GYRYBG", "BRYGRY", "RYBRYB", "BBGYGR"),
    ("GYRGRB", "RGBRYG", "GRYBYG", "BYGYBR", "YGRBGB", "YRBRBY"),
    ("YGRYBR", "GRRBGY", "RYBRBG", "BRGYGY", "RBYBYG", "GBGRYB"),
    ("RBRGYB", "RGBYBY", "YRYBGB", "GBRYRG", "YGBGRR", "GYGBYR"),
    ("GBRYGR", "RYGRYG", "YBGGBY", "GYBRBR", "RGRBYB", "YRBYGB"),
    ("BGYGBR", "YBRBGY", "GYYBRG", "YGGRBR", "GBRYRG", "RYBRYB"),
)

FACES: tuple[tuple[tuple[Colour, ...], ...], ...] = tuple(
    tuple(tuple(Colour.from_letter(letter) for letter in row) for row in face) for face in FACE_ROWS
)
"""FACES[face][row - 1][col - 1] is the colour of a cell; rows and columns count from 1."""


def colour_at(face: int, row: int, col: int) -> Colour:
    """The colour printed at (row, col) of a face, both counted from 1 like the dice."""
    return FACES[face][row - 1][col - 1]
