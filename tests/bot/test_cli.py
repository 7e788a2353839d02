"""The `referee` command, driven through its real entry point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from rules_core import get_game, resolve

ATTACKER = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
DEFENDER = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
ASSAULT = ("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER)


def referee(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


def test_json_output_is_the_report_and_byte_identical_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        *ASSAULT,
        "--charge-distance",
        "4",
        "--defender-in-cover",
        "--seed",
        "99",
        "--json",
    )
    code, first, _ = referee(*args, capsys=capsys)
    assert code == 0
    _, second, _ = referee(*args, capsys=capsys)
    assert first == second
    expected = resolve("40k", ATTACKER, DEFENDER, seed=99, charge_distance=4, defender_in_cover=True)
    assert first == expected.to_json() + "\n"
    assert json.loads(first)["inputs"]["options"]["defender_in_cover"] is True


def test_text_output_shows_the_summary_then_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee(*ASSAULT, "--seed", "3", capsys=capsys)
    assert code == 0
    report = resolve("40k", ATTACKER, DEFENDER, seed=3)
    assert out.index("seed 3") < out.index("Charge")
    for step in report.steps:
        assert step.title in out
    assert "to hit" in out


def test_a_charge_from_too_far_reports_no_charge(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee(
        *ASSAULT,
        "--charge-distance",
        "9",
        "--json",
        capsys=capsys,
    )
    assert code == 0
    assert json.loads(out)["result"]["outcome"] == "no_charge"


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        (("--attacker", "10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ power-sword", "--defender", DEFENDER), "power-sword"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--round", "x"), "round"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--morale-modifier", "harsh"), "option --morale-modifier"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--shot-this-turn"), "fired"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "abc"), "seed"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "-4"), "seed"),
        (("--attacker", ATTACKER), "--defender"),
        (("--attacker", ATTACKER, "--defender", DEFENDER, "--charge-range", "3"), "--charge-range"),
        (("--attacker", "1x Rhino: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ vehicle", "--defender", DEFENDER), "not supported"),
    ],
)
def test_bad_input_is_one_line_naming_the_token_with_an_example_and_exit_2(
    args: tuple[str, ...], mentions: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = referee("assault", "40k", *args, capsys=capsys)
    assert code == 2
    assert out == ""
    assert mentions in error_lines(err)[0]
    assert "Example:" in err


def error_lines(err: str) -> list[str]:
    """The lines of an error: one (the message, what to do next, an example); or, for an error in a spec given on
    the command line, the message, that spec with a caret line under the faulty token, and the spec corrected (to
    copy) or an example."""
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith("error: "), err
    if len(lines) > 1:
        assert len(lines) == 4, err
        assert re.fullmatch(r"  --[a-z-]+: .+", lines[1]), err
        assert re.fullmatch(r" +\^+", lines[2]), err
        assert lines[3].startswith(("Example: ", "Corrected, to copy: --")), err
    return lines


def test_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("help", "chess", capsys=capsys)
    assert code == 2
    assert "Known games: 40k" in err


def test_flags_are_generated_from_the_declared_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("assault", "40k", "--help", capsys=capsys)
    assert code == 0
    for spec in get_game("40k").options:
        assert spec.flag in out
    assert "--no-perils" in out


def test_help_lists_every_token_and_option_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", "40k", capsys=capsys)
    assert code == 0
    flat = " ".join(out.split())
    game = get_game("40k")
    for token in game.tokens:
        assert token.token.split()[0] in flat
    for spec in game.options:
        assert spec.flag in flat
    assert "Example" in out and "referee assault 40k --attacker" in flat
    code, out, _ = referee("help", capsys=capsys)
    assert "40k" in out


def test_games_and_samples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("games", capsys=capsys)
    assert code == 0 and "40k" in out
    code, out, _ = referee("samples", "40k", capsys=capsys)
    assert code == 0 and "tactical-squad" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("--version", capsys=capsys)
    assert code == 0 and "referee" in out


def test_the_installed_console_script_runs(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("referee")
    assert script.exists(), "the referee console script is installed with the package"
    result = subprocess.run(
        [str(script), "assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["seed"] == 1
    bad = subprocess.run(
        [str(script), "assault", "40k", "--attacker", "nonsense", "--defender", DEFENDER],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


def test_python_dash_m_bot_cli_is_the_same_command(tmp_path: Path) -> None:
    args = ["assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "1", "--json"]
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == resolve("40k", ATTACKER, DEFENDER, seed=1).to_json() + "\n"
    bad = subprocess.run(
        [sys.executable, "-m", "bot.cli", "frobnicate"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ") and "'referee help' lists the games" in bad.stderr


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (("void", "12"), "Usage: referee void [OPTIONS] RECORD_ID ('referee void --help' says more)."),
        (("history", "--limit", "0"), "Usage: referee history [OPTIONS] ('referee history --help' says more)."),
        (("frobnicate",), "'referee help' lists the games; 'referee --help' lists the commands."),
    ],
)
def test_a_usage_error_ends_with_an_example_for_that_command(
    args: tuple[str, ...], wanted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = referee(*args, capsys=capsys)
    assert code == 2
    assert err.strip().endswith(wanted) and "referee help 40k" not in err


def test_referee_alone_shows_its_help_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = referee(capsys=capsys)
    assert code == 2  # click's exit status for a group called with nothing to do
    assert out.startswith("Usage: referee [OPTIONS] COMMAND") and "error" not in err


def test_help_says_a_flag_is_a_flag_and_never_shows_python_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", "40k", capsys=capsys)
    assert code == 0
    assert "--defender-in-cover (a flag, off by default)" in out
    assert "--perils / --no-perils (a flag, on by default)" in out
    assert "--charge-distance (0 to 100; not given by default)" in out
    assert not any(word in out for word in ("default False", "default True", "default None"))


def test_no_game_help_in_the_terminal_shows_a_python_default(capsys: pytest.CaptureFixture[str]) -> None:
    """Every game's 'referee help' and its command's --help say a default in words, or nothing: never None,
    True or False (Discord's /help is walked the same way in tests/e2e/test_tools_and_privacy.py)."""
    from rules_core import all_games
    from rules_core.registry import command_path

    python = re.compile(r"default:? (None|True|False)\b|\[default: (None|True|False)\]")
    for game in all_games():
        for args in (("help", game.id), (*command_path(game).split(), "--help")):
            code, out, _ = referee(*args, capsys=capsys)
            assert (code == 0 and game.title.split()[0] in out) or args[0] != "help", args
            assert not python.search(" ".join(out.split())), (args, python.search(" ".join(out.split())))
