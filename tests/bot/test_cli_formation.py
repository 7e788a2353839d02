"""`referee assault epic|reikhammer`: generated flags, JSON and text output, help and bad input."""

from __future__ import annotations

import json

import pytest

from rules_core import get_game, resolve
from tests.bot.test_cli import referee

GAMES = ("epic", "reikhammer")


def sides(game: str) -> tuple[str, str]:
    chosen = get_game(game)
    return chosen.example_attacker, chosen.example_defender


@pytest.mark.parametrize("game", GAMES)
def test_json_is_the_report_and_byte_identical_for_a_seed(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    attacker, defender = sides(game)
    key = "blast-markers" if game == "epic" else "shock"
    support = "2x Support: FF4+" if game == "epic" else "2x Support: FF3"
    args = (
        "assault",
        game,
        "--attacker",
        attacker,
        "--defender",
        defender,
        f"--defender-{key}",
        "2",
        "--attacker-support",
        support,
        "--result-dice",
        "sum",
        "--seed",
        "7",
        "--json",
    )
    code, first, _ = referee(*args, capsys=capsys)
    assert code == 0
    _, second, _ = referee(*args, capsys=capsys)
    assert first == second
    options = {f"defender_{key.replace('-', '_')}": 2, "attacker_support": support, "result_dice": "sum"}
    assert first == resolve(game, attacker, defender, seed=7, **options).to_json() + "\n"
    data = json.loads(first)
    assert data["game"] == game
    assert data["inputs"]["options"]["result_dice"] == "sum"


@pytest.mark.parametrize("game", GAMES)
def test_text_output_shows_every_step(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    attacker, defender = sides(game)
    code, out, _ = referee(
        "assault", game, "--attacker", attacker, "--defender", defender, "--seed", "3", capsys=capsys
    )
    assert code == 0
    report = resolve(game, attacker, defender, seed=3)
    for step in report.steps:
        assert step.title in out
    assert "seed 3" in out


@pytest.mark.parametrize("game", GAMES)
def test_help_lists_every_token_and_option(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", game, capsys=capsys)
    assert code == 0
    flat = " ".join(out.split())
    chosen = get_game(game)
    for token in chosen.tokens:
        assert token.token.split()[0] in flat
    for spec in chosen.options:
        assert spec.flag in flat
    assert f"referee assault {game} --attacker" in flat
    assert f"referee docs {game}" in flat
    code, out, _ = referee("assault", game, "--help", capsys=capsys)
    for spec in chosen.options:
        assert spec.flag in out


@pytest.mark.parametrize(
    ("game", "extra", "mentions"),
    [
        ("epic", ("--attacker-support", "2x Guns: CC5+"), "attacker_support"),
        ("epic", ("--max-rounds", "0"), "option --max-rounds"),
        ("epic", ("--attacker-blast-markers", "many"), "option --attacker-blast-markers"),
        ("reikhammer", ("--double-means", "twice"), "option --double-means"),
        ("reikhammer", ("--save-direction", "sideways"), "option --save-direction"),
        ("reikhammer", ("--attacker-blast-markers", "1"), "--attacker-blast-markers"),
    ],
)
def test_bad_options_are_one_line_with_an_example_and_exit_2(
    game: str, extra: tuple[str, ...], mentions: str, capsys: pytest.CaptureFixture[str]
) -> None:
    attacker, defender = sides(game)
    code, out, err = referee("assault", game, "--attacker", attacker, "--defender", defender, *extra, capsys=capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert mentions in err
    assert "Example:" in err


def test_bad_specs_name_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee(
        "assault", "reikhammer", "--attacker", "6x Line: CC4+ FF3 Sv5+ INF", "--defender", "1x D: CC1 FF1 Sv- INF",
        capsys=capsys,
    )  # fmt: skip
    assert code == 2
    assert "CC4+" in err
    assert "Did you mean CC4?" in err


@pytest.mark.parametrize("game", GAMES)
def test_games_and_samples_list_the_formation_games(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("games", capsys=capsys)
    assert code == 0
    assert game in out
    code, out, _ = referee("samples", game, capsys=capsys)
    assert code == 0
    assert out.startswith(game)
