"""Issue 33's rulings for the formation games (Epic: Armageddon, Reikhammer), each with scripted dice.

Dice order (docs/games/formation.md): attacks (attacker's groups, then defender's), saves on the defender then
on the attacker, supporting fire and its saves, then the result rolls (attacker's 2D6, defender's 2D6).
"""

from __future__ import annotations

import pytest

from rules_core import RefereeError, SpecError, get_game
from tests.rules_core.helpers_formation import events, modifier_total, modifiers, run

# --------------------------------------------------------------------------- supporting fire does not end it

# The issue's case: the only directly engaged attacker (A) is killed by the defender's supporting fire. The texts
# check the immediate outcomes after the combat attacks; supporting fire comes after ("if the assault has not
# ended by this point ... work out the result"), so the result is rolled: the attacker still has 3 units.
SUPPORT_KILLS_THE_ENGAGED = {
    "epic": (
        "1x A: CC4+ FF4+ Sv- INF contact=1 ; 3x B: CC4+ FF4+ Sv- INF contact=0 ff=0",
        "2x D: CC6+ FF6+ Sv- INF contact=1 ff=0",
        "3x S: FF4+",
        # A misses, D misses; S hits once (A dies); result 6 + 2 = 8 against 1 + 2 = 3
        [1, 1, 4, 1, 1, 6, 1, 1, 1],
    ),
    "reikhammer": (
        "1x A: CC4 FF4 Sv- INF contact=1 ; 3x B: CC4 FF4 Sv- INF contact=0 ff=0",
        "2x D: CC1 FF1 Sv- INF contact=1 ff=0",
        "3x S: FF4",
        [6, 6, 4, 6, 6, 6, 1, 1, 1],
    ),
}


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
def test_supporting_fire_that_kills_the_last_engaged_attacker_does_not_stall_the_assault(game: str) -> None:
    attacker, defender, support, faces = SUPPORT_KILLS_THE_ENGAGED[game]
    report = run(game, attacker, defender, faces, defender_support=support)
    assert not events(report, "decided")
    # attacker: more units (3 to 2) and no markers; defender: one kill and no markers
    assert modifier_total(report, "attacker") == 2
    assert modifier_total(report, "defender") == 2
    assert (report.result.winner, report.result.outcome) == ("attacker", "destroyed")


@pytest.mark.parametrize(
    ("game", "attacker", "defender", "support", "faces"),
    [
        ("epic", "2x A: CC6+ FF6+ Sv- INF", "2x D: CC6+ FF6+ Sv- INF", "2x S: FF4+", [1, 1, 1, 1, 4, 4]),
        ("reikhammer", "2x A: CC1 FF1 Sv- INF", "2x D: CC1 FF1 Sv- INF", "2x S: FF4", [6, 6, 6, 6, 4, 4]),
    ],
)
def test_supporting_fire_that_wipes_out_a_side_wins_at_once(
    game: str, attacker: str, defender: str, support: str, faces: list[int]
) -> None:
    # "If one side has completely wiped the other side out, then it is the winner": no result roll.
    report = run(game, attacker, defender, faces, defender_support=support)
    assert (report.result.winner, report.result.outcome) == ("defender", "destroyed")
    note = str(events(report, "decided")[0].get("note"))
    assert "wiped out" in note and "stall" not in note


@pytest.mark.parametrize(("game", "winner"), [("epic", "draw"), ("reikhammer", "defender")])
def test_supporting_fire_that_wipes_out_both_sides_follows_the_both_wiped_out_decision(game: str, winner: str) -> None:
    a, s = ("CC6+ FF6+", "FF4+") if game == "epic" else ("CC1 FF1", "FF4")
    miss = 1 if game == "epic" else 6
    report = run(
        game,
        f"1x A: {a} Sv- INF",
        f"1x D: {a} Sv- INF",
        [miss, miss, 4, 4],
        attacker_support=f"1x S: {s}",
        defender_support=f"1x T: {s}",
    )
    assert (report.result.winner, report.result.outcome) == (winner, "both_destroyed")


def test_a_tie_after_supporting_fire_killed_every_engaged_attacker_stalls_the_next_round_without_dice() -> None:
    # The issue's case with a tied result (3 to 3): the new round has no directly engaged attacker left (the
    # referee keeps each survivor's position), so the attack stalls before anyone rolls.
    attacker, defender, support, _ = SUPPORT_KILLS_THE_ENGAGED["epic"]
    report = run("epic", attacker, defender, [1, 1, 4, 1, 1, 1, 1, 1, 1], defender_support=support)
    assert report.result.winner == "defender"
    assert "stalls" in str(events(report, "decided")[0].get("note"))
    assert [step.title for step in report.steps][-3:] == [
        "Round 2: the combat goes on",
        "The assault is decided",
        "After the assault",
    ]


# --------------------------------------------------------------------------- a Broken winner's markers


@pytest.mark.parametrize(
    ("game", "faces", "key"),
    [("epic", [4, 4, 1, 1, 4, 1], "blast_markers"), ("reikhammer", [1, 1, 6, 6, 1, 6], "shock")],
)
def test_a_winner_broken_by_its_losses_has_as_many_markers_as_units_left(game: str, faces: list[int], key: str) -> None:
    # 4 units with 3 markers win, losing 1: 4 markers on 3 units breaks it, and a Broken formation has as many
    # markers as it has units left (3), never more.
    stats = "CC4+ FF4+" if game == "epic" else "CC4 FF4"
    report = run(game, f"4x A: {stats} Sv- INF", f"2x D: {stats} Sv- INF", faces, **{f"attacker_{key}": 3})
    attacker = report.result.attacker
    assert (report.result.winner, attacker.remaining) == ("attacker", 3)
    assert attacker.extra["broken"] is True
    assert attacker.extra[key] == 3
    assert "3 units left" in str(events(report, "breaks")[0].get("note"))


# --------------------------------------------------------------------------- Reikhammer: no line of fire


def test_a_reikhammer_unit_within_4_tiles_without_a_line_of_fire_is_engaged_but_cannot_shoot() -> None:
    # "Attackers are considered to be directly engaged when within 4 tiles of a defending unit": B is, so it can be
    # hit and keeps the attack from stalling, but "within 4 tiles and have a line of fire" is needed to shoot.
    report = run(
        "reikhammer",
        "1x A: CC4 FF4 Sv- INF contact=1 ; 1x B: CC4 FF4 Sv- INF ff=1 no-line-of-fire",
        "2x D: CC4 FF4 Sv- INF contact=1 ff=1",
        # A misses (B rolls nothing); D's two units: one hit, on A; B is left: no stall, the result
        # 1 + 1 (no Shock) = 2 against 1 + 1 (kill) + 1 (more) + 1 (double) + 1 (no Shock) = 5: B takes 3 hits
        [6, 1, 6, 1, 1, 1, 1],
    )
    assert [roll.purpose for roll in report.steps[1].rolls] == ["to hit: A (CC4)", "to hit: D (CC4)", "to hit: D (FF4)"]
    assert not events(report, "decided")
    assert (report.result.winner, report.result.outcome) == ("defender", "destroyed")
    assert any("line of fire" in str(ev.get("note")) for ev in events(report, "policy"))
    # and it can be hit: two hits fall on A and B
    both = run(
        "reikhammer",
        "1x A: CC4 FF4 Sv- INF contact=1 ; 1x B: CC4 FF4 Sv- INF ff=1 no-line-of-fire",
        "2x D: CC4 FF4 Sv- INF contact=1 ff=1",
        [6, 1, 1],
    )
    assert (both.result.winner, both.result.attacker.lost) == ("defender", 2)


def test_no_line_of_fire_is_refused_where_it_cannot_apply() -> None:
    with pytest.raises(SpecError, match="not directly engaged") as epic:
        run("epic", "1x A: CC4+ FF4+ Sv- INF ff=1 no-line-of-fire", "1x D: CC4+ FF4+ Sv- INF ff=1", [])
    assert epic.value.example
    with pytest.raises(SpecError, match="line of fire"):
        run(
            "reikhammer",
            "1x A: CC4 FF4 Sv- INF",
            "1x D: CC4 FF4 Sv- INF",
            [],
            attacker_support="2x S: FF3 no-line-of-fire",
        )


# --------------------------------------------------------------------------- Reikhammer: several formations

TWO = "3x A: CC4 FF4 Sv- INF | 2x B: CC4 FF4 Sv- INF"


def test_reikhammer_sides_of_several_formations_take_shock_and_break_per_formation() -> None:
    # "each winning formation receives a number of Shock points equal to the number of its units that were killed
    # ... it is possible for a formation to win an assault and then become broken": A loses 2 of 3 and breaks, B
    # loses none. '|' separates formations, ';' the groups of one.
    report = run("reikhammer", TWO, "3x D: CC4 FF4 Sv- INF", [1, 1, 1, 6, 6, 1, 1, 6])
    attacker = report.result.attacker
    assert report.result.winner == "attacker"
    assert report.inputs.attacker == "3x A: CC4 FF4 Sv- INF contact=3 ff=0 | 2x B: CC4 FF4 Sv- INF contact=2 ff=0"
    assert [dict(f) for f in attacker.extra["formations"]] == [
        {"formation": "A", "remaining": 1, "shock": 1, "broken": True},
        {"formation": "B", "remaining": 2, "shock": 0, "broken": False},
    ]
    assert (attacker.extra["shock"], attacker.extra["broken"]) == (1, False)
    breaks = [str(ev.get("note")) for ev in events(report, "breaks")]
    assert len(breaks) == 1 and "formation A" in breaks[0]


def test_reikhammer_formations_give_their_own_starting_shock_and_the_result_counts_them_together() -> None:
    # The merged side has 1 + 2 = 3 Shock for the result; B (2 Shock on 2 units) is Broken, A is not, so the
    # intermingled formation was not Broken before the assault: losing, it withdraws rather than being destroyed.
    report = run(
        "reikhammer",
        "3x A: CC4 FF4 Sv- INF shock=1 | 2x B: CC4 FF4 Sv- INF shock=2",
        "3x D: CC4 FF4 Sv- INF",
        [*[6] * 8, 1, 1, 1, 1],  # nobody hits; 1 + 1 (more units) against 1 + 1 (no Shock) + 1 (fewer Shock)
    )
    reasons = [str(m["reason"]) for m in modifiers(report, "defender")]
    assert reasons == ["no Shock", "fewer Shock than the enemy"]
    assert (report.result.winner, report.result.outcome) == ("defender", "broken")
    formations = [dict(f) for f in report.result.attacker.extra["formations"]]
    assert [(f["formation"], f["remaining"], f["broken"]) for f in formations] == [("A", 2, True), ("B", 2, True)]
    assert "shock=1" in report.inputs.attacker and "shock=2" in report.inputs.attacker


def test_an_intermingled_formation_all_broken_before_the_assault_is_destroyed_when_it_loses() -> None:
    report = run(
        "reikhammer",
        "2x A: CC4 FF4 Sv- INF shock=2 | 2x B: CC4 FF4 Sv- INF shock=2",
        "3x D: CC4 FF4 Sv- INF",
        [*[6] * 7, 1, 1, 1, 1],
    )
    assert (report.result.winner, report.result.outcome) == ("defender", "destroyed")


@pytest.mark.parametrize(
    ("attacker", "options", "words"),
    [
        ("3x A: CC4 FF4 Sv- INF shock=1 | 2x B: CC4 FF4 Sv- INF", {"attacker_shock": 1}, "twice"),
        (TWO, {"attacker_shock": 1}, "shock=N"),
        ("3x A: CC4 FF4 Sv- INF shock=1 ; 2x B: CC4 FF4 Sv- INF shock=1", {}, "twice"),
    ],
)
def test_starting_shock_said_twice_or_for_no_formation_is_refused(
    attacker: str, options: dict[str, object], words: str
) -> None:
    with pytest.raises(SpecError, match=words) as refused:
        run("reikhammer", attacker, "3x D: CC4 FF4 Sv- INF", [], **options)
    assert refused.value.example


def test_epic_sides_stay_one_formation() -> None:
    report = run("epic", "1x A: CC4+ FF4+ Sv- INF | 1x B: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", [4, 1, 1])
    assert " | " not in report.inputs.attacker
    assert "formations" not in report.result.attacker.extra
    with pytest.raises(SpecError, match="Unknown setting"):
        run("epic", "1x A: CC4+ FF4+ Sv- INF shock=1", "1x D: CC4+ FF4+ Sv- INF", [])


def test_the_summary_names_each_formation() -> None:
    from bot.render.summary import headline, table_lines

    report = run("reikhammer", TWO, "3x D: CC4 FF4 Sv- INF", [1, 1, 1, 6, 6, 1, 1, 6])
    assert headline(report).startswith("A and B beat D")
    lines = table_lines(report)
    assert "Formation A: 1 unit left, 1 Shock, Broken; formation B: 2 units left, 0 Shock." in lines


# --------------------------------------------------------------------------- words


def test_reikhammer_help_names_no_published_rulebook() -> None:
    texts = [option.help for option in get_game("reikhammer").options] + [
        doc.help for doc in get_game("reikhammer").tokens
    ]
    assert not any("published rulebook" in text for text in texts)
    assert any("published rulebook" in option.help for option in get_game("epic").options)


def test_reikhammer_says_close_contact_where_epic_says_base_contact() -> None:
    report = run("reikhammer", "1x A: CC4 FF4 Sv- INF", "1x D: CC4 FF4 Sv- INF", [1, 1])
    notes = " ".join(str(ev.get("note")) for step in report.steps for ev in step.events)
    assert "1 in close contact (CC4)" in notes and "base contact" not in notes
    with pytest.raises(SpecError, match="close contact is mutual"):
        run("reikhammer", "2x A: CC4 FF3 Sv- INF ff=2", "2x D: CC4 FF3 Sv- INF", [])
    epic = run("epic", "1x A: CC4+ FF4+ Sv- INF", "1x D: CC4+ FF4+ Sv- INF", [4, 1])
    assert "1 in base contact (CC4+)" in " ".join(str(ev.get("note")) for ev in epic.steps[0].events)


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
@pytest.mark.parametrize("group", ["0x A: CC4 FF4 Sv- INF", "201x A: CC4 FF4 Sv- INF"])
def test_formation_errors_count_units_not_models(game: str, group: str) -> None:
    if game == "epic":
        group = group.replace("CC4 FF4", "CC4+ FF4+")
    with pytest.raises(RefereeError) as refused:
        run(game, group, "1x D: CC4+ FF4+ Sv- INF" if game == "epic" else "1x D: CC4 FF4 Sv- INF", [])
    assert "model" not in str(refused.value) and "unit" in refused.value.message


# --------------------------------------------------------------------------- what each roll is for


def test_every_formation_roll_says_its_kind_and_side() -> None:
    report = run(
        "epic",
        "2x A: CC4+ FF4+ Sv4+ INF",
        "1x D: CC4+ FF4+ Sv5+ INF cover=4+ ; 1x W: CC4+ FF4+ Sv5+ AV invulnerable",
        # A hits twice, D and W miss; D saves, W fails its armour and makes its invulnerable save; the support hits
        # D, which fails its armour save and makes its cover save; a tied result roll, and the cap of one round
        [4, 4, 1, 1, 5, 1, 6, 4, 1, 4, 1, 1, 1, 1],
        attacker_support="1x S: FF4+",
        max_rounds=1,
    )
    tagged = [(roll.kind, str(roll.side)) for step in report.steps for roll in step.rolls]
    assert tagged == [
        ("to_hit", "attacker"),
        ("to_hit", "defender"),
        ("to_hit", "defender"),
        ("save", "defender"),
        ("save", "defender"),
        ("invulnerable_save", "defender"),
        ("to_hit", "attacker"),
        ("save", "defender"),
        ("cover_save", "defender"),
        ("result_roll", "attacker"),
        ("result_roll", "defender"),
    ]
    assert get_game("epic").roll_kinds == get_game("reikhammer").roll_kinds
