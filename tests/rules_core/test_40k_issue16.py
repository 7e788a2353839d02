"""Issue 16 (rules fidelity, second pass), 40K: majority WS, one psychic test per turn, assaulted while falling
back, and report texts that misled (scripted dice)."""

from __future__ import annotations

from .helpers40k import events, rolls, run

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
