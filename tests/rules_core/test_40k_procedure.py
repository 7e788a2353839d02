"""Strike order, wound allocation, characters, several units, morale, fall back and charges (scripted dice)."""

from __future__ import annotations

import pytest

from rules_core import IllegalDeclarationError, OptionError, get_game

from .helpers40k import MARINE, events, rolls, run, strike_titles, titles

ORKS_IN_COVER = "2x Ork: WS4 S3 T4 W1 I2 A1 Ld7 Sv6+"


# ---------------------------------------------------------------- strike order


def test_defenders_charged_in_cover_strike_first_whatever_their_initiative() -> None:
    # The Orks (I2) strike first: 2 dice, both hit and wound, saves fail -> 2 Marines dead before they strike.
    faces = [4, 4, 5, 5, 1, 1]
    faces += [1, 1, 1, 1, 1, 1]  # the 3 surviving Marines strike: 2 attacks each (charged)
    faces += [1, 1]  # draw? no: the Orks won 2-0; the Marines test Leadership and hold
    report = run(f"5x Marine: {MARINE}", ORKS_IN_COVER, faces, charge_distance=3, defender_in_cover=True)
    assert strike_titles(report)[0] == "Cover: Ork ×2 → Marine"
    assert strike_titles(report)[1].startswith("Initiative 4: Marine ×3")
    assert report.result.winner == "defender"


def test_cover_gives_no_advantage_after_the_first_round() -> None:
    report = run(f"5x Marine: {MARINE}", ORKS_IN_COVER, [1] * 5 + [1, 1], round=2, defender_in_cover=True)
    assert strike_titles(report)[0].startswith("Initiative 4")


def test_frag_grenades_make_the_chargers_strike_simultaneously_with_defenders_in_cover() -> None:
    # Both in the cover step: the Orks kill 2 Marines, but all 5 Marines still strike (simultaneous).
    faces = [1] * 10 + [4, 4, 5, 5, 1, 1]  # attackers' pool comes first within a step
    report = run(
        f"5x Marine: {MARINE} frag-grenades", ORKS_IN_COVER, faces + [1, 1], charge_distance=3, defender_in_cover=True
    )
    assert [t.split(":")[0] for t in strike_titles(report)] == ["Cover", "Cover"]
    assert len(rolls(report, "to hit")[0].dice) == 10
    assert report.result.attacker.lost == 2


def test_plasma_grenades_put_everyone_in_initiative_order() -> None:
    faces = [1] * 10 + [1, 1]  # Marines at I4 first (10 dice), then the Orks at I2
    report = run(
        f"5x Banshee: {MARINE} plasma-grenades", ORKS_IN_COVER, faces, charge_distance=3, defender_in_cover=True
    )
    assert [t.split(":")[0] for t in strike_titles(report)] == ["Initiative 4", "Initiative 2"]
    assert events(report, "cover")[0].get("grenades") == "plasma"


@pytest.mark.parametrize(
    ("attacker", "used"),
    [
        (f"5x Banshee: {MARINE} frag-grenades plasma-grenades", "plasma"),  # I4 strikes before the Orks' I2
        ("5x Slow: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+ frag-grenades plasma-grenades", "frag"),  # I1 would not
        ("5x Slow: WS4 S4 T4 W1 I1 A1 Ld8 Sv3+ frag-grenades plasma-grenades grenades=plasma", "plasma"),  # chosen
    ],
)
def test_both_grenades_use_plasma_when_striking_first_and_frag_otherwise(attacker: str, used: str) -> None:
    report = run(attacker, ORKS_IN_COVER, [1] * 12, charge_distance=3, defender_in_cover=True)
    assert events(report, "cover")[0].get("grenades") == used


def test_highest_initiative_strikes_first_and_casualties_cannot_strike_back() -> None:
    # The Eldar (I5) kill 2 of 3 Orks (I2) first; only 1 Ork strikes back.
    faces = [4, 4, 1]  # 3 attacks (WS4 v WS4 needs 4+): 2 hit
    faces += [6, 6]  # both wound (S3 v T4 needs 5+); Sv-: 2 Orks dead
    faces += [1]  # the one Ork left strikes back and misses
    faces += [1, 1]  # the Orks lost and hold their ground
    report = run("3x Eldar: WS4 S3 T3 W1 I5 A1 Ld8 Sv5+", "3x Ork: WS4 S3 T4 W1 I2 A1 Ld7 Sv-", faces, round=2)
    ork_strike = rolls(report, "to hit")[1]
    assert len(ork_strike.dice) == 1


def test_equal_initiative_strikes_simultaneously() -> None:
    # Both sides I4: the Marine kills the Scout, and the Scout still strikes back in the same step.
    report = run(f"1x Marine: {MARINE}", "1x Scout: WS4 S4 T4 W1 I4 A1 Ld8 Sv-", [4, 4, 4, 4, 3], round=2)
    assert [t.split(":")[0] for t in strike_titles(report)] == ["Initiative 4", "Initiative 4"]
    assert report.result.attacker.lost == 0
    assert report.result.outcome == "destroyed"


def test_strike_order_is_stated_in_the_report() -> None:
    report = run(f"1x Sergeant: {MARINE} power-fist", f"1x Marine: {MARINE}", [1, 1], round=2)
    assert events(report, "strike_order")[0].get("order") == "Initiative 4 then Initiative 1"


# ---------------------------------------------------------------- wounds and casualties


def test_multi_wound_models_absorb_wounds_one_model_at_a_time() -> None:
    # 3 unsaved wounds on W2 Nobs: one dies, one is wounded.
    faces = [4, 4, 4] + [4, 4, 4] + [1, 1, 1]  # 3 hits, 3 wounds, 3 failed saves
    faces += [1, 1]  # the 2 surviving Nobs (one of them wounded) strike back and miss
    faces += [1, 1]  # the Nobs lost 3-0 and hold
    report = run("3x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "3x Nob: WS4 S4 T4 W2 I2 A1 Ld7 Sv6+", faces, round=2)
    (wounds,) = events(report, "wounds")
    assert wounds.get("inflicted") == 3
    assert report.result.defender.lost == 1
    assert report.result.defender.remaining == 2
    assert report.result.attacker.extra["wounds_inflicted"] == 3


def test_a_wounded_model_takes_the_next_wound_first() -> None:
    # Step 1 (I5): 1 wound on a W2 Nob. Step 2 (I4): 1 more wound goes to the same Nob, which dies.
    faces = [4, 4, 1]  # Eldar at I5: hit, wound (S4 v T4), the 6+ save fails
    faces += [4, 4, 1]  # Marine at I4: the same
    faces += [1]  # the one Nob left strikes back (A1) and misses
    faces += [1, 1]  # Leadership: holds
    report = run(
        "1x Eldar: WS4 S4 T4 W1 I5 A1 Ld8 Sv5+ | 1x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
        "2x Nob: WS4 S4 T4 W2 I2 A1 Ld7 Sv6+",
        faces,
        round=2,
    )
    assert report.result.defender.lost == 1
    assert report.result.attacker.extra["wounds_inflicted"] == 2


def test_wounds_beyond_the_danger_zone_are_lost() -> None:
    # Only 2 of the 5 Guardsmen are within reach: 4 unsaved wounds kill 2, the other 2 are discarded.
    faces = [3] * 4 + [3] * 4  # 4 hits (WS4 v WS3), 4 wounds (S4 v T3), no save
    faces += [1, 1]  # the Guardsmen lost 2-0 and hold
    report = run(
        "2x Marine: WS4 S4 T4 W1 I5 A2 Ld8 Sv3+",
        "5x Guardsman: WS3 S3 T3 W1 I3 A1 Ld7 Sv- engaged=1 supporting=1",
        faces,
        round=2,
    )
    (wounds,) = events(report, "wounds")
    assert (wounds.get("unsaved"), wounds.get("inflicted"), wounds.get("discarded")) == (4, 2, 2)
    assert report.result.defender.lost == 2
    assert report.result.defender.remaining == 3
    assert report.result.outcome == "held"


def test_casualties_come_from_supporting_models_before_those_in_base_contact() -> None:
    # 1 unsaved wound on a unit with 2 engaged and 2 supporting: a supporting model dies, so both engaged
    # models keep their 2 attacks each, and one supporting model its 1.
    faces = [3, 3]  # 1 attack hits and wounds; Sv-: no save roll
    faces += [1, 1, 1, 1, 1]  # 2 engaged x A2 + 1 supporting x 1 = 5 dice
    faces += [1, 1]
    report = run(
        "1x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+",
        "4x Guardsman: WS3 S3 T3 W1 I3 A2 Ld7 Sv- engaged=2 supporting=2",
        faces,
        round=2,
    )
    assert [len(r.dice) for r in rolls(report, "to hit")] == [1, 4, 1]


def test_dies_last_keeps_the_sergeant_alive() -> None:
    faces = [3, 3] + [3, 3]  # 2 hits, 2 wounds, no save: 2 die
    faces += [1]  # the sergeant (dies-last) survives and strikes (A1)
    faces += [1, 1]
    report = run(
        "1x Marine: WS4 S4 T4 W1 I5 A2 Ld8 Sv3+",
        "2x Guardsman: WS3 S3 T3 W1 I3 A1 Ld7 Sv- ; 1x Sergeant: WS3 S3 T3 W1 I3 A1 Ld8 Sv- dies-last",
        faces,
        round=2,
    )
    (morale,) = report.result.defender.extra["morale"]
    assert morale["target"] == 8  # the sergeant's Ld: he is the one left


def test_tied_toughness_is_the_owners_choice_with_the_highest_by_default() -> None:
    defender = "1x Ork: WS4 S3 T4 W1 I1 A0 Ld7 Sv- ; 1x Grot: WS4 S2 T2 W1 I1 A0 Ld5 Sv-"
    report = run("1x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", defender, [4, 4, 1, 1], round=2)
    assert rolls(report, "to wound")[0].purpose.startswith("to wound (S4 vs T4)")
    assert any(e.get("choice") == "tied_toughness" for e in events(report, "policy"))
    report = run("1x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", defender + " tie-t=2", [4, 4, 1, 1], round=2)
    assert rolls(report, "to wound")[0].purpose.startswith("to wound (S4 vs T2)")


def test_tied_saves_take_the_best_by_default_or_the_one_chosen() -> None:
    defender = "1x Nob: WS4 S4 T4 W1 I1 A0 Ld7 Sv4+ ; 1x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv6+"
    report = run("1x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", defender, [4, 4, 4], round=2)
    assert rolls(report, "armour save")[0].target.value == 4  # type: ignore[union-attr]
    assert report.result.defender.lost == 0
    report = run("1x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", defender + " tie-save=6+", [4, 4, 4, 1, 1], round=2)
    assert rolls(report, "armour save")[0].target.value == 6  # type: ignore[union-attr]


def test_majority_weapon_skill_with_no_majority_uses_the_lowest() -> None:
    defender = "1x Ethereal: WS4 S3 T3 W1 I1 A0 Ld10 Sv- ; 1x Fire Warrior: WS2 S3 T3 W1 I1 A0 Ld7 Sv-"
    report = run("1x Marine: WS3 S4 T4 W1 I5 A1 Ld8 Sv3+", defender, [1], round=2)
    assert rolls(report, "to hit")[0].purpose.startswith("to hit (WS3 vs WS2)")


# ---------------------------------------------------------------- characters and several units


def test_independent_character_fights_and_is_hit_as_its_own_unit() -> None:
    attacker = "2x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vs=2"
    defender = (
        "4x Guardian: WS3 S3 T3 W1 I1 A0 Ld8 Sv5+ | 1x Warlock: WS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Inv4+ force-weapon "
        "independent-character"
    )
    # The Warlock (I5) strikes the Marines: miss. The Marines (vs=2) strike the Warlock: 2 hits (4+), 2 wounds
    # (S4 v T3, 3+); of Sv5+ and Inv4+ the better is used: both fail. Then the Guardians (A0) hold on [1, 1].
    faces = [1] + [4, 4] + [3, 3] + [1, 1] + [1, 1]
    report = run(attacker, defender, faces, round=2)
    assert "Warlock" in strike_titles(report)[1]
    assert rolls(report, "invulnerable save")[0].target.value == 4  # type: ignore[union-attr]
    assert report.result.defender.lost == 1
    assert report.result.defender.extra["morale"][0]["unit"] == "Guardian"


def test_several_units_each_fight_the_unit_vs_names() -> None:
    # One combat (decision 22): the Grots fight the Marines, who fight the Boyz; the Scouts fight the Grots.
    attacker = f"2x Marine: {MARINE} | 2x Scout: WS4 S4 T4 W1 I3 A1 Ld8 Sv4+ vs=2"
    defender = "2x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv- | 2x Grot: WS2 S2 T2 W1 I1 A0 Ld5 Sv- vs=1"
    report = run(attacker, defender, [1, 1, 1, 1], round=2)
    assert strike_titles(report) == ["Initiative 4: Marine ×2 → Boy", "Initiative 3: Scout ×2 → Grot"]
    fighting = {e.get("unit"): e.get("target") for e in events(report, "fighting")}
    assert fighting == {"Marine": "Boy", "Scout": "Grot", "Boy": "Marine", "Grot": "Marine"}


def test_vs_beyond_the_enemy_units_is_an_error() -> None:
    with pytest.raises(OptionError, match="vs=3"):
        run(f"2x Marine: {MARINE} vs=3", "2x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv-", [], round=2)


def test_duplicate_unit_names_are_numbered() -> None:
    report = run(f"1x Marine: {MARINE} | 1x Marine: {MARINE}", "1x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv-", [1, 1], round=2)
    assert {e.get("unit") for e in events(report, "fighting")} >= {"Marine #1", "Marine #2"}


def test_every_losing_unit_tests_and_winners_sweep_only_when_all_their_foes_fall_back() -> None:
    attacker = "2x Marine: WS4 S4 T4 W1 I5 A2 Ld8 Sv3+ | 2x Scout: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+ vs=2"
    # One combat (decision 22): the Boyz (A0) fight the Scouts, who fight the Grots.
    defender = "3x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv- vs=2 | 3x Grot: WS2 S2 T2 W1 I1 A0 Ld5 Sv- vs=2"
    faces = [4, 4, 4, 4] + [4, 4, 4, 4]  # Marines: 4 hits, 4 wounds (S4 v T4), no save: all 3 Boys dead
    faces += [3, 3] + [2, 2]  # Scouts: 2 hits (WS4 v WS2 3+), 2 wounds (S4 v T2 2+): 2 Grots dead
    faces += [6, 6, 1, 1]  # the Grots (the only losing unit left) fail Leadership and fall back 2"
    faces += [1, 2]  # the Scouts' sweeping advance roll of 3 beats 2
    faces += [2, 2]  # 2 Scouts x A1 hit automatically and wound on 2+: the last Grot dies
    report = run(attacker, defender, faces, round=2)
    assert [m["unit"] for m in report.result.defender.extra["morale"]] == ["Grot"]
    assert titles(report).count("Sweeping advance: Scout") == 1
    assert report.result.outcome == "destroyed"


# ---------------------------------------------------------------- morale, fall back, next steps

LOSE = ("2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "5x Guardsman: WS3 S3 T3 W1 I1 A1 Ld2 Sv-")
LOSE_FACES = [3, 3, 3, 3, 1, 1, 1]  # 2 dead Guardsmen, the 3 left miss: lost by 2


def test_per_wound_morale_can_push_the_target_below_two() -> None:
    report = run(*LOSE, [*LOSE_FACES, 1, 1, 1, 1, 1, 1], round=2, morale_modifier="per_wound")
    (morale,) = report.result.defender.extra["morale"]
    assert morale == {"unit": "Guardsman", "dice": (1, 1), "target": 0, "passed": False}


def test_double_one_always_passes_when_chosen() -> None:
    report = run(*LOSE, [*LOSE_FACES, 1, 1], round=2, morale_modifier="per_wound", double_one_passes=True)
    assert report.result.defender.extra["morale"][0]["passed"] is True
    assert report.result.outcome == "held"
    assert events(report, "continues")


def test_fall_back_is_2d6_or_3d6_on_bikes_and_jump_packs() -> None:
    report = run(*LOSE, [*LOSE_FACES, 6, 6, 2, 3, 1, 1], round=2)
    (fall_back,) = rolls(report, "fall back")
    assert len(fall_back.dice) == 2
    assert events(report, "fall_back")[0].get("distance") == 5
    bikers = ("2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", "5x Biker: WS3 S3 T3 W1 I1 A1 Ld2 Sv- bike")
    report = run(*bikers, [*LOSE_FACES, 6, 6, 2, 3, 4, 1, 1], round=2)
    assert len(rolls(report, "fall back")[0].dice) == 3
    assert rolls(report, "sweeping advance")[0].target.value == 10  # type: ignore[union-attr]


def test_consolidation_follows_a_win_and_pile_in_follows_a_draw() -> None:
    report = run(*LOSE, [*LOSE_FACES, 6, 6, 2, 3, 1, 1], round=2)
    assert events(report, "consolidate")[0].get("unit") == "Marine"
    assert not events(report, "pile_in")
    marines = f"2x Marine: {MARINE} engaged=1 supporting=1"
    drawn = run(marines, marines, [1, 1, 1, 1], round=3)
    assert drawn.result.outcome == "drawn"
    (continues,) = events(drawn, "continues")
    assert continues.get("next_round") == 4
    assert [e.get("side") for e in events(drawn, "pile_in")] == ["attacker", "defender"]


# ---------------------------------------------------------------- charges


def test_a_charge_from_more_than_6_inches_does_not_happen() -> None:
    report = run(f"5x Marine: {MARINE}", "5x Guardsman: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+", [], charge_distance=6.5)
    assert report.result.outcome == "no_charge"
    assert report.result.winner == "none"
    assert report.result.attacker.lost == report.result.defender.lost == 0
    assert titles(report) == ["Charge"]


def test_an_omitted_distance_is_assumed_in_reach_and_says_so() -> None:
    report = run(f"1x Marine: {MARINE}", "1x Guardsman: WS3 S3 T3 W1 I3 A0 Ld7 Sv5+", [1, 1])
    assert events(report, "assumed")[0].get("fact") == "in_reach"


@pytest.mark.parametrize(("dice", "charges"), [([3, 2], False), ([4, 1], True), ([1, 4], True)])
def test_difficult_terrain_takes_the_highest_of_2d6(dice: list[int], charges: bool) -> None:
    faces = dice + ([1, 1] if charges else [])
    report = run(
        f"1x Marine: {MARINE}",
        "1x Guardsman: WS3 S3 T3 W1 I3 A0 Ld7 Sv5+",
        faces,
        charge_distance=4,
        difficult_terrain=True,
    )
    (roll,) = rolls(report, "charge through difficult terrain")
    assert roll.combine == "highest"
    assert (report.result.outcome == "no_charge") is not charges


def test_a_unit_that_shot_this_turn_may_not_charge() -> None:
    with pytest.raises(IllegalDeclarationError, match="fired in the shooting phase") as error:
        run(f"1x Marine: {MARINE}", f"1x Marine: {MARINE}", [], shot_this_turn=True)
    assert error.value.token == "shot_this_turn"
    assert "Example:" in str(error.value)


def test_charge_facts_in_a_later_round_are_an_error() -> None:
    with pytest.raises(OptionError, match="no unit is marked charged"):
        run(f"1x Marine: {MARINE}", f"1x Marine: {MARINE}", [], round=2, charge_distance=3)
    with pytest.raises(IllegalDeclarationError):
        run(f"1x Marine: {MARINE}", f"1x Marine: {MARINE}", [], round=2, shot_this_turn=True)


def test_difficult_terrain_needs_a_distance() -> None:
    with pytest.raises(OptionError, match="charge_distance"):
        run(f"1x Marine: {MARINE}", f"1x Marine: {MARINE}", [], difficult_terrain=True)


def test_a_sweep_with_rending_rolls_only_to_find_the_sixes() -> None:
    attacker = "2x Genestealer: WS6 S4 T4 W1 I6 A1 Ld10 Sv5+ rending"
    defender = "5x Guardsman: WS3 S3 T3 W1 I1 A0 Ld7 Sv5+"
    faces = [3, 3] + [3, 3] + [1, 1]  # 2 hits (WS6 v WS3), 2 wounds (S4 v T3), saves fail: 2 dead
    faces += [6, 6, 2, 2]  # Leadership 12 fails; fall back 4"
    faces += [3, 3]  # sweep roll 6 > 4
    faces += [6, 1]  # rending check: one 6 (automatic wound, no armour save), one plain automatic hit
    faces += [3]  # the plain hit wounds on 3+
    faces += [1]  # its armour save fails (the rending wound has no save: Sv5+ only)
    report = run(attacker, defender, faces, round=2)
    (check,) = rolls(report, "rending check")
    assert check.successes == 1
    assert report.result.defender.lost == 4


def test_some_units_hold_while_others_fall_back() -> None:
    attacker = "4x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+ | 2x Scout: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+ vs=2"
    # One combat (decision 22): the Grots (A0) fight the Marines, who fight the Boyz; the Scouts fight the Grots.
    defender = "3x Boy: WS4 S3 T4 W1 I1 A0 Ld7 Sv- | 3x Grot: WS2 S2 T2 W1 I1 A0 Ld5 Sv- vs=1"
    faces = [4, 4, 1, 1] + [4, 4]  # Marines: 2 hits, 2 wounds: 2 Boys dead
    faces += [1, 1]  # Scouts miss
    faces += [1, 1] + [6, 6, 3, 3]  # the Boys hold; the Grots fail and fall back 6"
    faces += [1, 1]  # the Scouts (all their foes fled) roll to sweep: 2 is not more than 6
    report = run(attacker, defender, faces, round=2)
    assert report.result.outcome == "some_fell_back"
    # Each losing unit's own fate is said (decision 23), not "partly fell back (some units held)" for both.
    assert get_game("40k").table_summary(report).fates == (("Boy", "held"), ("Grot", "fell_back"))
    # The Marines' foes held: no sweep and no consolidation for them; they pile in and fight on.
    assert [r.purpose for r in rolls(report, "sweeping advance")] == ["sweeping advance (Scout)"]
    assert [e.get("unit") for e in events(report, "consolidate")] == ["Scout"]
    assert events(report, "continues")
    assert not events(report, "pile_in")  # every model of the Marines and Boys is in base contact


def test_jump_packs_fall_back_3d6() -> None:
    report = run(
        *LOSE[:1], "5x Raptor: WS3 S3 T3 W1 I1 A1 Ld2 Sv- jump-pack", [*LOSE_FACES, 6, 6, 1, 1, 1, 1, 1], round=2
    )
    assert len(rolls(report, "fall back")[0].dice) == 3


def test_a_sweeping_group_with_no_attacks_does_not_strike() -> None:
    attacker = "2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+ ; 1x Servitor: WS1 S3 T3 W1 I1 A0 Ld8 Sv4+ dies-last"
    faces = [*LOSE_FACES, 6, 6, 1, 1]  # the Guardsmen fail Leadership and fall back 2"
    faces += [3, 3]  # the sweep roll 6 beats 2
    faces += [3, 3]  # the Marines' 2 automatic hits wound on 3+; the Servitor (A0) makes no attack
    report = run(attacker, LOSE[1], faces, round=2)
    sweep_steps = [t for t in titles(report) if t.startswith("Sweeping advance:") and "→" in t]
    assert sweep_steps == ["Sweeping advance: Marine ×2 → Guardsman"]
    assert not events(report, "no_target")
