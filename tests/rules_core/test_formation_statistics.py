"""Hit counts of real seeded dice against the exact binomial, for roll-over (Epic) and roll-under (Reikhammer)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules_core import resolve
from tests.rules_core.checks import binomial, chi_square_p

UNITS = 20
RESOLUTIONS = 3_000
CASES = {
    # game: (attacker, chance of a hit): Epic CC5+ hits on 5 or 6; Reikhammer CC2 hits on 1 or 2.
    "epic": (f"{UNITS}x Assault: CC5+ FF5+ Sv- INF", Fraction(2, 6)),
    "reikhammer": (f"{UNITS}x Warband: CC2 FF2 Sv- INF", Fraction(2, 6)),
}
DEFENDER = {"epic": "30x Guard: CC6+ FF6+ Sv4+ INF", "reikhammer": "30x Levy: CC1 FF1 Sv4+ INF"}


def hits(game: str, seed: int) -> int:
    attacker, _ = CASES[game]
    report = resolve(game, attacker, DEFENDER[game], seed=seed, max_rounds=1)
    attack = report.steps[1].rolls[0]  # the attacker's attacks come first
    assert attack.purpose.startswith("to hit: ") and len(attack.dice) == UNITS
    return attack.successes


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CASES))
def test_hit_counts_follow_the_exact_binomial(game: str) -> None:
    _, chance = CASES[game]
    observed = Counter(hits(game, seed) for seed in range(RESOLUTIONS))
    p_value = chi_square_p(observed, binomial(UNITS, chance), RESOLUTIONS)
    assert p_value > 0.001, f"{game}: p = {p_value:.2g}"
    mean = sum(k * n for k, n in observed.items()) / RESOLUTIONS
    assert abs(mean - UNITS * float(chance)) < 0.15


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_statistic_rejects_the_wrong_direction(game: str) -> None:
    # Reading CC5+ as roll-under (or CC2 as roll-over) gives a different hit chance: the test would notice.
    wrong = Fraction(5, 6)  # 5 or less for CC5+; 2 or more for CC2
    observed = Counter(hits(game, seed) for seed in range(400))
    assert chi_square_p(observed, binomial(UNITS, wrong), 400) < 1e-6
