"""`referee challenge` and `referee accept` (issue 24): a combat with its dice committed in advance, from the
terminal, through the real CLI and a real SQLite database."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import all_games, get_game
from tests.bot.test_cli import referee
from tests.bot.test_cli_records import sqlite_path
from tests.rules_core.test_40k_properties import OPTIONS, sides

W40K = get_game("40k")
CHALLENGE_40K = ("challenge", "40k", "--attacker", W40K.example_attacker, "--defender", W40K.example_defender)


def commitment_of(out: str) -> str:
    found = re.search(r"^Commitment: ([0-9a-f]{64})$", out, re.MULTILINE)
    assert found, out
    return found.group(1)


def reveal_of(out: str) -> tuple[int, int, str]:
    """The record id, the seed and the salt that `referee accept` printed."""
    record = re.search(r"recorded as #(\d+)\.", out)
    revealed = re.search(r"Seed: (\d+)  Salt: ([0-9a-f]{64})", out)
    assert record and revealed, out
    return int(record.group(1)), int(revealed.group(1)), revealed.group(2)


def sha256_reveal(seed: int, salt: str) -> str:
    return hashlib.sha256(b"referee-commit-v1\0" + bytes.fromhex(salt) + seed.to_bytes(8, "big")).hexdigest()


def test_a_challenge_file_then_accept_reveals_the_committed_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "challenge.json"
    code, out, err = referee(*CHALLENGE_40K, "--charge-distance", "4", "--opponent", "Bob", "--out",
                             str(out_file), capsys=capsys)  # fmt: skip
    assert code == 0, err
    committed = commitment_of(out)
    assert f"'referee accept {out_file}'" in out and "/" + "accept" not in out
    document = json.loads(out_file.read_text())
    assert document["challenge"] == 1 and document["game"] == "40k" and document["commitment"] == committed
    assert document["inputs"]["attacker"] == W40K.example_attacker
    assert document["inputs"]["options"]["charge_distance"] == "4"
    assert "expires_at" in document
    code, out, err = referee("accept", str(out_file), capsys=capsys)
    assert code == 0, err
    record_id, seed, salt = reveal_of(out)
    assert sha256_reveal(seed, salt) == committed
    assert f"'referee verify {record_id}'" in out
    code, out, _ = referee("verify", str(record_id), capsys=capsys)
    assert code == 0 and "verified" in out and committed in out
    code, out, _ = referee("replay", str(record_id), capsys=capsys)
    assert (code == 0 and f"seed {seed}" in out.lower()) or str(seed) in out


def test_accept_refuses_a_challenge_already_resolved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "c.json"
    referee(*CHALLENGE_40K, "--out", str(out_file), capsys=capsys)
    assert referee("accept", str(out_file), capsys=capsys)[0] == 0
    code, out, err = referee("accept", str(out_file), capsys=capsys)
    assert code == 2 and out == ""
    assert err == "error: Challenge #1 was already accepted and resolved as record #1: 'referee replay 1' shows it.\n"


def test_accept_refuses_an_expired_challenge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], private_database: str
) -> None:
    out_file = tmp_path / "c.json"
    referee(*CHALLENGE_40K, "--out", str(out_file), "--expires-in", "5", capsys=capsys)
    with sqlite3.connect(sqlite_path(private_database)) as connection:
        connection.execute("UPDATE challenges SET expires_at = '2020-01-01 00:00:00.000000' WHERE id = 1")
    code, out, err = referee("accept", str(out_file), capsys=capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: Challenge #1 expired at 2020-01-01 00:00 UTC: ask for a new one, e.g. referee "
                          "challenge 40k --attacker ")  # fmt: skip
    assert err.count("\n") == 1
    with sqlite3.connect(sqlite_path(private_database)) as connection:
        assert connection.execute("SELECT count(*) FROM combat_records").fetchone() == (0,)


def test_accept_refuses_a_file_whose_inputs_differ_and_says_what(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "c.json"
    referee(*CHALLENGE_40K, "--charge-distance", "4", "--out", str(out_file), capsys=capsys)
    document = json.loads(out_file.read_text())
    document["inputs"]["defender"] = "1x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
    document["inputs"]["options"]["charge_distance"] = "6"
    out_file.write_text(json.dumps(document))
    code, out, err = referee("accept", str(out_file), capsys=capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"error: '{out_file}' differs from challenge #1 as it was made: the defender (file: " in err
    assert '--charge-distance (file: "6", challenge: "4")' in err
    assert "Accept the challenger's own file unchanged, or ask for a new challenge." in err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "error: There is no file '{path}'. Example: referee accept challenge.json"),
        ("not json", "error: '{path}' is not a challenge file ('referee challenge GAME ... --out FILE' writes one). "
                     "Example: referee accept challenge.json"),
        ('{"kind": "referee-challenge"}', "error: '{path}' is not a challenge file ('referee challenge GAME ... "
                                          "--out FILE' writes one). Example: referee accept challenge.json"),
        ('{"kind": "referee-challenge", "challenge": 99, "inputs": {}, "commitment": "00"}',
         "error: There is no challenge #99 in this database: accept it where it was made (the same DATABASE_URL or "
         "referee.db). Example: referee accept challenge.json"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_with_an_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, expected: str
) -> None:
    path = tmp_path / "challenge.json"
    if content is not None:
        path.write_text(content)
    code, out, err = referee("accept", str(path), capsys=capsys)
    assert (code, out, err) == (2, "", expected.format(path=path) + "\n")


def test_a_bad_side_is_told_to_the_challenger_and_nothing_is_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], private_database: str
) -> None:
    out_file = tmp_path / "c.json"
    code, _, err = referee("challenge", "40k", "--attacker", "10x Marine: WS4", "--defender", W40K.example_defender,
                           "--out", str(out_file), capsys=capsys)  # fmt: skip
    assert code == 2 and err.startswith("error: ")
    assert not out_file.exists()
    assert not sqlite_path(private_database).exists()  # read and refused before the database is even opened


OTHER_GAMES = [game for game in all_games() if game.id != "40k"]


@st.composite
def challenges(draw: st.DrawFn) -> tuple[str, ...]:
    """Valid inputs of any game: generated 40K sides and options, or another game's example with its options."""
    if draw(st.booleans()):
        options = draw(OPTIONS)
        flags: list[str] = []
        for name, value in options.items():
            flag = "--" + name.replace("_", "-")
            if isinstance(value, bool):
                flags += [flag] if value else ([f"--no-{flag[2:]}"] if name == "perils" else [])
            else:
                flags += [flag, str(value)]
        return ("40k", "--attacker", draw(sides()), "--defender", draw(sides()), *flags)
    game = draw(st.sampled_from(OTHER_GAMES))
    flags = [word for name, value in game.example_options.items() for word in ("--" + name.replace("_", "-"),
                                                                                 str(value))]  # fmt: skip
    return (game.id, "--attacker", game.example_attacker, "--defender", game.example_defender, *flags)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inputs=challenges())
def test_any_accepted_challenge_reveals_its_commitment_and_reruns_identically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inputs: tuple[str, ...]
) -> None:
    out_file = tmp_path / "property.json"
    code, out, err = referee("challenge", *inputs, "--out", str(out_file), capsys=capsys)
    assert code == 0, err
    committed = commitment_of(out)
    code, out, err = referee("accept", str(out_file), capsys=capsys)
    assert code == 0, err
    record_id, seed, salt = reveal_of(out)
    assert sha256_reveal(seed, salt) == committed
    code, out, _ = referee("verify", str(record_id), capsys=capsys)
    assert code == 0 and "verified" in out and committed in out
