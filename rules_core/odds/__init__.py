"""Odds before you commit: the outcome distribution of a procedure, exact where the game has an exact solver,
otherwise by Monte Carlo through the referee itself (docs/odds.md).

``odds(game, attacker, defender, **options)`` takes exactly what ``rules_core.resolve`` takes (spec strings or
parsed sides, the game's options) and answers with an :class:`Odds`, which always says how it was computed.
Each game's solvers live in its own package and are reached through its hooks (``Game.exact_odds``,
``Game.exact_refusal``, ``Game.sampled_odds``); this package holds what they share: the dice laws, the answer
type, the time budget (``budget``) and the Monte Carlo through the referee.

Every answer is bounded. With a number of ``trials`` no clock is read: the exact answer where the solver covers
the sides (each solver bounds the states it will follow), else exactly that many trials. With a ``time_limit``
instead (the front ends' default, 5 s) the exact calculation may use its share of it and otherwise gives way to
Monte Carlo, which runs as many trials as fit in the rest; the answer carries the number of trials, their
intervals and the time limit.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from rules_core.errors import RefereeError, example, given_in
from rules_core.odds import budget
from rules_core.odds.budget import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, MIN_TIME_LIMIT, OutOfTime
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


def _parsed(game: Game, side: Any, which: str) -> Any:
    """A side given as spec text, parsed; an error shows the spec back, marked and corrected where certain."""
    if not isinstance(side, str):
        return side
    try:
        return game.parse_side(side)
    except RefereeError as error:
        raise given_in(error, which, side, game.parse_side) from None


def odds(
    game: Game | str, attacker: Any, defender: Any, *, method: str = "auto", trials: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT, seed: int = 1, **options: object,
) -> Odds:  # fmt: skip
    """The odds of one procedure; ``method`` "auto" is exact where the game has an exact solver.

    ``trials`` fixes the number of Monte Carlo trials and reads no clock; without it the answer comes within
    ``time_limit`` seconds (None: no limit, and DEFAULT_TRIALS trials)."""
    started = time.monotonic()  # the time limit counts reading the sides too
    chosen = game if isinstance(game, Game) else get_game(game)
    if method not in METHODS:
        raise OddsError(f"The method is one of {', '.join(METHODS)}, not {method!r}.", token=method,
                        example=example(method="exact"))  # fmt: skip
    if trials is not None and (isinstance(trials, bool) or not isinstance(trials, int) or
                               not 1 <= trials <= MAX_TRIALS):  # fmt: skip
        raise OddsError(f"Trials run from 1 to {MAX_TRIALS}, not {trials}.", token=str(trials),
                        example=example(trials=20000))  # fmt: skip
    seconds = None if trials is not None else time_limit
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                or not MIN_TIME_LIMIT <= seconds <= MAX_TIME_LIMIT):  # fmt: skip
        raise OddsError(f"The time limit runs from {MIN_TIME_LIMIT:g} to {MAX_TIME_LIMIT:g} seconds, not "
                        f"{seconds}.", token=str(seconds), example=example(time_limit=5))  # fmt: skip
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 2**62:
        raise OddsError(f"The seed is a whole number from 0 to {2**62}, not {seed!r}.", token=str(seed),
                        example=example(seed=1))  # fmt: skip
    checked = validate_options(chosen.options, options)
    attacker_side = _parsed(chosen, attacker, "attacker")
    defender_side = _parsed(chosen, defender, "defender")
    refused = exact_refusal(chosen, attacker_side, defender_side) if method == "exact" else None
    if refused is not None:
        raise refused
    share = budget.EXACT_ALONE if method == "exact" else budget.EXACT_SHARE  # read now: tests set them
    with budget.time_limit(seconds, exact_share=share, start=started):
        why = ""
        if method != "monte-carlo":
            try:
                exact = chosen.exact_odds(attacker_side, defender_side, checked)
            except OutOfTime:
                if method == "exact":
                    raise OddsError(f"The exact calculation did not finish within the time limit of {seconds:g} s; "
                                    "Monte Carlo answers within it.",
                                    token=chosen.id, example=example(method="monte-carlo"),
                                    ) from None  # fmt: skip
                given = share * (seconds or 0.0)  # OutOfTime comes only under a time limit
                why = f"Not exact because the exact calculation did not finish within {given:g} s (its share of " \
                      "the time limit)."  # fmt: skip
            except NotExact as reason:
                if method == "exact":
                    raise OddsError(f"No exact answer here: {reason}. Monte Carlo answers instead.",
                                    token=chosen.id, example=example(method="monte-carlo")) from None  # fmt: skip
                why = f"Not exact because {reason}."
            else:
                if exact is not None:
                    return exact
        count = trials if trials is not None else MAX_TRIALS if seconds is not None else DEFAULT_TRIALS
        answer = None
        notes_before: tuple[str, ...] = ()
        try:
            answer = chosen.sampled_odds(attacker_side, defender_side, checked, trials=count, seed=seed)
        except NotExact as reason:
            sampled_why = f"Not exact because {reason}."
            if why and sampled_why != why:
                notes_before = (f"Monte Carlo through the referee because {reason}.",)
            why = why or sampled_why
        if answer is None:
            answer = monte_carlo(chosen, attacker_side, defender_side, checked, trials=count, seed=seed)
    notes = (*answer.notes, *notes_before)
    if seconds is not None:
        notes = (*notes, f"As many trials as fitted in the time limit of {seconds:g} s.")
        answer = replace(answer, time_limit=float(seconds))
    return replace(answer, notes=(*notes, why) if why else notes)


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_TRIALS",
    "MAX_TIME_LIMIT",
    "MAX_TRIALS",
    "METHODS",
    "MIN_TIME_LIMIT",
    "NotExact",
    "Odds",
    "OddsError",
    "exact_refusal",
    "loser_breaks",
    "odds",
    "wilson",
]  # fmt: skip
