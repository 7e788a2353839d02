"""`referee roster import LIST` in the terminal (issue 35): a preview with --dry-run, the save whole, the roster
fought as @list/unit, shown, exported and imported again; lists of other systems refused or read with --game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.list_files import ListFile, Selection, read_list_file
from bot.rosters import parse_roster_file
from tests.bot.list_files.shared_rosters import rosters_folder
from tests.bot.test_cli import referee

ORKS = "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def hand_made() -> str:
    return str(rosters_folder() / "hand-made" / "40k3-marines-vs-orks.ros")


def test_a_dry_run_shows_every_unit_and_saves_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = referee("roster", "import", hand_made(), "--dry-run", capsys=capsys)
    assert code == 0, err
    out = " ".join(out.split())
    assert "Warhammer 40k 3rd Edition (revision 12)" in out
    assert "1. space-marine-tactical-squad (10 models): 1x Veteran Space Marine Sergeant: WS4 S4 T4 W1 I4 A2" in out
    assert "ignored: And They Shall Know No Fear (a rule with no spec token); Flamer (a shooting weapon" in out
    assert "Dry run: nothing was saved" in out
    _, out, _ = referee("roster", "list", capsys=capsys)
    assert "No saved rosters" in out


def test_a_list_imports_then_fights_shows_exports_and_re_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = referee("roster", "import", hand_made(), capsys=capsys)
    assert code == 0, err
    assert "Saved the 40k roster 'marines-vs-orks' with 5 units" in " ".join(out.split())
    for unit in ("space-marine-tactical-squad", "1", "Space Marine Tactical Squad"):  # the list's name, as a position
        code, out, err = referee("assault", "40k", "--attacker", f"@marines-vs-orks/{unit}", "--defender", ORKS,
                                 "--seed", "3", "--json", capsys=capsys)  # fmt: skip
        assert code == 0, err
        assert json.loads(out)["inputs"]["attacker"].startswith("1x Veteran Space Marine Sergeant:")
    code, out, err = referee("assault", "40k", "--attacker", "@marines-vs-orks/slugga-boyz", "--defender",
                             "@marines-vs-orks/librarian", "--seed", "3", "--json", capsys=capsys)  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["inputs"]["defender"].startswith("1x Librarian:")
    _, out, _ = referee("roster", "show", "marines-vs-orks", capsys=capsys)
    assert "Imported from Marines vs Orks" in out and "5. 1x Warboss" in out
    exported = tmp_path / "mine.yaml"
    assert referee("roster", "export", "--output", str(exported), capsys=capsys)[0] == 0
    code, _, err = referee("roster", "import", hand_made(), capsys=capsys)
    assert code == 2 and "Nothing was imported" in err and "--replace" in err
    assert referee("roster", "import", str(exported), "--replace", capsys=capsys)[0] == 0
    (again,) = parse_roster_file(exported.read_text(encoding="utf-8"))
    assert again.name == "marines-vs-orks" and again.spec.count("|") == 4
    assert again.unit_names == ("space-marine-tactical-squad", "assault-squad", "librarian", "slugga-boyz", "warboss")
    code, out, err = referee("assault", "40k", "--attacker", "@marines-vs-orks/warboss", "--defender", ORKS, "--seed",
                             "3", "--json", capsys=capsys)  # fmt: skip
    assert code == 0 and json.loads(out)["inputs"]["attacker"].startswith("1x Warboss:"), err
    code, _, err = referee("assault", "40k", "--attacker", "@marines-vs-orks/dreadnought", "--defender", ORKS,
                           capsys=capsys)  # fmt: skip
    assert code == 2 and "1: space-marine-tactical-squad" in err and "5: warboss" in err


def test_a_list_of_another_system_is_refused_then_read_with_game_and_a_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    necrons = str(rosters_folder() / "Necron 1845.rosz")
    code, _, err = referee("roster", "import", necrons, capsys=capsys)
    assert code == 2 and "Warhammer 40,000 7th Edition (revision 15)" in err and "--game 40k" in err
    code, out, err = referee("roster", "import", necrons, "--game", "40k", "--name", "necrons", capsys=capsys)
    assert code == 0, err
    out = " ".join(out.split())
    assert "Warning: The list is for Warhammer 40,000 7th Edition" in out and "rules differ" in out
    assert "left out: Necron Monolith - a vehicle" in out
    assert "Saved the 40k roster 'necrons' with 6 units" in out


def test_a_broken_list_is_one_line_naming_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "army.rosz"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    code, _, err = referee("roster", "import", str(broken), capsys=capsys)
    assert code == 2
    assert err.strip().count("\n") == 0 and "army.rosz" in err and "export it again" in err
    yaml_flags = tmp_path / "mine.yaml"
    yaml_flags.write_text(f"schema: referee-rosters/1\nrosters: [{{name: x, game: 40k, spec: '{ORKS}'}}]\n")
    code, _, err = referee("roster", "import", str(yaml_flags), "--dry-run", capsys=capsys)
    assert code == 2 and "for army lists" in err


def as_new_recruit_json(list_file: ListFile) -> bytes:
    """The list as New Recruit's JSON writes it ({"roster": ...}, values under "$text", JSON numbers): no 40K list
    of that format exists, so the hand-made one is written in it."""

    def selection(item: Selection) -> dict[str, object]:
        return {
            "name": item.name, "type": item.type, "number": item.number, "from": "entry",
            "profiles": [{"name": p.name, "typeName": p.type_name, "characteristics": [
                {"name": key, "$text": value} for key, value in p.characteristics]} for p in item.profiles],
            "rules": [{"name": rule} for rule in item.rules],
            "categories": [{"name": category} for category in item.categories],
            "costs": [{"name": cost.name, "value": float(cost.value)} for cost in item.costs],
            "selections": [selection(child) for child in item.selections],
        }  # fmt: skip

    roster = {
        "name": list_file.name, "battleScribeVersion": 2.03, "generatedBy": "https://newrecruit.eu",
        "gameSystemId": list_file.game_system_id, "gameSystemName": list_file.game_system_name,
        "gameSystemRevision": int(list_file.game_system_revision),
        "forces": [{"name": force.name, "catalogueName": force.catalogue_name,
                    "selections": [selection(item) for item in force.selections]} for force in list_file.forces],
    }  # fmt: skip
    return json.dumps({"roster": roster}).encode("utf-8")


def test_a_new_recruit_json_list_imports_to_the_same_roster_as_the_ros(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    as_json = tmp_path / "Marines vs Orks.json"
    as_json.write_bytes(as_new_recruit_json(read_list_file(Path(hand_made()).read_bytes())))
    assert referee("roster", "import", str(as_json), "--name", "from-json", capsys=capsys)[0] == 0
    assert referee("roster", "import", hand_made(), capsys=capsys)[0] == 0
    exported = tmp_path / "both.yaml"
    assert referee("roster", "export", "--output", str(exported), capsys=capsys)[0] == 0
    from_json, from_ros = sorted(parse_roster_file(exported.read_text(encoding="utf-8")), key=lambda r: r.name)
    assert from_json.name == "from-json"
    assert (from_json.spec, from_json.unit_names) == (from_ros.spec, from_ros.unit_names)


def test_the_preview_prints_each_spec_whole_on_its_own_line_in_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spec is what a player copies: like `referee samples`, the preview never breaks one across lines (an
    80-column terminal used to wrap the tactical squad's between 'A2' and 'Ld9')."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = referee("roster", "import", hand_made(), "--dry-run", capsys=capsys)
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines()]
    assert "1. space-marine-tactical-squad (10 models):" in lines
    assert (
        "1x Veteran Space Marine Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist frag-grenades ; 9x Space Marine: "
        "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
    ) in lines
