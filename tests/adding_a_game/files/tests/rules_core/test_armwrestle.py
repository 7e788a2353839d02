"""The arm-wrestle: scripted bouts, the outcomes, the canonical round trip and the exact odds against the referee."""

from __future__ import annotations

import pytest

from rules_core import ScriptedDice, SpecError, get_game, resolve
from rules_core.odds import odds

DOCKERS, SMITHS = "3x Dockers: S4 southpaw", "2x Smiths: S4"


def test_the_attacker_pins_the_defender_in_two_bouts() -> None:
    # bout 1: 4 + 5 against 3 + 4; bout 2: 2 + 5 against 1 + 4
    report = resolve("armwrestle", DOCKERS, SMITHS, rng=ScriptedDice([4, 3, 2, 1]))
    assert (report.result.outcome, report.result.winner) == ("pinned", "attacker")
    assert (report.result.attacker.lost, report.result.defender.lost, report.result.defender.remaining) == (0, 2, 0)


def test_a_tie_puts_both_out_when_asked_and_time_is_called() -> None:
    report = resolve("armwrestle", "Ann: S3", "Bob: S3", rng=ScriptedDice([2, 2]), ties="both_out")
    assert (report.result.outcome, report.result.winner) == ("both_out", "draw")
    report = resolve("armwrestle", "Ann: S3", "Bob: S3", rng=ScriptedDice([2, 2]), bouts=1)
    assert (report.result.outcome, report.result.winner) == ("time_called", "draw")


def test_specs_round_trip_and_errors_name_the_token() -> None:
    game = get_game("aw")
    side = game.parse_side("2x Twins: s3 southpaw")
    assert game.parse_side(game.format_side(side)) == side
    with pytest.raises(SpecError) as caught:
        game.parse_side("2x Twins: S3 lefty")
    assert caught.value.token == "lefty" and caught.value.example


def test_the_exact_odds_agree_with_the_referee() -> None:
    exact = odds("armwrestle", DOCKERS, SMITHS, method="exact", bouts=4)
    sampled = odds("armwrestle", DOCKERS, SMITHS, method="monte-carlo", trials=4000, bouts=4)
    assert abs(sum(exact.outcomes.values()) - 1) < 1e-9
    low, high = sampled.intervals["p_attacker_wins"]
    assert low - 0.02 <= exact.p_attacker_wins <= high + 0.02
