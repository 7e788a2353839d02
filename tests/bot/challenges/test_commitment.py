"""The commitment scheme (bot/challenges/commitment.py): the revealed seed and salt hash to the commitment, and
no other seed or salt does."""

from __future__ import annotations

import hashlib
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.challenges.commitment import (
    DOMAIN,
    commitment,
    draw_salt,
    draw_seed,
    matches,
    shell_check,
)
from rules_core.dice import MAX_SEED

seeds = st.integers(min_value=0, max_value=MAX_SEED)
salts = st.binary(min_size=32, max_size=32).map(bytes.hex)


def test_the_scheme_is_sha256_over_tag_salt_and_fixed_width_seed() -> None:
    salt = "00" * 31 + "01"
    expected = hashlib.sha256(b"referee-commit-v1\0" + bytes.fromhex(salt) + (1234).to_bytes(8, "big")).hexdigest()
    assert commitment(1234, salt) == expected
    assert DOMAIN == b"referee-commit-v1\0"


def test_draws_are_in_the_engines_range_and_32_bytes() -> None:
    for _ in range(50):
        assert 0 <= draw_seed() <= MAX_SEED
        salt = draw_salt()
        assert len(bytes.fromhex(salt)) == 32
    assert draw_salt() != draw_salt()


def test_malformed_reveals_do_not_match() -> None:
    salt = draw_salt()
    committed = commitment(7, salt)
    assert matches(7, salt, committed)
    assert matches(7, salt, committed.upper())
    assert not matches(7, salt[:-2], committed)  # 31 bytes
    assert not matches(7, "zz" * 32, committed)
    assert not matches(-1, salt, committed)
    assert not matches(MAX_SEED + 1, salt, committed)
    with pytest.raises(ValueError, match="salt is 32 bytes"):
        commitment(7, "ab")


def test_the_shell_check_prints_the_commitment() -> None:
    seed, salt = draw_seed(), draw_salt()
    out = subprocess.run(["bash", "-c", shell_check(seed, salt)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == commitment(seed, salt)


@given(seeds, salts, seeds, salts)
def test_only_the_revealed_pair_hashes_to_the_commitment(
    seed: int, salt: str, other_seed: int, other_salt: str
) -> None:
    committed = commitment(seed, salt)
    assert len(committed) == 64
    assert matches(seed, salt, committed)
    if other_seed != seed:
        assert not matches(other_seed, salt, committed)
    if other_salt != salt:
        assert not matches(seed, other_salt, committed)
