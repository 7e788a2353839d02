"""The formation procedure with scripted dice: allocation, specials, cover, outcomes, support, results, rounds.

Dice order (docs/games/epic.md): attacks (attacker's groups in order, each group's contact units then those in
range; then the defender's), saves on the defender then on the attacker (groups in allocation order: armour
saves with re-rolls, then second saves), supporting fire (attacker's, defender's) and its saves, then the result
rolls (attacker's 2D6, defender's 2D6).
"""

from __future__ import annotations

import pytest

from rules_core import SpecError
from rules_core.games.formation.engine import UnitState, allocate
from rules_core.games.formation.spec import Group, Position, UnitType
from tests.rules_core.helpers_formation import events, modifier_total, modifiers, rolls, run

MISS4 = [1, 1, 1, 1]  # four misses (Epic CC4+) or a tied result roll of 1s


def _fight_casualties(report, side: str) -> int:  # type: ignore[no-untyped-def]
    """Units ``side`` lost to the attacks (not to the result's extra hits)."""
    step = next(step for step in report.steps if step.title == f"Hits and saves: the {side}")
    return sum(int(ev.get("units", 0)) for ev in step.events if ev.kind == "casualty")


def _group(name: str, count: int, dc: int = 1) -> Group:
    return Group(
        count=count,
        name=name,
        cc=4,
        ff=4,
        save=None,
        unit_type=UnitType.WAR_ENGINE if dc > 1 else UnitType.INFANTRY,
        dc=dc,
        contact=count,
        in_range=0,
        extra_attacks=0,
        cover=None,
        specials=frozenset(),
    )


# --------------------------------------------------------------------------- allocation


def test_allocation_gives_no_unit_a_second_hit_until_every_unit_has_one() -> None:
    group = _group("A", 3)
    units = [UnitState(group, 0, Position.CONTACT) for _ in range(3)]
    order = allocate(units, 7)
    assert [units.index(u) for u in order] == [0, 1, 2, 0, 1, 2, 0]
    assert allocate(units, 7, one_pass=True) == units
    assert allocate([], 4) == []


def test_a_war_engine_takes_up_to_its_damage_capacity_in_each_pass() -> None:
    titan, infantry = _group("Titan", 1, dc=3), _group("Guard", 2)
    units = [UnitState(titan, 0, Position.CONTACT), UnitState(infantry, 1, Position.CONTACT)]
    units.append(UnitState(infantry, 1, Position.CONTACT))
    order = allocate(units, 6)
    assert [units.index(u) for u in order] == [0, 0, 0, 1, 2, 0]
    units[0].dc = 1  # damaged: one hit per pass now
    assert [units.index(u) for u in allocate(units, 4)] == [0, 1, 2, 0]


def test_hits_fall_on_units_in_contact_first_then_in_range_in_group_order() -> None:
    report = run(
        "epic",
        "5x Assault: CC2+ FF2+ Sv- INF",
        "2x A: CC6+ FF6+ Sv4+ INF contact=1 ff=1 ; 2x B: CC6+ FF6+ Sv4+ INF contact=1 ff=1 ; "
        "3x C: CC6+ FF6+ Sv4+ INF contact=1",
        [
            *[6, 6, 6, 6, 6],  # 5 hits: every unit in contact (A, B, C), then those in range (A, B)
            *[1, 1, 1, 1, 1],  # A (CC), A (FF), B (CC), B (FF), C (CC): all miss
            *[4, 4],  # A's 2 hits saved
            *[4, 4],  # B's 2 hits saved
            *[4],  # C's hit saved
            *[2, 1, 1, 1],  # the result ties: 2 + 1 (no BMs) v 1 + 1 + 1 (more units: 7 v 5)
        ],
        max_rounds=1,
    )
    (allocation,) = events(report, "allocation")
    assert dict(allocation.get("hits")) == {"A": 2, "B": 2, "C": 1}
    purposes = [roll.purpose for roll in rolls(report, "to hit")]
    assert purposes == [
        "to hit: Assault (CC2+)",
        "to hit: A (CC6+)",
        "to hit: A (FF6+)",
        "to hit: B (CC6+)",
        "to hit: B (FF6+)",
        "to hit: C (CC6+)",
    ]
    assert [roll.purpose for roll in rolls(report, "armour save")] == [
        "armour save: A (Sv4+)",
        "armour save: B (Sv4+)",
        "armour save: C (Sv4+)",
    ]
    assert report.result.outcome == "tied"
    # Six hits on three engaged units: the fourth starts the second pass at the front.
    report = run(
        "epic",
        "6x Assault: CC2+ FF2+ Sv- INF",
        "2x A: CC6+ FF6+ Sv4+ INF contact=1 ff=1 ; 1x B: CC6+ FF6+ Sv4+ INF ff=1",
        [*[6] * 6, *[1] * 3, *[4, 4, 4, 4], *[4, 4], *MISS4],
        max_rounds=1,
    )
    (allocation,) = events(report, "allocation")
    assert dict(allocation.get("hits")) == {"A": 4, "B": 2}


def test_units_not_directly_engaged_neither_attack_nor_take_hits() -> None:
    report = run(
        "epic",
        "2x Tactical: CC4+ FF4+ Sv- INF",
        "1x Screen: CC6+ FF6+ Sv- INF ; 3x Guard: CC5+ FF5+ Sv- INF contact=0 ff=0",
        # 2 hits, both on the Screen (the only engaged unit): the second is wasted. The Screen misses; the
        # result: 1 + 1 kill + 1 (no BMs) v 1 + 1 (more units) + 1 (no BMs): a tie.
        [6, 6, 1, 1, 1, 1, 1],
        max_rounds=1,
    )
    (allocation,) = events(report, "allocation")
    assert dict(allocation.get("hits")) == {"Screen": 2}
    (wasted,) = events(report, "wasted")
    assert wasted.get("hits") == 1
    assert report.result.defender.lost == 1
    assert rolls(report, "to hit: Guard") == []
    assert report.result.winner == "draw"


def test_an_ff_dash_unit_in_range_can_be_hit_but_cannot_attack() -> None:
    report = run(
        "epic",
        "1x Tactical: CC4+ FF4+ Sv- INF ff=1",
        "1x Berserker: CC3+ FF- Sv- INF ff=1",
        [6],  # the only hit kills the Berserker: the attacker wins at once
    )
    assert any("cannot attack" in str(ev.get("note")) for ev in events(report, "policy"))
    assert rolls(report, "to hit: Berserker") == []
    assert report.result.winner == "attacker"


def test_a_cc_dash_unit_in_contact_can_be_hit_but_cannot_attack() -> None:
    report = run("epic", "1x Tactical: CC4+ FF4+ Sv- INF", "1x Gun: CC- FF4+ Sv- LV", [6])
    assert any("no CC value" in str(ev.get("note")) for ev in events(report, "policy"))
    assert rolls(report, "to hit: Gun") == []


def test_extra_attacks_add_dice_to_each_unit() -> None:
    report = run(
        "epic",
        "2x Nobz: CC3+ FF5+ Sv- INF extra-attacks=2",
        "9x Grot: CC6+ FF6+ Sv- INF",
        [*[1] * 6, *[1] * 9, *MISS4],
        max_rounds=1,
    )
    (attack,) = rolls(report, "to hit: Nobz")
    assert len(attack.dice) == 6


# --------------------------------------------------------------------------- saves and specials


def test_macro_weapon_hits_deny_armour_saves_and_are_allocated_apart_from_the_front() -> None:
    report = run(
        "epic",
        "1x Marine: CC4+ FF4+ Sv- INF ; 1x Titan: CC3+ FF3+ Sv4+ WE DC=4 macro-weapon",
        "2x Terminator: CC4+ FF4+ Sv4+ INF",
        [
            6,  # the Marine hits (a normal hit)
            6,  # the Titan hits (a macro-weapon hit)
            1,
            1,  # the Terminators miss
            1,  # the normal hit's armour save fails: the first Terminator dies...
            *MISS4,  # ...and the macro-weapon hit, allocated from the front again, finds it already dead
        ],
        max_rounds=1,
    )
    (allocation,) = events(report, "allocation")
    assert dict(allocation.get("hits")) == {"Terminator": 2}
    (save,) = rolls(report, "armour save")
    assert len(save.dice) == 1  # no armour save against the macro-weapon hit
    (wasted,) = events(report, "wasted")
    assert wasted.get("hits") == 1
    assert _fight_casualties(report, "defender") == 1


def test_reinforced_armour_re_rolls_a_failed_save_but_not_against_macro_weapons() -> None:
    # Two normal hits: armour saves [1, 5]; the failed 1 is re-rolled to 4 and saved.
    report = run(
        "epic",
        "2x Marine: CC4+ FF4+ Sv- INF",
        "1x Land Raider: CC6+ FF4+ Sv4+ AV reinforced-armour",
        [6, 6, 1, 1, 5, 4, *MISS4],
        max_rounds=1,
    )
    (save,) = rolls(report, "armour save")
    assert save.dice == (4, 5)
    assert [(r.index, r.before, r.after) for r in save.rerolls] == [(0, 1, 4)]
    assert "re-rolled" in save.purpose
    assert _fight_casualties(report, "defender") == 0
    # A macro-weapon hit: its save is not re-rolled (test_formation_rulings.py); with the old reading, no save.
    report = run(
        "epic",
        "1x Titan: CC3+ FF3+ Sv4+ WE DC=4 macro-weapon",
        "1x Land Raider: CC6+ FF4+ Sv4+ AV reinforced-armour",
        [6, 1],
        reinforced_vs_macro="no_save",
    )
    assert rolls(report, "armour save") == []
    assert report.result.defender.lost == 1


def test_invulnerable_is_a_second_6_plus_save_also_against_macro_weapons() -> None:
    report = run(
        "epic",
        "1x Marine: CC4+ FF4+ Sv- INF ; 1x Titan: CC3+ FF3+ Sv4+ WE DC=4 macro-weapon",
        "2x Avatar: CC2+ FF4+ Sv4+ INF invulnerable",
        [
            6,
            6,  # a normal hit and a macro-weapon hit
            1,
            1,  # the Avatars miss
            2,  # armour save (normal hit) fails
            6,
            6,  # both the failed armour save and the macro hit are saved by the invulnerable 6+
            *MISS4,
        ],
        max_rounds=1,
    )
    (invulnerable,) = rolls(report, "invulnerable save")
    assert invulnerable.target is not None
    assert (invulnerable.target.op, invulnerable.target.value) == (">=", 6)
    assert len(invulnerable.dice) == 2
    assert _fight_casualties(report, "defender") == 0


def test_cover_saves_for_defending_infantry_only() -> None:
    # The defender's infantry in cover take a cover save after a failed armour save.
    report = run(
        "epic",
        "1x Marine: CC4+ FF4+ Sv4+ INF cover=4+",
        "1x Guard: CC6+ FF5+ Sv5+ INF cover=4+ ; 1x Chimera: CC6+ FF5+ Sv5+ AV cover=4+",
        [
            6,  # the Marine hits (the Guard in contact, first)
            1,
            6,  # the Guard misses, the Chimera hits
            1,  # the Guard's armour save fails...
            4,  # ...and its cover save succeeds
            1,  # the Marine's armour save fails: no cover for the attacker, it is destroyed
        ],
    )
    assert [roll.purpose for roll in rolls(report, "cover save")] == ["cover save: Guard"]
    notes = [str(ev.get("note")) for ev in events(report, "policy")]
    assert any("Marine" in note and "attacking infantry" in note for note in notes)
    assert any("Chimera" in note and "only infantry" in note for note in notes)
    assert report.result.winner == "defender"


def test_the_better_of_cover_and_invulnerable_is_taken() -> None:
    def second_save(defender: str) -> str:
        report = run("epic", "1x Marine: CC4+ FF4+ Sv- INF", defender, [6, 1, 1, 6, *MISS4], max_rounds=1)
        (roll,) = [r for r in report.steps[2].rolls if not r.purpose.startswith("armour")]
        return roll.purpose

    assert second_save("1x Seer: CC4+ FF4+ Sv4+ INF invulnerable cover=4+") == "cover save: Seer"
    assert second_save("1x Seer: CC4+ FF4+ Sv4+ INF invulnerable cover=6+") == "cover save: Seer"  # a tie: cover
    assert second_save("1x Seer: CC4+ FF4+ Sv4+ INF invulnerable") == "invulnerable save: Seer"


def test_reikhammer_saves_roll_over_by_default_and_under_as_an_option() -> None:
    attacker, defender = "1x Knight: CC6 FF1 Sv- INF", "1x Pikeman: CC1 FF1 Sv3+ INF"
    over = run("reikhammer", attacker, defender, [1, 6, 3, *MISS4], max_rounds=1)
    (save,) = rolls(over, "armour save")
    assert save.target is not None
    assert (save.target.op, save.successes) == (">=", 1)
    under = run("reikhammer", attacker, defender.replace("Sv3+", "Sv3"), [1, 6, 4], save_direction="under")
    (save,) = rolls(under, "armour save")
    assert save.target is not None
    assert (save.target.op, save.successes) == ("<=", 0)
    assert under.result.winner == "attacker"


# --------------------------------------------------------------------------- immediate outcomes


def test_the_attacker_wins_at_once_by_destroying_the_whole_defending_formation() -> None:
    report = run(
        "epic",
        "3x Tactical: CC4+ FF4+ Sv- INF",
        "2x Scout: CC5+ FF5+ Sv- INF",
        [6, 6, 1, 1, 1],  # two hits kill both Scouts; no supporting fire, no result roll
        attacker_support="2x Devastator: FF3+",
        defender_support="2x Guard: FF5+",
    )
    assert report.result.winner == "attacker"
    assert report.result.outcome == "destroyed"
    assert rolls(report, "result roll") == []
    assert rolls(report, "to hit: Devastator") == []
    # The losing side's would-be supporters still gain a Blast marker.
    assert [dict(s) for s in report.result.defender.extra["supporting_formations"]] == [
        {"formation": "Guard", "blast_markers_gained": 1}
    ]


def test_the_attacker_must_destroy_every_defending_unit_not_only_the_engaged_ones() -> None:
    report = run(
        "epic",
        "3x Tactical: CC4+ FF4+ Sv- INF",
        "2x Scout: CC5+ FF5+ Sv- INF ; 1x Reserve: CC5+ FF5+ Sv- INF contact=0",
        [6, 6, 1, 1, 1, 3, 3, 1, 1],  # both engaged Scouts die; then the result roll
    )
    assert report.result.winner == "attacker"
    assert len(rolls(report, "result roll")) == 2
    assert report.result.outcome == "destroyed"  # the one survivor cannot take the extra hits


def test_the_defender_wins_at_once_by_destroying_every_directly_engaged_attacker() -> None:
    report = run(
        "epic",
        "2x Tactical: CC4+ FF4+ Sv- INF ; 2x Rhino: CC6+ FF6+ Sv5+ AV contact=0",
        "4x Boyz: CC4+ FF6+ Sv- INF",
        [1, 1, 4, 4, 1, 1],  # the Tacticals miss; the Boyz kill both: the Rhinos were never engaged
    )
    result = report.result
    assert result.winner == "defender"
    assert result.outcome == "broken"
    assert result.attacker.extra["withdraws"] is True
    assert list(result.attacker.extra["withdrawing"]) == ["2x Rhino"]
    assert result.attacker.extra["broken"] is True
    assert "stalls" in str(events(report, "decided")[0].get("note"))


def test_both_formations_wiped_out_together_is_a_draw() -> None:
    report = run("epic", "1x Tactical: CC4+ FF4+ Sv- INF", "1x Boyz: CC4+ FF4+ Sv- INF", [6, 6])
    assert report.result.winner == "draw"
    assert report.result.outcome == "both_destroyed"


def test_no_attacker_directly_engaged_means_no_assault() -> None:
    report = run("epic", "3x Tactical: CC4+ FF4+ Sv- INF contact=0 ff=0", "2x Boyz: CC4+ FF6+ Sv- INF", [])
    assert report.result.winner == "none"
    assert report.result.outcome == "no_assault"
    assert report.result.attacker.lost == report.result.defender.lost == 0


# --------------------------------------------------------------------------- supporting fire


def test_supporting_fire_comes_after_the_attacks_and_counts_for_the_result() -> None:
    report = run(
        "epic",
        "2x Tactical: CC4+ FF4+ Sv4+ INF",
        "4x Boyz: CC4+ FF6+ Sv- INF",
        [
            *[1, 1],  # the Tacticals miss
            *[1, 1, 1, 1],  # the Boyz miss
            *[3, 3, 1],  # attacker's support: Devastators (ff=2 of 3 fire) hit twice; the Warhound misses
            *[6],  # the defender's support: one Gun hits
            *[5],  # the Tactical's armour save holds
            *[2, 2, 6, 6],  # result: attacker 2 +2 kills +1 no BMs = 5; defender 6 +1 no BMs = 7
        ],
        attacker_support="3x Devastator: FF3+ ff=2 | 1x Warhound: FF3+ WE DC=3",
        defender_support="2x Guns: FF5+ ff=1",
    )
    titles = [step.title for step in report.steps]
    assert titles.index("Supporting fire") > titles.index("Close combat and firefight attacks")
    assert [len(r.dice) for r in rolls(report, "to hit: Devastator")] == [2]
    assert report.result.attacker.extra["kills"] == 2
    assert modifiers(report, "attacker")[0]["reason"] == "2 enemy units destroyed"
    assert report.result.winner == "defender"
    assert [dict(s) for s in report.result.attacker.extra["supporting_formations"]] == [
        {"formation": "Devastator", "blast_markers_gained": 1},
        {"formation": "Warhound", "blast_markers_gained": 1},
    ]
    assert report.result.defender.extra["supporting_formations"] == ()
    assert report.inputs.options["attacker_support"] == "3x Devastator: FF3+ ff=2 | 1x Warhound: FF3+ WE DC=3 ff=1"


def test_supporting_fire_can_win_the_assault_outright() -> None:
    report = run(
        "epic",
        "2x Tactical: CC4+ FF4+ Sv- INF",
        "1x Boyz: CC4+ FF6+ Sv- INF",
        [1, 1, 1, 6],  # all miss; the support hits and the last Boy dies
        attacker_support="1x Devastator: FF3+",
    )
    assert report.result.winner == "attacker"
    assert report.steps[-2].title == "The assault is decided"


# --------------------------------------------------------------------------- result modifiers


def _result(game: str, attacker: str, defender: str, **options: object):  # type: ignore[no-untyped-def]
    """Nobody hits (Epic CC6+ on 1s, Reikhammer CC1 on 6s), then a roll of 1s: only the modifiers differ."""
    miss = 1 if game == "epic" else 6
    a = sum(int(g.split("x")[0]) for g in attacker.split(";"))
    d = sum(int(g.split("x")[0]) for g in defender.split(";"))
    return run(game, attacker, defender, [*[miss] * (a + d), 1, 1, 1, 1], max_rounds=1, **options)


@pytest.mark.parametrize(
    ("attacker_units", "defender_units", "expected"),
    [(6, 3, []), (7, 3, ["more than twice as many units remaining"]), (4, 3, [])],
)
def test_epic_double_means_more_than_twice(attacker_units: int, defender_units: int, expected: list[str]) -> None:
    report = _result("epic", f"{attacker_units}x A: CC6+ FF6+ Sv- INF", f"{defender_units}x D: CC6+ FF6+ Sv- INF")
    reasons = [item["reason"] for item in modifiers(report, "attacker")]
    assert reasons == ["more units remaining", *expected, "no Blast markers"]


@pytest.mark.parametrize(
    ("double_means", "expected"),
    [("at_least", ["at least twice as many units remaining"]), ("more_than", [])],
)
def test_reikhammer_double_units_edge(double_means: str, expected: list[str]) -> None:
    report = _result("reikhammer", "6x A: CC1 FF1 Sv- INF", "3x D: CC1 FF1 Sv- INF", double_means=double_means)
    assert [item["reason"] for item in modifiers(report, "attacker")] == ["more units remaining", *expected, "no Shock"]


def test_marker_modifiers_and_a_broken_formation_counting_its_units() -> None:
    report = _result("epic", "2x A: CC6+ FF6+ Sv- INF", "3x D: CC6+ FF6+ Sv- INF", attacker_blast_markers=2)
    assert [item["reason"] for item in modifiers(report, "defender")] == [
        "more units remaining",
        "no Blast markers",
        "fewer Blast markers than the enemy",
    ]
    # A Broken defender counts Blast markers equal to its 3 units: the attacker with 2 has fewer, and
    # the defender no longer has none.
    report = _result(
        "epic", "2x A: CC6+ FF6+ Sv- INF", "3x D: CC6+ FF6+ Sv- INF", attacker_blast_markers=2, defender_broken=True
    )
    assert [item["reason"] for item in modifiers(report, "attacker")] == ["fewer Blast markers than the enemy"]
    assert [item["reason"] for item in modifiers(report, "defender")] == ["more units remaining"]


def test_epic_inspiring_units_add_one_each_when_they_take_part() -> None:
    report = run(
        "epic",
        "2x Commissar: CC6+ FF6+ Sv- INF inspiring ; 1x Reserve: CC6+ FF6+ Sv- INF inspiring contact=0",
        "3x D: CC6+ FF6+ Sv- INF",
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        attacker_support="1x Priest: FF6+ inspiring",
        max_rounds=1,
    )
    reasons = [item["reason"] for item in modifiers(report, "attacker")]
    assert "3 Inspiring units" in reasons  # two engaged Commissars and the supporting Priest; not the Reserve
    assert modifier_total(report, "attacker") == 4  # + no Blast markers


def test_reikhammer_refuses_inspiring() -> None:
    with pytest.raises(SpecError, match="no Inspiring modifier"):
        run("reikhammer", "2x A: CC4 FF3 Sv- INF inspiring", "1x D: CC4 FF3 Sv- INF", [])


# --------------------------------------------------------------------------- ties, rounds, Broken, markers


def test_a_draw_after_max_rounds_holds_and_each_side_gains_markers_for_its_losses() -> None:
    report = run(
        "epic",
        "3x A: CC4+ FF4+ Sv- INF",
        "3x D: CC4+ FF4+ Sv- INF",
        [4, 1, 1, 4, 1, 1, 3, 3, 3, 3],  # each side kills one; the result ties at 3 + 1 + 1
        max_rounds=1,
    )
    result = report.result
    assert (result.winner, result.outcome) == ("draw", "tied")
    assert result.attacker.extra["blast_markers"] == result.defender.extra["blast_markers"] == 1
    assert not result.attacker.extra["withdraws"]


def test_later_rounds_keep_the_survivors_in_their_positions() -> None:
    report = run(
        "epic",
        "1x A: CC4+ FF4+ Sv- INF ; 1x Gunner: CC6+ FF3+ Sv- INF ff=1",
        "2x D: CC4+ FF4+ Sv- INF",
        [*[1, 1], *[1, 1], *MISS4, *[1, 1], *[1, 1], *[6, 6, 1, 1]],
        max_rounds=2,
    )
    round_two = [step for step in report.steps if step.title.startswith("Round 2: Close combat")]
    assert [roll.purpose for roll in round_two[0].rolls] == [
        "to hit: A (CC4+)",
        "to hit: Gunner (FF3+)",
        "to hit: D (CC4+)",
    ]
    assert report.result.winner == "attacker"


def test_a_loser_already_broken_is_destroyed() -> None:
    report = run(
        "epic",
        "4x A: CC4+ FF4+ Sv- INF",
        "4x D: CC4+ FF4+ Sv- INF",
        [*MISS4, *MISS4, 2, 1, 1, 1],  # nobody hits; 2 + 1 (no BMs) + 1 (fewer) beats 1: 3 extra hits
        defender_broken=True,
    )
    result = report.result
    assert (result.winner, result.outcome) == ("attacker", "destroyed")
    assert result.defender.remaining == 0
    assert any("already Broken" in str(ev.get("note")) for ev in events(report, "casualty"))


def test_a_loser_that_breaks_withdraws_and_counts_markers_equal_to_its_units() -> None:
    report = run(
        "epic",
        "6x A: CC4+ FF4+ Sv- INF",
        "6x D: CC4+ FF4+ Sv- INF",
        [*[1] * 6, *[1] * 6, 4, 1, 1, 1],  # the attacker wins 4 + 1 to 1 + 1: 3 extra hits
    )
    defender = report.result.defender
    assert (report.result.outcome, defender.remaining) == ("broken", 3)
    assert defender.extra["broken"] is True
    assert defender.extra["blast_markers"] == 3
    assert list(defender.extra["withdrawing"]) == ["3x D"]
    assert events(report, "consolidate")


def test_the_winner_gains_a_marker_per_unit_lost_and_may_break_without_withdrawing() -> None:
    report = run(
        "epic",
        "3x A: CC4+ FF4+ Sv- INF",
        "6x D: CC4+ FF4+ Sv- INF",
        [*[4, 4, 1], *[4, 1, 1, 1, 1, 1], 6, 1, 1, 1],
        attacker_blast_markers=1,
    )
    attacker = report.result.attacker
    assert report.result.winner == "attacker"
    assert attacker.extra["blast_markers"] == 2  # 1 + 1 lost
    assert attacker.extra["broken"] is True  # 2 Blast markers, 2 units left
    assert attacker.extra["withdraws"] is False
    assert events(report, "breaks")


def test_a_winner_already_broken_gains_no_markers() -> None:
    report = run(
        "epic",
        "3x A: CC4+ FF4+ Sv- INF",
        "3x D: CC4+ FF4+ Sv- INF",
        [4, 1, 1, 4, 1, 1, 6, 1, 1, 1],
        attacker_broken=True,
        attacker_blast_markers=2,
    )
    assert report.result.winner == "attacker"
    assert report.result.attacker.extra["blast_markers"] == 2
    assert report.result.attacker.extra["broken"] is True


# --------------------------------------------------------------------------- war engines


def test_war_engines_lose_damage_capacity_and_count_it_for_the_result() -> None:
    report = run(
        "epic",
        "6x Marine: CC4+ FF4+ Sv- INF",
        "1x Warhound: CC4+ FF4+ Sv5+ WE DC=3 ; 1x Guard: CC6+ FF6+ Sv- INF contact=0",
        [
            *[6, 6, 6, 1, 1, 1],  # 3 hits: all on the Warhound (DC 3 in one pass)
            *[1],  # the Warhound misses (the Guard is not engaged)
            *[1, 1, 5],  # two saves fail: DC 3 -> 1
            *[
                1,
                1,
                1,
                1,
            ],  # result: attacker 1 + 2 (DC lost) + 1 more (6 v 2) + 1 more than twice + 1 = 6; defender 1+1
        ],
    )
    assert [ev.get("dc_lost") for ev in events(report, "damage")] == [2, 1]  # the saves, then the extra hits
    assert report.result.attacker.extra["kills"] == 4  # 2 DC in the fight, then 1 DC and the Guard
    assert [item["reason"] for item in modifiers(report, "attacker")][:3] == [
        "2 damage points on enemy war engines",
        "more units remaining",
        "more than twice as many units remaining",
    ]
    # Four extra hits: the Warhound's last DC, then the Guard; the other two find nothing.
    assert report.result.defender.lost == 2
    assert report.result.defender.remaining == 0
    assert report.result.outcome == "destroyed"
