"""Odds before you commit: the outcome distribution of a procedure, exact where the game has an exact solver,
otherwise by Monte Carlo through the referee itself (docs/odds.md).

``odds(game, attacker, defender, **options)`` takes exactly what ``rules_core.resolve`` takes (spec strings or
parsed sides, the game's options) and answers with an :class:`Odds`, which always says how it was computed.
Each game's solvers live in its own package and are reached through its hooks (``Game.exact_odds``,
``Game.exact_refusal``, ``Game.sampled_odds``); this package holds what they share: the dice laws, the answer
type and the Monte Carlo through the referee.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules_core.errors import RefereeError, example
from rules_core.odds.model import NotExact, Odds, wilson
from rules_core.odds.montecarlo import DEFAULT_TRIALS, MAX_TRIALS, loser_breaks, monte_carlo
from rules_core.options import validate_options
from rules_core.registry import Game, get_game

METHODS = ("auto", "exact", "monte-carlo")


class OddsError(RefereeError):
    """An odds request that cannot be answered as asked."""


def exact_refusal(game: Game, attacker: Any, defender: Any) -> OddsError | None:
    """The error an exact request for these parsed sides would end in, found before any computing, or None."""
    reason = game.exact_refusal(attacker, defender)
    if reason is None:
        return None
    return OddsError(f"No exact answer here: {reason}. Monte Carlo answers instead.", token=game.id,
                     example=example(method="monte-carlo"))  # fmt: skip


def odds(
    game: Game | str, attacker: Any, defender: Any, *, method: str = "auto", trials: int = DEFAULT_TRIALS,
    seed: int = 1, **options: object,
) -> Odds:  # fmt: skip
    """The odds of one procedure; ``method`` "auto" is exact where the game has an exact solver."""
    chosen = game if isinstance(game, Game) else get_game(game)
    if method not in METHODS:
        raise OddsError(f"The method is one of {', '.join(METHODS)}, not {method!r}.", token=method,
                        example=example(method="exact"))  # fmt: skip
    if not 1 <= trials <= MAX_TRIALS:
        raise OddsError(f"Trials run from 1 to {MAX_TRIALS}, not {trials}.", token=str(trials),
                        example=example(trials=20000))  # fmt: skip
    checked = validate_options(chosen.options, options)
    attacker_side = chosen.parse_side(attacker) if isinstance(attacker, str) else attacker
    defender_side = chosen.parse_side(defender) if isinstance(defender, str) else defender
    refused = exact_refusal(chosen, attacker_side, defender_side) if method == "exact" else None
    if refused is not None:
        raise refused
    why = ""
    if method != "monte-carlo":
        try:
            exact = chosen.exact_odds(attacker_side, defender_side, checked)
        except NotExact as reason:
            if method == "exact":
                raise OddsError(f"No exact answer here: {reason}. Monte Carlo answers instead.",
                                token=chosen.id, example=example(method="monte-carlo")) from None  # fmt: skip
            why = f"Not exact because {reason}."
        else:
            if exact is not None:
                return exact
    answer = None
    try:
        answer = chosen.sampled_odds(attacker_side, defender_side, checked, trials=trials, seed=seed)
    except NotExact as reason:
        why = why or f"Not exact because {reason}."
    if answer is None:
        answer = monte_carlo(chosen, attacker_side, defender_side, checked, trials=trials, seed=seed)
    return replace(answer, notes=(*answer.notes, why)) if why else answer


__all__ = ["DEFAULT_TRIALS", "MAX_TRIALS", "METHODS", "NotExact", "Odds", "OddsError", "exact_refusal",
           "loser_breaks", "odds", "wilson"]  # fmt: skip
