"""Every 40K roll says what it is for and for which side, as data (``Roll.kind``, ``Roll.side``)."""

from __future__ import annotations

from rules_core.report import SideName

from .helpers40k import MARINE, rolls, run


def test_each_roll_names_its_kind_and_the_side_it_is_rolled_for() -> None:
    # The Marines hit twice, wound once; the Ork fails its save and dies, the Orks lose 1-0, fail Leadership,
    # fall back 2" and the sweep catches them (its hits are automatic).
    faces = [4, 4, 1, 4, 1, 6, 6, 1, 1, 6, 6, 1, 1]
    report = run(f"1x Sergeant: {MARINE.replace('A1', 'A2')}", "2x Ork: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+", faces, round=2)
    found = [(roll.kind, roll.side) for step in report.steps for roll in step.rolls]
    attacker, defender = SideName.ATTACKER, SideName.DEFENDER
    assert found[:3] == [("to_hit", attacker), ("to_wound", attacker), ("save", defender)]
    assert ("leadership", defender) in found and ("fall_back_distance", defender) in found
    assert ("sweep", attacker) in found
    assert all(roll.kind for roll in rolls(report, ""))


def test_a_charge_through_difficult_terrain_is_a_charge_move_of_the_attacker() -> None:
    report = run(f"1x Marine: {MARINE}", "1x Ork: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+", [2, 1], charge_distance=3,
                 difficult_terrain=True)  # fmt: skip
    (charge,) = report.steps[0].rolls
    assert (charge.kind, charge.side) == ("charge_move", SideName.ATTACKER)
