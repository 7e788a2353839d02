"""The referee's rules engine: pure, synchronous, typed; no I/O and no global randomness.

>>> from rules_core import resolve
>>> report = resolve("40k", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "5x Eldar: WS3 S3 T3 W1 I5 A1 Ld8 Sv5+", seed=1)
>>> report.result.winner in {"attacker", "defender", "draw"}
True
"""

from __future__ import annotations

from typing import Any

from rules_core import games as _games  # noqa: F401  (registers every game)
from rules_core.dice import DiceSource, ScriptedDice, SeededDice, new_seed
from rules_core.errors import (
    DiceError,
    IllegalDeclarationError,
    LimitError,
    OptionError,
    RefereeError,
    SpecError,
    UnknownGameError,
    UnsupportedError,
)
from rules_core.options import validate_options
from rules_core.registry import Game, all_games, get_game
from rules_core.report import Report
from rules_core.version import ENGINE_VERSION, SCHEMA_VERSION

__version__ = ENGINE_VERSION


def resolve(
    game: str | Game,
    attacker: Any,
    defender: Any,
    *,
    seed: int | None = None,
    rng: DiceSource | None = None,
    **options: object,
) -> Report:
    """Resolve one procedure of ``game`` between two sides (spec strings or parsed sides).

    Pass ``seed`` to replay a resolution, or ``rng`` to hand in a dice source (tests
    use :class:`ScriptedDice`); with neither, a fresh seed comes from ``secrets``.
    """
    chosen = game if isinstance(game, Game) else get_game(game)
    checked = _validate(chosen, options)
    attacker_side = chosen.parse_side(attacker) if isinstance(attacker, str) else attacker
    defender_side = chosen.parse_side(defender) if isinstance(defender, str) else defender
    if rng is not None and seed is not None:
        raise DiceError("Give a seed or a dice source, not both.", token="seed")
    dice: DiceSource = rng if rng is not None else SeededDice(seed)
    report = chosen.resolve_sides(attacker_side, defender_side, checked, dice)
    dice.finish()
    return report


def _validate(game: Game, options: dict[str, object]) -> dict[str, Any]:
    return validate_options(game.options, options)


__all__ = [
    "ENGINE_VERSION",
    "SCHEMA_VERSION",
    "DiceError",
    "DiceSource",
    "Game",
    "IllegalDeclarationError",
    "LimitError",
    "OptionError",
    "RefereeError",
    "Report",
    "ScriptedDice",
    "SeededDice",
    "SpecError",
    "UnknownGameError",
    "UnsupportedError",
    "all_games",
    "get_game",
    "new_seed",
    "resolve",
]
