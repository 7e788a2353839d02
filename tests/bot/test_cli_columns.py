"""An 80-column terminal (COLUMNS=80): what the terminal prints fits, wrapped lines keep their indent, a number is
never split, and what is meant to be pasted (a spec, an example command) is one whole line."""

from __future__ import annotations

import itertools
import re

import pytest

from bot.cli.common import example_command
from bot.data import catalogue
from bot.recording import record_report
from bot.rosters import shipped_rosters
from rules_core import all_games, resolve
from tests.bot.test_cli import ATTACKER, DEFENDER, referee

WIDTH = 80


def split_numbers(out: str) -> list[str]:
    """Numbers broken over two lines: a line ending in a digit and a point or comma (``6.``) whose next line starts
    with a digit (``9%``), or a line starting with a bare percentage."""
    lines = out.splitlines()
    pairs = [f"{a}\n{b}" for a, b in itertools.pairwise(lines) if re.search(r"\d[.,]$", a) and re.match(r"\s*\d", b)]
    return pairs + [line for line in lines if re.match(r"\s*[\d.]*\d%", line)]


@pytest.fixture(autouse=True)
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))


def too_wide(out: str, *whole: str) -> list[str]:
    """The lines over the width, but those that are one of ``whole`` (to paste, so never broken)."""
    return [line for line in out.splitlines() if len(line) > WIDTH and line.strip() not in whole]


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_help_fits_and_its_wrapped_lines_keep_their_indent(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("help", game, capsys=capsys)
    assert code == 0
    example = example_command(catalogue().game(game))
    assert example in [line.strip() for line in out.splitlines()]  # on a line of its own, unbroken
    assert not too_wide(out, example)
    tokens = out.split("\nTokens\n", 1)[1].split("\nExample\n", 1)[0]
    for line in tokens.splitlines():
        assert not line or line.startswith("  ") or line == "Options", line  # under its own heading, indented
    assert not split_numbers(out)


def test_odds_fit_and_never_split_a_number_or_an_item(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("odds", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--charge-distance", "4",
                           capsys=capsys)  # fmt: skip
    assert code == 0
    assert not too_wide(out)
    lines = out.splitlines()
    assert not split_numbers(out)
    losses = [line for line in lines if re.match(r"\s+\d+: ", line)]  # the loss lists, item by item
    assert losses and all(line.startswith("    ") for line in losses)
    for line in lines:
        for item in line.strip().strip("·").split(" · "):
            assert not re.fullmatch(r"\d+:|>=\d+|at least:", item.strip()), line  # an item whole on its line


@pytest.mark.parametrize("game", [None, *(game.id for game in all_games())])
def test_samples_print_specs_that_paste_whole(game: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("samples", *([game] if game else []), capsys=capsys)
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    specs = [sample.spec for sample in shipped_rosters(game)]
    for spec in specs:
        assert spec in lines, spec  # on a line of its own, unbroken
    assert not too_wide(out, *specs)
    for line in out.splitlines():  # a description's continuation stays under it, apart from the specs
        assert line.startswith("  ") or line in {r.game for r in shipped_rosters()}, line


def test_history_fits_and_shows_every_value_whole(capsys: pytest.CaptureFixture[str]) -> None:
    user = "123456789012345678"  # a Discord user's id: never cut nor split
    for game in all_games():
        report = resolve(catalogue().game(game.id), game.example_attacker, game.example_defender, seed=3,
                         **dict(game.example_options))  # fmt: skip
        assert record_report(report, requested_by=user).record_id is not None
    code, out, _ = referee("history", capsys=capsys)
    assert code == 0
    assert not too_wide(out), out
    assert "…" not in out
    assert out.count(user) == len(all_games())
    assert len(re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d", out)) == len(all_games())  # each date and time whole
