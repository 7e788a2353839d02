"""Issue 33's 40K rulings on several units: separate combats are refused with one command per combat (decision 22),
each losing unit's own fate, an independent character's ``hits=`` caps, the declarations the text forbids, and the
sweeping advance's words."""

from __future__ import annotations

import pytest

from bot.cli.common import TERMINAL
from bot.discord.errors import DISCORD, referee_error_embed
from bot.render.summary import summary_lines
from rules_core import IllegalDeclarationError, get_game, resolve
from rules_core.dice import SeededDice
from rules_core.errors import Commands
from rules_core.games.wh40k.combats import combats
from rules_core.games.wh40k.engine import resolve as engine_resolve
from rules_core.games.wh40k.spec import parse_side
from rules_core.odds import odds
from rules_core.report import Report
from tests.rules_core.helpers40k import events, run

MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
SCOUTS = "5x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+"
ORKS = "10x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
GROTS = "5x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv-"
# The issue's case: the Marines fight the Orks and the Scouts the Grots; nobody touches across.
ISSUE_ATTACKER = f"{MARINES} vs=1 | {SCOUTS} vs=2"
ISSUE_DEFENDER = f"{ORKS} vs=1 | {GROTS} vs=2"


def test_the_issue_case_is_refused_with_one_command_per_combat_in_each_front_end() -> None:
    """Seen failing before the fix: the two fights were totalled as one result."""
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, seed=7, charge_distance=4)
    error = caught.value
    assert "2 separate combats" in error.message
    assert "1. Marine against Ork; 2. Scout against Grot" in error.message
    assert isinstance(error.example, Commands)
    terminal = error.one_line(TERMINAL).split("\n")
    assert terminal[1:] == [
        f'  referee assault 40k --attacker "{MARINES}" --defender "{ORKS}" --charge-distance 4',
        f'  referee assault 40k --attacker "{SCOUTS}" --defender "{GROTS}" --charge-distance 4',
    ]
    discord = error.example_of(DISCORD)
    assert discord == (
        f"/assault 40k attacker:{MARINES} defender:{ORKS} charge_distance:4\n"
        f"/assault 40k attacker:{SCOUTS} defender:{GROTS} charge_distance:4"
    )
    assert "referee" not in discord and "--" not in discord


def test_each_command_is_a_combat_that_resolves_alone() -> None:
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, seed=7, charge_distance=4)
    example = caught.value.example
    assert isinstance(example, Commands)
    for command in example.examples:
        given = {setting.name: setting.value for setting in command.settings}
        report = resolve("40k", str(given.pop("attacker")), str(given.pop("defender")), seed=7, **given)
        assert report.result.outcome


def test_units_joined_through_a_chain_are_one_combat() -> None:
    # The Scouts fight the Grots, and the Grots fight the Marines, who fight the Orks: one combat.
    attacker = parse_side(f"{MARINES} | {SCOUTS} vs=2")
    defender = parse_side(f"{ORKS} | {GROTS} vs=1")
    assert combats(attacker, defender) == [((0, 1), (0, 1))]
    resolve("40k", f"{MARINES} | {SCOUTS} vs=2", f"{ORKS} | {GROTS} vs=1", seed=7)


def test_renumbered_vs_and_a_split_keep_who_fights_whom() -> None:
    # Combat 2 holds attacker unit 2 and defender units 2 and 3: their vs= are renumbered within it.
    attacker = f"{MARINES} | 6x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+ vs=2:4,3:2"
    defender = f"{ORKS} | {GROTS} vs=2 | 3x Snotling: WS1 S1 T1 W1 I1 A1 Ld4 Sv- vs=2"
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", attacker, defender, seed=1, round=2)
    example = caught.value.example
    assert isinstance(example, Commands)
    second = {s.name: s.value for s in example.examples[1].settings}
    assert second["attacker"] == "6x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+ vs=1:4,2:2"
    assert second["defender"] == f"{GROTS} | 3x Snotling: WS1 S1 T1 W1 I1 A1 Ld4 Sv-"
    assert second["round"] == 2


def test_odds_refuse_the_same_way_naming_the_odds_command() -> None:
    for method in ("auto", "exact", "monte-carlo"):
        with pytest.raises(IllegalDeclarationError) as caught:
            odds("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, method=method, trials=100, charge_distance=4)
        lines = caught.value.one_line(TERMINAL).split("\n")
        assert lines[1].startswith("  referee odds 40k --attacker"), (method, lines)
        # Seen failing before the words were fixed: "one command resolves one combat" over odds commands.
        assert "resolves" not in caught.value.message and "the odds of one combat" in caught.value.message
        assert (caught.value.example_of(DISCORD) or "").startswith("/odds 40k attacker:")


# ---------------------------------------------------------------- each losing unit's own fate (item 2)

CHAINED_DEFENDER = f"{ORKS} vs=1 | {GROTS} vs=1"  # the Grots fight the Marines: one combat with the Scouts'


def test_a_losing_unit_wiped_out_is_not_said_to_hold_its_ground() -> None:
    """Seen failing before the fix: "Ork and Grot held their ground" over a table line removing every Grot."""
    report = resolve("40k", ISSUE_ATTACKER, CHAINED_DEFENDER, seed=1, charge_distance=3)
    assert report.result.outcome == "held" and report.result.defender.remaining
    lines = summary_lines(report)
    assert lines[0] == "Marine and Scout beat Ork and Grot; Ork held its ground, Grot was destroyed"
    assert lines[2].startswith(
        "Defender (2 units): remove 2 from Ork, all 5 from Grot; 8 models left (Ork held, Grot destroyed)"
    )


def test_some_units_falling_back_name_which() -> None:
    report = resolve("40k", ISSUE_ATTACKER, CHAINED_DEFENDER, seed=2, charge_distance=3)
    assert report.result.outcome == "some_fell_back"
    lines = summary_lines(report)
    assert lines[0] == "Marine and Scout beat Ork and Grot; Ork held its ground, Grot fell back"
    assert "(Ork held, Grot fell back)" in lines[2]


def test_a_fallen_back_unit_cut_down_is_destroyed_and_the_others_fate_is_its_own() -> None:
    report = resolve("40k", ISSUE_ATTACKER, CHAINED_DEFENDER, seed=0, charge_distance=3)
    assert report.result.outcome == "fell_back"
    assert summary_lines(report)[0] == "Marine and Scout beat Ork and Grot; Ork fell back, Grot was destroyed"


def test_units_sharing_a_fate_are_said_together_as_before() -> None:
    # Two losing units that both held (seed 8): one outcome word says it for both, no per-unit fates.
    report = resolve("40k", f"{MARINES} | {SCOUTS} vs=2", CHAINED_DEFENDER, seed=8, charge_distance=3)
    assert report.result.winner == "attacker" and report.result.outcome == "held"
    assert get_game("40k").table_summary(report).fates == ()
    assert summary_lines(report)[0] == "Marine and Scout beat Ork and Grot; Ork and Grot held their ground"


# ---------------------------------------------------------------- hits= caps what a unit takes (item 3)

BOYZ = "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
NOB = "1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"
CAPTAIN = "1x Captain: WS5 S4 T4 W3 I5 A3 Ld10 Sv3+ independent-character"


def test_hits_puts_at_most_that_many_on_the_unit_and_the_rest_on_the_others() -> None:
    """Seen failing before the fix: the leftover hits went round to the Nob again (Boyz 1, Nob 2)."""
    report = run(
        CAPTAIN + " vs=1,2 hits=2:1",
        f"{BOYZ} | {NOB}",
        [6, 5, 4]  # 3 hits: the first (6) on the Nob, the other two on the Boyz
        + [6, 6] + [1, 1]  # the Boyz' 2 hits: wound, no save
        + [6] + [1]  # the Nob's 1 hit
        + [1, 1, 1]  # Nob misses
        + [1] * 6  # 3 Boyz miss
        + [1, 1] + [1, 1],  # both hold
        round=2,
    )  # fmt: skip
    (divided,) = events(report, "divide_hits")
    assert divided.get("shares") == {"Ork Boy": 2, "Nob": 1}
    assert "lost" not in divided.fields
    # Seen failing before the words were fixed: "(hits= as given, the rest in turn)" did not say the capped unit
    # takes its hits first.
    assert "(hits= first: up to 1 on Nob, the rest in turn)" in str(divided.get("note"))


def test_the_hits_token_help_says_the_capped_unit_takes_its_hits_first() -> None:
    """Seen failing before the fix: 'puts at most N on unit K' read as a cap only (a single hit went to unit K)."""
    (doc,) = [token for token in get_game("40k").tokens if token.token == "vs=K,K / hits=K:N"]
    assert "first" in doc.help and "at most" not in doc.help


def test_hits_beyond_every_cap_are_lost_and_said() -> None:
    report = run(
        CAPTAIN + " vs=1,2 hits=1:1,2:1",
        f"{BOYZ} | {NOB}",
        [6, 5, 4]  # 3 hits: 1 on the Boyz, 1 on the Nob, the third has nowhere to go
        + [6] + [1]  # the Boyz' hit
        + [6] + [1]  # the Nob's hit
        + [1, 1, 1]  # Nob misses
        + [1] * 8  # 4 Boyz miss
        + [1, 1] + [1, 1],  # both hold
        round=2,
    )  # fmt: skip
    (divided,) = events(report, "divide_hits")
    assert divided.get("shares") == {"Ork Boy": 1, "Nob": 1}
    assert divided.get("lost") == 1
    assert "1 hit lost: hits= caps every unit it is engaged with" in str(divided.get("note"))


# ---------------------------------------------------------------- declarations the text forbids (item 4)


def test_supporting_models_may_not_attack_a_unit_their_unit_does_not_touch() -> None:
    """Seen failing before the fix: the 2 Marines within 2" struck the Grots, whom no Marine touches."""
    attacker = f"{MARINES} engaged=3 supporting=2 vs=1:3,2:0+2 | {SCOUTS} vs=2"
    defender = f"{BOYZ} | {GROTS} vs=2"
    with pytest.raises(IllegalDeclarationError) as caught:
        run(attacker, defender, [], round=2)
    message = caught.value.message
    assert '2 Marine within 2" fight Grot, but no model of Marine is in base contact with Grot' in message
    assert caught.value.example and "vs=1:6+2,2:2" in str(caught.value.example)


def test_supporting_models_may_attack_a_unit_whose_models_touch_theirs() -> None:
    # The Grots' models in base contact fight the Marines: base contact is mutual, so the Marines touch them.
    attacker = f"{MARINES} engaged=3 supporting=2 vs=1:3,2:0+2"
    defender = f"{BOYZ} | {GROTS}"
    report = run(attacker, defender, [1] * 3 + [1] * 2 + [1] * 5 + [1] * 10, round=2)
    assert report.result.outcome == "drawn"


def test_a_unit_nobody_fights_back_is_said() -> None:
    """Seen failing before the fix: nothing said that every Ork fights the Marines and none the Scouts."""
    report = run(f"{MARINES} | {SCOUTS}", ORKS, [1] * 30, round=2)
    (unopposed,) = events(report, "unopposed")
    assert unopposed.get("unit") == "Scout"
    note = str(unopposed.get("note"))
    assert note.startswith("Nobody fights Scout back: every model of Ork fights Marine.")
    assert "vs=1:8,2:2" in note


# ---------------------------------------------------------------- the sweeping advance's words (item 5)

GUARDSMEN = "5x Guardsman: WS3 S3 T3 W1 I1 A1 Ld2 Sv-"


def swept() -> Report:
    """2 Marines kill 2 Guardsmen; the 3 left miss, fail and fall back 2"; the sweep (6) cuts down 2 more."""
    faces = [3, 3, 3, 3, 1, 1, 1] + [6, 6] + [1, 1] + [3, 3] + [3, 3]
    return run("2x Marine: WS4 S4 T4 W1 I5 A1 Ld8 Sv3+", GUARDSMEN, faces, round=2)


def test_the_sweep_does_not_say_its_wounds_count() -> None:
    """Seen failing before the fix: the sweep's wounds step said "count" for wounds that do not."""
    report = swept()
    (step,) = [s for s in report.steps if s.title.startswith("Sweeping advance: Marine ×2")]
    (wounds,) = [e for e in step.events if e.kind == "wounds"]
    note = str(wounds.get("note"))
    assert "count" not in note.replace("do not count for the assault result", "")
    assert note == (
        "2 unsaved wounds on Guardsman: they do not count for the assault result (the sweeping advance comes after it)."
    )
    assert report.result.attacker.extra["wounds_inflicted"] == 2  # the fight's, as before


def test_the_table_totals_say_what_the_sweep_added() -> None:
    """Seen failing before the fix: "inflicted 2 wounds" and "remove 4 Guardsmen", the sweep's share unsaid."""
    lines = summary_lines(swept())
    assert lines[1] == (
        "Marine: nothing to remove; 2 models left, inflicted 2 wounds (+2 in the sweeping advance, not counted)"
    )
    assert lines[2] == (
        "Guardsman: remove 4 Guardsmen (2 of them cut down in the sweeping advance); 1 model left, inflicted 0 wounds"
    )


def test_discord_shows_the_commands_under_their_heading_and_continuing_an_old_record_is_refused_alike() -> None:
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, seed=7, charge_distance=4)
    embed = referee_error_embed(caught.value)
    assert [field.name for field in embed.fields] == [
        "One command per combat, in the order you choose (1 of 2)",
        "One command per combat, in the order you choose (2 of 2)",
    ]
    assert all((field.value or "").count("/assault 40k attacker:") == 1 for field in embed.fields)
    # A record of an earlier engine that fought both combats as one: its next round is refused the same way, with
    # one --round 2 command per combat (the engine itself still fights it as stored).

    game = get_game("40k")
    old = engine_resolve(parse_side(ISSUE_ATTACKER), parse_side(ISSUE_DEFENDER), {"charge_distance": 3}, SeededDice(8))
    assert old.result.outcome in ("drawn", "held")
    going_on = game.next_round(old, attacker_positions=None, defender_positions=None)
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", going_on.attacker, going_on.defender, **going_on.options)
    assert caught.value.one_line(TERMINAL).count("--round 2") == 2


# ---------------------------------------------------------------- review C: every offered command runs as given


def _offered(attacker: str, defender: str, **options: object) -> list[dict[str, object]]:
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", attacker, defender, seed=7, **options)  # type: ignore[arg-type]
    example = caught.value.example
    assert isinstance(example, Commands)
    return [{setting.name: setting.value for setting in command.settings} for command in example.examples]


def _each_resolves(commands: list[dict[str, object]]) -> None:
    for command in commands:
        given = dict(command)
        resolve("40k", str(given.pop("attacker")), str(given.pop("defender")), seed=7, **given)  # type: ignore[arg-type]


def test_a_later_round_gives_the_charge_options_only_to_the_combat_a_unit_charges_into() -> None:
    """Seen failing before the fix: Marine v Ork was offered with --charge-distance 3 --difficult-terrain --round 2,
    refused as given (no unit of it charged)."""
    commands = _offered(
        f"{MARINES} vs=1 | {SCOUTS} vs=2 charged",
        f"{ORKS} vs=1 in-cover | {GROTS} vs=2",
        round=2,
        charge_distance=3,
        difficult_terrain=True,
    )
    assert "charge_distance" not in commands[0] and "difficult_terrain" not in commands[0]
    assert commands[0]["round"] == 2
    assert commands[1]["charge_distance"] == 3 and commands[1]["difficult_terrain"] is True
    _each_resolves(commands)


def test_a_round_one_combat_where_nobody_charges_is_offered_as_a_later_round() -> None:
    """Seen failing before the fix: the Marine command kept not-charged in round 1 and was refused as given."""
    commands = _offered(f"{MARINES} vs=1 not-charged | {SCOUTS} vs=2", f"{ORKS} vs=1 | {GROTS} vs=2", charge_distance=3)
    assert commands[0]["round"] == 2 and "charge_distance" not in commands[0]
    assert "round" not in commands[1] and commands[1]["charge_distance"] == 3
    _each_resolves(commands)


def test_the_sweeps_cut_down_count_is_said_on_the_unit_that_lost_them() -> None:
    """Seen failing before the fix: 'remove all 10 from Ork, all 5 from Grot (5 of them cut down ...)', the Grots
    having all died in the fight and the five cut down being Orks."""
    attacker = "10x Marine: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ vs=1:6,2:4 | 5x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+ vs=2"
    defender = f"{ORKS} vs=1 | 5x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv- vs=1:3,2:2"
    report = resolve("40k", attacker, defender, seed=13)
    table = get_game("40k").table_summary(report)
    assert table.removals[1] == "all 10 from Ork (5 of them cut down in the sweeping advance), all 5 from Grot"


def _embed_total(embed: object) -> int:
    fields = embed.fields  # type: ignore[attr-defined]
    title, description = embed.title or "", embed.description or ""  # type: ignore[attr-defined]
    return len(title) + len(description) + sum(len(f.name or "") + len(f.value or "") for f in fields)


def _many_combats(count: int) -> tuple[str, str]:
    attacker = " | ".join(
        f"9x Tactical Marine {n}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades ; "
        f"1x Sergeant {n}: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist frag-grenades dies-last vs={n}"
        for n in range(1, count + 1)
    )
    defender = " | ".join(
        f"14x Ork Boy {n}: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ heavy-ccw two-weapons ; "
        f"1x Nob {n}: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ power-fist dies-last vs={n}"
        for n in range(1, count + 1)
    )
    return attacker, defender


def test_discord_shows_each_offered_command_whole_in_a_field_of_its_own() -> None:
    """Seen failing before the fix: four combats of quick-start-sized units, the 4th command cut mid-spec (one
    field of at most 1,024 characters held them all)."""
    attacker, defender = _many_combats(4)
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", attacker, defender, seed=1, charge_distance=4)
    commands = (caught.value.example_of(DISCORD) or "").split("\n")
    embed = referee_error_embed(caught.value)
    assert len(embed.fields) == 4
    for number, (field, command) in enumerate(zip(embed.fields, commands, strict=True), start=1):
        assert field.name == f"One command per combat, in the order you choose ({number} of 4)"
        assert command in (field.value or "") and len(field.value or "") <= 1024
    assert _embed_total(embed) <= 6000


def test_discord_says_how_many_commands_more_than_fit_and_how_to_get_them() -> None:
    attacker = " | ".join(
        f"1x Veteran Sergeant of the Fourth Company {n}: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist frag-grenades vs={n}"
        for n in range(1, 31)
    )
    defender = " | ".join(
        f"1x Nob of Warboss Grimskull's Waaagh {n}: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ power-fist dies-last vs={n}"
        for n in range(1, 31)
    )
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", attacker, defender, seed=1, charge_distance=4)
    commands = (caught.value.example_of(DISCORD) or "").split("\n")
    embed = referee_error_embed(caught.value)
    assert len(embed.fields) <= 25 and _embed_total(embed) <= 6000
    *shown, more = embed.fields
    for field, command in zip(shown, commands, strict=False):
        assert command in (field.value or "")
    assert more.name == f"And {30 - len(shown)} more combats"
    assert "leave out" in (more.value or "")
