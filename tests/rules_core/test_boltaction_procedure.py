"""Bolt Action close quarters, one rule and one option at a time, with scripted dice."""

from __future__ import annotations

import pytest

from rules_core import OptionError, SpecError, UnsupportedError, get_game
from rules_core.errors import PLAIN
from rules_core.odds import odds
from rules_core.report import Op, SideName, Target
from tests.rules_core.helpers_boltaction import events, notes, rolls, rounds, run

WIN_AT_ONCE = [6, 6, 6, 6, 6, 2]  # five attackers kill five regulars; the regroup die


# --- reach and reaction --------------------------------------------------------------------------------------


def test_no_distance_means_in_reach_and_the_report_says_so() -> None:
    report = run("5x A: regular", "5x B: regular", WIN_AT_ONCE)
    assert "assumed to be within reach" in notes(report, "assumed")[0]


def test_a_defended_obstacle_keeps_the_full_12_inches_and_fights_simultaneously() -> None:
    report = run("5x A: regular", "5x B: regular", [6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2], distance=12,
                 defended_obstacle=True)  # fmt: skip
    assert report.result.outcome == "destroyed"
    assert "hold an obstacle" in notes(report, "defensive_position")[0]
    assert len(rolls(report, "to damage (5 men)")) == 2  # all five defenders strike, though all fall


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"target_has_acted": True, "reaction_shots": 5}, "already taken an action"),
        ({"out_of_arc": True, "reaction_shots": 5}, "fire arc"),
        ({}, "the player gave no reaction shots"),
        ({"reaction_shots": 0}, "the player gave 0 reaction shots, declaring that the unit did not fire"),
    ],
)
def test_when_the_target_cannot_or_does_not_react(options: dict[str, object], reason: str) -> None:
    report = run("5x A: regular", "5x B: regular", WIN_AT_ONCE, distance=9, **options)
    assert rolls(report, "to hit") == []
    assert reason in notes(report, "no_reaction")[0]


@pytest.mark.parametrize(("options", "given"), [({}, None), ({"reaction_shots": 0}, 0)])
def test_reaction_shots_not_given_and_given_as_0_are_told_apart(options: dict[str, object], given: object) -> None:
    report = run("5x A: regular", "5x B: regular", WIN_AT_ONCE, distance=9, **options)
    (no_reaction,) = events(report, "no_reaction")
    assert no_reaction.get("reaction_shots") == given
    assert "--reaction-shots" not in str(no_reaction.get("note"))  # front-end neutral


def test_reaction_fire_hits_on_4_with_the_long_range_penalty_and_pins_the_assaulters() -> None:
    report = run(
        "6x A: regular",
        "6x B: regular",
        [4, 3, 1, 1, 5, 4, 5, 1, 1, 6, 6, 6, 6, 6, 1, 4],  # 6 shots: 3 hit, 1 damages; 5 kill 5; 1 misses back
        distance=9,
        reaction_shots=6,
        morale_check=False,
    )
    assert rolls(report, "to hit")[0].target == Target(Op.AT_LEAST, 4)
    assert report.result.attacker.extra["pins"] == 1
    assert report.result.defender.extra["casualties_caused"] == 1


def test_reaction_modifiers_add_up_and_a_7_plus_is_a_6_then_a_4() -> None:
    # 3+, -1 long range, -2 pins on the firers, -1 inexperienced, -0 given: 7+.
    report = run(
        "5x A: regular",
        "5x B: inexperienced pins=2",
        [6, 6, 1, 1, 1, 4, 3, 6, 4, 6, 6, 6, 6, 1],  # two 6s, then 4+ once; one damage die (6 kills): 4 remain
        distance=9,
        reaction_shots=5,
    )
    first, second = rolls(report, "to hit")
    assert first.target == Target(Op.AT_LEAST, 6)
    assert second.target == Target(Op.AT_LEAST, 4)
    assert "= 7+ (a 6, then 4+)" in notes(report, "strike")[0]


def test_reaction_modifiers_beyond_9_cannot_hit() -> None:
    report = run("5x A: regular", "5x B: inexperienced pins=5", WIN_AT_ONCE, distance=9, reaction_shots=5,
                 reaction_modifiers=-2)  # fmt: skip
    assert rolls(report, "to hit") == []
    assert "no hit is possible" in notes(report, "strike")[0]


def test_reaction_fire_can_wipe_the_assaulters_out() -> None:
    report = run("2x A: regular", "5x B: regular", [4, 4, 1, 1, 1, 6, 6], distance=9, reaction_shots=5)
    assert report.result.outcome == "shot_down"
    assert report.result.winner == "defender"
    assert report.result.attacker.remaining == 0
    assert rounds(report) == []


def test_reaction_fire_that_halves_the_assaulters_forces_a_morale_check_that_can_destroy_them() -> None:
    report = run(
        "4x A: regular",
        "5x B: regular",
        [4, 4, 1, 1, 1, 5, 5, 6, 5],  # 2 hits, 2 casualties: 2 of 4 left; morale 9 - 1 pin = 8: 11 fails
        distance=9,
        reaction_shots=5,
    )
    (morale,) = rolls(report, "morale check")
    assert morale.target == Target(Op.AT_MOST, 8)
    assert report.result.outcome == "failed_morale"
    assert report.result.attacker.extra["destroyed"] is True
    assert report.result.attacker.remaining == 0
    assert report.result.attacker.extra["surrendered"] == 2


def test_a_lone_survivor_of_a_destroyed_unit_is_said_in_the_singular() -> None:
    # Issue 33 (review finding 5): "their 1 survivor surrender, flee or play dead" was plural grammar for one man.
    report = run("2x A: regular", "3x B: regular", [1, 1, 4, 1, 1, 3], distance=3)
    (note,) = notes(report, "destroyed")
    assert (
        note == "A lose and are destroyed: their 1 survivor surrenders, flees or plays dead, and counts as a casualty."
    )
    report = run("3x A: regular", "3x B: regular", [1, 1, 1, 4, 1, 1, 3], distance=3)
    (note,) = notes(report, "destroyed")
    assert note.endswith("their 2 survivors surrender, flee or play dead, and count as casualties.")


def test_a_passed_morale_check_lets_the_assault_go_on() -> None:
    report = run("4x A: regular", "5x B: regular", [4, 4, 1, 1, 1, 5, 5, 3, 4, 6, 6, 1, 1, 1, 2],
                 distance=9, reaction_shots=5)  # fmt: skip
    assert events(report, "morale")[0].get("passed") is True
    assert report.result.outcome == "destroyed"


def test_the_morale_check_can_be_turned_off() -> None:
    report = run("4x A: regular", "5x B: regular", [4, 4, 1, 1, 1, 5, 5, 6, 6, 1, 1, 1, 2],
                 distance=9, reaction_shots=5, morale_check=False)  # fmt: skip
    assert rolls(report, "morale check") == []
    assert report.result.outcome == "destroyed"


# --- close quarters ------------------------------------------------------------------------------------------


def test_survivors_strike_back_and_the_fallen_do_not_in_the_first_round() -> None:
    report = run("5x A: regular", "5x B: regular", [6, 6, 6, 1, 1, 4, 4, 1])
    (back,) = rolls(report, "to damage (2 men)")
    assert back.dice == (4, 4)
    assert rounds(report) == [(3, 2, "attacker")]


def test_a_drawn_round_is_fought_again_simultaneously() -> None:
    report = run(
        "5x A: regular",
        "5x B: regular",
        [6, 1, 1, 1, 1, 6, 1, 1, 1, 5, 5, 5, 5, 1, 1, 1, 1, 3],  # 1-1; then 4 v 4 at once: 4-0
    )
    assert rounds(report) == [(1, 1, "none"), (4, 0, "attacker")]
    (both,) = [step for step in report.steps if step.title == "Round 2: both sides strike at once"]
    assert [len(roll.dice) for roll in both.rolls] == [4, 4]
    assert report.result.winner == "attacker"


def test_draws_repeat_until_one_side_loses() -> None:
    report = run(
        "3x A: regular",
        "3x B: regular",
        [6, 1, 1, 6, 1, 6, 1, 6, 1, 6, 1, 2],  # 1-1; at once 1-1 again; at once 1-0: B are wiped out
    )
    assert rounds(report) == [(1, 1, "none"), (1, 1, "none"), (1, 0, "attacker")]
    assert report.result.outcome == "destroyed"
    assert report.result.attacker.remaining == 1


def test_reaction_fire_exceptional_damage_lets_the_firers_pick_the_assaulters_nco() -> None:
    report = run(
        "4x A: regular nco",
        "6x B: regular",
        [4, 1, 1, 6, 6, 6, 6, 6, 1, 1, 1, 3],  # 1 hit of 3 shots; a 6 to damage, a 6 again; 3 kill 3; 3 miss
        distance=9,
        reaction_shots=3,
    )
    assert "B pick the NCO" in notes(report, "casualty")[0]
    assert rolls(report, "exceptional damage")[0].dice == (6,)


def test_a_side_wiped_out_loses_even_when_it_caused_more_casualties() -> None:
    report = run(
        "2x A: regular tough-fighters",
        "10x B: regular",
        [4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 5],  # at once: A's two kills earn two more (4 caused); B kills 2
        distance=5,
        rough_ground=True,
    )
    assert rounds(report) == [(4, 2, "defender")]
    assert report.result.winner == "defender"
    assert report.result.defender.extra["regroup_inches"] == 5


def test_both_wiped_out_at_once_is_a_draw() -> None:
    report = run("2x A: regular", "2x B: regular", [6, 6, 6, 6], distance=5, rough_ground=True)
    assert report.result.outcome == "both_destroyed"
    assert report.result.winner == "draw"


def test_fanatics_who_lose_a_round_fight_on() -> None:
    report = run(
        "5x A: regular",
        "5x B: regular fanatics",
        [6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1, 1, 1, 4],  # 2-0 to A; B fight on; at once 3-0: B wiped out
    )
    assert rounds(report) == [(2, 0, "attacker"), (3, 0, "attacker")]
    assert "Fanatics" in notes(report, "fanatics")[0]
    assert report.result.defender.extra["surrendered"] == 0  # wiped out, never surrendered


def test_tough_fighters_extra_rolls_stop_when_nobody_is_left() -> None:
    report = run("3x A: regular tough-fighters", "2x B: regular", [6, 4, 1, 3])  # two kills, no one left to roll at
    assert rolls(report, "to damage (Tough Fighters' extra rolls)") == []


def test_assault_weapons_make_those_men_tough_fighters() -> None:
    report = run("5x A: regular smg=2", "10x B: regular", [4, 1, 1, 1, 1, 1, *[1] * 9, 2])
    assert [len(r.dice) for r in rolls(report, "to damage (2 Tough Fighters)")] == [1 + 1]
    assert len(rolls(report, "to damage (3 men)")[0].dice) == 3


def test_exceptional_damage_lets_the_attacker_pick_the_nco() -> None:
    report = run(
        "2x A: regular",
        "5x B: regular nco smg=1",  # the NCO carries the SMG
        [6, 1, 6, 1, 1, 1, 1, 1],  # a 6, re-rolled 6: the attackers pick the NCO; 4 survivors miss; regroup
    )
    (exceptional,) = rolls(report, "exceptional damage")
    assert exceptional.dice == (6,)
    assert "pick the NCO" in notes(report, "casualty")[0]
    # Without the NCO nobody in B is a Tough Fighter any more.
    assert rolls(report, "to damage (4 men)")


def test_without_exceptional_damage_the_owner_keeps_its_leader_and_assault_weapons() -> None:
    report = run("2x A: regular", "5x B: regular nco smg=2", [6, 1, 3, 1, 1, 1, 1, 1])
    assert len(rolls(report, "to damage (2 Tough Fighters)")) == 1  # the NCO's and the other SMG survive
    assert "pick" not in notes(report, "casualty")[0]


def test_an_unknown_option_value_names_the_option() -> None:
    with pytest.raises(OptionError, match="reaction_modifiers"):
        run("5x A: regular", "5x B: regular", [], reaction_modifiers=-9)


def test_rough_ground_and_a_defended_obstacle_together_are_refused_with_an_example() -> None:
    # Issue 33 (review finding 5): a defended obstacle needs a line "clear of all terrain except for an obstacle
    # that the target model is sheltering right behind"; rough ground on the path is other terrain, so the two
    # cannot both hold. The referee (and the odds) refuse the pair, naming both, with a correct example.
    with pytest.raises(OptionError) as refused:
        run("5x A: regular", "5x B: regular", [], rough_ground=True, defended_obstacle=True)
    error = refused.value
    assert "rough_ground" in error.message and "defended_obstacle" in error.message
    assert "clear of all terrain except" in error.message
    assert error.example_of(PLAIN) == "distance=9 defended_obstacle=true"
    with pytest.raises(OptionError, match="clear of all terrain except"):
        odds(get_game("boltaction"), "5x A: regular", "5x B: regular", rough_ground=True, defended_obstacle=True)


# --- specs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("10x Infantry: veterna", "Did you mean 'veteran'?"),
        ("10x Infantry:", "no quality"),
        ("10x Infantry: regular veteran", "two qualities"),
        ("10x Infantry: regular smg=11", "0 to 10"),
        ("10x Infantry: regular smg=6 pistol=5", "11 assault weapons"),
        ("10x Infantry: regular | 5x Other: regular", "one unit"),
        ("10x Infantry: regular WS4", "no stat line"),
        ("10x Infantry: regular bayonets=2", "Unknown setting"),
        ("10x Infantry: regular pins=21", "pins"),
    ],
)
def test_spec_errors_name_the_problem_and_show_a_correct_example(text: str, fragment: str) -> None:
    with pytest.raises(SpecError) as caught:
        run(text, "5x B: regular", [])
    assert fragment in caught.value.one_line()
    assert caught.value.example
    get_game("boltaction").parse_side(caught.value.example)  # the example itself is correct


def test_vehicles_are_not_supported_yet() -> None:
    with pytest.raises(UnsupportedError, match="vehicles are not supported yet"):
        run("10x Infantry: regular", "1x Sherman: vehicle", [])


def test_a_unit_that_loses_nobody_is_said_to_lose_no_men() -> None:
    from bot.data import catalogue
    from rules_core import resolve

    report = resolve(catalogue().game("boltaction"), "5x Squad A: regular", "5x Squad B: regular", seed=1)
    notes = [str(ev.get("note")) for step in report.steps for ev in step.events]
    assert any(note.startswith("Squad B lose no men;") or note.startswith("Squad A lose no men;") for note in notes)
    assert not any(" lose 0 men" in note for note in notes)


@pytest.mark.parametrize(
    ("seed", "wanted"),
    [(8, "A draw at 1 casualty each: another round"), (5, "morale check (Morale 8, -1 for 1 pin)")],
)
def test_counts_of_one_read_as_one(seed: int, wanted: str) -> None:
    from bot.data import catalogue
    from rules_core import resolve

    attacker, defender = "5x A: inexperienced smg=1 nco", "3x D: veteran officer tough-fighters"
    report = resolve(catalogue().game("boltaction"), attacker, defender, seed=seed, distance=9, reaction_shots=4)
    texts = [str(ev.get("note")) for s in report.steps for ev in s.events] + [
        r.purpose for s in report.steps for r in s.rolls
    ]
    assert any(text.startswith(wanted) for text in texts)


# --- issue 33: rough ground with no distance, Fanatics under fire, the words -------------------------------


def test_rough_ground_without_a_distance_is_a_surprise_charge_the_target_cannot_react() -> None:
    # Over rough ground the assault reaches only 6", so it was declared from 6" or less: no reaction fire.
    report = run("5x A: regular", "5x B: regular", [6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2], rough_ground=True,
                 reaction_shots=6)  # fmt: skip
    assert rolls(report, "to hit") == []
    assert '6" or less' in notes(report, "assumed")[0]
    assert "Surprise charge" in notes(report, "no_reaction")[0]
    assert report.result.outcome == "destroyed"


def test_rough_ground_without_a_distance_still_lets_a_target_in_ambush_react() -> None:
    report = run("5x A: regular", "5x B: regular", [1, 1, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2], rough_ground=True,
                 ambush=True, reaction_shots=2)  # fmt: skip
    assert len(rolls(report, "to hit")[0].dice) == 2


def test_fanatics_halved_by_reaction_fire_take_no_morale_check() -> None:
    report = run(
        "4x A: regular fanatics",
        "5x B: regular",
        [4, 4, 1, 1, 1, 5, 5, 6, 6, 1, 1, 1, 2],  # 2 hits, 2 casualties: 2 of 4 left, no check; 2-0 in the fight
        distance=9,
        reaction_shots=5,
    )
    assert rolls(report, "morale check") == []
    assert "Fanatics take no morale check" in notes(report, "fanatics")[0]
    assert report.result.outcome == "destroyed"
    assert report.result.winner == "attacker"


def test_the_banzai_charge_of_the_issue_is_not_broken_by_reaction_fire() -> None:
    from bot.data import catalogue
    from rules_core import resolve

    report = resolve(catalogue().game("boltaction"), "6x Banzai: regular fanatics", "10x Rifles: regular", seed=3,
                     distance=10, reaction_shots=12)  # fmt: skip
    assert report.result.outcome != "failed_morale"
    assert not [roll for step in report.steps for roll in step.rolls if roll.purpose.startswith("morale check")]


def test_a_reaction_roll_modified_below_2_needs_a_2_since_a_natural_1_always_misses() -> None:
    report = run("5x A: regular", "5x B: regular", [1, 2, 1, 6, 6, 6, 6, 6, 2], distance=9, reaction_shots=2,
                 reaction_modifiers=3)  # fmt: skip
    note = notes(report, "strike")[0]
    assert "= 2+" in note and "= 1+" not in note
    assert events(report, "strike")[0].get("needed") == 2
    assert rolls(report, "to hit")[0].target == Target(Op.AT_LEAST, 2)


def test_a_round_won_by_one_casualty_says_casualty() -> None:
    report = run("5x A: regular", "5x B: regular", [6, 1, 1, 1, 1, 1, 1, 1, 1, 2])
    assert notes(report, "round") == ["A win the round by 1 casualty to 0."]


def test_each_roll_says_what_it_is_for_and_for_whom() -> None:
    shot = run("4x A: regular", "5x B: regular", [4, 4, 1, 1, 1, 5, 5, 6, 5], distance=9, reaction_shots=5)
    fought = run("2x A: regular", "5x B: regular nco smg=1", [6, 1, 6, 1, 1, 1, 1, 1])
    tagged = [(roll.kind, roll.side) for report in (shot, fought) for step in report.steps for roll in step.rolls]
    assert tagged == [
        ("reaction_fire", SideName.DEFENDER),
        ("damage", SideName.DEFENDER),
        ("leadership", SideName.ATTACKER),
        ("damage", SideName.ATTACKER),
        ("exceptional_damage", SideName.ATTACKER),
        ("damage", SideName.DEFENDER),
        ("regroup_distance", SideName.ATTACKER),
    ]
