"""A colour's initial, drawn beside the colour so colour is never the only cue, in the board's language.

Each is its own message with a context naming the colour ("R" is red's, "B" black's and blue's), so
a translator gives the first letter or two of that language's colour word: К/Ч/З... in Russian, 빨/검/황...
in Korean. Two colours drawn on one board never share an initial (tests/renderers/test_initials.py).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.words import ENGLISH, Words

_SAID: dict[str, Callable[[Words], str]] = {
    "red": lambda w: w.pgettext("initial of the colour red on a board, 1-2 letters", "R"),
    "black": lambda w: w.pgettext("initial of the colour black on a board, 1-2 letters", "B"),
    "gold": lambda w: w.pgettext("initial of the colour gold on a board, 1-2 letters", "G"),
    "white": lambda w: w.pgettext("initial of the colour white on a board, 1-2 letters", "W"),
    "yellow": lambda w: w.pgettext("initial of the colour yellow on a board, 1-2 letters", "Y"),
    "green": lambda w: w.pgettext("initial of the colour green on a board, 1-2 letters", "G"),
    "blue": lambda w: w.pgettext("initial of the colour blue on a board, 1-2 letters", "B"),
}
COLOURS: tuple[str, ...] = tuple(_SAID)
"""Every colour a board names by its initial."""


def initial(colour: str, w: Words = ENGLISH) -> str:
    """The initial a board draws for `colour` ("red", "black", "gold", ...) in `w`'s language."""
    return _SAID[colour](w)


def neutral(w: Words = ENGLISH) -> str:
    """The mark on the neutral player's pieces (Troyes), where a seat's pieces show its number."""
    return w.pgettext("Troyes: the mark on the neutral player's pieces, its initial, 1-2 letters", "N")
