"""Every worked example of REFERENCE.md section 000, as scripted-dice resolutions."""

from __future__ import annotations

import pytest

from rules_core.charts import to_hit_by_weapon_skill, to_wound
from rules_core.games.wh40k.spec import parse_side
from rules_core.games.wh40k.weapons import engaged_profile

from .helpers40k import MARINE, events, rolls, run


def test_example_1_strength_4_wounds_toughness_3_on_3_plus() -> None:
    report = run(f"1x Marine: {MARINE}", "1x Dark Eldar: WS4 S3 T3 W1 I1 A1 Ld8 Sv-", [4, 3], round=2)
    (wound,) = rolls(report, "to wound")
    assert wound.target is not None and wound.target.value == 3
    assert (wound.dice, wound.successes) == ((3,), 1)
    assert report.result.winner == "attacker"
    assert report.result.outcome == "destroyed"
    assert report.result.defender.lost == 1


def test_example_1_a_two_does_not_wound() -> None:
    report = run(f"1x Marine: {MARINE}", "1x Dark Eldar: WS4 S3 T3 W1 I1 A1 Ld8 Sv-", [4, 2, 1], round=2)
    assert rolls(report, "to wound")[0].successes == 0
    assert report.result.winner == "draw"
    assert report.result.outcome == "drawn"


def test_example_2_five_marines_charging_roll_ten_attack_dice() -> None:
    report = run(
        "5x Space Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
        "5x Eldar: WS3 S3 T3 W1 I5 A1 Ld8 Sv5+",
        [1] * 5 + [1] * 10,  # the Eldar strike first at I5 with 5 dice, then the Marines with 10
        charge_distance=5,
    )
    eldar_hits, marine_hits = rolls(report, "to hit")
    assert len(eldar_hits.dice) == 5
    assert len(marine_hits.dice) == 10
    assert report.result.outcome == "drawn"


def test_example_3_crisis_suits_and_drones_save_with_the_drones_4_plus() -> None:
    defender = "2x Crisis Battlesuit: WS2 S5 T4 W2 I2 A2 Ld8 Sv3+ ; 4x Gun Drone: WS2 S3 T3 W1 I4 A1 Ld7 Sv4+"
    faces = [3] * 5 + [6] * 5 + [1] * 5  # 5 hits, 5 wounds (S4 v majority T3), 5 failed saves
    faces += [1] * 4  # the two surviving suits strike back: 4 attacks, all miss
    faces += [1, 1]  # Leadership: the defender lost and holds
    report = run("5x Attacker: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", defender, faces, round=2)
    (save,) = rolls(report, "armour save")
    assert save.target is not None and save.target.value == 4
    assert len(save.dice) == 5
    # Casualties come first from the models whose save was used: the 4 drones, then 1 wound on a suit (W2).
    assert report.result.defender.lost == 4
    assert report.result.defender.remaining == 2
    assert report.result.attacker.extra["wounds_inflicted"] == 5
    assert report.result.outcome == "held"


@pytest.mark.parametrize(
    ("attacker_ws", "defender_ws", "needed"),
    [(4, 3, 3), (3, 4, 4), (2, 5, 5), (4, 8, 4), (4, 9, 5)],
)
def test_example_4_weapon_skill_chart(attacker_ws: int, defender_ws: int, needed: int) -> None:
    assert to_hit_by_weapon_skill(attacker_ws, defender_ws) == needed


def test_example_4_through_a_resolution() -> None:
    report = run("1x Hero: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "1x Daemon: WS9 S4 T4 W1 I1 A1 Ld8 Sv3+", [6, 1, 1], round=2)
    assert rolls(report, "to hit")[0].target.value == 5  # type: ignore[union-attr]


def test_example_5_power_fist_doubles_strength_ignores_armour_and_strikes_at_initiative_1() -> None:
    report = run(f"1x Sergeant: {MARINE} power-fist", f"1x Marine: {MARINE}", [1, 4, 2], round=2)
    marine_hit, _fist_hit = rolls(report, "to hit")
    assert marine_hit.dice == (1,)  # the defending Marine strikes first at I4
    (wound,) = rolls(report, "to wound")
    assert wound.purpose.startswith("to wound (S8 vs T4)")
    assert wound.target.value == 2  # type: ignore[union-attr]
    assert not rolls(report, "armour save")
    assert events(report, "no_save")
    assert report.result.outcome == "destroyed"


def test_example_5_power_fist_strength_caps_at_10() -> None:
    side = parse_side("1x Ogryn: WS4 S6 T5 W3 I3 A2 Ld7 Sv4+ power-fist")
    profile = engaged_profile(side.units[0].groups[0], charged=False)
    assert profile.strength == 10
    assert profile.initiative == 1
    assert to_wound(8, 4) == 2


def test_example_6_heavy_close_combat_weapon_caps_a_2_plus_save_at_4_plus() -> None:
    report = run(
        "1x Berserker: WS5 S4 T4 W1 I5 A1 Ld9 Sv3+ heavy-ccw",
        "1x Terminator: WS4 S4 T4 W1 I1 A1 Ld9 Sv2+",
        [3, 4, 3],
        round=2,
    )
    (save,) = rolls(report, "armour save")
    assert save.target.value == 4  # type: ignore[union-attr]
    assert save.successes == 0
    assert report.result.defender.lost == 1


GROTS_LOSE = [3, 3, 2, 2, 1, 1, 1, 6, 6]  # 2 Marines kill 2 Grots; 3 Grots miss; the Grots fail Ld5 on 12


@pytest.mark.parametrize(("sweep_dice", "swept"), [([3, 4], False), ([4, 4], True)])
def test_example_7_sweeping_advance_needs_more_than_the_fall_back_roll(sweep_dice: list[int], swept: bool) -> None:
    faces = [*GROTS_LOSE, 3, 4, *sweep_dice]  # fall back 3+4 = 7, then the sweep roll
    if swept:
        faces += [2, 2]  # two automatic hits (no charge bonus) wound on 2+
    report = run("2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "5x Grot: WS2 S2 T2 W1 I1 A1 Ld5 Sv-", faces, round=2)
    (sweep,) = rolls(report, "sweeping advance")
    assert sweep.target.value == 8  # type: ignore[union-attr]
    assert bool(sweep.successes) is swept
    assert report.result.outcome == "fell_back"
    assert report.result.attacker.extra["wounds_inflicted"] == 2  # the sweep does not count for the result
    assert report.result.defender.lost == (4 if swept else 2)
    if swept:
        assert events(report, "automatic_hits")
        assert not [r for r in rolls(report, "to hit") if len(r.dice) == 2 and r.dice == (2, 2)]


GUARD_LOSE_BY_2 = [3, 3, 3, 3, 1, 1, 1]  # 2 Marines kill 2 Guardsmen; 3 Guardsmen miss


@pytest.mark.parametrize(("dice", "passed"), [([4, 4], True), ([4, 5], False)])
def test_example_8_leadership_8_passes_on_8_and_fails_on_9(dice: list[int], passed: bool) -> None:
    faces = [*GUARD_LOSE_BY_2, *dice]
    if not passed:
        faces += [1, 1, 1, 1]  # fall back 2", then the sweep roll of 2 is not greater
    report = run("2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "5x Guardsman: WS3 S3 T3 W1 I1 A1 Ld8 Sv-", faces, round=2)
    (morale,) = report.result.defender.extra["morale"]
    assert morale["target"] == 8
    assert morale["passed"] is passed
    assert report.result.outcome == ("held" if passed else "fell_back")


def test_example_8_fourth_edition_option_lost_by_2_needs_6_or_less() -> None:
    faces = [*GUARD_LOSE_BY_2, 4, 3, 1, 1, 1, 1]
    report = run(
        "2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+",
        "5x Guardsman: WS3 S3 T3 W1 I1 A1 Ld8 Sv-",
        faces,
        round=2,
        morale_modifier="per_wound",
    )
    (morale,) = report.result.defender.extra["morale"]
    assert morale["target"] == 6
    assert morale["passed"] is False  # 7 would have passed without the option
