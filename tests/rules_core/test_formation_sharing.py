"""Epic: Armageddon and Reikhammer share one engine: their modules hold a rules table and options, no procedure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules_core import get_game
from rules_core.games.formation.game import FormationGame

GAMES_DIR = Path(__file__).resolve().parents[2] / "rules_core" / "games"


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
def test_the_game_modules_define_no_procedure(game: str) -> None:
    files = sorted((GAMES_DIR / game).glob("*.py"))
    assert [f.name for f in files] == ["__init__.py"]
    tree = ast.parse(files[0].read_text(encoding="utf-8"))
    functions = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert functions == [], f"{game} defines {functions}: procedure code belongs in rules_core/games/formation"
    assert isinstance(get_game(game), FormationGame)


def test_both_games_run_the_same_resolver() -> None:
    epic, reikhammer = get_game("epic"), get_game("reikhammer")
    assert type(epic).resolve_sides is type(reikhammer).resolve_sides is FormationGame.resolve_sides
    assert epic.rules != reikhammer.rules  # type: ignore[attr-defined]
