"""The worked examples of REFERENCE.md section 002, with scripted dice."""

from __future__ import annotations

from rules_core.report import Op, Target
from tests.rules_core.helpers_duel import duel, events, rolls, rounds, score

# Models that cannot wound each other (S1 against T5) keep a round's dice to the attack dice alone.
HARMLESS = "S1 T5 W1 Sv-"


def test_example_1_tied_scores_go_to_the_higher_initiative_for_one_hit() -> None:
    # WS4 charger rolls [5, 2]: 4 + 5 + 1 = 10. WS3 foe rolls [6, 6]: 3 + 6 + 1 critical = 10.
    report = duel(
        "Charger: WS4 S4 T4 W1 I4 A2 Sv- charged",
        "Foe: WS3 S3 T3 W1 I3 A2 Sv-",
        [5, 2, 6, 6, 3],  # attack dice, then one wound roll (S4 v T3: 3+)
    )
    (round_event,) = rounds(report)
    assert (round_event.get("attacker_score"), round_event.get("defender_score")) == (10, 10)
    assert round_event.get("decided_by") == "initiative"
    assert round_event.get("winner") == "attacker"
    assert round_event.get("hits") == 1
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 3)
    assert report.result.outcome == "killed"
    assert report.result.winner == "attacker"


def test_example_1_with_equal_initiative_is_a_stalemate() -> None:
    report = duel("Charger: WS4 S4 T4 W1 I4 A2 Sv- charged", "Foe: WS3 S3 T3 W1 I4 A2 Sv-", [5, 2, 6, 6])
    (round_event,) = rounds(report)
    assert round_event.get("decided_by") == "stalemate"
    assert round_event.get("hits") == 0
    assert report.result.outcome == "stalemate"
    assert report.result.winner == "draw"


def test_example_2_each_fumble_gives_the_opponent_one() -> None:
    report = duel(f"A: WS4 I4 A3 {HARMLESS}", f"B: WS4 I4 A1 {HARMLESS}", [1, 1, 4, 3])
    assert score(report, "B") == 3 + 4 + 2
    assert score(report, "A") == 4 + 4
    fumble = next(ev for ev in events(report, "score") if ev.get("model") == "B")
    assert fumble.get("fumbles") == 2


def test_example_3_the_winner_scores_the_difference_in_hits() -> None:
    # WS5 + 6 = 11 against WS4 + 3 = 7: four hits (S4 v T4: 4+ to wound).
    report = duel("A: WS5 S4 T4 W1 I4 A1 Sv-", "B: WS4 S4 T4 W3 I4 A1 Sv-", [6, 3, 1, 2, 3, 4])
    (round_event,) = rounds(report)
    assert (round_event.get("attacker_score"), round_event.get("defender_score"), round_event.get("hits")) == (11, 7, 4)
    (wound_roll,) = rolls(report, "to wound")
    assert len(wound_roll.dice) == 4
    assert wound_roll.successes == 1
    assert report.result.outcome == "wounded"


def test_example_4_two_parries_against_one_leave_one() -> None:
    # A has two swords (two parries, and +1 die for two Close Combat weapons), B one sword. Even with
    # parry=always, A forces exactly one re-roll: a second one would ask the scripted dice for one more.
    report = duel(
        f"A: WS4 I4 A1 {HARMLESS} sword sword parry=always",
        f"B: WS4 I4 A1 {HARMLESS} sword",
        [3, 2, 5, 6],  # A's two dice, B's die, B's re-rolled die
    )
    (b_dice,) = rolls(report, "attack dice: B")
    assert b_dice.dice == (6,)
    assert [(r.index, r.before, r.after) for r in b_dice.rerolls] == [(0, 5, 6)]
    notes = [str(ev.get("note")) for ev in events(report, "parry")]
    assert any("cancel out" in note and "A keeps 1" in note for note in notes)


def test_example_5_later_foes_in_a_multiple_combat_roll_more_dice() -> None:
    report = duel(
        f"Lone: WS4 I4 A1 {HARMLESS}",
        f"3x Foe: WS3 I3 A1 {HARMLESS}",
        [6, 1, 6, 1, 1, 6, 1, 1, 1],  # round 1: 1 die each; round 2: foe 2 dice; round 3: foe 3 dice
    )
    foe_dice = [len(roll.dice) for roll in rolls(report, "attack dice: Foe")]
    assert foe_dice == [1, 2, 3]
    assert [ev.get("dice") for ev in events(report, "bonus")] == [1, 2]
    assert len(rounds(report)) == 3


def test_example_6_strength_4_against_toughness_4_and_a_minus_1_save_modifier() -> None:
    # The chainsword (S4, -1) against T4 Sv3+: 4+ to wound, 4+ to save.
    report = duel(
        "Marine: WS4 S4 T4 W1 I4 A1 Sv3+ chainsword",
        "Cultist: WS3 S3 T4 W1 I3 A1 Sv3+",
        [3, 3, 5, 4],  # attack dice (7 v 6: one hit); the wound roll; the save
    )
    assert rolls(report, "to wound")[0].target == Target(Op.AT_LEAST, 4)
    assert rolls(report, "armour save")[0].target == Target(Op.AT_LEAST, 4)
    assert report.result.outcome == "stalemate"  # hit, wounded, saved: nobody lost a wound


# --- parry=auto on the worked cases of docs/games/duel.md ("Parries: when auto parries") ----------------------


def _parry_decision(b_dice: list[int], rerolled: list[int]):  # type: ignore[no-untyped-def]
    report = duel(f"A: WS4 I4 A1 {HARMLESS} sword", f"B: WS4 I4 A{len(b_dice)} {HARMLESS}", [2, *b_dice, *rerolled])
    (decision,) = events(report, "parry")
    return report, decision


def test_parry_case_4_3_4_is_not_parried_worse_by_a_third() -> None:
    report, decision = _parry_decision([4, 3, 4], [])
    assert (decision.get("used"), decision.get("expected_now"), decision.get("expected_after")) == (False, 4, 4.3333)
    assert "duplicated" in str(decision.get("note"))
    assert score(report, "B") == 4 + 4


def test_parry_case_6_6_is_parried_better_by_1() -> None:
    report, decision = _parry_decision([6, 6], [6])
    assert (decision.get("used"), decision.get("expected_now"), decision.get("expected_after")) == (True, 7, 6)
    assert score(report, "B") == 6 + 4 + 1  # came back a 6: the critical stands


def test_parry_case_6_2_is_parried_better_by_2_and_a_half() -> None:
    report, decision = _parry_decision([6, 2], [1])
    assert (decision.get("used"), decision.get("expected_now"), decision.get("expected_after")) == (True, 6, 3.5)
    assert "by 2.5" in str(decision.get("note"))
    assert score(report, "B") == 2 + 4
    assert score(report, "A") == 2 + 4 + 1  # the re-rolled 1 is B's fumble


def test_parry_case_3_1_is_not_parried_worse_by_a_third() -> None:
    _, decision = _parry_decision([3, 1], [])
    assert (decision.get("used"), decision.get("expected_now"), decision.get("expected_after")) == (False, 2, 2.3333)
    assert "would worsen A's expected score difference by 0.33" in str(decision.get("note"))
