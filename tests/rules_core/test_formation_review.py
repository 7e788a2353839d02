"""Issue 33, the review's findings on the formation games (Epic: Armageddon, Reikhammer), each with scripted dice.

Dice order (docs/games/formation.md): attacks (attacker's groups, then defender's), saves on the defender then
on the attacker, supporting fire and its saves, then the result rolls (attacker's 2D6, defender's 2D6).
"""

from __future__ import annotations

import pytest

from bot.render.summary import headline, table_lines
from rules_core import RefereeError, get_game, resolve
from rules_core.report import Report
from rules_core.table import TableSummary
from tests.rules_core.helpers_formation import events, run


def table_summary(report: Report) -> TableSummary:
    return get_game(report.game).table_summary(report)


# --------------------------------------------------------------------------- supporting fire's targets


def support_notes(report: Report) -> list[str]:
    return [str(ev.get("note")) for ev in events(report, "support")]


@pytest.mark.parametrize(
    "enemy",
    [
        "2x E: CC4 FF4 Sv- INF contact=0 ff=2 no-line-of-fire",  # within 4 tiles, no line of fire
        "2x E: CC4 FF- Sv- INF contact=0 ff=2",  # within 4 tiles with no FF value: directly engaged, cannot attack
    ],
)
def test_reikhammer_support_cannot_fire_when_no_enemy_is_in_a_position_to_attack(enemy: str) -> None:
    # "directly involved means belonging to the attacking or defending formation(s) and in a position to attack":
    # E cannot attack, so S has nothing it may fire at. No support dice: A's two dice miss, then the result roll
    # (6 against 1, equal modifiers) goes to the attacker.
    report = run(
        "reikhammer", "2x A: CC4 FF4 Sv- INF contact=0 ff=2", enemy, [6, 6, 6, 1, 1, 1], attacker_support="3x S: FF4"
    )
    assert not [roll for step in report.steps for roll in step.rolls if "S (FF4)" in roll.purpose]
    assert any("in a position to attack" in note and "cannot fire" in note for note in support_notes(report))
    assert report.result.winner == "attacker"


MIXED = (
    "1x A: CC4 FF4 Sv- INF contact=0 ff=1",
    "1x E: CC4 FF4 Sv- INF ff=1 no-line-of-fire ; 1x D: CC4 FF4 Sv- INF ff=1",
)


def test_reikhammer_support_hits_land_only_on_units_in_a_position_to_attack() -> None:
    # A misses, D misses; S hits once: the hit lands on D (able to attack), not on E (listed first, nearest).
    report = run("reikhammer", *MIXED, [6, 6, 1, 6, 1, 1, 1], attacker_support="1x S: FF4")
    allocation = [ev for ev in events(report, "allocation") if ev.get("side") == "defender"]
    assert allocation[-1].get("hits") == {"D": 1}


def test_reikhammer_support_targets_engaged_lets_hits_land_on_every_directly_engaged_unit() -> None:
    report = run("reikhammer", *MIXED, [6, 6, 1, 6, 1, 1, 1], attacker_support="1x S: FF4", support_targets="engaged")
    allocation = [ev for ev in events(report, "allocation") if ev.get("side") == "defender"]
    assert allocation[-1].get("hits") == {"E": 1}


def test_epic_support_still_fires_at_directly_engaged_units_that_cannot_attack() -> None:
    # Epic's A5 (REFERENCE.md 001): the supporting units need a line of fire to "an enemy unit that was directly
    # engaged"; a unit with FF- within 15cm is directly engaged (decision 6), so support may fire at it.
    report = run(
        "epic",
        "2x A: CC4+ FF4+ Sv- INF contact=0 ff=2",
        "2x E: CC4+ FF- Sv- INF contact=0 ff=2",
        [1, 1, 1, 1, 1, 6, 1, 1, 1],
        attacker_support="3x S: FF4+",
    )
    assert [roll for step in report.steps for roll in step.rolls if "S (FF4+)" in roll.purpose]


# --------------------------------------------------------------------------- a war engine's damage points


def notes(report: Report, kind: str) -> list[str]:
    return [str(ev.get("note")) for ev in events(report, kind)]


WAR_ENGINE_WINS = {
    # The Titan (DC4, 3 markers) wins, losing 1 damage capacity: 4 markers on 3 damage points left breaks it.
    "epic": ("1x Titan: CC3+ FF3+ Sv- WE DC=4", "2x D: CC4+ FF4+ Sv- INF", [6, 6, 1, 6, 1, 1, 1], "blast_markers"),
    "reikhammer": ("1x Titan: CC4 FF4 Sv- WE DC=4", "2x D: CC4 FF4 Sv- INF", [1, 1, 6, 6, 1, 1, 1], "shock"),
}


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
def test_a_war_engines_markers_and_losses_are_counted_in_damage_points(game: str) -> None:
    attacker, defender, faces, key = WAR_ENGINE_WINS[game]
    report = run(game, attacker, defender, faces, **{f"attacker_{key}": 3})
    assert report.result.winner == "attacker"
    markers = [note for note in notes(report, "markers") if note.startswith("The attacker")]
    assert "one per damage point it lost" in markers[0]
    broken = notes(report, "breaks")[0]
    assert "and 3 damage points left" in broken and "as damage points left: 3" in broken
    line = table_lines(report)[0]
    assert "1 unit left, 3 damage capacity left" in line


def test_a_formation_of_units_and_a_war_engine_counts_both() -> None:
    report = run(
        "epic",
        "1x Titan: CC3+ FF3+ Sv- WE DC=4 ; 2x G: CC3+ FF3+ Sv- INF contact=0 ff=0",
        "2x D: CC4+ FF4+ Sv- INF",
        [6, 6, 1, 6, 1, 1, 1],
        attacker_blast_markers=5,
    )
    broken = notes(report, "breaks")[0]
    assert "2 units and 3 damage points left" in broken


# --------------------------------------------------------------------------- empty separators name the game's parts


@pytest.mark.parametrize(
    ("game", "side", "option", "said"),
    [
        ("reikhammer", "2x A: CC4 FF4 Sv- INF | ", None, "Formation 2 is empty"),
        ("reikhammer", "2x A: CC4 FF4 Sv- INF ; | 2x B: CC4 FF4 Sv- INF", None, "Formation 1: the group after ';'"),
        ("reikhammer", " ; 2x A: CC4 FF4 Sv- INF", None, "Formation 1: the group before ';'"),
        ("epic", "2x A: CC4+ FF4+ Sv- INF | | 2x B: CC4+ FF4+ Sv- INF", None, "Formation 2 is empty"),
        ("reikhammer", "2x A: CC4 FF4 Sv- INF", "3x S: FF4 | ", "Supporting formation 2 is empty"),
        ("epic", "2x A: CC4+ FF4+ Sv- INF", "3x S: FF4+ ; ", "Supporting formation 1: the group after ';'"),
    ],
)
def test_empty_separators_name_the_formation_games_own_parts(
    game: str, side: str, option: str | None, said: str
) -> None:
    defender = "2x D: CC4 FF4 Sv- INF" if game == "reikhammer" else "2x D: CC4+ FF4+ Sv- INF"
    with pytest.raises(RefereeError) as raised:
        resolve(game, side, defender, seed=1, **({"attacker_support": option} if option else {}))
    assert said in raised.value.message
    assert "Unit" not in raised.value.message


# --------------------------------------------------------------------------- both wiped out by supporting fire


@pytest.mark.parametrize(
    ("game", "option", "said"),
    [
        ("reikhammer", None, "Both sides are wiped out by supporting fire: the defender wins (the both-wiped-out"),
        ("reikhammer", "draw", "Both sides are wiped out by supporting fire: the assault is drawn (the both-wiped-out"),
        ("epic", None, "Both sides are wiped out by supporting fire: the assault is drawn (the both-wiped-out"),
        ("epic", "defender", "Both sides are wiped out by supporting fire: the defender wins (the both-wiped-out"),
    ],
)
def test_both_sides_wiped_out_by_supporting_fire_say_so(game: str, option: str | None, said: str) -> None:
    a, s, miss = ("CC6+ FF6+", "FF4+", 1) if game == "epic" else ("CC1 FF1", "FF4", 6)
    report = run(
        game,
        f"2x A: {a} Sv- INF",
        f"2x D: {a} Sv- INF",
        [miss] * 4 + [4] * 4,
        attacker_support=f"2x T: {s}",
        defender_support=f"2x S: {s}",
        **({"both_wiped_out": option} if option else {}),
    )
    note = notes(report, "decided")[0]
    assert said in note and "stall" not in note
    assert "stall" not in headline(report)


# --------------------------------------------------------------------------- a tie that leaves no attacker engaged


@pytest.mark.parametrize(
    ("game", "attacker", "defender", "support", "faces"),
    [
        (
            "epic",
            "1x A: CC4+ FF4+ Sv- INF contact=1 ; 3x B: CC4+ FF4+ Sv- INF contact=0 ff=0",
            "2x D: CC6+ FF6+ Sv- INF contact=1 ff=0",
            "3x S: FF4+",
            [1, 1, 4, 1, 1, 1, 1, 1, 1],
        ),
        (
            "reikhammer",
            "1x A: CC4 FF4 Sv- INF contact=1 ; 3x B: CC4 FF4 Sv- INF contact=0 ff=0",
            "2x D: CC1 FF1 Sv- INF contact=1 ff=0",
            "3x S: FF4",
            [6, 6, 4, 6, 6, 1, 1, 1, 1],
        ),
    ],
)
def test_a_round_that_stalls_without_dice_does_not_offer_counter_charges(
    game: str, attacker: str, defender: str, support: str, faces: list[int]
) -> None:
    report = run(game, attacker, defender, faces, defender_support=support)
    step = next(step for step in report.steps if step.title == "Round 2: the combat goes on")
    said = " ".join(str(ev.get("note")) for ev in step.events)
    assert "counter-charge" not in said.lower()
    assert "no attacking unit is directly engaged" in said
    assert report.result.winner == "defender"


# --------------------------------------------------------------------------- grammar


def test_a_withdrawing_side_named_in_the_plural_withdraws_in_the_plural() -> None:
    # The defender "Line and Knights" (two formations) loses: D misses, the result 6 against 1.
    report = run(
        "reikhammer",
        "4x D: CC4 FF4 Sv- INF",
        "3x Line: CC4 FF4 Sv- INF | 2x Knights: CC4 FF4 Sv- INF",
        [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1],
    )
    assert report.result.winner == "attacker"
    moves = " ".join(table_summary(report).moves)
    assert "Line and Knights withdraw (" in moves


def test_reikhammer_broken_option_help_says_its_shock_is() -> None:
    helps = {spec.name: spec.help for spec in get_game("reikhammer").options}
    assert "its Shock is at least its units" in helps["attacker_broken"]
    epic = {spec.name: spec.help for spec in get_game("epic").options}
    assert "its Blast markers are at least its units" in epic["attacker_broken"]


def test_a_broken_reikhammer_winner_has_as_much_shock_as_units_left() -> None:
    report = run("reikhammer", "4x A: CC4 FF4 Sv- INF", "2x D: CC4 FF4 Sv- INF", [1, 1, 6, 6, 1, 6], attacker_shock=3)
    broken = notes(report, "breaks")[0]
    assert "as much Shock as units left: 3" in broken


def test_one_broken_formation_tests_to_rally_and_two_each_test() -> None:
    one = run(
        "epic", "4x A: CC4+ FF4+ Sv- INF", "2x D: CC4+ FF4+ Sv- INF", [4, 4, 1, 1, 4, 1], attacker_blast_markers=3
    )
    assert "Broken A: it tests to rally" in table_summary(one).next_step
    assert "each tests" not in table_summary(one).next_step


def test_the_setup_line_says_a_unit_without_a_line_of_fire_has_none() -> None:
    """Read-through: it said 'within 4 tiles (FF4)' of a unit that cannot shoot (Reikhammer decision 7)."""
    report = resolve(
        "reikhammer",
        "2x A: CC4 FF4 Sv- INF contact=1 ff=1",
        "2x E: CC4 FF4 Sv- INF contact=1 ff=1 no-line-of-fire",
        seed=1,
    )
    notes = [str(e.get("note")) for step in report.steps for e in step.events if e.kind == "engagement"]
    assert any("1 within 4 tiles (no line of fire)" in note for note in notes), notes
    assert any("1 within 4 tiles (FF4)" in note for note in notes), notes
