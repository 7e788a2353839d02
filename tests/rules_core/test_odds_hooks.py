"""The odds reach each game's solvers through its hooks, loaded on first use: importing the engine loads no NumPy."""

from __future__ import annotations

import subprocess
import sys

from rules_core import get_game
from rules_core.registry import Game


def test_importing_the_engine_and_its_odds_loads_no_numpy_nor_any_solver() -> None:
    code = (
        "import sys, rules_core, rules_core.odds; "
        "loaded = [name for name in sys.modules "
        "if name == 'numpy' or name.endswith(('.odds_sampled', 'games.wh40k.odds'))]; "
        "print(loaded)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_game_without_odds_hooks_is_answered_by_monte_carlo_and_refused_exactly() -> None:
    game = get_game("duel")
    plain = Game.exact_odds(game, None, None, {})
    assert plain is None and Game.sampled_odds(game, None, None, {}, trials=1, seed=1) is None
    assert Game.exact_refusal(game, None, None) == f"there is no exact calculation for {game.title} yet"


def test_losses_count_units_in_the_formation_games_and_models_elsewhere() -> None:
    assert {game: get_game(game).losses_count for game in ("40k", "duel", "boltaction", "epic", "reikhammer")} == {
        "40k": "models", "duel": "models", "boltaction": "models", "epic": "units", "reikhammer": "units",
    }  # fmt: skip
