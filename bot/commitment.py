"""Dice committed in advance: the seed is drawn when a challenge is made, and only its commitment is shown.

``commitment(seed, salt)`` is SHA-256, in hex, over a domain tag, the 32 salt bytes and the seed as 8 big-endian
bytes. The commitment binds the seed (nobody can pick another seed after seeing the inputs without the hash
changing) and the random salt hides it (nobody can find the seed from the commitment by trying every seed). The
reveal is the seed and the salt: anyone recomputes the hash with any SHA-256 tool (docs/challenges.md).

Pure: no I/O but ``secrets``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from rules_core.dice import MAX_SEED, new_seed

DOMAIN = b"referee-commit-v1\0"
SALT_BYTES = 32
SEED_BYTES = 8


def draw_seed() -> int:
    """A fresh seed, from the range the engine's own seeds use (rules_core.dice.new_seed)."""
    return new_seed()


def draw_salt() -> str:
    """32 random bytes, in hex (64 characters)."""
    return secrets.token_hex(SALT_BYTES)


def salt_bytes(salt: str) -> bytes:
    """The salt's bytes from its hex; ValueError unless it is exactly 32 bytes of hex."""
    raw = bytes.fromhex(salt)
    if len(raw) != SALT_BYTES:
        raise ValueError(f"a salt is {SALT_BYTES} bytes ({2 * SALT_BYTES} hex digits), not {len(raw)}")
    return raw


def preimage(seed: int, salt: str) -> bytes:
    """The bytes hashed: the domain tag, the salt, the seed as 8 big-endian bytes."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed}")
    return DOMAIN + salt_bytes(salt) + seed.to_bytes(SEED_BYTES, "big")


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` under ``salt``: SHA-256 hex of :func:`preimage`."""
    return hashlib.sha256(preimage(seed, salt)).hexdigest()


def matches(seed: int, salt: str, committed: str) -> bool:
    """Whether the revealed seed and salt hash to ``committed`` (False for a malformed salt or seed)."""
    try:
        computed = commitment(seed, salt)
    except ValueError:
        return False
    return hmac.compare_digest(computed, committed.strip().lower())


def shell_check(seed: int, salt: str) -> str:
    """A command line that recomputes the commitment with nothing but Python's standard library."""
    return (
        "python3 -c \"import hashlib; print(hashlib.sha256(b'referee-commit-v1\\\\0' + "
        f"bytes.fromhex('{salt}') + ({seed}).to_bytes(8, 'big')).hexdigest())\""
    )
