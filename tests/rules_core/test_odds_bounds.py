"""Every odds answer is bounded: no crash on input within the limits, and a time budget that gives way from the
exact calculation to Monte Carlo (issue 19). No test here depends on how fast the machine is: the numbers of
trials are fixed, or any number is accepted, and the exact calculation's deadline is one already passed."""

from __future__ import annotations

import itertools
import math

import pytest

from rules_core.odds import OddsError, budget, odds
from rules_core.odds.laws import binomial

LARGE = "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ rending lightning-claws"
INVULNERABLE = "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ Inv3+"
MARINES = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORKS = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
MANY_UNITS = (" | ".join(f"4x Marine{i}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" for i in range(50)),
              " | ".join(f"4x Ork{i}: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+" for i in range(50)))  # fmt: skip


@pytest.mark.parametrize(("n", "p"), [(2000, 0.5), (4000, 0.9), (2000, 0.97), (1500, 0.31)])
def test_a_binomial_of_thousands_of_attacks_is_a_law(n: int, p: float) -> None:
    # Its terms once went through math.comb(n, k) as a float: past about 1e308 that is an OverflowError.
    law = binomial(n, p)
    assert len(law) == n + 1 and math.isclose(sum(law), 1.0, abs_tol=1e-9)
    assert max(range(n + 1), key=law.__getitem__) == pytest.approx(n * p, abs=1)


@pytest.mark.parametrize("models", [25, 50, 100, 200])
def test_the_largest_models_at_the_limits_are_an_answer(models: int) -> None:
    attacker, defender = LARGE.replace("200x", f"{models}x"), INVULNERABLE.replace("200x", f"{models}x")
    answer = odds("40k", attacker, defender, trials=300, round=2)
    assert (answer.method, answer.trials) == ("monte-carlo", 300)
    assert math.isclose(sum(answer.outcomes.values()), 1.0)
    assert math.isclose(sum(answer.attacker_losses), 1.0) and math.isclose(sum(answer.defender_losses), 1.0)


def test_a_time_limited_answer_says_how_many_trials_and_is_reproducible_with_them() -> None:
    answer = odds("40k", MARINES, ORKS, method="monte-carlo", time_limit=0.2, seed=5)
    assert answer.method == "monte-carlo" and answer.trials is not None and answer.trials >= 1
    assert answer.time_limit == 0.2 and any("0.2 s" in note for note in answer.notes)
    assert set(answer.intervals) >= {"p_attacker_wins", "p_defender_wins", "p_loser_breaks"}
    again = odds("40k", MARINES, ORKS, method="monte-carlo", trials=answer.trials, seed=5)
    assert again.time_limit is None
    assert (again.p_attacker_wins, again.outcomes, again.defender_losses) == (
        answer.p_attacker_wins, answer.outcomes, answer.defender_losses)  # fmt: skip


def test_monte_carlo_through_the_referee_stops_at_the_time_limit_and_says_so() -> None:
    answer = odds("40k", *MANY_UNITS, time_limit=0.3)
    assert answer.method == "monte-carlo" and 1 <= answer.trials < 10_000  # type: ignore[operator]
    assert any("the attacker has 50 units" in note for note in answer.notes)
    again = odds("40k", *MANY_UNITS, trials=answer.trials)  # type: ignore[arg-type]
    assert again.outcomes == answer.outcomes and again.attacker_losses == answer.attacker_losses


def test_an_exact_calculation_past_its_deadline_gives_way_to_monte_carlo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "EXACT_SHARE", 0.0)  # the exact calculation's deadline has passed when it starts
    monkeypatch.setattr(budget, "EXACT_ALONE", 0.0)
    for game, attacker, defender in (
        ("40k", MARINES, ORKS),
        ("boltaction", "8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco"),
        ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=2", "8x Boyz: CC4+ FF6+ Sv6+ INF cover=5+"),
    ):
        answer = odds(game, attacker, defender, time_limit=0.2)
        assert answer.method == "monte-carlo", game
        assert any("did not finish within" in note for note in answer.notes), answer.notes
        with pytest.raises(OddsError, match="time limit"):
            odds(game, attacker, defender, method="exact", time_limit=0.2)
        assert odds(game, attacker, defender, trials=50).method == "exact"  # a number of trials: no clock at all


def test_a_time_limit_out_of_range_is_refused_with_an_example() -> None:
    for bad in (0.0, -1.0, 10_000.0, math.nan):
        with pytest.raises(OddsError, match="time limit") as caught:
            odds("40k", MARINES, ORKS, time_limit=bad)
        assert caught.value.example


def test_monte_carlo_is_cut_in_batches_of_a_fixed_schedule() -> None:
    with budget.time_limit(None):
        assert sum(size for _, size in budget.batches(123_457)) == 123_457
        firsts = [first for first, _ in budget.batches(10**6)]
    assert firsts[:4] == [0, budget.FIRST_BATCH, 3 * budget.FIRST_BATCH, 7 * budget.FIRST_BATCH]
    assert max(b - a for a, b in itertools.pairwise(firsts)) == budget.MAX_BATCH


def test_units_of_too_many_states_for_the_sampled_model_are_sampled_through_the_referee() -> None:
    # Every trial would reach states of its own, each worked out in Python: 16 trials in 5 s where the referee
    # itself runs hundreds.
    side = "; ".join(f"25x A{i}: WS4 S5 T4 W{i + 3} I4 A2 Ld8 Sv{i + 2}+ rending" for i in range(4))
    answer = odds("40k", side, side.replace("rending", "Inv4+"), trials=20)
    assert answer.trials == 20 and "resolutions by the referee itself" in answer.notes[0]
    assert any(note.startswith("Monte Carlo through the referee because the attacker's unit could be in")
               for note in answer.notes)  # fmt: skip
    assert "pairs of unit states" in answer.notes[-1]  # why not exact, as before
