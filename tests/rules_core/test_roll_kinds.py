"""Every roll says what it is for, as data: a kind from its game's closed list, and the side it was rolled for.

The dice statistics and the translations read ``Roll.kind`` and ``Roll.side``, never the English purpose; so every
roll of every report of every game carries both, over its samples, option variants and seeds.
Old reports (no kind) load and write back unchanged.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.data import catalogue, load_samples
from rules_core import RefereeError, all_games, resolve
from rules_core.registry import Game
from rules_core.report import Op, Report, Roll, SideName, Target
from rules_core.roll_kinds import SHARED


def _reports(game: Game, seeds: int = 4) -> list[Report]:
    specs = [sample.spec for file in load_samples() if file.game == game.id for sample in file.samples]
    specs += [game.example_attacker, game.example_defender]
    variants: list[dict[str, object]] = [{}, dict(game.example_options)]
    bound = catalogue().game(game)
    reports = []
    for (attacker, defender), options, seed in itertools.product(
        itertools.product(specs, repeat=2), variants, range(seeds)
    ):
        try:
            reports.append(resolve(bound, attacker, defender, seed=seed, **options))
        except RefereeError:
            continue
    return reports


def untagged(game: Game, reports: list[Report]) -> list[str]:
    """Rolls whose kind is not one of the game's declared kinds, or that name no side."""
    wrong = []
    for report in reports:
        for step in report.steps:
            for roll in step.rolls:
                if roll.kind not in game.roll_kinds or roll.side is None:
                    wrong.append(f"{step.title!r}: {roll.purpose!r} kind={roll.kind!r} side={roll.side}")
    return sorted(set(wrong))


def test_the_check_finds_a_roll_with_no_kind() -> None:
    game = next(iter(all_games()))
    bare = Roll("to hit", (4,), Target(Op.AT_LEAST, 3), (True,), 1)
    report = _reports(game, seeds=1)[0]
    planted = report.steps[0].__class__(title="planted", rolls=(bare,))
    forged = Report.from_dict({**report.to_dict(), "steps": [planted.to_dict()]})
    assert untagged(game, [forged]) == ["'planted': 'to hit' kind='' side=None"]


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_roll_names_its_kind_and_side(game: Game) -> None:
    assert untagged(game, _reports(game)) == []


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_a_games_kinds_are_snake_case_and_distinct(game: Game) -> None:
    assert game.roll_kinds, f"{game.id} declares no roll_kinds: every game says what its rolls are for"
    assert len(set(game.roll_kinds)) == len(game.roll_kinds)
    assert all(kind.isidentifier() and kind == kind.lower() for kind in game.roll_kinds)


def test_a_kind_and_side_round_trip_and_an_old_roll_writes_none() -> None:
    tagged = Roll("to hit", (4, 2), Target(Op.AT_LEAST, 3), (True, False), 1, kind="to_hit", side=SideName.ATTACKER)
    assert Roll.from_dict(tagged.to_dict()) == tagged
    assert tagged.to_dict()["kind"] == "to_hit" and tagged.to_dict()["side"] == "attacker"
    old = Roll("to hit", (4,), Target(Op.AT_LEAST, 3), (True,), 1)
    assert "kind" not in old.to_dict() and "side" not in old.to_dict()
    assert Roll.from_dict(old.to_dict()) == old
    assert "to_hit" in SHARED


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_docs_report_lists_each_games_kinds(game: Game) -> None:
    """docs/report.md's table names every game's kinds, in its declared order: other people's tools read it."""
    table = Path(__file__).resolve().parents[2].joinpath("docs", "report.md").read_text(encoding="utf-8")
    row = ", ".join(f"`{kind}`" for kind in game.roll_kinds)
    assert f"| `{game.id}` | {row} |" in table
