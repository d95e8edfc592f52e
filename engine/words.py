"""Words every game's text shares: a count with its noun in the right number.

The one place user-facing text decides between "1 turn" and "2 turns"; tests/test_plurals.py
fails on any message template that builds a plural by hand.
"""

from __future__ import annotations


def noun(n: float, one: str, many: str) -> str:
    """The noun for `n` things: `one` for exactly one (or minus one), else `many` ("0 turns")."""
    return one if abs(n) == 1 else many


def count(n: float, one: str, many: str) -> str:
    """`n` and its noun: "1 turn", "2 turns"; both forms are given (no `+ "s"`: "die", "dice")."""
    return f"{n} {noun(n, one, many)}"


def signed(n: int, one: str, many: str) -> str:
    """A change and its noun: "+1 denier", "+2 deniers", "−1 denier" (a true minus sign)."""
    sign = "+" if n >= 0 else "−"
    return f"{sign}{abs(n)} {noun(n, one, many)}"
