"""Issue 16 (rules fidelity, second pass), 40K: majority WS, one psychic test per turn, assaulted while falling
back, and report texts that misled (scripted dice)."""

from __future__ import annotations

import pytest

from rules_core import OptionError

from .helpers40k import MARINE, events, rolls, run

HERO = "1x Hero: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


# ---------------------------------------------------------------- majority Weapon Skill


def test_a_tie_for_the_most_models_uses_the_lowest_weapon_skill_in_the_unit() -> None:
    # 2x WS4, 2x WS5, 1x WS2: no majority type, so the lowest WS in the unit (WS2), not the lowest tied (WS4).
    defender = (
        "2x Boy: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+ ; 2x Nob: WS5 S3 T4 W1 I2 A0 Ld7 Sv6+ ; "
        "1x Grot: WS2 S3 T4 W1 I2 A0 Ld7 Sv6+"
    )
    report = run(HERO, defender, [1], round=2)
    (hit,) = rolls(report, "to hit")
    assert hit.purpose == "to hit (WS4 vs WS2)"
    (note,) = events(report, "majority")
    assert "WS2" in str(note.get("note"))


PLURALITY = (
    "2x Boy: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+ ; 1x Nob: WS5 S3 T4 W1 I2 A0 Ld7 Sv6+ ; "
    "1x Runt: WS3 S3 T4 W1 I2 A0 Ld7 Sv6+ ; 1x Grot: WS2 S3 T4 W1 I2 A0 Ld7 Sv6+"
)


def test_the_most_common_weapon_skill_is_the_majority_type_by_default() -> None:
    report = run(HERO, PLURALITY, [1], round=2)
    assert rolls(report, "to hit")[0].purpose == "to hit (WS4 vs WS4)"


def test_ws_majority_over_half_needs_more_than_half_of_the_models() -> None:
    report = run(HERO, PLURALITY, [1], round=2, ws_majority="over_half")
    assert rolls(report, "to hit")[0].purpose == "to hit (WS4 vs WS2)"
    # A real majority (3 of 5) is used under either reading.
    three = "3x Boy: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+ ; 2x Grot: WS2 S3 T4 W1 I2 A0 Ld7 Sv6+"
    report = run(HERO, three, [1], round=2, ws_majority="over_half")
    assert rolls(report, "to hit")[0].purpose == "to hit (WS4 vs WS4)"


# ---------------------------------------------------------------- force weapons: one psychic test per turn

WRAITHS = "3x Wraith: WS4 S4 T6 W3 I1 A0 Ld5 Sv3+"


def test_a_psyker_that_tested_in_the_fight_does_not_test_again_in_the_sweep() -> None:
    faces = [3, 3, 6, 1]  # 2 attacks hit (3+), one wounds a Wraith (6 to wound; no armour save)
    faces += [3, 4]  # the psychic test passes: that Wraith is slain outright
    faces += [6, 6, 1, 1]  # the Wraiths lose 1-0 and fail Leadership; they fall back 2"
    faces += [6, 6, 6, 6]  # the sweep catches them: 2 automatic hits wound a Wraith twice
    report = run("1x Librarian: WS5 S4 T4 W2 I5 A2 Ld10 Sv3+ force-weapon", WRAITHS, faces, round=2)
    assert len(rolls(report, "psychic test")) == 1
    assert len(events(report, "slain_outright")) == 1
    (note,) = [e for e in events(report, "policy") if "already taken its psychic test" in str(e.get("note"))]
    assert "one psychic power per turn" in str(note.get("note"))
    assert report.result.defender.lost == 1


def test_a_psyker_that_has_not_tested_may_test_in_the_sweep() -> None:
    faces = [3, 3, 6, 1, 3, 4]  # two Librarians: one wound, so one of them tests (and slays)
    faces += [6, 6, 1, 1, 6, 6, 6, 6]  # Wraiths flee and are caught: 2 wounds on one Wraith
    faces += [3, 4]  # the Librarian that has not tested yet tests now, and slays it
    report = run("2x Librarian: WS5 S4 T4 W2 I5 A1 Ld10 Sv3+ force-weapon", WRAITHS, faces, round=2)
    assert len(rolls(report, "psychic test")) == 2
    assert report.result.defender.lost == 2


# ---------------------------------------------------------------- assaulted while falling back

GUARD = "5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+"


def test_a_unit_assaulted_while_falling_back_that_fails_to_regroup_is_destroyed() -> None:
    # Regroup test 5+4 = 9 > Ld7: the Guard are destroyed before a blow is struck; nobody strikes.
    report = run(f"5x Marine: {MARINE}", GUARD, [5, 4], charge_distance=3, defender_falling_back=True)
    (test,) = rolls(report, "regroup")
    assert test.target.value == 7 and not test.successes  # type: ignore[union-attr]
    assert "Assaulted while falling back" in [step.title for step in report.steps]
    assert not rolls(report, "to hit")
    assert (report.result.winner, report.result.outcome) == ("attacker", "destroyed")
    assert report.result.defender.lost == 5
    assert report.result.attacker.extra["wounds_inflicted"] == 0  # a unit that fails to regroup is not wounded
    (gone,) = events(report, "destroyed_falling_back")
    assert "not wounds" in str(gone.get("note"))


def test_a_unit_that_regroups_fights_normally_and_no_modifier_applies() -> None:
    # 4+3 = 7 <= Ld7 passes even with morale_modifier=per_wound (no modifiers apply); then the fight.
    faces = [4, 3] + [1] * 10 + [1] * 5  # regroup; 10 Marine attacks miss; 5 Guard attacks miss: a draw
    report = run(
        f"5x Marine: {MARINE}",
        GUARD,
        faces,
        charge_distance=3,
        defender_falling_back=True,
        morale_modifier="per_wound",
    )
    assert rolls(report, "regroup")[0].successes == 1
    assert report.result.outcome == "drawn"


def test_falling_back_applies_only_to_the_charge_turn() -> None:
    with pytest.raises(OptionError, match="falling back"):
        run(f"5x Marine: {MARINE}", GUARD, [], round=2, defender_falling_back=True)


def test_no_regroup_test_when_the_charge_fails() -> None:
    report = run(f"5x Marine: {MARINE}", GUARD, [], charge_distance=7, defender_falling_back=True)
    assert report.result.outcome == "no_charge" and not rolls(report, "regroup")


def test_every_defending_unit_falling_back_tests_and_the_survivors_fight() -> None:
    # Two Guard units: the first fails (destroyed), the second regroups; the Marines fight the first (vs=1):
    # their attacks are lost; the second unit fights them.
    faces = [6, 6, 2, 2] + [1] * 5  # regroups; the second unit's 5 attacks miss
    report = run(
        f"5x Marine: {MARINE}", f"{GUARD} | 5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+ vs=1", faces,
        charge_distance=3, defender_falling_back=True,
    )  # fmt: skip
    assert [r.successes for r in rolls(report, "regroup")] == [0, 1]
    assert events(report, "no_target")
    assert report.result.defender.lost == 5
