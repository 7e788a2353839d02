"""The referee's rules engine: pure, synchronous, typed; no I/O and no global randomness.

>>> from rules_core import resolve
>>> report = resolve("40k", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "5x Eldar: WS3 S3 T3 W1 I5 A1 Ld8 Sv5+", seed=1)
>>> report.result.winner in {"attacker", "defender", "draw"}
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, get_type_hints

from rules_core import games as _games  # noqa: F401  (registers every game)
from rules_core.dice import MAX_SEED, DiceSource, ScriptedDice, SeededDice, new_seed
from rules_core.errors import (
    DiceError,
    IllegalDeclarationError,
    LimitError,
    OptionError,
    RefereeError,
    SpecError,
    UnknownGameError,
    UnsupportedError,
    example,
    given_in,
    shown,
)
from rules_core.options import validate_options
from rules_core.registry import Game, all_games, get_game
from rules_core.report import Report, thaw
from rules_core.spec import reading_canonical
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
    Any argument of the wrong type or out of range raises a :class:`RefereeError` naming it, with an example.
    """
    chosen = _game(game)
    checked = validate_options(chosen.options, options)
    attacker_side = _side(chosen, attacker, "attacker")
    defender_side = _side(chosen, defender, "defender")
    dice = _dice(seed, rng)
    report = chosen.resolve_sides(attacker_side, defender_side, checked, dice)
    dice.finish()
    return report


def rerun(report: Report, *, game: Game | None = None) -> Report:
    """``report``'s combat resolved again from its inputs and seed: the same engine gives the identical report.

    ``game``: the game bound to its data files, where it reads some (by default the registered game of the report).
    The inputs are the canonical form the engine wrote, read with no character limit (see
    :func:`rules_core.spec.reading_canonical`): it may be longer than what the player gave.
    """
    chosen = game if game is not None else get_game(report.game)
    options = thaw(report.inputs.options)
    if not isinstance(options, dict):
        raise SpecError(f"The report's options are {type(options).__name__}, not a mapping.", token="options")
    with reading_canonical():
        return resolve(chosen, report.inputs.attacker, report.inputs.defender, seed=report.seed, **options)


def _game(game: object) -> Game:
    if isinstance(game, Game):
        return game
    if not isinstance(game, str):
        raise UnknownGameError(
            f"A game is named by text (its id or an alias), not {shown(game)}.", token="game", example=_first_game()
        )
    return get_game(game)


def _first_game() -> str | None:
    known = all_games()
    return known[0].id if known else None


@functools.cache
def _side_type(game_class: type[Game]) -> type | None:
    """The class of the sides a game parses (its ``parse_side``'s return annotation), or None where it names none."""
    try:
        found = get_type_hints(game_class.parse_side).get("return")
    except Exception:
        return None
    return found if isinstance(found, type) and found is not object else None


def _side(game: Game, side: object, which: str) -> Any:
    """A side given as spec text, parsed; or one the game parsed already (its class), as it is."""
    if isinstance(side, str):
        return parse_given(game, side, which)
    expected = _side_type(type(game))
    if expected is None or isinstance(side, expected):
        return side
    raise SpecError(
        f"The {which} is spec text (or a side {game.title} parsed), not {shown(side)}.",
        token=which,
        example=game.example_attacker if which == "attacker" else game.example_defender,
    )


def parse_given(game: Game, text: str, which: str, *, parse: Callable[[str], Any] | None = None) -> Any:
    """The side a player gave as spec text for ``which`` (``attacker``), parsed by ``parse`` (by default the game's
    own parser); an error found in it shows the spec back, its faulty token marked and, where the fix is certain,
    corrected (rules_core.errors.given_in)."""
    try:
        return (parse or game.parse_side)(text)
    except RefereeError as error:
        raise given_in(error, which, text, game.parse_side) from None


def _dice(seed: object, rng: object) -> DiceSource:
    if rng is not None and seed is not None:
        raise DiceError("Give a seed or a dice source, not both.", token="seed")
    if rng is not None:
        if not isinstance(rng, DiceSource):
            raise DiceError(
                f"The dice source (rng) is a DiceSource such as SeededDice(12345), not {shown(rng)}.",
                token="rng",
                example=example(seed=12345),
            )
        return rng
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise DiceError(
            f"The seed must be a whole number from 0 to {MAX_SEED}, not {shown(seed)}.",
            token="seed",
            example=example(seed=12345),
        )
    return SeededDice(seed)


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
    "parse_given",
    "rerun",
    "resolve",
]
