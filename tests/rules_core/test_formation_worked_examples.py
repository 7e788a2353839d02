"""REFERENCE.md section 001 (Epic: Armageddon) worked examples 1, 3 and 4, and all of section 004 (Reikhammer).

Dice order (docs/games/epic.md): attacks (attacker's groups, then defender's), saves, supporting fire, then the
result rolls (attacker's 2D6, then defender's).
"""

from __future__ import annotations

import pytest

from tests.rules_core.helpers_formation import casualties, events, modifier_total, modifiers, rolls, run

# --------------------------------------------------------------------------- Epic: Armageddon (001)


@pytest.mark.parametrize(("face", "hit"), [(4, True), (3, False), (6, True), (1, False)])
def test_epic_example_1_a_cc4_unit_hits_on_4_or_more_with_no_modifier(face: int, hit: bool) -> None:
    # 001 example 1: CC 4+ rolls 4 -> hit, 3 -> miss; no modifier (not cover, not Blast markers) may change it.
    report = run(
        "epic",
        "1x Assault Marine: CC4+ FF5+ Sv4+ INF",
        "1x Guardsman: CC6+ FF5+ Sv- INF cover=4+",
        [face, 1, *([6] if hit else []), 1, 1, 1, 1],  # attack, defender's attack, a saving cover roll if hit, result
        attacker_blast_markers=3,
        defender_blast_markers=3,
        max_rounds=1,
    )
    (attack,) = rolls(report, "to hit: Assault Marine")
    assert attack.target is not None
    assert (attack.target.op, attack.target.value) == (">=", 4)
    assert attack.successes == int(hit)


EXAMPLE_3_ATTACKER = "7x Tactical: CC4+ FF4+ Sv- INF"
EXAMPLE_3_DEFENDER = "6x Guardians: CC4+ FF4+ Sv- INF"
# The attacker's 7 attacks hit 3 times, the defender's 6 attacks once; no saves: 3 and 1 units destroyed.
EXAMPLE_3_ATTACKS = [4, 5, 6, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1]


def test_epic_example_3_modifiers_and_highest_die_result() -> None:
    # Attacker kills 3, has 6 left, 0 BMs; defender kills 1, 3 left, 2 BMs. Dice [2,5] vs [6,3].
    report = run(
        "epic", EXAMPLE_3_ATTACKER, EXAMPLE_3_DEFENDER, [*EXAMPLE_3_ATTACKS, 2, 5, 6, 3], defender_blast_markers=2
    )
    assert casualties(report, "defender") - 3 == 3  # 3 in the fight, then 3 more from the extra hits
    reasons = [item["reason"] for item in modifiers(report, "attacker")]
    assert reasons == [
        "3 enemy units destroyed",
        "more units remaining",
        "no Blast markers",
        "fewer Blast markers than the enemy",
    ]  # 6 is not *more than* twice 3: no +1 for that
    assert modifier_total(report, "attacker") == 6
    assert modifier_total(report, "defender") == 1
    result = report.result
    assert (result.attacker.extra["score"], result.defender.extra["score"]) == (11, 7)
    (decision,) = events(report, "result")
    assert decision.get("winner") == "attacker"
    assert decision.get("difference") == 4
    # Four unsaveable hits on three units left: all three go (the example's "breaks, withdraws" needs survivors).
    assert result.winner == "attacker"
    assert result.defender.remaining == 0
    assert result.outcome == "destroyed"


def test_epic_example_3_with_the_sum_of_both_dice() -> None:
    report = run(
        "epic",
        EXAMPLE_3_ATTACKER,
        EXAMPLE_3_DEFENDER,
        [*EXAMPLE_3_ATTACKS, 2, 5, 6, 3],
        defender_blast_markers=2,
        result_dice="sum",
    )
    assert (report.result.attacker.extra["score"], report.result.defender.extra["score"]) == (13, 10)
    (decision,) = events(report, "result")
    assert decision.get("difference") == 3
    assert all(roll.combine == "sum" for roll in rolls(report, "result roll"))


def test_epic_example_4_a_tie_fights_again_and_casualties_carry_over() -> None:
    # Round 1: each side kills one; the result ties. Round 2: nobody hits; the kills of round 1 still count.
    report = run(
        "epic",
        "4x Tactical: CC4+ FF4+ Sv- INF",
        "4x Ork Boyz: CC4+ FF6+ Sv- INF",
        [
            *[4, 1, 1, 1],  # round 1: the attacker hits once
            *[5, 1, 1, 1],  # the defender hits once
            *[3, 3, 3, 3],  # result: attacker 3 +1 kill +1 no BMs = 5; defender the same
            *[1, 1, 1],  # round 2: the attacker's 3 survivors miss
            *[1, 1, 1],  # the defender's 3 miss
            *[6, 1, 2, 2],  # result: attacker 6 + 2 = 8, defender 2 + 2 = 4: 4 extra hits on 3 units
        ],
    )
    titles = [step.title for step in report.steps]
    assert "Round 2: the combat goes on" in titles
    assert len(events(report, "tie")) == 1
    assert [item["reason"] for item in modifiers(report, "attacker")] == ["1 enemy unit destroyed", "no Blast markers"]
    assert report.result.attacker.extra["kills"] == 4
    assert report.result.defender.extra["kills"] == 1
    assert report.result.winner == "attacker"
    assert report.result.outcome == "destroyed"


# --------------------------------------------------------------------------- Reikhammer (004)


@pytest.mark.parametrize(("face", "hit"), [(4, True), (5, False), (1, True), (6, False)])
def test_reikhammer_example_1_cc4_hits_on_4_or_less(face: int, hit: bool) -> None:
    report = run(
        "reikhammer",
        "1x Swordsman: CC4 FF1 Sv- INF",
        "1x Peasant: CC1 FF1 Sv- INF",
        [face, 6, *([] if hit else [1, 1, 1, 1])],  # a hit kills the only defender: no result roll
        attacker_shock=3,
        defender_shock=3,
        max_rounds=1,
    )
    (attack,) = rolls(report, "to hit: Swordsman")
    assert attack.target is not None
    assert (attack.target.op, attack.target.value) == ("<=", 4)
    assert attack.successes == int(hit)
    if hit:
        assert report.result.winner == "attacker"


@pytest.mark.parametrize(("dice", "kept"), [([2, 5], 5), ([6, 6], 6)])
def test_reikhammer_example_2_result_dice_drop_the_lowest(dice: list[int], kept: int) -> None:
    report = run(
        "reikhammer",
        "1x Swordsman: CC1 FF1 Sv- INF",
        "1x Peasant: CC1 FF1 Sv- INF",
        [6, 6, *dice, 1, 1],
        max_rounds=1,
    )
    (attacker_roll, _) = rolls(report, "result roll")
    assert attacker_roll.combine == "highest"
    assert report.result.attacker.extra["score"] == kept + 1  # +1 for zero Shock
    assert report.result.winner == "attacker"


REIK_ATTACKER = "6x Line Infantry: CC4 FF3 Sv- INF"
REIK_DEFENDER = "5x Spearmen: CC1 FF1 Sv- INF"
REIK_ATTACKS = [1, 2, 5, 6, 5, 6, 2, 2, 2, 2, 2]  # the attacker kills 2; the defender misses


def test_reikhammer_examples_3_and_4_modifiers_and_extra_hits() -> None:
    # Attacker killed 2, has 6 vs 3, 0 Shock vs 2: +2 +1 +1 (double, at least twice) +1 +1 = +6. Scores 9 vs 6.
    report = run("reikhammer", REIK_ATTACKER, REIK_DEFENDER, [*REIK_ATTACKS, 3, 1, 6, 2], defender_shock=2)
    assert [item["reason"] for item in modifiers(report, "attacker")] == [
        "2 enemy units destroyed",
        "more units remaining",
        "at least twice as many units remaining",
        "no Shock",
        "fewer Shock than the enemy",
    ]
    assert modifier_total(report, "attacker") == 6
    assert modifier_total(report, "defender") == 0
    assert (report.result.attacker.extra["score"], report.result.defender.extra["score"]) == (9, 6)
    (decision,) = events(report, "result")
    assert decision.get("difference") == 3  # example 4: the loser takes 3 unsaveable hits
    assert casualties(report, "defender") == 5


def test_reikhammer_example_3_with_double_meaning_more_than_twice() -> None:
    report = run(
        "reikhammer",
        REIK_ATTACKER,
        REIK_DEFENDER,
        [*REIK_ATTACKS, 3, 1, 6, 2],
        defender_shock=2,
        double_means="more_than",
    )
    assert modifier_total(report, "attacker") == 5
    assert report.result.attacker.extra["score"] == 8


def test_reikhammer_example_5_the_winner_gains_a_shock_per_unit_lost() -> None:
    report = run(
        "reikhammer",
        "6x Line Infantry: CC4 FF3 Sv- INF",
        "4x Spearmen: CC2 FF1 Sv- INF",
        [
            *[1, 1, 6, 6, 6, 6],  # the attacker kills 2
            *[1, 2, 6, 6],  # the defender kills 2
            *[6, 1, 1, 1],  # attacker 6 +2 kills +1 more units (4 v 2) +1 double +1 no Shock = 11; defender 1 +2 +1 = 4
        ],
    )
    result = report.result
    assert result.winner == "attacker"
    assert result.attacker.lost == 2
    assert result.attacker.extra["shock"] == 2
    assert result.attacker.extra["broken"] is False  # 2 Shock, 4 units
