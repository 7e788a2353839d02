"""`referee closequarters`: generated flags, JSON and text output, help, and bad input."""

from __future__ import annotations

import json

import pytest

from rules_core import resolve
from tests.bot.test_cli import error_lines, referee

ATTACKER = "8x Grenadiers: veteran smg=2 nco"
DEFENDER = "10x Infantry: regular nco"


def test_json_is_the_report_and_byte_identical_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("closequarters", "--attacker", ATTACKER, "--defender", DEFENDER, "--distance", "9", "--reaction-shots",
            "10", "--reaction-modifiers", "-1", "--no-morale-check", "--seed", "5", "--json")  # fmt: skip
    code, first, _ = referee(*args, capsys=capsys)
    assert code == 0
    _, second, _ = referee(*args, capsys=capsys)
    assert first == second
    options = {"distance": 9, "reaction_shots": 10, "reaction_modifiers": -1, "morale_check": False}
    assert first == resolve("boltaction", ATTACKER, DEFENDER, seed=5, **options).to_json() + "\n"
    data = json.loads(first)
    assert data["game"] == "boltaction"
    assert data["inputs"]["options"]["reaction_shots"] == 10


def test_text_output_shows_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("closequarters", "--attacker", ATTACKER, "--defender", DEFENDER, "--distance", "9",
                           "--reaction-shots", "10", "--seed", "3", capsys=capsys)  # fmt: skip
    assert code == 0
    report = resolve("boltaction", ATTACKER, DEFENDER, seed=3, distance=9, reaction_shots=10)
    flat = " ".join(out.split())
    for step in report.steps:
        assert " ".join(step.title.split()) in flat


def test_a_failed_assault_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("closequarters", "--attacker", ATTACKER, "--defender", DEFENDER, "--distance", "13",
                           capsys=capsys)  # fmt: skip
    assert code == 0
    assert "No combat between Grenadiers and Infantry: failed to contact" in " ".join(out.split())


def test_help_lists_tokens_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", "boltaction", capsys=capsys)
    assert code == 0
    flat = " ".join(out.split())
    for word in ("tough-fighters", "smg=N", "--reaction-shots", "--no-morale-check", "referee docs boltaction"):
        assert word in flat


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--attacker", "10x Infantry: regulr", "--defender", DEFENDER), "Did you mean 'regular'?"),
        (("--attacker", ATTACKER, "--defender", "1x Panzer IV: vehicle"), "not supported yet"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--reaction-shots", "lots"), "option --reaction-shots"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--distance", "-3"), "distance"),
    ],
)
def test_bad_input_is_one_line_with_an_example(
    args: tuple[str, ...], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = referee("closequarters", *args, capsys=capsys)
    assert code == 2
    assert fragment in error_lines(err)[0]
    assert "Example:" in err or "Corrected, to copy:" in err


def test_rough_ground_with_a_defended_obstacle_is_refused_in_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 33 (review finding 5): the text makes them exclusive; the error names both flags, with an example.
    code, _, err = referee("closequarters", "--attacker", ATTACKER, "--defender", DEFENDER, "--rough-ground",
                           "--defended-obstacle", capsys=capsys)  # fmt: skip
    assert code != 0
    (line,) = error_lines(err)
    assert line.startswith("error: --rough-ground and --defended-obstacle cannot both hold")
    assert "rough_ground" not in line and "defended_obstacle" not in line
    assert line.endswith("Example: --distance 9 --defended-obstacle")
