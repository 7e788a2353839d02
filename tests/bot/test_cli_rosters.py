"""`referee roster ...` and @roster references, through the real entry point."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.data import data_root
from bot.rosters import ROSTER_SCHEMA, parse_roster_file, shipped_rosters
from rules_core import all_games
from tests.bot.test_cli import error_lines, referee

ROSTERS = Path(__file__).resolve().parents[2] / "data" / "rosters"
ORKS = "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def test_every_game_ships_at_least_two_sample_rosters_that_import_as_they_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = sorted(ROSTERS.glob("*.yaml"))
    games = set()
    for file in files:
        rosters = parse_roster_file(file.read_text(encoding="utf-8"), source=file.name)
        assert len(rosters) >= 2, file.name
        games |= {roster.game for roster in rosters}
        code, out, err = referee("roster", "import", str(file), capsys=capsys)
        assert code == 0, err
        assert f"Imported {len(rosters)} rosters" in out
    assert games == {game.id for game in all_games()}
    assert {f.name for f in (data_root() / "rosters").iterdir()} >= {f.name for f in files}  # shipped in the package


def test_save_show_use_and_delete(capsys: pytest.CaptureFixture[str]) -> None:
    spec = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ | 1x Captain: WS5 S4 T4 W2 I5 A3 Ld10 Sv3+ independent-character"
    code, out, _ = referee("roster", "save", "my-marines", "--game", "wh40k", "--spec", spec, capsys=capsys)
    assert code == 0 and "@my-marines" in out
    _, out, _ = referee("roster", "show", "my-marines", "--game", "40k", capsys=capsys)
    assert "2. 1x Captain" in out
    code, out, _ = referee("assault", "40k", "--attacker", "@my-marines/captain", "--defender", ORKS, "--seed", "2",
                           "--json", capsys=capsys)  # fmt: skip
    assert code == 0
    assert json.loads(out)["inputs"]["attacker"].startswith("1x Captain:")
    code, out, _ = referee("assault", "40k", "--attacker", "@my-marines", "--defender", ORKS, "--seed", "2", "--json",
                           capsys=capsys)  # fmt: skip
    assert json.loads(out)["inputs"]["attacker"].count("|") == 1
    assert referee("roster", "delete", "my-marines", "--game", "40k", capsys=capsys)[0] == 0
    _, out, _ = referee("roster", "list", capsys=capsys)
    assert "No saved rosters" in out


def test_export_then_import_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    referee("roster", "import", str(ROSTERS / "duel.yaml"), capsys=capsys)
    out_file = tmp_path / "mine.yaml"
    assert referee("roster", "export", "--game", "duel", "--output", str(out_file), capsys=capsys)[0] == 0
    exported = parse_roster_file(out_file.read_text(encoding="utf-8"))
    assert exported == parse_roster_file((ROSTERS / "duel.yaml").read_text(encoding="utf-8"))
    code, _, err = referee("roster", "import", str(out_file), capsys=capsys)
    assert code == 2 and "already have a duel roster" in err
    assert "--replace" in err  # what to do about it, in the terminal's words
    assert referee("roster", "import", str(out_file), "--replace", capsys=capsys)[0] == 0


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("rosters: [a, b", "not valid YAML (line"),
        ("schema: something-else/1\nrosters: []", f"schema: {ROSTER_SCHEMA}"),
        (f"schema: {ROSTER_SCHEMA}\nrosters: []", "non-empty 'rosters' list"),
        (f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: x, game: chess, spec: 'a: b'}}]", "Unknown game 'chess'"),
        (f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: x, game: 40k, spec: '5x M: WS4'}}]", "Roster 1 ('x')"),
        (f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: Bad Name, game: 40k, spec: '{ORKS}'}}]", "not a roster name"),
        (f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: x, game: 40k}}]", "needs name, game and spec"),
        (
            f"schema: {ROSTER_SCHEMA}\nrosters:\n - {{name: x, game: 40k, spec: '{ORKS}'}}\n"
            f" - {{name: x, game: 40k, spec: '{ORKS}'}}",
            "twice",
        ),
        (
            f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: x, game: 40k, spec: '{ORKS}', units: [a, b]}}]",
            "2 unit names for 1 units",
        ),
        (
            f"schema: {ROSTER_SCHEMA}\nrosters: [{{name: x, game: 40k, spec: '{ORKS}', units: [Big Orks]}}]",
            "'Big Orks' is not a unit name",
        ),
        ("x" * 300_000, "over 256 KiB"),
    ],
)
def test_a_bad_roster_file_is_refused_whole_with_a_clear_message(
    tmp_path: Path, content: str, fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(content, encoding="utf-8")
    code, _, err = referee("roster", "import", str(file), capsys=capsys)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    _, out, _ = referee("roster", "list", capsys=capsys)
    assert "No saved rosters" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("roster", "save", "x", "--game", "40k", "--spec", "5x M: WS4"), "missing"),
        (("roster", "save", "x", "--game", "chess", "--spec", ORKS), "Unknown game"),
        (("roster", "save", "x/y", "--game", "40k", "--spec", ORKS), "not a roster name"),
        (("roster", "show", "nothing", "--game", "40k"), "no 40k roster named 'nothing'"),
        (("assault", "40k", "--attacker", "@nothing", "--defender", ORKS), "no 40k roster named 'nothing'"),
    ],
)
def test_roster_errors_are_one_line(args: tuple[str, ...], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee(*args, capsys=capsys)
    assert code == 2
    assert fragment in error_lines(err)[0]  # a spec in error adds itself, marked, and an example (issue 20)


def test_the_shipped_samples_import_by_game_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("roster", "import", "--samples", "bolt-action", capsys=capsys)
    assert code == 0 and "us-rifle-platoon (boltaction)" in " ".join(out.split())
    code, out, _ = referee("roster", "import", "--samples", "all", "--replace", capsys=capsys)
    assert code == 0 and f"Imported {len(shipped_rosters())} rosters" in out
    code, _, err = referee("roster", "import", capsys=capsys)
    assert code == 2 and "--samples GAME" in err


def sample_names(out: str) -> list[str]:
    """The names ``referee samples`` prints, one a line as ``  name: description``."""
    return re.findall(r"^  ([a-z0-9-]+): ", out, flags=re.MULTILINE)


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_every_sample_shown_is_a_roster_by_its_name_and_no_other(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`referee samples GAME` and `referee roster import --samples GAME` are one set, by the same names."""
    code, shown, _ = referee("samples", game, capsys=capsys)
    assert code == 0
    names = sample_names(shown)
    assert len(names) >= 2
    code, out, err = referee("roster", "import", "--samples", game, capsys=capsys)
    assert code == 0, err
    imported = re.findall(r"Imported \d+ rosters?: (.*)\.", " ".join(out.split()))[0]  # wrapped at the width
    assert sorted(name.split(" (")[0] for name in imported.split(", ")) == sorted(names)
    for name in names:
        code, _, err = referee("roster", "show", name, "--game", game, capsys=capsys)
        assert code == 0, (name, err)


def test_no_shipped_name_is_given_to_two_different_rosters() -> None:
    names = [(roster.game, roster.name) for roster in shipped_rosters()]
    assert len(names) == len(set(names)), sorted(name for name in names if names.count(name) > 1)


def test_samples_all_imports_what_is_new_and_says_what_it_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    total = len(shipped_rosters())
    mine = "5x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    assert referee("roster", "save", "tactical-squad", "--game", "40k", "--spec", mine, capsys=capsys)[0] == 0
    code, out, err = referee("roster", "import", "--samples", "all", capsys=capsys)
    assert code == 0, err
    out = " ".join(out.split())  # wrapped at the terminal's width
    assert f"Imported {total - 1} rosters" in out
    assert "Skipped 1 you already have: tactical-squad (40k)" in out and "--replace" in out
    _, shown, _ = referee("roster", "show", "tactical-squad", "--game", "40k", capsys=capsys)
    assert "5x Tactical Marine" in shown  # theirs is kept
    code, out, _ = referee("roster", "import", "--samples", "all", capsys=capsys)
    assert code == 0 and "Imported 0 rosters" in out and f"Skipped {total} you already have" in out


def test_roster_show_needs_the_game_only_when_the_name_is_ambiguous(capsys: pytest.CaptureFixture[str]) -> None:
    assert referee("roster", "save", "mine", "--game", "40k", "--spec", ORKS, capsys=capsys)[0] == 0
    code, out, err = referee("roster", "show", "mine", capsys=capsys)
    assert code == 0, err
    assert out.startswith("mine (40k)") and "1. 5x Ork Boy" in out
    duel = "Ork: WS4 S3 T4 W1 I2 A2 Sv6+"
    assert referee("roster", "save", "mine", "--game", "duel", "--spec", duel, capsys=capsys)[0] == 0
    code, out, err = referee("roster", "show", "mine", capsys=capsys)
    assert code == 2 and not out
    assert "You have rosters named 'mine' for 40k and duel" in err
    assert "referee roster show mine --game 40k" in err
    code, out, _ = referee("roster", "show", "mine", "--game", "duel", capsys=capsys)
    assert code == 0 and out.startswith("mine (duel)")
    code, _, err = referee("roster", "show", "nobody", capsys=capsys)
    assert code == 2 and "no roster named 'nobody'" in err and "referee roster list" in err


def test_a_unit_is_picked_by_its_name_however_its_count_is_written() -> None:
    from datetime import UTC, datetime

    from bot.rosters import pick_unit
    from bot.storage.records import side_name
    from bot.storage.rosters import SavedRoster

    marine = "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    units = [
        f"Tactical Marine x10: {marine}",
        f"5 Scout: {marine}",
        f"Captain ×1: {marine}",
        f"1x 88 Gunners: {marine}",
    ]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    roster = SavedRoster("local", "40k", "mixed", " | ".join(units), "", None, at, at)
    assert pick_unit(roster, "tactical-marine") == units[0]
    assert pick_unit(roster, "Scout") == units[1]
    assert pick_unit(roster, "captain") == units[2]
    assert pick_unit(roster, "88 gunners") == units[3]
    assert side_name(units[0]) == "Tactical Marine"
    assert side_name(units[1]) == "Scout"
