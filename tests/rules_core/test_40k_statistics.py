"""The casualty distribution of a simple matchup against the exact binomial, computed here independently."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chi2

from rules_core import resolve
from tests.rules_core.checks import binomial, chi_square_p

ATTACKER = "20x Marine: WS4 S4 T4 W1 I5 A1 Ld10 Sv3+"
DEFENDER = "30x Guardsman: WS3 S3 T3 W1 I1 A0 Ld7 Sv5+"
RESOLUTIONS = 4_000


def exact_distribution() -> list[float]:
    # Each of 20 attacks kills independently: hit 3+ (WS4 v WS3), wound 3+ (S4 v T3), save 5+ fails 4 times in 6.
    return binomial(20, Fraction(4, 6) * Fraction(4, 6) * Fraction(4, 6))


def first_strike_casualties(seed: int) -> int:
    report = resolve("40k", ATTACKER, DEFENDER, seed=seed, round=2)
    strike = next(step for step in report.steps if step.title.startswith("Initiative 5"))
    return sum(ev.get("models", 0) for ev in strike.events if ev.kind == "casualty")


@pytest.mark.slow
def test_casualties_follow_the_exact_binomial() -> None:
    observed = Counter(first_strike_casualties(seed) for seed in range(RESOLUTIONS))
    p_value = chi_square_p(observed, exact_distribution(), RESOLUTIONS)
    assert p_value > 0.001, f"p = {p_value:.2g}"
    mean = sum(k * n for k, n in observed.items()) / RESOLUTIONS
    assert abs(mean - 20 * 8 / 27) < 0.15


def test_the_test_would_catch_a_wrong_chart() -> None:
    # The same statistic against a distribution with a wrong to-wound chance (4+ instead of 3+) is rejected.
    wrong = binomial(20, Fraction(4, 6) * Fraction(3, 6) * Fraction(4, 6))
    observed = Counter(first_strike_casualties(seed) for seed in range(500))
    statistic = sum((observed.get(k, 0) - 500 * p) ** 2 / (500 * p) for k, p in enumerate(wrong) if 500 * p >= 5)
    assert chi2.sf(statistic, df=8) < 1e-6
