"""40K corners a second reading of the text found: attacks at a unit destroyed by the regroup test, continued
rounds' positions, grenades=, fall-back and dividing words, a dividing character's WS, front-end neutral errors, and a
sweep that cannot succeed (scripted dice)."""

from __future__ import annotations

import pytest

from rules_core.errors import RefereeError, SpecError
from rules_core.games.wh40k.spec import Grenades, parse_side

from .helpers40k import MARINE, events, rolls, run, strike_titles

GUARD = "5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+"
OGRYN = "3x Ogryn: WS4 S5 T5 W3 I3 A3 Ld6 Sv4+"

# ---------------------------------------------------------------- 1. a target destroyed by the regroup test


def test_attacks_at_a_unit_destroyed_by_the_regroup_test_go_to_an_enemy_unit_in_base_contact() -> None:
    # Guard fail to regroup (12 > Ld7) and are destroyed; the Ogryn regroup (3 <= Ld6) and fight the Marines in
    # base contact, so the Marines fight the Ogryn: 10 attacks (charged) at WS4, all miss; the 9 Ogryn attacks miss.
    faces = [6, 6, 1, 2] + [1] * 10 + [1] * 9
    report = run(f"5x Marine: {MARINE}", f"{GUARD} | {OGRYN}", faces, defender_falling_back=True)
    assert "Initiative 4: Marine ×5 → Ogryn" in strike_titles(report)
    assert not events(report, "no_target")
    (instead,) = events(report, "retarget")
    note = str(instead.get("note"))
    assert "Guard was destroyed before a blow was struck" in note and "Ogryn" in note, note


def test_a_split_share_aimed_at_a_destroyed_unit_goes_to_an_enemy_unit_in_base_contact() -> None:
    # vs=1:3,2:2: 3 Marines fight the Guard (destroyed), 2 the Ogryn: all 5 (10 attacks) fight the Ogryn.
    faces = [6, 6, 1, 2] + [1] * 6 + [1] * 4 + [1] * 9
    report = run(f"5x Marine: {MARINE} vs=1:3,2:2", f"{GUARD} | {OGRYN}", faces, defender_falling_back=True)
    assert [t for t in strike_titles(report) if ": Marine" in t] == [
        "Initiative 4: Marine ×3 → Ogryn",
        "Initiative 4: Marine ×2 → Ogryn",
    ]
    assert not events(report, "no_target")


def test_a_dividing_character_whose_targets_were_all_destroyed_fights_an_enemy_unit_in_base_contact() -> None:
    captain = "1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character vs=1,2"
    faces = [6, 6, 6, 6, 1, 2] + [1] * 4 + [1] * 9  # two Guard units fail, the Ogryn pass; 4 attacks; 9 attacks
    report = run(captain, f"{GUARD} | {GUARD} | {OGRYN}", faces, defender_falling_back=True)
    assert "Initiative 5: Captain ×1 → Ogryn" in strike_titles(report)
    assert not events(report, "no_target")


def test_attacks_are_lost_when_no_other_enemy_unit_is_in_base_contact_and_the_report_says_why() -> None:
    # The Ogryn fight the Sergeant (attacker unit 2): nobody is in base contact with the Marines but the Guard.
    attacker = f"5x Marine: {MARINE} | 1x Sergeant: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    faces = [6, 6, 1, 2] + [1] * 2 + [1] * 9  # Sergeant's 2 attacks; Ogryn's 9
    report = run(attacker, f"{GUARD} | {OGRYN} vs=2", faces, defender_falling_back=True)
    (lost,) = events(report, "no_target")
    note = str(lost.get("note"))
    assert "destroyed before a blow was struck" in note and "no other enemy unit" in note, note


# ---------------------------------------------------------------- 2. a continued round says its positions


def test_a_continued_round_lists_the_positions_it_used() -> None:
    attacker = f"5x Marine: {MARINE} engaged=3 supporting=2"
    defender = "5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+ engaged=2 supporting=1"
    report = run(attacker, defender, [1] * 5 + [1] * 3, round=2)
    assert report.steps[0].title == "Round 2: the combat continues"
    (used,) = events(report, "positions")
    note = str(used.get("note"))
    assert note == (
        'Positions used this round: Marine 3 in base contact, 2 within 2"; '
        'Guard 2 in base contact, 1 within 2", 2 out of reach.'
    ), note
    assert list(used.get("attacker")) == [  # type: ignore[call-overload]
        'Marine 3 in base contact, 2 within 2"'
    ]


def test_the_first_round_lists_no_positions_event() -> None:
    report = run(f"5x Marine: {MARINE}", "5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+", [1] * 10 + [1] * 5)
    assert not events(report, "positions")


# ---------------------------------------------------------------- 3. grenades= needs both kinds


@pytest.mark.parametrize("kit", ["", " frag-grenades", " plasma-grenades"])
def test_grenades_choice_is_refused_unless_the_unit_carries_both_kinds(kit: str) -> None:
    with pytest.raises(SpecError) as refused:
        parse_side(f"5x Marine: {MARINE}{kit} grenades=frag")
    message = str(refused.value)
    assert "grenades=frag" in message and "both" in message, message
    assert refused.value.example is not None and "frag-grenades plasma-grenades grenades=frag" in refused.value.example


def test_grenades_choice_is_kept_when_the_unit_carries_both_kinds() -> None:
    side = parse_side(f"5x Marine: {MARINE} frag-grenades plasma-grenades grenades=frag")
    assert side.units[0].grenades is Grenades.FRAG


# ---------------------------------------------------------------- 4. the fall-back instruction


def test_the_fall_back_instruction_reads_as_one_sentence_and_names_the_base_line() -> None:
    # 5 Marines (charged: 10 attacks) kill 2 of 5 Guard; the Guard miss; they fail Leadership and fall back.
    faces = [4, 4] + [1] * 8 + [3, 3] + [1, 1] + [1] * 3 + [6, 6] + [3, 3] + [1, 1]
    report = run(f"5x Marine: {MARINE}", GUARD, faces, charge_distance=3)
    (fall,) = events(report, "fall_back")
    note = str(fall.get("note"))
    assert "toward its own table edge (or to the base line where it entered the table)," in note, note
    assert "by the shortest route, ignoring enemy models that fought it in close combat this turn." in note, note


# ---------------------------------------------------------------- 5. dividing notes


def test_one_model_dividing_off_fights_in_the_singular() -> None:
    attacker = f"{OGRYN} vs=1:2,2:1"
    defender = f"5x Marine: {MARINE} | 1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character"
    report = run(attacker, defender, [1] * 3 + [1] * 5 + [1] * 6 + [1] * 3, round=2)
    (ogryn,) = [e for e in events(report, "fighting") if e.get("unit") == "Ogryn"]
    note = str(ogryn.get("note"))
    assert "2 Ogryn in base contact fight Marine; 1 Ogryn in base contact fights Captain." in note, note


def test_no_dividing_note_when_one_target_is_left() -> None:
    # A continued round whose other target died: the split names one enemy unit only.
    report = run(
        f"5x Marine: {MARINE} engaged=3 supporting=2 vs=1:3+2",
        "5x Guard: WS3 S3 T3 W1 I3 A1 Ld7 Sv5+",
        [1] * 5 + [1] * 5,
        round=2,
    )
    (marine,) = [e for e in events(report, "fighting") if e.get("unit") == "Marine"]
    assert "Dividing" not in str(marine.get("note")), marine.get("note")


# ---------------------------------------------------------------- 6. a dividing character's to-hit label


def test_a_dividing_character_rolls_to_hit_against_the_hardest_weapon_skill_and_says_so() -> None:
    # WS5 needs 3+ against both WS3 and WS4: the roll is against the hardest WS among them, WS4.
    attacker = f"{GUARD} vs=1:4,2:1 | {OGRYN} vs=2"
    defender = f"5x Marine: {MARINE} | 1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character vs=1,2"
    report = run(attacker, defender, [1] * 22, round=2)
    (captain, *_) = rolls(report, "to hit")
    assert captain.purpose == "to hit (WS5 vs WS4)", captain.purpose


# ---------------------------------------------------------------- 7. neutral error texts


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"shot_this_turn": True}, "shot_this_turn"),
        ({"shot_this_turn": True, "round": 2}, "shot_this_turn"),
        ({"charge_distance": 4, "round": 2}, "charge_distance"),
        ({"difficult_terrain": True}, "charge_distance"),
    ],
)
def test_option_errors_name_the_option_and_carry_no_front_end_command(options: dict[str, object], named: str) -> None:
    with pytest.raises(RefereeError) as refused:
        run(f"5x Marine: {MARINE}", GUARD, [], **options)
    text = f"{refused.value.message} {refused.value.example}"
    assert named in refused.value.message, text
    assert "referee" not in text and "--" not in text and "/assault" not in text, text


def test_shot_this_turn_says_to_leave_it_out_to_charge() -> None:
    with pytest.raises(RefereeError) as refused:
        run(f"5x Marine: {MARINE}", GUARD, [], shot_this_turn=True)
    assert "leave it out to charge" in refused.value.message, refused.value.message


def test_an_unknown_keyword_points_at_no_front_end_command() -> None:
    with pytest.raises(SpecError) as refused:
        parse_side(f"5x Marine: {MARINE} chainsaw")
    assert "referee" not in str(refused.value), str(refused.value)


def test_strike_with_a_weapon_the_group_lacks_says_what_it_can_use() -> None:
    with pytest.raises(SpecError) as refused:
        parse_side(f"5x Marine: {MARINE} strike-with=power-fist")
    assert "'Marine' has no power-fist; it can use strike-with=none." in refused.value.message, refused.value.message
    with pytest.raises(SpecError) as refused:
        parse_side(f"1x Sergeant: {MARINE} power-weapon strike-with=power-fist")
    message = refused.value.message
    assert "'Sergeant' has no power-fist; it can use strike-with=power-weapon or strike-with=none." in message, message


# ---------------------------------------------------------------- 8. a sweep that cannot succeed


def test_a_sweep_against_a_fall_back_of_12_says_it_cannot_beat_it_rather_than_needing_13() -> None:
    # As the fall-back test above, but the Guard roll 12 to fall back: 2D6 cannot beat it (still rolled).
    faces = [4, 4] + [1] * 8 + [3, 3] + [1, 1] + [1] * 3 + [6, 6] + [6, 6] + [5, 6]
    report = run(f"5x Marine: {MARINE}", GUARD, faces, charge_distance=3)
    (sweep,) = rolls(report, "sweeping advance")
    assert sweep.purpose == "sweeping advance (Marine): cannot beat a fall-back roll of 12", sweep.purpose
    assert sweep.target is None and not sweep.successes
    (said,) = events(report, "sweeping_advance")
    assert "cannot beat a fall-back roll of 12" in str(said.get("note")) and not said.get("success")


def test_a_sweep_that_can_succeed_keeps_its_target() -> None:
    faces = [4, 4] + [1] * 8 + [3, 3] + [1, 1] + [1] * 3 + [6, 6] + [5, 6] + [6, 6]
    report = run(f"5x Marine: {MARINE}", GUARD, faces + [1] * 5, charge_distance=3)  # 5 automatic hits miss wounding
    (sweep,) = rolls(report, "sweeping advance")
    assert sweep.target is not None and sweep.target.value == 12 and sweep.successes == 1


def test_the_unit_fought_instead_can_die_before_they_strike_and_the_report_says_so_plainly() -> None:
    # The Guard fail to regroup; the Grot regroups and is in base contact with the Marines, who fight it instead,
    # but the Captain (I5, fighting it) kills it first: the Marines' attacks find nobody within reach.
    attacker = f"5x Marine: {MARINE} | 1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character vs=2"
    defender = f"{GUARD} | 1x Grot: WS1 S1 T1 W1 I1 A1 Ld6 Sv6+"
    faces = [6, 6, 1, 1] + [6, 1, 1, 1] + [6] + [1]  # regroups; the Captain's 4 attacks, 1 wound, failed save
    report = run(attacker, defender, faces, defender_falling_back=True)
    (lost,) = events(report, "no_target")
    assert str(lost.get("note")) == "No model of Grot is left within reach: the attacks are lost."


def test_a_dividing_character_with_one_unit_left_fights_it_alone() -> None:
    captain = "1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character vs=1,2"
    faces = [6, 6, 1, 2] + [1] * 4 + [1] * 9  # Guard fail, Ogryn pass; the Captain's 4 attacks; the Ogryn's 9
    report = run(captain, f"{GUARD} | {OGRYN}", faces, defender_falling_back=True)
    assert "Initiative 5: Captain ×1 → Ogryn" in strike_titles(report)
    (fighting,) = [e for e in events(report, "fighting") if e.get("unit") == "Captain"]
    assert "divides" not in str(fighting.get("note")), fighting.get("note")
