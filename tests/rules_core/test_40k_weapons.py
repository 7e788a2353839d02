"""Each special close-combat attack, with scripted dice (round 2 unless the charge matters)."""

from __future__ import annotations

from rules_core.games.wh40k.spec import parse_side
from rules_core.games.wh40k.weapons import engaged_profile, supporting_profile, two_weapon_bonus

from .helpers40k import MARINE, events, rolls, run, strike_titles

TARGET = "1x Target: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+"
TARGET_INV = "1x Target: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+ Inv5+"


def group(text: str):  # type: ignore[no-untyped-def]
    return parse_side(text).units[0].groups[0]


def test_power_weapon_ignores_armour_but_not_invulnerable_saves() -> None:
    report = run(f"1x Captain: {MARINE} power-weapon", TARGET, [4, 4], round=2)
    assert not rolls(report, "armour save")
    assert report.result.defender.lost == 1
    report = run(f"1x Captain: {MARINE} power-weapon", TARGET_INV, [4, 4, 5, 1], round=2)
    (save,) = rolls(report, "invulnerable save")
    assert save.target.value == 5  # type: ignore[union-attr]
    assert report.result.defender.lost == 0


def test_lightning_claw_rerolls_failed_wounds_once_and_ignores_armour() -> None:
    # Two attacks (A2, no two-weapon bonus for a single claw even with a pistol); both hit; wounds 1 and 5 on 4+;
    # the 1 is re-rolled into a 6.
    report = run(
        "1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ lightning-claw two-weapons",
        "2x Target: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+",
        [4, 4, 1, 5, 6],
        round=2,
    )
    (wound,) = rolls(report, "to wound")
    assert wound.dice == (6, 5)
    assert [(r.index, r.before, r.after) for r in wound.rerolls] == [(0, 1, 6)]
    assert wound.successes == 2
    assert not rolls(report, "armour save")
    assert report.result.defender.lost == 2


def test_a_failed_reroll_stays_failed() -> None:
    report = run(f"1x Sergeant: {MARINE} lightning-claw", TARGET, [4, 2, 3, 1], round=2)
    (wound,) = rolls(report, "to wound")
    assert wound.dice == (3,) and wound.successes == 0


def test_lightning_claw_pairs_only_with_another_claw() -> None:
    assert two_weapon_bonus(group(f"1x A: {MARINE} lightning-claw two-weapons")) == 0
    assert two_weapon_bonus(group(f"1x A: {MARINE} lightning-claw power-fist")) == 0
    assert two_weapon_bonus(group(f"1x A: {MARINE} lightning-claws")) == 1
    assert two_weapon_bonus(group(f"1x A: {MARINE} lightning-claws two-weapons")) == 1  # at most +1
    assert two_weapon_bonus(group(f"1x A: {MARINE} two-weapons")) == 1
    assert two_weapon_bonus(group(f"1x A: {MARINE} power-fist power-weapon")) == 1  # the dual-weapon note
    assert two_weapon_bonus(group(f"1x A: {MARINE} rending")) == 0


def test_two_weapons_and_charging_each_add_one_attack() -> None:
    g = group(f"1x A: {MARINE} two-weapons")
    assert engaged_profile(g, charged=True).attacks == 3
    assert engaged_profile(g, charged=False).attacks == 2
    assert engaged_profile(g, charged=True, sweep=True).attacks == 2  # no charge bonus in a sweep


def test_rending_sixes_wound_automatically_with_no_armour_save() -> None:
    # 3 attacks: 6 (rends), 4 (hit), 1 (miss); the normal hit wounds on [4]; its armour save [3] passes;
    # the rending wound gets only the invulnerable save, which fails.
    # The targets have no attacks (A0), and hold on Leadership [1, 1].
    report = run(
        "1x Genestealer: WS4 S4 T4 W1 I5 A3 Ld10 Sv5+ rending",
        "3x Target: WS4 S4 T4 W1 I1 A0 Ld8 Sv3+ Inv6+",
        [6, 4, 1, 4, 3, 2, 1, 1],
        round=2,
    )
    assert len(rolls(report, "to wound")[0].dice) == 1  # only the non-rending hit rolls to wound
    assert rolls(report, "armour save")[0].dice == (3,)
    assert rolls(report, "invulnerable save")[0].dice == (2,)
    assert events(report, "rending")[0].get("hits") == 1
    assert report.result.defender.lost == 1


def test_rending_without_invulnerable_save_is_unsaveable() -> None:
    report = run("1x Genestealer: WS4 S4 T4 W1 I5 A1 Ld10 Sv5+ rending", TARGET, [6], round=2)
    assert events(report, "no_save")
    assert report.result.defender.lost == 1


def test_poisoned_wounds_on_4_plus_whatever_the_toughness() -> None:
    report = run(
        "1x Wych: WS4 S1 T3 W1 I6 A1 Ld8 Sv6+ poisoned", "1x Wraith: WS4 S4 T8 W1 I1 A1 Ld8 Sv-", [4, 4], round=2
    )
    (wound,) = rolls(report, "to wound")
    assert wound.target.value == 4  # type: ignore[union-attr]  # S1 v T8 could never wound otherwise
    report = run(
        "1x Wych: WS4 S3 T3 W1 I6 A1 Ld8 Sv6+ poisoned=2+", "1x Wraith: WS4 S4 T8 W1 I1 A1 Ld8 Sv-", [4, 2], round=2
    )
    assert rolls(report, "to wound")[0].target.value == 2  # type: ignore[union-attr]


def test_hits_with_no_effect_roll_no_wound_dice() -> None:
    report = run("1x Grot: WS4 S2 T2 W1 I6 A1 Ld5 Sv-", "1x Wraith: WS4 S4 T8 W1 I1 A1 Ld8 Sv- ", [4, 1], round=2)
    assert not rolls(report, "to wound")
    assert events(report, "no_effect")


def test_monstrous_creatures_ignore_armour() -> None:
    report = run("1x Carnifex: WS3 S9 T6 W4 I5 A1 Ld10 Sv3+ monstrous", TARGET, [4, 2], round=2)
    assert not rolls(report, "armour save")
    assert report.result.defender.lost == 1


def test_power_fist_with_a_second_weapon_strikes_with_the_fist_by_default() -> None:
    attacker = f"1x Chaplain: {MARINE} power-fist power-weapon"
    report = run(attacker, TARGET, [1, 1, 1], round=2)  # A1 +1 for the second weapon, at I1 with the target
    assert strike_titles(report)[0].startswith("Initiative 1")
    assert strike_titles(report)[1].startswith("Initiative 1")  # equal Initiative: simultaneous
    assert [e.get("choice") for e in events(report, "policy")].count("strike_with") == 1
    report = run(attacker + " strike-with=power-weapon", TARGET, [1, 1, 1], round=2)
    assert strike_titles(report)[0].startswith("Initiative 4")
    assert "strike_with" not in [e.get("choice") for e in events(report, "policy")]


def test_strike_with_none_attacks_normally() -> None:
    report = run(f"1x Sergeant: {MARINE} power-fist strike-with=none", TARGET, [4, 4, 3, 1], round=2)
    assert strike_titles(report)[0].startswith("Initiative 4")
    assert rolls(report, "to wound")[0].purpose.startswith("to wound (S4")
    assert rolls(report, "armour save")


def test_supporting_models_get_one_attack_and_no_special_weapon() -> None:
    g = group(f"3x Terminator: {MARINE} power-fist engaged=1 supporting=2")
    profile = supporting_profile(g)
    assert (profile.attacks, profile.strength, profile.initiative, profile.ignores_armour) == (1, 4, 4, False)
    # 2 supporting strike at I4 with S4 (2 dice), then 1 engaged fist at I1 (A1 +1 charged = 2 dice).
    report = run(
        f"3x Terminator: {MARINE} power-fist engaged=1 supporting=2",
        "1x Target: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+ ",
        [1, 1, 1, 1, 1],
        charge_distance=3,
    )
    assert [len(r.dice) for r in rolls(report, "to hit")] == [2, 2, 1]
    assert strike_titles(report)[0].startswith("Initiative 4: Terminator ×2 (supporting)")


def test_force_weapon_slays_a_wounded_multi_wound_model_outright() -> None:
    # One hit, one wound (S4 v T6 needs 6); the Inv save fails; the psychic test 3+4 <= Ld10 passes.
    report = run(
        "1x Librarian: WS5 S4 T4 W2 I5 A1 Ld10 Sv3+ Inv4+ force-weapon",
        "1x Wraithlord: WS4 S10 T6 W3 I1 A1 Ld10 Sv3+ Inv6+",
        [3, 6, 1, 3, 4],
        round=2,
    )
    (test,) = rolls(report, "psychic test")
    assert test.target.value == 10 and test.successes == 1  # type: ignore[union-attr]
    assert report.result.defender.lost == 1
    assert report.result.attacker.extra["wounds_inflicted"] == 1  # only the wound actually inflicted counts
    assert events(report, "slain_outright")


def test_force_weapon_perils_on_a_double_one_wounds_the_psyker() -> None:
    faces = [3, 6, 1, 1, 1, 2]  # wound inflicted; test 1+1 passes but Perils; the psyker's Inv4+ save fails (2)
    faces += [1]  # the Wraithlord survives? no: slain outright, so it does not strike back
    report = run(
        "1x Librarian: WS5 S4 T4 W1 I5 A1 Ld10 Sv3+ Inv4+ force-weapon",
        "1x Wraithlord: WS4 S10 T6 W3 I1 A1 Ld10 Sv3+ Inv6+",
        faces[:-1],
        round=2,
    )
    assert events(report, "perils")
    assert report.result.attacker.lost == 1  # the psyker died of Perils
    assert report.result.defender.lost == 1
    assert report.result.outcome == "both_destroyed"
    assert report.result.winner == "draw"


def test_no_perils_option() -> None:
    report = run(
        "1x Librarian: WS5 S4 T4 W1 I5 A1 Ld10 Sv3+ force-weapon",
        "1x Wraithlord: WS4 S10 T6 W3 I1 A1 Ld10 Sv3+",
        [3, 6, 1, 1],
        round=2,
        perils=False,
    )
    assert not events(report, "perils")
    assert report.result.attacker.lost == 0


def test_no_psychic_test_when_the_wounded_model_already_died() -> None:
    report = run(
        "1x Librarian: WS5 S4 T4 W1 I5 A1 Ld10 Sv3+ force-weapon",
        "1x Guard: WS3 S3 T3 W1 I1 A1 Ld7 Sv5+",
        [3, 3],
        round=2,
    )
    assert not rolls(report, "psychic test")
    assert any(e.get("choice") == "force_test" for e in events(report, "policy"))
