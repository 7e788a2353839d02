"""Issue 16's rulings for the formation games (Epic: Armageddon, Reikhammer), each with scripted dice.

Dice order (docs/games/formation.md): attacks (attacker's groups, then defender's), saves on the defender then
on the attacker, supporting fire and its saves, then the result rolls (attacker's 2D6, defender's 2D6).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules_core import SpecError, get_game
from rules_core.games.formation.spec import Formation
from tests.rules_core.helpers_formation import events, modifiers, run

MISS4 = [1, 1, 1, 1]

# --------------------------------------------------------------------------- Broken by markers


def test_a_loser_whose_markers_reach_its_units_is_broken_and_destroyed_without_the_flag() -> None:
    # The defender has 4 Blast markers on 4 units: it is Broken (REFERENCE.md 001), so losing destroys it.
    report = run(
        "epic",
        "4x A: CC4+ FF4+ Sv- INF",
        "4x D: CC4+ FF4+ Sv- INF",
        [*MISS4, *MISS4, 2, 1, 1, 1],  # nobody hits; 2 + 1 (no BMs) + 1 (fewer) beats 1: 3 extra hits
        defender_blast_markers=4,
    )
    result = report.result
    assert (result.winner, result.outcome) == ("attacker", "destroyed")
    assert result.defender.remaining == 0
    assert any("already Broken" in str(ev.get("note")) for ev in events(report, "casualty"))


def test_a_reikhammer_winner_broken_by_its_shock_gains_none_and_shows_shock_equal_to_its_units() -> None:
    # The attacker has 5 Shock on 3 units: Broken. It wins, loses a unit, gains no Shock and shows 2 (its units).
    report = run(
        "reikhammer",
        "3x A: CC3 FF3 Sv- INF",
        "3x D: CC3 FF3 Sv- INF",
        [3, 6, 6, 3, 6, 6, 6, 1, 1, 1],  # each side kills one; attacker rolls 6, defender 1
        attacker_shock=5,
    )
    attacker = report.result.attacker
    assert report.result.winner == "attacker"
    assert attacker.extra["broken"] is True
    assert attacker.extra["shock"] == 2
    assert [ev.get("gained") for ev in events(report, "markers") if ev.get("side") == "attacker"] == [0]


def test_the_result_counts_a_formation_broken_by_markers_as_having_markers_equal_to_its_units() -> None:
    # 3 Blast markers on 2 units: Broken, so it counts 2 (its units), not 3; the defender with 2 has no fewer.
    report = run(
        "epic",
        "2x A: CC6+ FF6+ Sv- INF",
        "3x D: CC6+ FF6+ Sv- INF",
        [*[1] * 5, 1, 1, 1, 1],
        attacker_blast_markers=3,
        defender_blast_markers=2,
        max_rounds=1,
    )
    assert [item["reason"] for item in modifiers(report, "defender")] == ["more units remaining"]
    assert "Broken" in str(events(report, "formation")[0].get("note"))


# --------------------------------------------------------------------------- macro-weapons and reinforced armour

TITAN = "1x Titan: CC3+ FF3+ Sv4+ WE DC=4 macro-weapon"
LAND_RAIDER = "1x Land Raider: CC6+ FF4+ Sv4+ AV reinforced-armour"


def test_reinforced_armour_keeps_its_save_against_a_macro_weapon_without_the_re_roll() -> None:
    # The Titan's macro-weapon hit: the Land Raider saves on 4+ (Epic's Macro-Weapon rule), but may not re-roll.
    saved = run("epic", TITAN, LAND_RAIDER, [6, 1, 5, *MISS4], max_rounds=1)
    (save,) = [roll for roll in saved.steps[2].rolls if roll.purpose.startswith("armour save")]
    assert save.purpose == "armour save against macro-weapon hits, no re-roll: Land Raider (Sv4+)"
    assert (save.dice, save.successes, save.rerolls) == ((5,), 1, ())
    assert [ev.kind for ev in saved.steps[2].events][-1] == "no_casualties"
    failed = run("epic", TITAN, LAND_RAIDER, [6, 1, 2])  # a failed 2 is not re-rolled: the Land Raider dies
    assert failed.result.defender.lost == 1
    assert failed.result.winner == "attacker"


def test_the_old_reading_denies_reinforced_armour_its_save_against_macro_weapons_as_an_option() -> None:
    report = run("epic", TITAN, LAND_RAIDER, [6, 1], reinforced_vs_macro="no_save")
    assert report.result.defender.lost == 1
    assert not any(roll.purpose.startswith("armour save") for step in report.steps for roll in step.rolls)
    (denied,) = events(report, "save_denied")
    assert (denied.get("side"), denied.get("unit"), denied.get("hits")) == ("defender", "Land Raider", 1)
    assert denied.get("note") == (
        "Land Raider: the macro-weapon hit allows no armour save, reinforced armour or not "
        "(reinforced_vs_macro=no_save)."
    )


def test_reikhammer_follows_the_epic_macro_weapon_rule() -> None:
    report = run(
        "reikhammer",
        "1x Steam Tank: CC3 FF4 Sv3+ WE DC=3 macro-weapon",
        "1x Knight: CC1 FF1 Sv4+ LV reinforced-armour",
        [1, 6, 4, *MISS4[:2], 6, 6],  # the Tank hits, the Knight misses; its 4+ save holds; the result
        max_rounds=1,
    )
    assert report.result.defender.lost == 0


# --------------------------------------------------------------------------- both formations wiped out


def test_reikhammer_gives_the_defender_the_win_when_both_formations_are_wiped_out() -> None:
    # "If all of the attacking units directly engaged in the assault are killed then the assault has stalled and
    # the defender wins": the text, even when the defending formation is gone too.
    report = run(
        "reikhammer",
        "1x Knight: CC3 FF3 Sv- INF",
        "1x Pikeman: CC3 FF3 Sv- INF",
        [1, 1],
        attacker_support="2x Handgunners: FF3",
    )
    result = report.result
    assert (result.winner, result.outcome) == ("defender", "both_destroyed")
    # The losing side's supporting formations could have supported: 1 Shock each.
    assert [dict(s) for s in result.attacker.extra["supporting_formations"]] == [
        {"formation": "Handgunners", "shock_gained": 1}
    ]
    assert "stalls" in str(events(report, "decided")[0].get("note"))


def test_epic_both_formations_wiped_out_is_a_draw_and_the_other_reading_is_an_option() -> None:
    drawn = run("epic", "1x Tactical: CC4+ FF4+ Sv- INF", "1x Boyz: CC4+ FF4+ Sv- INF", [6, 6])
    assert (drawn.result.winner, drawn.result.outcome) == ("draw", "both_destroyed")
    stalled = run(
        "epic", "1x Tactical: CC4+ FF4+ Sv- INF", "1x Boyz: CC4+ FF4+ Sv- INF", [6, 6], both_wiped_out="defender"
    )
    assert (stalled.result.winner, stalled.result.outcome) == ("defender", "both_destroyed")


# --------------------------------------------------------------------------- positions must agree


def test_base_contact_is_mutual() -> None:
    # The defender's 2 units are in range only: then no attacker can be in base contact with them.
    with pytest.raises(SpecError, match="base contact is mutual") as raised:
        run("epic", "2x A: CC4+ FF4+ Sv- INF", "2x D: CC4+ FF4+ Sv- INF ff=2", [])
    assert raised.value.token == "2x A" and raised.value.example
    with pytest.raises(SpecError, match="close contact is mutual") as raised:  # Reikhammer's words (issue 33)
        run("reikhammer", "2x A: CC4 FF3 Sv- INF ff=2", "2x D: CC4 FF3 Sv- INF", [])
    assert raised.value.token == "2x D"


def test_supporting_fire_needs_an_engaged_enemy_and_engagement_is_mutual() -> None:
    with pytest.raises(SpecError, match="no defending unit is directly engaged"):
        run(
            "epic",
            "2x A: CC4+ FF4+ Sv- INF ff=2",
            "2x D: CC4+ FF4+ Sv- INF contact=0 ff=0",
            [],
            attacker_support="2x Devastator: FF3+",
        )


def test_later_rounds_a_unit_whose_contact_partners_all_died_fights_with_ff() -> None:
    faces = [
        *[4, 1],  # round 1: the two A hit once: D, the only defender in contact, dies
        *[1, 1, 1],  # D and the two E miss
        *[1, 1, 2, 1],  # result: attacker 1 + 1 kill + 1 no BMs = 3; defender 2 + 1 no BMs = 3: a tie
        *[1, 1],  # round 2: no defender is in base contact now: the A fight with FF5+ and miss
        *[1, 1],  # the E miss
        *[6, 1, 1, 1],  # the attacker wins
    ]
    attacker, defender = "2x A: CC4+ FF5+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF ; 2x E: CC4+ FF4+ Sv- INF ff=2"
    report = run("epic", attacker, defender, faces, max_rounds=2)
    (round_two,) = [step for step in report.steps if step.title == "Round 2: Close combat and firefight attacks"]
    assert [roll.purpose for roll in round_two.rolls] == ["to hit: A (FF5+)", "to hit: E (FF4+)"]
    assert any("lost" in str(ev.get("note")) for ev in events(report, "contact_lost"))
    # The players may say the counter-charges put them back in contact: they keep CC.
    kept = run("epic", attacker, defender, faces, max_rounds=2, lost_contact="countercharge")
    (round_two,) = [step for step in kept.steps if step.title == "Round 2: Close combat and firefight attacks"]
    assert [roll.purpose for roll in round_two.rolls] == ["to hit: A (CC4+)", "to hit: E (FF4+)"]


# --------------------------------------------------------------------------- report texts


def test_war_engine_damage_is_called_damage_points_not_units() -> None:
    report = run(
        "epic",
        "6x Marine: CC4+ FF4+ Sv- INF",
        "1x Warhound: CC4+ FF4+ Sv5+ WE DC=3 ; 1x Guard: CC6+ FF6+ Sv- INF contact=0",
        [*[6, 6, 6, 1, 1, 1], 1, 1, 1, 5, 1, 1, 1, 1],  # 3 hits on the Warhound, 2 unsaved: DC 3 -> 1
    )
    reason = modifiers(report, "attacker")[0]
    assert reason == {"reason": "2 damage points on enemy war engines", "value": 2}
    assert report.result.defender.lost == 2  # the JSON counts units; the modifier counted damage points


def test_reikhammer_saves_rolled_under_are_written_without_a_plus_in_the_report_and_canonical_inputs() -> None:
    report = run(
        "reikhammer",
        "1x Knight: CC6 FF1 Sv- INF",
        "1x Pikeman: CC1 FF1 Sv3+ INF cover=2+",
        [1, 6, 4, 1, *MISS4],  # the hit; the Pikeman misses; save 4 fails (over 3), cover 1 saves; the result
        save_direction="under",
        max_rounds=1,
    )
    (save,) = [roll for step in report.steps for roll in step.rolls if roll.purpose.startswith("armour save")]
    assert save.purpose == "armour save: Pikeman (Sv3)"
    assert "Sv3 " in report.inputs.defender and "Sv3+" not in report.inputs.defender
    assert "cover=2" in report.inputs.defender and "cover=2+" not in report.inputs.defender


def test_epic_gives_the_rally_instruction_to_a_broken_formation() -> None:
    report = run(
        "epic",
        "6x A: CC4+ FF4+ Sv- INF",
        "6x D: CC4+ FF4+ Sv- INF",
        [*[1] * 6, *[1] * 6, 4, 1, 1, 1],  # the attacker wins 4 + 1 to 1 + 1: 3 extra hits, the defender breaks
    )
    (rally,) = events(report, "rally")
    assert rally.get("side") == "defender"
    assert "Initiative" in str(rally.get("note"))


def test_a_supporting_formation_with_no_unit_able_to_fire_gains_no_marker() -> None:
    report = run(
        "epic",
        "3x Tactical: CC4+ FF4+ Sv- INF",
        "2x Scout: CC5+ FF5+ Sv- INF",
        [6, 6, 1, 1, 1],  # both Scouts die at once
        defender_support="2x Guns: FF5+ ff=0 | 1x Battery: FF4+",
    )
    assert [dict(s) for s in report.result.defender.extra["supporting_formations"]] == [
        {"formation": "Guns", "blast_markers_gained": 0},
        {"formation": "Battery", "blast_markers_gained": 1},
    ]


def test_the_max_rounds_draw_says_it_is_the_referees_cap() -> None:
    report = run("epic", "3x A: CC4+ FF4+ Sv- INF", "3x D: CC4+ FF4+ Sv- INF", [*[1] * 6, 3, 3, 3, 3], max_rounds=1)
    (tie,) = events(report, "tie")
    assert "max_rounds" in str(tie.get("note")) and "cap" in str(tie.get("note"))


def test_singular_words_for_one_hit_and_one_unit() -> None:
    # Nobody hits; 3 + 1 (no BMs) v 1 + 1: two extra hits on a formation of one unit.
    report = run("epic", "1x A: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", [1, 1, 3, 1, 1, 1])
    assert [str(ev.get("note")) for ev in events(report, "hits_lost")] == ["1 extra hit finds no unit left."]
    # A kills the only engaged defender; the supporting Gun's hit finds no engaged defender.
    report = run(
        "epic",
        "1x A: CC4+ FF4+ Sv- INF",
        "1x D: CC4+ FF4+ Sv- INF ; 1x R: CC4+ FF4+ Sv- INF contact=0",
        [6, 1, 6, 1, 1, 1, 1],
        attacker_support="1x Gun: FF4+",
    )
    (lost,) = events(report, "hits_lost")
    assert str(lost.get("note")).startswith("1 hit on the defender is lost: none of its units is directly engaged")
    # A Broken loser with one unit left after the extra hit: "its 1 unit left is destroyed".
    report = run(
        "epic", "2x A: CC4+ FF4+ Sv- INF", "2x D: CC4+ FF4+ Sv- INF", [1, 1, 1, 1, 1, 1, 2, 1], defender_broken=True
    )
    assert any("its 1 unit left is destroyed" in str(ev.get("note")) for ev in events(report, "casualty"))
    with pytest.raises(SpecError, match="has 1 unit but"):
        run("epic", "1x A: CC4+ FF4+ Sv- INF contact=1 ff=1", "1x D: CC4+ FF4+ Sv- INF", [])


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
def test_a_sample_described_with_extra_attacks_or_macro_weapons_has_them_in_its_spec(game: str) -> None:
    samples = yaml.safe_load((Path(__file__).parents[2] / "data" / "samples" / f"{game}.yaml").read_text())
    for name, sample in samples["units"].items():
        description, groups = sample["description"], parse_formation(game, sample["spec"]).groups
        said = f"{name}: {description}"
        assert ("extra attack" in description) == any(group.extra_attacks for group in groups), said
        assert ("macro-weapon" in description) == any("macro-weapon" in group.specials for group in groups), said
        if any("macro-weapon" in group.specials and group.extra_attacks for group in groups):
            # Decision 4: macro-weapon covers all of a group's attacks, not only its extra attack.
            assert "every" in description or "all" in description.split(), said


def test_a_formation_broken_by_markers_shows_markers_equal_to_its_units_even_with_no_assault() -> None:
    report = run("epic", "2x A: CC4+ FF4+ Sv- INF contact=0", "3x D: CC4+ FF4+ Sv- INF", [], attacker_blast_markers=5)
    assert report.result.outcome == "no_assault"
    assert (report.result.attacker.extra["broken"], report.result.attacker.extra["blast_markers"]) == (True, 2)


def parse_formation(game: str, text: str) -> Formation:
    formation = get_game(game).parse_side(text)
    assert isinstance(formation, Formation)
    return formation


# --------------------------------------------------------------------------- the winner's markers, in words


@pytest.mark.parametrize(
    ("game", "hit", "miss", "start", "words"),
    [
        ("epic", 6, 1, "attacker_blast_markers", "Blast markers"),
        ("reikhammer", 1, 6, "attacker_shock", "Shock"),
    ],
)
def test_a_winner_that_lost_no_units_gains_no_markers_in_plain_words(
    game: str, hit: int, miss: int, start: str, words: str
) -> None:
    v = "4+" if game == "epic" else "4"
    attacker, defender = f"1x A: CC{v} FF{v} Sv- INF", f"1x D: CC{v} FF{v} Sv- INF"
    (marker,) = events(run(game, attacker, defender, [hit, miss]), "markers")
    assert marker.get("note") == f"The attacker lost no units: no {words}."
    attacker = f"3x A: CC{v} FF{v} Sv- INF contact=1"  # 2 markers on 3 units: not Broken
    (marker,) = events(run(game, attacker, defender, [hit, miss], **{start: 2}), "markers")
    assert marker.get("note") == f"The attacker lost no units: no new {words}; it still has 2."
