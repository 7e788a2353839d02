"""The duel's dice against exact probabilities computed here by enumerating the dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from scipy.stats import binom

from rules_core import ScriptedDice, SeededDice, resolve
from tests.rules_core.helpers_duel import GAME, rounds

# WS4 against WS3, one attack die each, no modifiers, equal Initiative (a tie is a stalemate). The models cannot
# wound each other, so a round uses exactly the two attack dice.
WS4 = "Veteran: WS4 S1 T5 W1 I3 A1 Sv-"
WS3 = "Recruit: WS3 S1 T5 W1 I3 A1 Sv-"


def combat_scores(veteran: int, recruit: int) -> tuple[int, int]:
    """The rules text's combat scores: highest die + WS, +1 for each of the opponent's fumbles."""
    return veteran + 4 + (recruit == 1), recruit + 3 + (veteran == 1)


def exact_win_probability() -> Fraction:
    wins = sum(v > r for v, r in (combat_scores(a, b) for a, b in product(range(1, 7), repeat=2)))
    return Fraction(wins, 36)


def test_the_enumeration_itself() -> None:
    # By hand: with no 1s the WS4 model wins when its die is at least the other's (15 of the 25 pairs of 2-6);
    # it wins all 5 pairs where only the WS3 model rolls a 1, and the double 1 (6 v 4); it loses the other 5
    # pairs where it rolls the 1. 15 + 5 + 1 = 21 of 36.
    assert exact_win_probability() == Fraction(21, 36)


@pytest.mark.parametrize(("veteran", "recruit"), list(product(range(1, 7), repeat=2)))
def test_every_pair_of_dice_gives_the_enumerated_winner(veteran: int, recruit: int) -> None:
    report = resolve(GAME, WS4, WS3, rng=ScriptedDice([veteran, recruit]))
    v, r = combat_scores(veteran, recruit)
    (round_event,) = rounds(report)
    assert (round_event.get("attacker_score"), round_event.get("defender_score")) == (v, r)
    expected = "attacker" if v > r else "defender" if r > v else "none"
    assert round_event.get("winner") == expected


@pytest.mark.slow
def test_the_frequency_over_seeded_rounds_falls_inside_the_exact_bounds() -> None:
    runs = 4000
    p = exact_win_probability()
    wins = sum(
        rounds(resolve(GAME, WS4, WS3, rng=SeededDice(seed)))[0].get("winner") == "attacker" for seed in range(runs)
    )
    low, high = binom.ppf(0.0005, runs, float(p)), binom.ppf(0.9995, runs, float(p))
    assert low <= wins <= high, (wins, low, high)
