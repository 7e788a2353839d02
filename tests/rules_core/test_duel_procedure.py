"""The duel's procedure, one rule at a time, with scripted dice."""

from __future__ import annotations

import pytest

from rules_core import OptionError, SpecError
from rules_core.odds import odds
from rules_core.report import Op, Target
from tests.rules_core.helpers_duel import GAME, duel, events, rolls, rounds, score

# Models that cannot wound each other (S1 against T5) keep a round's dice to the attack dice alone.
HARMLESS = "S1 T5 W1 Sv-"


def notes(report, kind: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(ev.get("note")) for ev in events(report, kind)]


# --- parries -------------------------------------------------------------------------------------------------


def test_auto_parries_a_lone_4_the_re_roll_lowering_its_worth_by_two_thirds() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A1 {HARMLESS}", [2, 4, 1])
    (b_dice,) = rolls(report, "attack dice: B")
    assert b_dice.dice == (1,)
    assert [(r.before, r.after) for r in b_dice.rerolls] == [(4, 1)]
    assert score(report, "B") == 1 + 4
    assert score(report, "A") == 2 + 4 + 1  # B's re-rolled 1 is a fumble
    assert "improves A's expected score difference by 0.67" in notes(report, "parry")[0]


def test_auto_does_not_parry_a_lone_3() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A1 {HARMLESS}", [2, 3])
    assert rolls(report, "attack dice: B")[0].rerolls == ()
    assert any("does not parry" in note for note in notes(report, "parry"))


def test_auto_does_not_parry_a_duplicated_highest_die() -> None:
    # [4, 3, 4]: re-rolling a 4 leaves the other 4; it can only raise B's score or turn up a fumble (4 1/3 > 4).
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A3 {HARMLESS}", [2, 4, 3, 4])
    assert rolls(report, "attack dice: B")[0].rerolls == ()
    (note,) = notes(report, "parry")
    assert "does not parry" in note and "duplicated" in note and "worsen" in note and "by 0.33" in note
    (decision,) = events(report, "parry")
    assert decision.get("used") is False
    assert decision.get("expected_now") == 4
    assert decision.get("expected_after") == pytest.approx(13 / 3, abs=1e-4)


def test_auto_parries_a_double_6_the_re_roll_can_lose_the_critical() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A2 {HARMLESS}", [2, 6, 6, 3])
    assert [(r.before, r.after) for r in rolls(report, "attack dice: B")[0].rerolls] == [(6, 3)]
    assert score(report, "B") == 6 + 4  # the critical is gone
    (note,) = notes(report, "parry")
    assert "parries" in note and "by 1 " in note


def test_auto_does_not_parry_on_equal_expectation() -> None:
    # [5, 5]: a re-rolled 1 is a fumble (-1), a 6 raises the score (+1), the rest change nothing: 5 either way.
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A2 {HARMLESS}", [2, 5, 5])
    assert rolls(report, "attack dice: B")[0].rerolls == ()
    (note,) = notes(report, "parry")
    assert "does not parry" in note and "unchanged" in note and "optional" in note


def test_auto_with_two_parries_counts_the_second_and_stops_when_a_re_roll_no_longer_pays() -> None:
    # Two swords: two parries. [4, 3, 4] is worth parrying with a second parry behind it (3 31/36 < 4); the 4
    # comes back a 4, and with one parry left [4, 3, 4] is no longer worth it.
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword sword", f"B: WS4 I4 A3 {HARMLESS}", [2, 2, 4, 3, 4, 4])
    assert [(r.before, r.after) for r in rolls(report, "attack dice: B")[0].rerolls] == [(4, 4)]
    first, second = notes(report, "parry")
    assert "parries" in first and "the parry still left" in first and "by 0.14" in first
    assert "does not parry" in second and "duplicated" in second


def test_auto_with_two_parries_re_rolls_a_3_and_then_the_5_it_became() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword sword", f"B: WS4 I4 A2 {HARMLESS}", [2, 2, 3, 1, 5, 2])
    assert [(r.before, r.after) for r in rolls(report, "attack dice: B")[0].rerolls] == [(3, 5), (5, 2)]
    assert score(report, "B") == 2 + 4
    assert score(report, "A") == 2 + 4 + 1


def test_always_parries_even_a_low_die_and_the_new_result_stands_even_if_better() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword parry=always", f"B: WS4 I4 A1 {HARMLESS}", [2, 1, 5])
    assert rolls(report, "attack dice: B")[0].dice == (5,)
    assert score(report, "B") == 5 + 4
    assert score(report, "A") == 2 + 4  # the fumble was parried away


def test_never_declines_a_parry() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword parry=never", f"B: WS4 I4 A1 {HARMLESS}", [2, 6])
    assert rolls(report, "attack dice: B")[0].rerolls == ()
    assert any("parry=never" in note for note in notes(report, "parry"))


def test_equal_parries_cancel_out() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword parry=always", f"B: WS4 I4 A1 {HARMLESS} sword parry=always", [2, 6])
    assert all(roll.rerolls == () for roll in rolls(report, "attack dice"))
    assert any("cancel out" in note for note in notes(report, "parry"))


def test_two_usable_parries_re_roll_the_highest_die_twice() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword sword parry=always", f"B: WS4 I4 A1 {HARMLESS}", [2, 2, 6, 5, 4])
    (b_dice,) = rolls(report, "attack dice: B")
    assert b_dice.dice == (4,)
    assert [(r.before, r.after) for r in b_dice.rerolls] == [(6, 5), (5, 4)]


def test_a_parry_re_rolls_the_highest_of_several_dice() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A3 {HARMLESS}", [2, 2, 6, 3, 1])
    (b_dice,) = rolls(report, "attack dice: B")
    assert b_dice.dice == (2, 1, 3)
    assert [(r.index, r.before, r.after) for r in b_dice.rerolls] == [(1, 6, 1)]
    assert score(report, "A") == 2 + 4 + 1  # the re-rolled 1 is a fumble: counted after the parry


# --- fumbles and criticals -----------------------------------------------------------------------------------


def test_every_6_after_the_first_is_a_critical_and_every_1_a_fumble() -> None:
    report = duel(f"A: WS4 I4 A3 {HARMLESS}", f"B: WS4 I4 A2 {HARMLESS}", [6, 6, 6, 1, 1])
    a = next(ev for ev in events(report, "score") if ev.get("model") == "A")
    assert (a.get("criticals"), a.get("fumbles"), a.get("score")) == (2, 2, 6 + 4 + 2 + 2)
    assert score(report, "B") == 1 + 4


def test_a_single_6_is_not_a_critical() -> None:
    report = duel(f"A: WS4 I4 A2 {HARMLESS}", f"B: WS4 I4 A1 {HARMLESS}", [6, 5, 3])
    assert score(report, "A") == 6 + 4


# --- modifiers, ties -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "modifier"),
    [("charged", 1), ("high-ground", 1), ("encumbered", -1), ("charged obstacle", 0), ("charged high-ground", 2)],
)
def test_combat_score_modifiers(flags: str, modifier: int) -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} {flags}", f"B: WS4 I4 A1 {HARMLESS}", [3, 3])
    assert score(report, "A") == 3 + 4 + modifier


def test_a_tie_goes_to_the_defender_when_it_has_the_higher_initiative() -> None:
    report = duel("A: WS4 S4 T4 W1 I3 A1 Sv-", "B: WS4 S4 T4 W1 I5 A1 Sv-", [3, 3, 2])
    (round_event,) = rounds(report)
    assert (round_event.get("winner"), round_event.get("hits"), round_event.get("decided_by")) == (
        "defender",
        1,
        "initiative",
    )
    assert len(rolls(report, "to wound")[0].dice) == 1


# --- breaking off --------------------------------------------------------------------------------------------


def test_breaking_off_fights_at_ws_0_cannot_parry_and_escapes_2d6() -> None:
    report = duel(
        f"A: WS5 I4 A1 {HARMLESS} sword breaking-off",
        f"B: WS4 I4 A1 {HARMLESS} sword",
        [5, 2, 3, 3, 4],  # A's die, B's die, B's parry re-roll of A's 5, A's escape 2D6
    )
    assert rolls(report, "attack dice: A")[0].dice == (3,)
    assert score(report, "A") == 3 + 0
    assert any("breaking off and may not parry" in note for note in notes(report, "parry"))
    (escape,) = events(report, "broke_off")
    assert escape.get("inches") == 7
    assert report.result.outcome == "broke_off"
    assert report.result.attacker.extra["broken"] is True
    assert report.result.defender.extra["broken"] is False


def test_a_model_slain_while_breaking_off_does_not_escape() -> None:
    report = duel("A: WS4 S4 T4 W1 I4 A1 Sv- breaking-off", "B: WS4 S4 T4 W1 I4 A1 Sv-", [3, 3, 6, 1, 1, 1])
    assert events(report, "broke_off") == []
    assert report.result.outcome == "killed"
    assert report.result.attacker.extra["broken"] is False


def test_a_lone_model_breaking_off_fights_every_round_at_ws_0_and_escapes_once() -> None:
    report = duel(
        f"Lone: WS6 I4 A1 {HARMLESS} breaking-off",
        f"2x Foe: WS3 I3 A1 {HARMLESS}",
        [6, 1, 6, 1, 1, 2, 2],
    )
    assert [score(report, "Lone", n) for n in (1, 2)] == [6 + 0 + 1, 6 + 0 + 2]
    assert [ev.get("inches") for ev in events(report, "broke_off")] == [4]


def test_a_model_breaking_off_that_kills_its_opponent_escapes_away_from_where_it_fell() -> None:
    # Issue 33 (review finding 3): the escape it declared stands (decision 10), and its note says its opponent is
    # slain: it moves away from where its opponent fell, not "from its attacker", and makes no Follow-Up Move.
    report = duel("A: WS4 S4 T4 W1 I4 A1 Sv- breaking-off", "B: WS1 S4 T4 W1 I4 A1 Sv-", [6, 2, 4, 1, 1, 3, 4])
    (escape,) = events(report, "broke_off")
    assert escape.get("inches") == 7
    assert escape.get("away_from") == "where B fell"
    note = str(escape.get("note"))
    assert "it has slain B" in note and 'moves 7" directly away from where B fell' in note
    assert "no Follow-Up Move" in note
    assert events(report, "follow_up") == []
    assert report.result.attacker.extra["broken"] is True


def test_the_option_lets_a_model_breaking_off_that_kills_all_its_opponents_follow_up_instead() -> None:
    # The other reading (breaking_off_kill=follow_up): with no opponent left there is nothing to escape from.
    report = duel(
        "A: WS4 S4 T4 W1 I4 A1 Sv- breaking-off",
        "B: WS1 S4 T4 W1 I4 A1 Sv-",
        [6, 2, 4, 1, 1],  # no 2D6 escape roll
        breaking_off_kill="follow_up",
    )
    assert events(report, "broke_off") == []
    (follow,) = events(report, "follow_up")
    assert "nothing left to escape from" in str(follow.get("note"))
    assert report.result.attacker.extra["broken"] is False
    assert report.result.attacker.extra["models"][0]["status"] == "fought"


def test_with_the_option_a_model_breaking_off_that_does_not_kill_still_escapes() -> None:
    report = duel(
        f"A: WS5 I4 A1 {HARMLESS} sword breaking-off",
        f"B: WS4 I4 A1 {HARMLESS} sword",
        [5, 2, 3, 3, 4],
        breaking_off_kill="follow_up",
    )
    (escape,) = events(report, "broke_off")
    assert escape.get("inches") == 7 and escape.get("away_from") == "its attacker"


# --- multiple combat -----------------------------------------------------------------------------------------


def test_when_the_lone_model_dies_the_rest_do_not_fight_and_only_its_killer_may_follow_up() -> None:
    report = duel(
        "Lone: WS3 S3 T3 W1 I3 A1 Sv-",
        "3x Foe: WS3 S3 T3 W1 I3 A1 Sv-",
        [3, 3, 3, 6, 4, 4, 1, 1],  # round 1: a stalemate; round 2: Foe 2 (two dice) wins 9 to 6, 3 hits, 1 wounds
    )
    assert len(rounds(report)) == 2
    assert report.result.defender.lost == 0
    assert report.result.attacker.lost == 1
    statuses = [m["status"] for m in report.result.defender.extra["models"]]
    assert statuses == ["fought", "fought", "did_not_fight"]
    # "If a model has killed all of its Hand-to-Hand Combat opponents, it may immediately make a Follow-Up Move":
    # Foe 2 killed the lone model; Foe 1 fought it to a stalemate and Foe 3 never fought, so neither killed anyone.
    follow = notes(report, "follow_up")
    assert [ev.get("model") for ev in events(report, "follow_up")] == ["Foe 2"]
    assert follow[0].startswith("Foe 2 has killed all its opponents")
    told = notes(report, "instruction")
    assert any(note.startswith("Foe 1's opponent, Lone, was slain by Foe 2") for note in told)
    assert any("Foe 3 did not fight" in note for note in told)
    assert not any("may make a Follow-Up Move" in note for note in told)


def test_several_attackers_against_a_lone_defender_fight_in_the_attackers_order() -> None:
    report = duel(
        f"First: WS3 I3 A1 {HARMLESS} | Second: WS3 I3 A1 {HARMLESS}",
        f"Lone: WS3 I3 A1 {HARMLESS}",
        [2, 2, 2, 2, 2],  # round 1: one die each; round 2: Second rolls 2
    )
    assert [ev.get("attacker_model") for ev in rounds(report)] == ["First 1", "Second 2"]  # places in the side
    assert [len(r.dice) for r in rolls(report, "attack dice: Second")] == [2]


def test_both_sides_with_several_models_is_refused() -> None:
    with pytest.raises(SpecError, match="one against several"):
        duel(f"2x A: WS3 I3 A1 {HARMLESS}", f"2x B: WS3 I3 A1 {HARMLESS}", [])


@pytest.mark.parametrize(
    ("attacker", "defender", "token"),
    [
        (f"A: WS4 I4 A1 {HARMLESS} charged", f"B: WS4 I4 A1 {HARMLESS} charged", "charged"),
        (f"A: WS4 I4 A1 {HARMLESS} high-ground", f"B: WS4 I4 A1 {HARMLESS} high-ground", "high-ground"),
        # The lone model meets every foe: one foe on higher ground than it contradicts its own high ground.
        (
            f"A: WS4 I4 A1 {HARMLESS} | B: WS4 I4 A1 {HARMLESS} high-ground",
            f"L: WS4 I4 A1 {HARMLESS} high-ground",
            "high-ground",
        ),
        # obstacle means it charged (it needs charged): the other side cannot have charged too.
        (f"A: WS4 I4 A1 {HARMLESS} charged obstacle", f"B: WS4 I4 A1 {HARMLESS} charged", "charged"),
    ],
)
def test_contradictory_situations_are_refused_with_an_example(attacker: str, defender: str, token: str) -> None:
    with pytest.raises(SpecError) as caught:
        duel(attacker, defender, [])
    assert caught.value.token == token
    assert caught.value.example is not None and token in caught.value.example
    assert "attacker" in caught.value.message.lower() and "defender" in caught.value.message.lower()


def test_the_odds_refuse_contradictory_situations_too() -> None:
    with pytest.raises(SpecError, match="charged"):
        odds(GAME, f"A: WS4 I4 A1 {HARMLESS} charged", f"B: WS4 I4 A1 {HARMLESS} charged")
    with pytest.raises(SpecError, match="one against several"):
        odds(GAME, f"2x A: WS3 I3 A1 {HARMLESS}", f"2x B: WS3 I3 A1 {HARMLESS}")


def test_one_side_charged_the_other_on_high_ground_is_fine() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} charged", f"B: WS4 I4 A1 {HARMLESS} high-ground", [3, 3])
    assert score(report, "A") == score(report, "B") == 3 + 4 + 1


# --- hits, wounds, saves, damage -----------------------------------------------------------------------------


def test_d3_damage_against_a_multi_wound_model_stops_when_it_dies() -> None:
    report = duel(
        "A: WS5 S4 T4 W1 I4 A1 Sv- weapon=axe/S=user/dmg=D3/sv=-1/cc",
        "B: WS3 S3 T4 W3 I3 A1 Sv6+",
        [5, 5, 4, 4, 5],  # 10 v 8: 2 hits; both wound; no saves possible (6+ -1); the first D3 (a 3) slays B
    )
    (damage,) = rolls(report, "damage")
    assert damage.dice == (5,)
    (wounds,) = events(report, "wounds")
    assert (wounds.get("wounds"), wounds.get("left")) == (3, 0)
    assert "1 further unsaved wound is lost" in str(wounds.get("note"))
    assert report.result.attacker.extra["wounds_inflicted"] == 3
    assert report.result.outcome == "killed"


def test_fixed_damage_above_the_wounds_left_counts_only_the_wounds_lost() -> None:
    report = duel(
        "A: WS6 S4 T4 W1 I4 A1 Sv- weapon=maul/S=user/dmg=2/cc",
        "B: WS3 S3 T4 W3 I3 A1 Sv-",
        [5, 6, 4, 4],  # 11 v 9: 2 hits; both wound: 2 + 2 damage on 3 wounds
    )
    assert report.result.attacker.extra["wounds_inflicted"] == 3
    assert report.result.defender.extra["models"][0]["wounds_left"] == 0


def test_d6_damage_reads_the_die_and_a_surviving_model_keeps_its_wounds() -> None:
    report = duel(
        "A: WS6 S4 T4 W1 I4 A1 Sv- weapon=lance/S=user/dmg=D6/cc",
        "B: WS3 S3 T4 W10 I3 A1 Sv-",
        [4, 6, 4, 2],  # 10 v 9: 1 hit, wounds, D6 damage of 2
    )
    assert report.result.defender.extra["models"][0]["wounds_left"] == 8
    assert report.result.outcome == "wounded"
    assert report.result.winner == "attacker"


@pytest.mark.parametrize(
    ("attacker", "options", "save_needed"),
    [
        ("S4 sword", {}, 4),  # S4, no listed modifier: -1 from the Strength table
        ("S4 sword", {"strength_save_table": "none"}, 3),
        ("S3 sword", {}, 3),
        ("S5", {}, 5),  # no weapon: its own Strength, -2
        ("S3 weapon=blade/S+2/cc", {}, 5),  # S5 from the weapon, no listed modifier: -2
        ("S3 chainsword", {"strength_save_table": "none"}, 4),  # the weapon's own -1 applies either way
        # The laspistol lists no save modifier (BSData wh40k-2nd-edition, Wargear p16: "-"): its S3 takes 0 from the
        # Strength table, whatever its user's Strength.
        ("S4 laspistol", {}, 3),
        ("S4 autopistol", {}, 3),
    ],
)
def test_save_modifiers_come_from_the_weapon_or_the_strength_table(
    attacker: str, options: dict[str, object], save_needed: int
) -> None:
    report = duel(
        f"A: WS4 T4 W1 I4 A1 Sv- {attacker}",
        "B: WS3 S3 T3 W1 I3 A1 Sv3+",
        [3, 3, 6, 6],  # 7 v 6: 1 hit; it wounds; the save is made
        **options,
    )
    assert rolls(report, "armour save")[0].target == Target(Op.AT_LEAST, save_needed)


def test_a_save_needing_more_than_6_is_not_rolled() -> None:
    report = duel("A: WS4 S4 T4 W1 I4 A1 Sv- power-fist", "B: WS3 S3 T3 W1 I3 A1 Sv3+", [3, 3, 2])
    assert rolls(report, "armour save") == []
    assert any("no save is possible" in note for note in notes(report, "no_save"))
    assert report.result.outcome == "killed"


def test_a_strength_four_below_the_toughness_cannot_wound() -> None:
    report = duel("A: WS4 S3 T4 W1 I4 A1 Sv-", "B: WS3 S3 T7 W1 I3 A1 Sv-", [6, 1])
    assert rolls(report, "to wound") == []
    assert notes(report, "no_effect")


# --- weapons -------------------------------------------------------------------------------------------------


def test_the_default_weapon_is_the_best_against_this_opponent() -> None:
    report = duel(
        "A: WS4 S4 T4 W1 I4 A1 Sv- bolt-pistol power-sword",
        "B: WS3 S3 T4 W1 I3 A1 Sv3+",
        [2, 2, 2, 3, 6],  # A's two dice (two Close Combat weapons), B's die; 6 v 5: 1 hit; wounds; saved on 6+
    )
    (strike,) = events(report, "strike")
    assert "power-sword" in str(strike.get("note"))
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 3)  # S5 v T4


def test_weapon_choice_picks_the_weapon() -> None:
    report = duel(
        "A: WS4 S4 T4 W1 I4 A1 Sv- bolt-pistol power-sword weapon-choice=bolt-pistol",
        "B: WS3 S3 T4 W1 I3 A1 Sv3+",
        [2, 2, 2, 3],
    )
    assert "bolt-pistol" in str(events(report, "strike")[0].get("note"))
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 4)


def test_a_model_with_no_close_combat_weapon_strikes_with_its_own_strength() -> None:
    report = duel("A: WS4 S4 T4 W1 I4 A1 Sv- bolter", "B: WS3 S3 T3 W1 I3 A1 Sv-", [3, 3, 2])
    assert "own Strength S4" in str(events(report, "strike")[0].get("note"))
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 3)
    assert [len(r.dice) for r in rolls(report, "attack dice: A")] == [1]  # a bolter is not a Close Combat weapon


def test_an_inline_weapon_with_relative_strength_damage_and_parry() -> None:
    report = duel(
        "A: WS4 S4 T4 W1 I4 A1 Sv- weapon=claw/S+1/dmg=D3/sv=-1/parry/cc parry=always",
        "B: WS3 S3 T5 W3 I3 A1 Sv4+",
        [4, 2, 3, 4, 1, 2, 6],  # A 8; B's 2 parried to 3: 6; 2 hits at S5 v T5 (4+): one wounds; 5+ save fails
    )
    assert rolls(report, "attack dice: B")[0].rerolls
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 4)
    assert rolls(report, "armour save")[0].target == Target(Op.AT_LEAST, 5)
    (damage,) = rolls(report, "damage")
    assert damage.purpose.startswith("damage D3")
    assert report.result.defender.extra["models"][0]["wounds_left"] == 0


def test_two_close_combat_weapons_give_one_more_attack_die() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS} chainsword bolt-pistol", f"B: WS4 I4 A1 {HARMLESS}", [2, 2, 2])
    assert [len(r.dice) for r in rolls(report, "attack dice: A")] == [2]


def test_an_unknown_option_value_names_the_option() -> None:
    with pytest.raises(OptionError, match="strength_save_table"):
        duel(f"A: WS4 I4 A1 {HARMLESS}", f"B: WS4 I4 A1 {HARMLESS}", [], strength_save_table="40k")


def test_a_model_whose_opponent_fell_to_another_is_not_said_to_have_killed_it() -> None:
    from bot.data import catalogue
    from rules_core import resolve

    # Seed 3: the Sergeant wins round 1 against Ork Boy 1 and is later slain by the Nob, not by Ork Boy 1.
    sergeant = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
    orks = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife | Nob: WS4 S4 T4 W2 I3 A2 Sv5+ weapon=choppa/S+1/dmg=1/sv=-1/cc"
    report = resolve(catalogue().game("duel"), sergeant, orks, seed=3)
    follow = [str(ev.get("note")) for step in report.steps for ev in step.events if ev.kind == "follow_up"]
    assert [note.split(" has killed")[0] for note in follow] == ["Nob 4"]  # the 4th model of its side
    notes = [str(ev.get("note")) for step in report.steps for ev in step.events]
    assert any(note.startswith("Ork Boy 1's opponent, Marine Sergeant, was slain by Nob 4") for note in notes)
    assert not any(note.startswith("Ork Boy 1") and "may make a Follow-Up Move" in note for note in notes)


# --- high ground, pair by pair -------------------------------------------------------------------------------


def test_the_lone_model_has_the_high_ground_over_the_opponents_it_names_only() -> None:
    # "+1 If the player's model has the High Ground" is between two models: above Foe 2, level with Foes 1 and 3.
    report = duel(
        f"Lone: WS4 I4 A1 {HARMLESS} high-ground=2",
        f"3x Foe: WS4 I4 A1 {HARMLESS}",
        [3, 3, 3, 3, 3, 3, 3, 3, 3],  # one die against one, two, then three (all 3s: no fumble, no critical)
    )
    assert [score(report, "Lone", n) for n in (1, 2, 3)] == [7, 8, 7]
    assert [score(report, f"Foe {n}") for n in (1, 2, 3)] == [7, 7, 7]
    assert [ev.get("winner") for ev in rounds(report)] == ["none", "attacker", "none"]
    assert "high-ground=2" in report.inputs.attacker


def test_the_models_of_a_side_of_several_are_numbered_as_high_ground_numbers_them() -> None:
    # Issue 33 (review finding 5): "Boy | 2x Boy" read Boy, Boy 1, Boy 2, so high-ground=2 landed on "Boy 1". Each
    # model of a side of several now carries its place in the side: the number high-ground=N names.
    report = duel(
        f"Lone: WS4 I4 A1 {HARMLESS} high-ground=2",
        f"Boy: WS4 I4 A1 {HARMLESS} | 2x Boy: WS4 I4 A1 {HARMLESS}",
        [3, 3, 3, 3, 3, 3, 3, 3, 3],
    )
    names = [m["name"] for m in report.result.defender.extra["models"]]
    assert names == ["Boy 1", "Boy 2", "Boy 3"]
    assert [ev.get("winner") for ev in rounds(report)] == ["none", "attacker", "none"]  # above Boy 2 only
    assert [step.title for step in report.steps][1].startswith("Round 2: Lone 8 v 7 Boy 2")
    report = duel(f"Nob: WS4 I4 A1 {HARMLESS} | 2x Boy: WS4 I4 A1 {HARMLESS}", f"L: WS4 I4 A1 {HARMLESS}",
                  [3, 3, 3, 3, 3, 3, 3, 3, 3])  # fmt: skip
    assert [m["name"] for m in report.result.attacker.extra["models"]] == ["Nob 1", "Boy 2", "Boy 3"]
    assert [m["name"] for m in report.result.defender.extra["models"]] == ["L"]


def test_a_foe_on_the_high_ground_beside_the_lone_models_own_high_ground_over_another() -> None:
    report = duel(
        f"A: WS4 I4 A1 {HARMLESS} | B: WS4 I4 A1 {HARMLESS} high-ground",
        f"L: WS4 I4 A1 {HARMLESS} high-ground=1",
        [3, 3, 3, 3, 3],
    )
    assert [score(report, "L", n) for n in (1, 2)] == [8, 7]
    assert (score(report, "A 1"), score(report, "B 2")) == (7, 8)


def test_high_ground_numbers_in_a_one_against_one_duel() -> None:
    report = duel(f"A: WS4 I4 A1 {HARMLESS}", f"B: WS4 I4 A1 {HARMLESS} high-ground=1", [3, 3])
    assert (score(report, "A"), score(report, "B")) == (7, 8)


@pytest.mark.parametrize(
    ("attacker", "defender", "says"),
    [
        # The pair L and its 2nd opponent: both cannot stand above the other.
        (f"L: WS4 I4 A1 {HARMLESS} high-ground=2", f"F: WS4 I4 A1 {HARMLESS} | G: WS4 I4 A1 {HARMLESS} high-ground",
         "L and G"),
        (f"L: WS4 I4 A1 {HARMLESS} high-ground=3", f"2x F: WS4 I4 A1 {HARMLESS}", "2 opponents"),
        (f"2x F: WS4 I4 A1 {HARMLESS} high-ground=1", f"L: WS4 I4 A1 {HARMLESS}", "one opponent"),
    ],
)  # fmt: skip
def test_high_ground_per_opponent_contradictions_are_refused_with_an_example(
    attacker: str, defender: str, says: str
) -> None:
    with pytest.raises(SpecError, match=says) as caught:
        duel(attacker, defender, [])
    assert caught.value.example is not None and "high-ground" in caught.value.example
    with pytest.raises(SpecError, match=says):
        odds(GAME, attacker, defender)


@pytest.mark.parametrize(
    ("attacker", "defender", "side"),
    [
        (f"2x F: WS4 I4 A1 {HARMLESS} high-ground=1", f"L: WS4 I4 A1 {HARMLESS}", "attacker"),
        (f"L: WS4 I4 A1 {HARMLESS}", f"2x F: WS4 I4 A1 {HARMLESS} high-ground=1", "defender"),
        (f"L: WS4 I4 A1 {HARMLESS} high-ground=3", f"2x F: WS4 I4 A1 {HARMLESS}", "attacker"),
        (f"2x F: WS4 I4 A1 {HARMLESS}", f"L: WS4 I4 A1 {HARMLESS} high-ground=3", "defender"),
        (f"L: WS4 I4 A1 {HARMLESS} high-ground=2", f"F: WS4 I4 A1 {HARMLESS} | G: WS4 I4 A1 {HARMLESS} high-ground",
         "attacker"),
        (f"F: WS4 I4 A1 {HARMLESS} | G: WS4 I4 A1 {HARMLESS} high-ground", f"L: WS4 I4 A1 {HARMLESS} high-ground=2",
         "defender"),
    ],
)  # fmt: skip
def test_a_high_ground_refusal_shows_its_example_on_the_side_the_player_wrote_it_on(
    attacker: str, defender: str, side: str
) -> None:
    # Issue 33 (review finding 5): high-ground=1 on an attacking side of several showed a defender's example.
    with pytest.raises(SpecError) as caught:
        duel(attacker, defender, [])
    example = str(caught.value.example)
    where = example.index("high-ground=" if "high-ground=" in example else "high-ground")  # the token refused
    assert example.rfind(f"{side} '", 0, where) == max(example.rfind("attacker '", 0, where),
                                                        example.rfind("defender '", 0, where)), example  # fmt: skip
    assert example.startswith("attacker '"), example  # the attacker first, as the command line reads


@pytest.mark.parametrize(
    ("flags", "says"),
    [("high-ground=0", "1 to 10"), ("high-ground=x", "1 to 10"), ("high-ground=1,1", "twice"),
     ("high-ground high-ground=1", "both")],
)  # fmt: skip
def test_a_high_ground_list_that_does_not_read_is_refused(flags: str, says: str) -> None:
    with pytest.raises(SpecError, match=says) as caught:
        duel(f"L: WS4 I4 A1 {HARMLESS} {flags}", f"F: WS4 I4 A1 {HARMLESS}", [])
    assert caught.value.example is not None and "high-ground=" in caught.value.example


# --- what each roll is for, as data ---------------------------------------------------------------------------


def test_every_roll_says_its_kind_and_the_side_it_is_rolled_for() -> None:
    from rules_core.report import SideName

    a, d = SideName.ATTACKER, SideName.DEFENDER
    # A [6] v B [2]: 10 v 6, 4 hits; to wound 4 6 1 2 (S4 v T4, 4+); saves 1 1 (Sv4+ -1: 5+); D3 damage 6 = 3.
    report = duel(
        "A: WS4 S4 T4 W1 I4 A1 Sv- weapon=axe/S4/dmg=D3/sv=-1/cc",
        "B: WS4 S3 T4 W2 I4 A1 Sv4+",
        [6, 2, 4, 6, 1, 2, 1, 1, 6],
    )
    tagged = [(roll.kind, roll.side) for step in report.steps for roll in step.rolls]
    assert tagged == [("attack_dice", a), ("attack_dice", d), ("to_wound", a), ("save", d), ("damage", a)]
    # The attacker wins against B breaking off at WS 0, its hits cannot wound, and B escapes 2D6".
    report = duel(f"A: WS4 I4 A1 {HARMLESS}", f"B: WS4 I4 A1 {HARMLESS} breaking-off", [3, 3, 3, 4])
    tagged = [(roll.kind, roll.side) for step in report.steps for roll in step.rolls]
    assert tagged == [("attack_dice", a), ("attack_dice", d), ("break_off_distance", d)]
    assert {kind for kind, _ in tagged} <= set(GAME.roll_kinds)
