"""A small seeded random generator whose whole state is one integer stored in the game."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(slots=True)
class Rng:
    """SplitMix64: fast, well mixed and fully specified here, unlike `random`'s algorithms."""

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int, *salt: int) -> Rng:
        """Return a generator for `seed`, decorrelated by optional salt values."""
        rng = cls(seed & _MASK64)
        for value in salt:
            rng.state = (rng.next64() ^ (value & _MASK64)) & _MASK64
        return rng

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = (self.state + _GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        """Return a die roll in [1, sides]."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        """Return one item of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
