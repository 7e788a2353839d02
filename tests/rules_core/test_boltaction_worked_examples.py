"""The worked examples of REFERENCE.md section 003, with scripted dice."""

from __future__ import annotations

import pytest

from rules_core.report import Op, Target
from tests.rules_core.helpers_boltaction import events, notes, rolls, rounds, run


@pytest.mark.parametrize(("quality", "value"), [("inexperienced", 3), ("regular", 4), ("veteran", 5)])
def test_example_1_damage_values_by_quality(quality: str, value: int) -> None:
    report = run("1x Attacker: regular", f"1x Target: {quality}", [6, 1])  # the attacker kills; the regroup die
    assert rolls(report, "to damage")[0].target == Target(Op.AT_LEAST, value)


def test_example_2_a_natural_1_never_damages() -> None:
    # Against inexperienced men (3+) the lowest faces fail, a 3 succeeds: no value reaches down to a 1.
    report = run("3x Attacker: regular", "5x Target: inexperienced", [1, 2, 3, 1, 1, 1, 1, 5])
    first = rolls(report, "to damage")[0]
    assert first.success == (False, False, True)


def test_example_3_twelve_inches_goes_ahead_and_twelve_and_a_half_fails() -> None:
    ahead = run("5x A: regular", "5x B: regular", [6, 6, 6, 6, 6, 2], distance=12)
    assert ahead.result.outcome == "destroyed"
    failed = run("5x A: regular", "5x B: regular", [], distance=12.5)
    assert failed.result.outcome == "failed_to_contact"
    assert failed.result.winner == "none"
    assert 'move 12" towards' in notes(failed, "failed_to_contact")[0]


def test_example_3_declared_from_6_inches_there_is_no_reaction_fire_unless_in_ambush() -> None:
    surprised = run("5x A: regular", "5x B: regular", [6, 6, 6, 6, 6, 2], distance=6, reaction_shots=5)
    assert rolls(surprised, "to hit") == []
    assert "Surprise charge" in notes(surprised, "no_reaction")[0]
    ambush = run(
        "5x A: regular", "5x B: regular", [1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 2], distance=6, reaction_shots=5, ambush=True
    )
    assert len(rolls(ambush, "to hit")[0].dice) == 5


def test_example_4_an_obstacle_on_the_path_limits_the_assault_to_6_inches_and_makes_it_simultaneous() -> None:
    failed = run("5x A: regular", "5x B: regular", [], distance=7, rough_ground=True)
    assert failed.result.outcome == "failed_to_contact"
    report = run(
        "5x A: regular",
        "5x B: regular",
        [6, 6, 6, 6, 6, 4, 1, 1, 1, 1, 3],  # both strike at once: all five defenders strike though all fall
        distance=6,
        rough_ground=True,
    )
    assert events(report, "defensive_position")
    assert rounds(report) == [(5, 1, "attacker")]
    assert report.result.attacker.remaining == 4


def test_example_5_five_regulars_against_five_regulars() -> None:
    report = run("5x Attackers: regular", "5x Defenders: regular", [4, 4, 2, 6, 1, 5, 3, 4])
    # No NCO or officer among the defenders: exceptional damage changes nothing, so the 6 gets no follow-up die.
    assert rolls(report, "exceptional") == []
    assert rounds(report) == [(3, 1, "attacker")]
    assert report.result.outcome == "destroyed"
    assert report.result.winner == "attacker"
    assert report.result.defender.extra["surrendered"] == 2
    assert report.result.defender.lost == 5
    assert report.result.attacker.extra["regroup_inches"] == 4


def test_example_6_a_tough_fighters_kill_earns_one_more_die_and_that_one_earns_none() -> None:
    report = run(
        "5x Grenadiers: regular tough-fighters",
        "10x Infantry: regular",
        [4, 1, 1, 1, 1, 5, *[1] * 8, 3],  # one kill, its extra roll kills again: no third; 8 survivors miss
    )
    (extra,) = rolls(report, "to damage (Tough Fighters' extra rolls)")
    assert extra.dice == (5,)
    assert rounds(report) == [(2, 0, "attacker")]
