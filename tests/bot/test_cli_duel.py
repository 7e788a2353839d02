"""`referee duel`: the weapon table loaded by bot/, JSON and text output, help, and bad input."""

from __future__ import annotations

import json

import pytest

from bot.data import catalogue
from rules_core import get_game, resolve
from tests.bot.test_cli import error_lines, referee

ATTACKER = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
DEFENDER = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife"


def test_json_is_the_report_and_byte_identical_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("duel", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "11", "--json")
    code, first, _ = referee(*args, "--strength-save-table", "none", capsys=capsys)
    assert code == 0
    _, second, _ = referee(*args, "--strength-save-table", "none", capsys=capsys)
    assert first == second
    expected = resolve(catalogue().game("duel"), ATTACKER, DEFENDER, seed=11, strength_save_table="none")
    assert first == expected.to_json() + "\n"
    data = json.loads(first)
    assert data["game"] == "duel"
    assert "weapon=chainsword/S4/dmg=1/sv=-1/parry/cc" in data["inputs"]["attacker"]
    assert data["result"]["outcome"] in {"killed", "wounded", "stalemate", "broke_off"}


def test_text_output_shows_rounds_scores_and_what_happens_next(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("duel", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "3", capsys=capsys)
    assert code == 0
    report = resolve(catalogue().game("duel"), ATTACKER, DEFENDER, seed=3)
    flat = " ".join(out.split())
    for step in report.steps:
        assert " ".join(step.title.split()) in flat
    assert "attack dice: Marine Sergeant" in flat
    assert "What happens next" in flat


def test_help_lists_tokens_options_and_the_weapon_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", "duel", capsys=capsys)
    assert code == 0
    flat = " ".join(out.split())
    for word in ("breaking-off", "weapon=NAME/fields", "--strength-save-table", "power-sword", "referee docs duel"):
        assert word in flat
    assert "One side holds a single model" in flat


@pytest.mark.parametrize(
    ("attacker", "defender", "fragment"),
    [
        (ATTACKER.replace("chainsword", "chainswrod"), DEFENDER, "Did you mean 'chainsword'?"),
        (ATTACKER, "2x Grot: WS2 S2 T2 W1 I3 A1 Sv- | Nob: WS4 S4 T4 W2 I3 A2 Sv5+", None),
        ("2x Marine: WS4 S4 T4 W1 I4 A1 Sv3+", DEFENDER, "one against several"),
        (ATTACKER + " weapon=claw/S11", DEFENDER, "Cannot read the weapon"),
    ],
)
def test_bad_input_is_one_line_with_an_example(
    attacker: str, defender: str, fragment: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = referee("duel", "--attacker", attacker, "--defender", defender, "--seed", "1", capsys=capsys)
    if fragment is None:  # a lone attacker against a mixed group is a valid multiple combat
        assert code == 0, err
        return
    assert code == 2
    assert fragment in error_lines(err)[0]
    assert "Example:" in err or "Corrected, to copy:" in err


def test_the_registered_game_alone_needs_inline_weapons() -> None:
    # rules_core does no I/O: without bot/'s table a weapon name is an error that says how to define it inline.
    with pytest.raises(Exception, match="weapon=NAME"):
        resolve(get_game("duel"), ATTACKER, DEFENDER, seed=1)
