"""The summary at table level as every front end shows it (bot/render/summary.py): the headline by unit name and
player, the lines a player acts on, and the terminal's and Markdown's versions of them."""

from __future__ import annotations

from rich.console import Console

from bot.data import catalogue
from bot.render.embeds import render_pages
from bot.render.markdown import report_markdown
from bot.render.summary import headline, summary_lines, table_lines
from bot.render.terminal import render_report
from rules_core import resolve
from rules_core.report import Report
from tests.rules_core.helpers40k import MARINE
from tests.rules_core.helpers40k import run as run_40k

PLAYERS = ("<@111>", "<@222>")
SQUAD = f"2x Tactical Marine: {MARINE} ; 1x Sergeant: WS4 S4 T4 W1 I4 A1 Ld9 Sv3+ dies-first"
ORKS = "6x Ork Boy: WS4 S3 T4 W1 I2 A1 Ld7 Sv6+"


def fell_back() -> Report:
    # The Marines miss; 2 unsaved wounds take the dies-first Sergeant and a Marine; Ld8 fails (12); falls back 7".
    faces = [*[1] * 6, *[6] * 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 3, 4, 1, 1]
    return run_40k(SQUAD, ORKS, faces)


def test_the_duel_headline_says_all_four_of_four_were_slain() -> None:
    # Found: "the defender lost a model" when all 4 of 4 Orks were slain.
    duel = catalogue().game("duel")
    report = resolve(duel, "Captain: WS6 S4 T4 W3 I6 A3 Sv2+ power-sword", "4x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife",
                     seed=0)  # fmt: skip
    assert (report.result.defender.lost, report.result.defender.remaining) == (4, 0)
    assert headline(report) == "Captain beats Ork Boy on wounds (4 to 0); Ork Boy is wiped out (all 4 slain)"


def test_a_duel_loser_that_lost_no_model_is_not_said_to_have_lost_0() -> None:
    from tests.rules_core.helpers_duel import duel

    # The lone Marine slays Ork 1 (1 wound), then Ork 2 wins with its extra die and takes 2 of its 3 wounds: the
    # Orks win on wounds, the outcome is "killed" (Ork 1 was slain), and the loser lost no model at all.
    report = duel("Marine: WS4 S4 T3 W3 I4 A1 Sv-", "2x Ork: WS4 S4 T3 W1 I4 A1 Sv-", [5, 3, 3, 1, 2, 6, 5, 3, 3, 1, 1])
    assert (report.result.outcome, report.result.winner) == ("killed", "defender")
    line = headline(report)
    assert "lost 0" not in line
    assert line == "Ork beats Marine on wounds (2 to 1); Marine lost no model, though Ork lost 1"


def test_the_headline_names_units_and_players_and_the_loser_s_fate() -> None:
    report = fell_back()
    assert headline(report, PLAYERS) == "Ork Boy (<@222>) beats Tactical Marine (<@111>); Tactical Marine fell back"
    assert headline(report) == "Ork Boy beats Tactical Marine; Tactical Marine fell back"  # the terminal: no players


def test_a_draw_and_no_combat_read_right() -> None:
    drawn = run_40k(SQUAD, ORKS, [1] * 6 + [1] * 6)
    assert headline(drawn, PLAYERS) == (
        "Draw between Tactical Marine (<@111>) and Ork Boy (<@222>): the combat continues next turn"
    )
    short = resolve("40k", SQUAD, ORKS, seed=1, charge_distance=9)
    assert headline(short, PLAYERS) == "No combat between Tactical Marine (<@111>) and Ork Boy (<@222>): no charge"


def test_the_lines_say_what_to_remove_every_move_and_what_comes_next() -> None:
    assert table_lines(fell_back()) == [
        "Tactical Marine: remove 1 Tactical Marine and the Sergeant; 1 model left, inflicted 0 wounds",
        "Ork Boy: nothing to remove; 6 models left, inflicted 2 wounds",
        'Move: Tactical Marine falls back 7"; Ork Boy may consolidate up to 3".',
        'Next: Tactical Marine falls back 2D6" a turn until it regroups (Ld test).',
    ]


def test_every_front_end_shows_the_same_summary() -> None:
    report = fell_back()
    lines = summary_lines(report)
    console = Console(width=200, record=True)
    console.print(render_report(report))
    terminal = console.export_text()
    assert all(line in terminal for line in lines)
    assert " 40K assault: fell back " in terminal.split("\n")[0]  # the title Discord shows (it was '40k: fell_back')
    markdown = report_markdown(report)
    assert "**Ork Boy beats Tactical Marine; Tactical Marine fell back**" in markdown
    assert '- Move: Tactical Marine falls back 7"; Ork Boy may consolidate up to 3".' in markdown
    description = render_pages(report, players=PLAYERS)[0].description or ""
    assert "**Ork Boy (<@222>) beats Tactical Marine (<@111>); Tactical Marine fell back**" in description
    assert "Tactical Marine: remove 1 Tactical Marine and the Sergeant" in description
    assert 'Next: Tactical Marine falls back 2D6" a turn' in description


def test_the_quick_start_summary_is_short() -> None:
    # The README's quick-start fight: the summary a phone shows first is a handful of short lines.
    attacker = (f"9x Tactical Marine: {MARINE} frag-grenades ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist "
                "frag-grenades dies-last")  # fmt: skip
    defender = ("14x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ heavy-ccw two-weapons ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ "
                "power-fist dies-last")  # fmt: skip
    for seed in range(20):
        report = resolve("40k", attacker, defender, seed=seed, charge_distance=4, defender_in_cover=True)
        lines = summary_lines(report, PLAYERS)
        assert len(lines) <= 5 and all(len(line) <= 160 for line in lines), lines


def test_a_combat_that_goes_on_tells_discord_players_the_command_for_the_next_round() -> None:
    drawn = run_40k(SQUAD, ORKS, [1] * 6 + [1] * 6)
    description = render_pages(drawn, record_id=12, players=PLAYERS)[0].description or ""
    assert "Next: Fight round 2 next turn (no charge bonus)." in description
    assert "Next round: `/assault continue record:12`" in description
    assert "referee" not in description  # a Discord user is told slash commands
    over = render_pages(fell_back(), record_id=12)[0].description or ""
    assert "continue record" not in over


def test_a_mirror_match_tells_the_sides_apart_by_their_roles() -> None:
    report = resolve("40k", ORKS, ORKS, seed=2, charge_distance=3)
    top = headline(report)
    assert "Ork Boy (attacker)" in top and "Ork Boy (defender)" in top
    lines = table_lines(report)
    assert lines[0].startswith("Ork Boy (attacker): ") and lines[1].startswith("Ork Boy (defender): ")
    assert "Ork Boy (attacker, <@111>)" in headline(report, PLAYERS)


def test_a_plural_unit_name_takes_a_plural_verb() -> None:
    """'Grenadiers was destroyed' (found by a review; seen failing): the game's words agree with the name."""
    report = resolve("boltaction", "8x Grenadiers: veteran smg=2 nco", "10x Rifle Squad: regular nco smg=1", seed=2,
                     distance=9, reaction_shots=10)  # fmt: skip
    assert headline(report) == "Rifle Squad beats Grenadiers; Grenadiers were destroyed"


def test_the_summary_says_the_house_rules_it_used_with_the_values_of_its_report() -> None:
    """The house-rules line: in the summary of the first answer (pending) and of every later render, with the values
    the report kept (never today's settings); nothing at all for a result that used none; the odds say it too."""
    from bot.render.embeds import odds_embed
    from bot.render.summary import house_rules_text
    from rules_core.odds import odds

    report = resolve("epic", "4x Tactical: CC4+ FF4+ Sv4+ INF", "4x Ork Boyz: CC4+ FF5+ Sv6+ INF", seed=5,
                     result_dice="sum", max_rounds=3, lost_contact="countercharge")  # fmt: skip
    line = "*House rules: result dice: sum; max rounds: 3*"  # as the record keeps them: the declaration order
    for pending in (True, False):
        description = render_pages(report, record_id=1, pending=pending, house_rules=("result_dice", "max_rounds"))[0]
        assert line in (description.description or "")
    plain = render_pages(report, record_id=1)[0].description or ""
    assert "House rules" not in plain
    with_rules = render_pages(report, record_id=1, house_rules=("result_dice", "max_rounds"))[0].description or ""
    assert with_rules.replace(f"\n{line}", "") == plain  # one line more, nothing else changes
    assert house_rules_text(report.inputs.options, ()) == ""
    chances = odds("epic", "2x Tactical: CC4+ FF4+ Sv4+ INF", "2x Ork Boyz: CC4+ FF5+ Sv6+ INF", result_dice="sum")
    said = odds_embed(chances, "Epic", house_rules=house_rules_text({"result_dice": "sum"}, ["result_dice"]))
    assert (said.description or "").startswith("*House rules: result dice: sum*\n")
    assert "House rules" not in (odds_embed(chances, "Epic").description or "")
