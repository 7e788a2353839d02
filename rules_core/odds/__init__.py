"""Odds before you commit: the outcome distribution of a procedure, exact where the game has an exact solver,
otherwise by Monte Carlo through the referee itself (docs/odds.md).

``odds(game, attacker, defender, **options)`` takes exactly what ``rules_core.resolve`` takes (spec strings or
parsed sides, the game's options) and answers with an :class:`Odds`, which always says how it was computed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules_core.errors import RefereeError
from rules_core.odds import boltaction, duel, formation, wh40k, wh40k_sampled
from rules_core.odds.model import NotExact, Odds, wilson
from rules_core.odds.montecarlo import DEFAULT_TRIALS, MAX_TRIALS, loser_breaks, monte_carlo
from rules_core.options import validate_options
from rules_core.registry import Game, get_game

METHODS = ("auto", "exact", "monte-carlo")
Exact = Callable[[Any, Any, Mapping[str, Any]], Odds]
EXACT: dict[str, Exact] = {
    "40k": wh40k.exact,
    "boltaction": boltaction.exact,
    "duel": duel.exact,
    "epic": formation.exact_for("epic"),
    "reikhammer": formation.exact_for("reikhammer"),
}
# Monte Carlo that samples the exact calculation's model, vectorised: far faster than resolving through the
# referee, for what the model covers (it raises NotExact otherwise, and the referee itself is sampled).
Sampled = Callable[..., Odds]
SAMPLED: dict[str, Sampled] = {"40k": wh40k_sampled.sample}


class OddsError(RefereeError):
    """An odds request that cannot be answered as asked."""


# What each exact solver cannot take, checked without computing (a solver raises NotExact for it too).
REFUSALS: dict[str, Callable[[Any, Any], str | None]] = {
    "40k": wh40k.refusal,
    "epic": formation.refusal,
    "reikhammer": formation.refusal,
}


def exact_refusal(game: Game, attacker: Any, defender: Any) -> OddsError | None:
    """The error an exact request for these parsed sides would end in, found before any computing, or None."""
    if game.id not in EXACT:
        reason = f"there is no exact calculation for {game.title} yet"
    else:
        check = REFUSALS.get(game.id)
        found = None if check is None else check(attacker, defender)
        if found is None:
            return None
        reason = found
    return OddsError(f"No exact answer here: {reason}. Monte Carlo answers instead.", token=game.id,
                     example="--method monte-carlo")  # fmt: skip


def odds(
    game: Game | str, attacker: Any, defender: Any, *, method: str = "auto", trials: int = DEFAULT_TRIALS,
    seed: int = 1, **options: object,
) -> Odds:  # fmt: skip
    """The odds of one procedure; ``method`` "auto" is exact where the game has an exact solver."""
    chosen = game if isinstance(game, Game) else get_game(game)
    if method not in METHODS:
        raise OddsError(f"The method is one of {', '.join(METHODS)}, not {method!r}.", token=method,
                        example="--method exact")  # fmt: skip
    if not 1 <= trials <= MAX_TRIALS:
        raise OddsError(f"Trials run from 1 to {MAX_TRIALS}, not {trials}.", token=str(trials),
                        example="--trials 20000")  # fmt: skip
    checked = validate_options(chosen.options, options)
    attacker_side = chosen.parse_side(attacker) if isinstance(attacker, str) else attacker
    defender_side = chosen.parse_side(defender) if isinstance(defender, str) else defender
    solver = EXACT.get(chosen.id)
    refused = exact_refusal(chosen, attacker_side, defender_side) if method == "exact" else None
    if refused is not None:
        raise refused
    why = ""
    if solver is not None and method != "monte-carlo":
        try:
            return solver(attacker_side, defender_side, checked)
        except NotExact as reason:
            if method == "exact":
                raise OddsError(f"No exact answer here: {reason}. Monte Carlo answers instead.",
                                token=chosen.id, example="--method monte-carlo") from None  # fmt: skip
            why = f"Not exact because {reason}."
    sampler = SAMPLED.get(chosen.id)
    answer = None
    if sampler is not None:
        try:
            answer = sampler(attacker_side, defender_side, checked, trials=trials, seed=seed)
        except NotExact as reason:
            why = why or f"Not exact because {reason}."
    if answer is None:
        answer = monte_carlo(chosen, attacker_side, defender_side, checked, trials=trials, seed=seed)
    return replace(answer, notes=(*answer.notes, why)) if why else answer


__all__ = ["DEFAULT_TRIALS", "EXACT", "MAX_TRIALS", "METHODS", "NotExact", "Odds", "OddsError", "exact_refusal",
           "loser_breaks", "odds", "wilson"]  # fmt: skip
