"""Every resolution through `referee` is recorded; history, replay, verify, void and annotate read it back."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from rules_core.games.wh40k.spec import parse_side
from tests.bot.test_cli import ATTACKER, DEFENDER, referee

DUEL = ("duel", "--attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "--defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")


def sqlite_path(url: str) -> Path:
    return Path(url.split("///", 1)[1])


def test_a_resolution_is_recorded_and_replays_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, shown, err = referee("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "9",
                               "--json", capsys=capsys)  # fmt: skip
    assert code == 0
    assert "Recorded as #1" in err
    assert json.loads(shown)["seed"] == 9  # stdout stays pure JSON
    code, replayed, _ = referee("replay", "1", "--json", capsys=capsys)
    assert code == 0
    assert replayed == shown
    code, out, _ = referee("verify", "1", capsys=capsys)
    assert (code, "verified" in out) == (0, True)


def test_the_opponent_is_kept_on_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    referee(*DUEL, "--seed", "1", "--opponent", "  Bob  the Ork ", capsys=capsys)
    _, out, _ = referee("data", "export", capsys=capsys)
    assert json.loads(out)["combat_records"][0]["opponent"] == "Bob the Ork"


def test_history_lists_records_newest_first_with_filters(capsys: pytest.CaptureFixture[str]) -> None:
    referee(*DUEL, "--seed", "1", capsys=capsys)
    referee("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "2", capsys=capsys)
    code, out, _ = referee("history", capsys=capsys)
    assert code == 0
    assert out.index("40k") < out.index("duel")
    _, out, _ = referee("history", "--game", "hand-to-hand", capsys=capsys)
    assert "duel" in out and "40k" not in out
    _, out, _ = referee("history", "--user", "somebody-else", capsys=capsys)
    assert "No combat records match" in out


def test_void_and_annotate_add_to_the_history_shown_on_replay(capsys: pytest.CaptureFixture[str]) -> None:
    referee(*DUEL, "--seed", "1", capsys=capsys)
    assert referee("annotate", "1", "--note", "Agreed at the table.", capsys=capsys)[0] == 0
    assert referee("void", "1", "--reason", "Wrong weapon entered.", capsys=capsys)[0] == 0
    _, out, _ = referee("replay", "1", capsys=capsys)
    flat = " ".join(out.split())
    assert "Note by local" in flat and "Agreed at the table." in flat
    assert "VOIDED by local" in flat and "Wrong weapon entered." in flat
    _, out, _ = referee("history", "--hide-voided", capsys=capsys)
    assert "No combat records match" in out
    code, _, err = referee("void", "1", "--reason", "  ", capsys=capsys)
    assert code == 2 and "Give a reason" in err


def test_verify_finds_an_altered_record(private_database: str, capsys: pytest.CaptureFixture[str]) -> None:
    referee(*DUEL, "--seed", "4", capsys=capsys)
    with sqlite3.connect(sqlite_path(private_database)) as connection:
        row = connection.execute("SELECT report_json FROM combat_records WHERE id = 1").fetchone()
        altered = json.loads(row[0])
        altered["result"]["winner"] = "attacker" if altered["result"]["winner"] != "attacker" else "defender"
        connection.execute("UPDATE combat_records SET report_json = ? WHERE id = 1", (json.dumps(altered),))
    code, out, _ = referee("verify", "1", capsys=capsys)
    assert code == 1
    assert "does NOT match" in out


def test_an_unknown_record_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("replay", "77", capsys=capsys)
    assert code == 2
    assert err.strip() == "error: There is no combat record #77. 'referee history' lists the recent ones."


def test_a_failed_write_keeps_the_result_and_says_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'dir' / 'referee.db'}")
    code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
    assert code == 0
    assert "Round 1" in out
    assert "warning: not recorded" in err and "the result above stands" in err


def test_an_unusable_database_url_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("DATABASE_URL", "mysql+pymysql://user@localhost/referee")
    code, _, err = referee("history", capsys=capsys)
    assert code == 3
    assert "supports sqlite+aiosqlite and postgresql+asyncpg" in err


def test_a_plain_sqlite_url_is_understood(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """``sqlite:///path`` (SQLAlchemy's own form, no driver) is read as the aiosqlite file it names."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'plain.db'}")
    code, _, err = referee("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, capsys=capsys)
    assert code == 0, err
    assert "Recorded as #1" in err
    assert (tmp_path / "plain.db").exists()


def test_the_readme_and_env_example_give_both_forms_of_database_url() -> None:
    """A new user copies DATABASE_URL from .env.example or the README: the SQLite form is there beside PostgreSQL's,
    and every example given is one the referee takes."""
    from sqlalchemy import make_url

    from bot.storage.db import SUPPORTED, with_driver

    root = Path(__file__).resolve().parents[2]
    for name in (".env.example", "README.md"):
        text = (root / name).read_text(encoding="utf-8")
        examples = re.findall(r"DATABASE_URL=([^\s`]+)", text)
        assert any(url.startswith("sqlite+aiosqlite:///") for url in examples), name
        assert any(url.startswith("postgresql+asyncpg://") for url in examples), name
        assert all(make_url(with_driver(url)).drivername in SUPPORTED for url in examples), (name, examples)


@pytest.mark.parametrize("url", ["sqlite+pysqlite:///referee.db", "sqlite+pysqlcipher:///referee.db"])
def test_a_sqlite_url_with_another_driver_gets_the_sqlite_example(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    code, _, err = referee("history", capsys=capsys)
    assert code == 3
    assert "Example: sqlite+aiosqlite:///referee.db" in err
    assert "postgresql" not in err.split("Example:", 1)[1]


def test_db_upgrade_reports_the_schema(private_database: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("db", "upgrade", capsys=capsys)
    assert code == 0
    assert "latest schema" in out
    assert sqlite_path(private_database).exists()


def test_data_export_and_delete_for_the_local_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    referee(*DUEL, "--seed", "1", capsys=capsys)
    referee("roster", "save", "captain", "--game", "duel", "--spec", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+", capsys=capsys)
    out_file = tmp_path / "mine.json"
    code, out, _ = referee("data", "export", "--output", str(out_file), capsys=capsys)
    assert code == 0 and "1 combat records and 1 rosters" in out
    exported = json.loads(out_file.read_text(encoding="utf-8"))
    assert exported["subject"] == {"user": "local"}
    code, _, err = referee("data", "delete", capsys=capsys)
    assert code == 2 and "add --yes" in err
    code, out, _ = referee("data", "delete", "--yes", capsys=capsys)
    assert code == 0 and "combat records 1" in out and "rosters 1" in out
    _, out, _ = referee("history", capsys=capsys)
    assert "No combat records match" in out
    code, _, err = referee("data", "export", "--user", "a", "--guild", "b", capsys=capsys)
    assert code == 2 and "not both" in err


MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
ORK_MOB = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"
HELD = ("assault", "40k", "--attacker", MARINES, "--defender", ORK_MOB, "--charge-distance", "3", "--seed", "0")


def test_a_held_combat_continues_with_its_survivors(capsys: pytest.CaptureFixture[str]) -> None:
    code, first, err = referee(*HELD, "--json", capsys=capsys)
    assert code == 0 and "referee assault continue 1" in err
    going_on = next(e for s in json.loads(first)["steps"] for e in s["events"] if e["kind"] == "continues")
    code, out, err = referee("assault", "continue", "1", "--seed", "5", "--json", capsys=capsys)
    assert code == 0 and "Recorded as #2" in err
    second = json.loads(out)
    assert second["inputs"]["attacker"] == going_on["attacker_survivors"]
    assert second["inputs"]["options"]["round"] == 2
    assert second["inputs"]["options"]["charge_distance"] is None
    code, _, err = referee("assault", "continue", "1", capsys=capsys)
    assert code == 2 and "already been continued as #2" in err
    assert "continue #2 instead" in err and "continue 2" not in err  # no half command for the front end


def test_the_next_round_drops_the_facts_of_the_charge_turn(capsys: pytest.CaptureFixture[str]) -> None:
    # A unit that regrouped when charged while falling back fights on normally: round 2 is no longer that charge.
    referee(*HELD[:-1], "1", "--defender-falling-back", capsys=capsys)  # seed 1: the Orks regroup, the fight goes on
    code, out, _ = referee("assault", "continue", "1", "--seed", "5", "--json", capsys=capsys)
    assert code == 0
    options = json.loads(out)["inputs"]["options"]
    assert options["defender_falling_back"] is False and options["charge_distance"] is None


def test_continue_takes_the_positions_the_player_gives(capsys: pytest.CaptureFixture[str]) -> None:
    referee(*HELD, capsys=capsys)
    code, _, err = referee("assault", "continue", "1", "--attacker-positions", "Marine=50", capsys=capsys)
    assert (
        code == 2
        and 'in base contact and 0 within 2" make 50' in err
        and 'Example: Marine=3:3 (3 in base contact, 3 within 2" of them)' in err
    )
    code, _, err = referee("assault", "continue", "1", "--defender-positions", "Ork Boyz=3", capsys=capsys)
    assert code == 2 and "'Ork Boyz' is not one of the defender's units still fighting: 'Ork Boy'" in err
    code, out, err = referee("assault", "continue", "1", "--attacker-positions", "marine=2:1", "--seed", "5",
                             "--json", capsys=capsys)  # fmt: skip
    assert code == 0 and "Recorded as #2" in err
    assert 'Positions for round 2: attacker: as given, Marine: 2 in base contact, 1 within 2"' in err
    assert "defender: last round's, capped by the models left." in err
    attacker = parse_side(json.loads(out)["inputs"]["attacker"])
    assert sum(g.engaged for g in attacker.units[0].groups) == 2
    assert sum(g.supporting for g in attacker.units[0].groups) == 1


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        (DUEL, "is a duel combat"),
        (("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--charge-distance", "9"), "is over"),
    ],
)
def test_only_a_40k_combat_that_goes_on_can_continue(
    setup: tuple[str, ...], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    referee(*setup, capsys=capsys)
    code, _, err = referee("assault", "continue", "1", capsys=capsys)
    assert code == 2 and fragment in err


def test_a_void_combat_does_not_continue(capsys: pytest.CaptureFixture[str]) -> None:
    referee(*HELD, capsys=capsys)
    referee("void", "1", "--reason", "mistake", capsys=capsys)
    code, _, err = referee("assault", "continue", "1", capsys=capsys)
    assert code == 2 and "is void" in err


def test_a_combat_resolved_under_house_rules_carries_them_on_in_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The terminal applies no house rules, but a Discord combat resolved under them and continued here keeps its
    record's options and their origins; `replay` says them in the terminal's words."""
    from bot.access import OPERATOR
    from bot.recording import with_store
    from rules_core import resolve

    grots = "5x Grot: WS2 S1 T6 W1 I2 A1 Ld5 Sv-"  # nobody can wound anybody: drawn, it goes on
    first = resolve("40k", grots, grots.replace("Grot", "Gretchin"), seed=1, charge_distance=3,
                    morale_modifier="per_wound")  # fmt: skip
    with_store(lambda store: store.records.add(first, requested_by="123", guild_id="9",
                                               house_rules=("morale_modifier",)))  # fmt: skip
    code, out, err = referee("assault", "continue", "1", capsys=capsys)
    assert code == 0, err
    assert "House rules: morale modifier: per wound" in out and "/settings" not in out + err
    continued = with_store(lambda store: store.records.get(2, actor=OPERATOR))
    assert continued.report.inputs.options["morale_modifier"] == "per_wound"
    assert continued.house_rules == ("morale_modifier",)
    code, out, _ = referee("replay", "2", capsys=capsys)
    flat = " ".join(out.split())  # wrapped at the terminal's width
    assert "House rules: morale modifier: per wound (its server's house rules when it was resolved)" in flat
    referee(*DUEL, "--seed", "1", capsys=capsys)  # the terminal's own combats: none
    assert with_store(lambda store: store.records.get(3, actor=OPERATOR)).house_rules == ()
    code, out, _ = referee("replay", "3", capsys=capsys)
    assert "House rules" not in out
