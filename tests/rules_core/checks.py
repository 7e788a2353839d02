"""Checks and statistics shared by the games' tests."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from scipy.stats import chi2

from rules_core.dice import SeededDice
from rules_core.report import Event, Report, Roll


def rolls(report: Report, purpose: str) -> list[Roll]:
    """Every roll whose purpose starts with ``purpose``, in order."""
    return [roll for step in report.steps for roll in step.rolls if roll.purpose.startswith(purpose)]


def events(report: Report, kind: str) -> list[Event]:
    """Every event of ``kind``, in order."""
    return [ev for step in report.steps for ev in step.events if ev.kind == kind]


def check_rolls(report: Report) -> None:
    """Every die is a D6 face, and every per-die roll's successes agree with its target."""
    for step in report.steps:
        for roll in step.rolls:
            assert all(1 <= face <= 6 for face in roll.dice)
            if roll.combine == "each" and roll.target is not None:
                assert roll.success == tuple(roll.target.met_by(face) for face in roll.dice)
                assert roll.successes == sum(roll.success)


def binomial(n: int, p: Fraction) -> list[float]:
    """The exact Binomial(n, p) probabilities of 0..n successes."""
    return [float(comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1)]


def chi_square_p(observed: Counter[int], expected_p: list[float], total: int) -> float:
    """Pearson's chi-square p-value of counts against probabilities, tails pooled so every bin expects >= 5."""
    expected = [p * total for p in expected_p]
    bins: list[tuple[float, int]] = []
    expected_acc = observed_acc = 0.0
    for k, e in enumerate(expected):
        expected_acc += e
        observed_acc += observed.get(k, 0)
        if expected_acc >= 5 and sum(expected[k + 1 :]) >= 5:
            bins.append((expected_acc, int(observed_acc)))
            expected_acc = observed_acc = 0.0
    bins.append((expected_acc, int(observed_acc)))
    assert sum(o for _, o in bins) == total
    statistic = sum((o - e) ** 2 / e for e, o in bins)
    return float(chi2.sf(statistic, df=len(bins) - 1))


def chi_square_categories(observed: Mapping[Any, int], probabilities: Mapping[Any, float], total: int) -> float:
    """Pearson's chi-square p-value over named categories; the rare ones (expecting < 5) join the smallest kept."""
    cells = [(p * total, observed.get(key, 0)) for key, p in probabilities.items() if p * total >= 5]
    rare_e = sum(p * total for p in probabilities.values() if p * total < 5)
    rare_o = sum(observed.get(key, 0) for key, p in probabilities.items() if p * total < 5)
    if rare_e or rare_o:
        smallest = min(cells)
        cells.remove(smallest)
        cells.append((smallest[0] + rare_e, smallest[1] + rare_o))
    assert sum(o for _, o in cells) == total, "a category the probabilities do not name was observed"
    statistic = sum((o - e) ** 2 / e for e, o in cells)
    return float(chi2.sf(statistic, df=len(cells) - 1))


def referee_tallies(
    game: Any, attacker: Any, defender: Any, options: Mapping[str, Any], trials: int, *reads: Callable[[Report], Any]
) -> list[Counter[Any]]:
    """Resolve ``trials`` times from seeds 0, 1, ...; for each ``read`` of a report, how often each value came."""
    tallies: list[Counter[Any]] = [Counter() for _ in reads]
    for seed in range(trials):
        report = game.resolve_sides(attacker, defender, options, SeededDice(seed))
        for tally, read in zip(tallies, reads, strict=True):
            tally[read(report)] += 1
    return tallies


def assert_agrees_with_oracle(exact: Any, ends: Mapping[tuple[str, str, int, int, bool], float], context: Any) -> None:
    """An exact Odds against an oracle's {(winner, outcome, attacker lost, defender lost, loser breaks): p}, to 1e-9."""
    winners: dict[str, float] = defaultdict(float)
    outcomes: dict[str, float] = defaultdict(float)
    lost: tuple[dict[int, float], dict[int, float]] = (defaultdict(float), defaultdict(float))
    breaks = 0.0
    for (winner, outcome, a, d, broke), p in ends.items():
        winners[winner] += p
        outcomes[outcome] += p
        lost[0][a] += p
        lost[1][d] += p
        breaks += p * broke
    assert exact.method == "exact", context
    assert exact.p_loser_breaks == pytest.approx(breaks, abs=1e-9), context
    for outcome in {*outcomes, *exact.outcomes}:
        assert exact.outcomes.get(outcome, 0.0) == pytest.approx(outcomes[outcome], abs=1e-9), (context, outcome)
    for name, value in (("attacker", exact.p_attacker_wins), ("defender", exact.p_defender_wins),
                        ("draw", exact.p_draw), ("none", exact.p_no_winner)):  # fmt: skip
        assert value == pytest.approx(winners[name], abs=1e-9), (context, name)
    for mine, theirs in ((exact.attacker_losses, lost[0]), (exact.defender_losses, lost[1])):
        for count in range(max(len(mine), max(theirs) + 1)):
            assert (mine[count] if count < len(mine) else 0.0) == pytest.approx(theirs[count], abs=1e-9), context


def assert_referee_agrees(game: Any, attacker: str, defender: str, given: Mapping[str, Any], *, losses: bool,
                          trials: int = 20_000) -> None:  # fmt: skip
    """The exact odds of these sides against ``trials`` seeded referee resolutions, by chi-square: who wins, the
    outcomes, and (with ``losses``) each side's losses."""
    from rules_core.odds import odds
    from rules_core.options import validate_options

    options = validate_options(game.options, given)
    a_side, d_side = game.parse_side(attacker), game.parse_side(defender)
    exact = odds(game, a_side, d_side, method="exact", **given)
    reads: list[Callable[[Report], Any]] = [lambda r: r.result.winner.value, lambda r: r.result.outcome]
    if losses:
        reads += [lambda r: r.result.attacker.lost, lambda r: r.result.defender.lost]
    tallies = referee_tallies(game, a_side, d_side, options, trials, *reads)
    winners = {"attacker": exact.p_attacker_wins, "defender": exact.p_defender_wins, "draw": exact.p_draw,
               "none": exact.p_no_winner}  # fmt: skip
    expected: list[Mapping[Any, float]] = [{k: v for k, v in winners.items() if v > 0}, dict(exact.outcomes)]
    if losses:
        expected += [dict(enumerate(exact.attacker_losses)), dict(enumerate(exact.defender_losses))]
    for observed, probabilities in zip(tallies, expected, strict=True):
        assert chi_square_categories(observed, probabilities, trials) > 1e-4, (attacker, defender, given, observed)
