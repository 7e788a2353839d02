"""The first attacking strike's casualties against the exact binomial, for each damage value."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules_core import resolve
from tests.rules_core.checks import binomial, chi_square_p

MEN = 10
RUNS = 1500


@pytest.mark.slow
@pytest.mark.parametrize(("quality", "value"), [("inexperienced", 3), ("regular", 4), ("veteran", 5)])
def test_first_strike_casualties_follow_the_binomial(quality: str, value: int) -> None:
    # Ten attackers with no extra-attack rules against a unit too big to run out of men, with no NCO or officer
    # (so no exceptional damage is rolled): the casualties of the first strike are Binomial(10, (7 - value) / 6).
    counts: Counter[int] = Counter()
    for seed in range(RUNS):
        report = resolve("boltaction", f"{MEN}x Attackers: regular", f"20x Defenders: {quality}", seed=seed)
        (first,) = [step for step in report.steps if step.title == "Round 1: Attackers strike"]
        (casualty,) = [ev for ev in first.events if ev.kind == "casualty"]
        counts[int(casualty.get("models"))] += 1
    expected = binomial(MEN, Fraction(7 - value, 6))
    assert chi_square_p(counts, expected, RUNS) > 0.001
