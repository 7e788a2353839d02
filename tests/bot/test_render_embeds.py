"""The Discord renderers: every page inside Discord's limits, every step shown, golden Markdown for fixed reports."""

from __future__ import annotations

import os
from pathlib import Path

import discord
import pytest

from bot.data import catalogue
from bot.render.colours import WINNER_COLOURS
from bot.render.embeds import (
    DESCRIPTION,
    EMBED_TOTAL,
    EMBEDS_PER_MESSAGE,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    FOOTER,
    NEXT,
    TITLE,
    listed_steps,
    read_line,
    render_pages,
    roll_pages,
)
from bot.render.markdown import escape, report_markdown
from bot.render.summary import headline, read_lines
from rules_core import all_games, resolve
from rules_core.report import Report

GOLDEN = Path(__file__).parent / "golden"


def example(game_id: str, seed: int = 7) -> Report:
    game = catalogue().game(game_id)
    return resolve(game, game.example_attacker, game.example_defender, seed=seed, **dict(game.example_options))


def huge_40k() -> Report:
    attackers = " | ".join(f"8x Marine {n}: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ vs={n}" for n in range(1, 26))
    # One combat (decision 22): each Mob but the last splits between its Marines and the next ones.
    defenders = " | ".join(
        f"8x Ork Mob {n}: WS4 S3 T4 W1 I2 A3 Ld7 Sv6+ " + (f"vs={n}:7,{n + 1}:1" if n < 25 else f"vs={n}")
        for n in range(1, 26)
    )
    return resolve("40k", attackers, defenders, seed=11, charge_distance=3)


def assert_within_limits(pages: list[discord.Embed]) -> None:
    assert len(pages) >= 1
    for embed in pages:
        assert len(embed.title or "") <= TITLE
        assert len(embed.description or "") <= DESCRIPTION
        assert len(embed.fields) <= FIELDS
        assert all(len(f.name or "") <= FIELD_NAME and 0 < len(f.value or "") <= FIELD_VALUE for f in embed.fields)
        assert len(embed.footer.text or "") <= FOOTER
        assert len(embed) <= EMBED_TOTAL
    assert EMBEDS_PER_MESSAGE >= 1  # each page is one embed: always one message's worth


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_every_game_renders_inside_the_limits_with_every_step(game_id: str) -> None:
    report = example(game_id)
    pages = render_pages(report, record_id=42)
    assert_within_limits(pages)
    # One short line a step in the channel (the game's step_line, which may shorten its title), in step order.
    lines = [line for page in pages for f in page.fields for line in (f.value or "").split("\n")]
    game = catalogue().game(game_id)
    assert lines == [f"• {escape(line)}" for line in listed_steps(report)]
    # Listed: every test of dice against a target; left out only what the summary says whole ("What happens next",
    # a game's "": who won, a charge that reached, a distance the summary's Move line gives).
    listed = [step for step in report.steps if step.title != NEXT and game.step_line(step)]
    tests = [step for step in report.steps if any(roll.target is not None for roll in step.rolls)]
    assert len(listed) == len(lines) and all(step in listed for step in tests)
    assert all(len(line) <= 120 for line in lines)
    assert "seed 7" in (pages[0].footer.text or "") and "record #42" in (pages[0].footer.text or "")
    assert pages[0].colour is not None
    assert (pages[0].title or "").startswith(f"{game.heading}: ")
    # Every step in full, with its dice, is what the "Show rolls" button shows.
    rolls = roll_pages(report, record_id=42)
    assert_within_limits(rolls)
    names = " ".join(f.name or "" for page in rolls for f in page.fields)
    for step in report.steps:
        assert escape(step.title) in names


def test_a_huge_combat_pages_and_every_page_keeps_the_limits() -> None:
    report = huge_40k()
    pages = render_pages(report, record_id=1)
    assert len(pages) > 1  # 67 steps: one line each still outgrows one embed
    assert_within_limits(pages)
    assert (pages[-1].footer.text or "").endswith(f"page {len(pages)}/{len(pages)}")
    shown = sum(len((f.value or "").split("\n")) for page in pages for f in page.fields)
    assert shown == len(listed_steps(report)) >= sum(1 for s in report.steps if any(r.target for r in s.rolls))
    rolls = roll_pages(report, record_id=1)
    assert len(rolls) > 3
    assert_within_limits(rolls)
    shown = sum(1 for page in rolls for f in page.fields if not (f.name or "").endswith("(cont.)"))
    assert shown == len(report.steps)


def test_an_unrecorded_result_says_so_on_its_summary() -> None:
    pages = render_pages(example("duel"), not_recorded="database unavailable")
    assert "Not recorded (database unavailable)" in (pages[0].description or "")
    assert "record #" not in (pages[0].footer.text or "")


def test_winner_colours() -> None:
    colours = set()
    for seed in range(40):
        report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv-", "B: WS4 S4 T4 W1 I4 A1 Sv-", seed=seed)
        colour = render_pages(report)[0].colour
        assert colour is not None
        colours.add(colour.value)
    # blue, orange, grey: the one palette (bot/render/colours.py, tests/bot/test_palette_and_charts.py)
    assert colours == {0x3C8DD6, 0xE69F00, 0x949BA4}  # attacker, defender, draw
    assert colours == {WINNER_COLOURS[side] for side in ("attacker", "defender", "draw")}


def test_player_text_is_never_markdown() -> None:
    report = resolve("duel", "Sir_Bold_one: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=1)
    for pages in (render_pages(report), roll_pages(report)):
        text = " ".join((f.value or "") + (f.name or "") for page in pages for f in page.fields)
        assert "Sir\\_Bold\\_one" in text
    assert escape("a*b_c~d`e|f>g") == "a\\*b\\_c\\~d\\`e\\|f\\>g"


@pytest.mark.parametrize(("name", "game_id", "seed"), [("duel-7", "duel", 7), ("boltaction-3", "boltaction", 3)])
def test_golden_markdown(name: str, game_id: str, seed: int) -> None:
    text = report_markdown(example(game_id, seed), record_id=5)
    path = GOLDEN / f"{name}.md"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "run with UPDATE_GOLDEN=1 after an intended change"


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_every_renderer_first_says_how_each_side_was_read(game_id: str) -> None:
    from io import StringIO

    from rich.console import Console

    from bot.render.terminal import print_report
    from rules_core.spec import side_summary

    report = example(game_id)
    lines = [f"Read attacker: {side_summary(report.inputs.attacker)}",
             f"Read defender: {side_summary(report.inputs.defender)}"]  # fmt: skip
    description = render_pages(report)[0].description or ""  # one line in Discord: attacker v defender
    assert description.split("\n")[0] == escape(read_line(report)) == escape(
        f"Read: {side_summary(report.inputs.attacker)} v {side_summary(report.inputs.defender)}")  # fmt: skip
    markdown = report_markdown(report).split("\n")
    assert markdown[2:4] == [escape(line) for line in lines]
    console = Console(file=StringIO(), width=400, color_system=None)
    print_report(report, console)
    shown = [line.strip("│ ") for line in console.file.getvalue().split("\n")]  # type: ignore[attr-defined]
    assert shown[1:3] == lines


def test_the_read_line_shows_the_counts_as_read_whichever_way_they_were_written() -> None:
    marine = "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    attacker, defender = f"Tactical Marine x9: {marine} ; Sergeant: {marine}", f"14 Ork Boy: {marine} ; Nob: {marine}"
    report = resolve("40k", attacker, defender, seed=3, charge_distance=3)
    description = render_pages(report)[0].description or ""
    assert description.startswith("Read: 9× Tactical Marine, 1× Sergeant v 14× Ork Boy, 1× Nob\n")


def test_a_duel_headline_says_the_winner_won_on_wounds_and_fell_too() -> None:
    # The duel is decided on wounds inflicted: the winner's lone Sergeant can die in the last fight.
    sergeant = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
    orks = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife | Nob: WS4 S4 T4 W2 I3 A2 Sv5+ weapon=choppa/S+1/dmg=1/sv=-1/cc"
    report = resolve(catalogue().game("duel"), sergeant, orks, seed=3)
    assert (report.result.winner, report.result.attacker.remaining, report.result.defender.lost) == ("attacker", 0, 2)
    assert headline(report) == (
        "Marine Sergeant beats Ork Boy and Nob on wounds (2 to 1); Ork Boy and Nob lost 2 models, and Marine "
        "Sergeant has no model left either"
    )


def test_a_name_read_as_a_count_shows_the_count_apart_from_the_name() -> None:
    # '3 Headed Beast' is three models named 'Headed Beast' (docs/specs.md): the Read line must make that visible.
    report = resolve(catalogue().game("duel"), "3 Headed Beast: WS4 S4 T4 W3 I4 A3 Sv5+", "D: WS4 S4 T4 W1 I4 A1 Sv5+",
                     seed=3)  # fmt: skip
    assert read_lines(report)[0] == "Read attacker: 3× Headed Beast"
    duel = catalogue().game("duel")
    report = resolve(duel, "1x 3 Headed Beast: WS4 S4 T4 W3 I4 A3 Sv5+", "D: WS4 S4 T4 W1 I4 A1 Sv5+", seed=3)
    assert read_lines(report)[0] == "Read attacker: 1× 3 Headed Beast"


def test_a_long_read_line_is_cut_between_units_and_counts_the_rest() -> None:
    line = read_lines(huge_40k())[0]
    assert len(line) <= len("Read attacker: ") + 160
    assert line.startswith("Read attacker: 8× Marine 1 | 8× Marine 2 | ")
    shown = line.count("8× Marine")
    assert line.endswith(f" | … (+{25 - shown} more units)")


def test_a_reikhammer_headline_when_both_formations_are_wiped_out_says_why_the_defender_wins() -> None:
    # Reikhammer: "If all of the attacking units directly engaged in the assault are killed then the assault has
    # stalled and the defender wins", even when the defending formation is gone too; after supporting fire (which
    # never stalls the attack) the same decision gives it to the defender, so the headline names the decision.
    report = resolve(
        "reikhammer", "2x A: CC4 FF3 Sv5 INF", "2x D: CC4 FF3 Sv5 INF", seed=7, attacker_support="3x S: FF3"
    )
    assert (report.result.outcome, report.result.winner) == ("both_destroyed", "defender")
    assert headline(report) == (
        "D beats A: both formations were wiped out; the defender wins (the both-wiped-out decision)"
    )


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_long_summary_cuts_its_table_never_the_house_rules_the_next_round_or_the_record_line(seed: int) -> None:
    """A fight of 50 units a side says more at table level than one description holds: the table (what each side
    removes) is cut, never the lines after it: the next round's command, the house rules it used, and whether it was
    recorded (before: cut at the end, those went first, as the seed decided)."""
    attackers = " | ".join(f"4x Marine {n}: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ vs={n}" for n in range(1, 51))
    defenders = " | ".join(
        f"4x Ork Mob {n}: WS4 S3 T4 W1 I2 A3 Ld7 Sv6+ " + (f"vs={n}:3,{n + 1}:1" if n < 50 else f"vs={n}")
        for n in range(1, 51)
    )
    report = resolve("40k", attackers, defenders, seed=seed, charge_distance=3, ws_majority="over_half")
    house = "*House rules: ws majority: over half*"
    for kwargs, last in (
        ({"not_recorded": "database unavailable"}, "Not recorded (database unavailable)"),
        ({"pending": True}, "Recording this combat…"),
        ({"record_id": 7}, house),
        ({"record_id": 7, "history": "Voided by <@1>: " + "a long reason " * 40}, house),
    ):
        pages = render_pages(report, house_rules=("ws_majority",), **kwargs)  # type: ignore[arg-type]
        assert_within_limits(pages)
        description = pages[0].description or ""
        assert house in description and last in description, (kwargs, description[-300:])
        assert description.startswith("Voided by") == ("history" in kwargs)
        if "record_id" in kwargs and any(ev.kind == "continues" for step in report.steps for ev in step.events):
            assert "/assault continue record:7" in description
