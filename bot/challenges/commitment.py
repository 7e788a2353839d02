"""The commitment scheme (SHA-256 over a domain tag, the salt and the seed: docs/challenges.md), kept in
bot/commitment.py so that the storage and the league domain can check a record's commitment too without importing
this package (which imports the storage): re-exported here for the challenges' callers."""

from __future__ import annotations

from bot.commitment import (
    DOMAIN,
    SALT_BYTES,
    SEED_BYTES,
    commitment,
    draw_salt,
    draw_seed,
    matches,
    preimage,
    salt_bytes,
    shell_check,
)

__all__ = [
    "DOMAIN", "SALT_BYTES", "SEED_BYTES", "commitment", "draw_salt", "draw_seed", "matches", "preimage", "salt_bytes",
    "shell_check",
]  # fmt: skip
