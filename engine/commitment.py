"""The commitment to a game's secret seed: SHA-256 over a domain tag, a random salt and the seed.

The engine seed is at most 64 bits (tables draw 63 with `secrets.randbits(63)`, the generator
keeps 64), so a hash of the seed alone could be reversed by trying every seed: 2**63 SHA-256
evaluations is weeks for a rented GPU farm, and a game on Discord can last weeks. The salt,
32 bytes from `secrets.token_hex(SALT_BYTES)`, is drawn with the seed, kept secret with it and
revealed with it; guessing the preimage then means guessing 319 random bits.
"""

from __future__ import annotations

import hashlib
import re
import secrets

SCHEME = "sha256:meeple-seed-v1"
"""The name a record gives this scheme, so a later scheme can be told apart."""
SALT_BYTES = 32
"""Random bytes of salt; written as 64 lowercase hex digits."""
SEED_LIMIT = 1 << 64
"""Seeds are integers in [0, SEED_LIMIT): what the engine's generator keeps."""

_SALT = re.compile(rf"[0-9a-f]{{{2 * SALT_BYTES}}}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class BadSecret(ValueError):
    """A seed, salt or commitment that is not in its canonical form."""


def preimage(seed: int, salt: str) -> str:
    """The exact text hashed: "meeple-seed-v1:<salt>:<seed in decimal>" (checkable with sha256sum)."""
    check_seed(seed)
    if not is_salt(salt):
        raise BadSecret(f"the salt must be {2 * SALT_BYTES} lowercase hex digits")
    return f"meeple-seed-v1:{salt}:{seed}"


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 commitment (64 lowercase hex digits) shown when the game starts."""
    return hashlib.sha256(preimage(seed, salt).encode("ascii")).hexdigest()


def new_salt() -> str:
    """A fresh secret salt, drawn when a game's seed is."""
    return secrets.token_hex(SALT_BYTES)


def matches(seed: int, salt: str, committed: str) -> bool:
    """Whether `seed` and `salt` are what `committed` was made from."""
    return commitment(seed, salt) == committed.lower()


def check_seed(seed: int) -> None:
    """Refuse a seed the generator would not keep as given (negative, or 64 bits or more)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise BadSecret(f"the seed must be an integer from 0 to {SEED_LIMIT - 1}")


def is_salt(text: str) -> bool:
    """Whether `text` is a salt in canonical form."""
    return isinstance(text, str) and _SALT.fullmatch(text) is not None


def is_digest(text: str) -> bool:
    """Whether `text` is a SHA-256 digest in lowercase hex."""
    return isinstance(text, str) and _DIGEST.fullmatch(text) is not None
