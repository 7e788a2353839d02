"""Odds by Monte Carlo through the referee itself: the real engine, resolved again and again from known seeds.

Slower than an exact answer but right by construction (it is the referee), for every game and every input, so
it is the fallback wherever no exact calculation exists or the state space is too large. Seeds run from
``seed`` upwards: the same call gives the same answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules_core.dice import SeededDice
from rules_core.odds.model import Odds, distribution, wilson
from rules_core.registry import Game
from rules_core.report import Report, SideResult, Winner

DEFAULT_TRIALS = 10_000
MAX_TRIALS = 1_000_000


def loser_breaks(report: Report) -> bool:
    """Whether there is a loser and it broke, fled, fell back or was destroyed, as its report says.

    A side breaks if it has nothing left, or its result says ``broken`` or ``destroyed``, or it failed a morale
    test (40K: a ``morale`` entry with ``passed`` false).
    """
    winner = report.result.winner
    if winner not in (Winner.ATTACKER, Winner.DEFENDER):
        return False
    loser: SideResult = report.result.defender if winner is Winner.ATTACKER else report.result.attacker
    extra = loser.extra
    if loser.remaining == 0 or extra.get("broken") is True or extra.get("destroyed") is True:
        return True
    morale = extra.get("morale") or ()
    return any(isinstance(test, Mapping) and test.get("passed") is False for test in morale)


def monte_carlo(
    game: Game, attacker: Any, defender: Any, options: Mapping[str, Any], *, trials: int = DEFAULT_TRIALS,
    seed: int = 1,
) -> Odds:  # fmt: skip
    """``trials`` resolutions of parsed sides with validated options; the probabilities with 95% intervals."""
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be 1 to {MAX_TRIALS}")
    winners: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    attacker_lost: Counter[int] = Counter()
    defender_lost: Counter[int] = Counter()
    broke = 0
    for number in range(trials):
        report = game.resolve_sides(attacker, defender, options, SeededDice(seed + number))
        winners[report.result.winner.value] += 1
        outcomes[report.result.outcome] += 1
        attacker_lost[report.result.attacker.lost] += 1
        defender_lost[report.result.defender.lost] += 1
        broke += loser_breaks(report)
    keys = {"p_attacker_wins": winners["attacker"], "p_defender_wins": winners["defender"],
            "p_draw": winners["draw"], "p_no_winner": winners["none"], "p_loser_breaks": broke}  # fmt: skip
    return Odds(
        game=game.id,
        method="monte-carlo",
        trials=trials,
        p_attacker_wins=winners["attacker"] / trials,
        p_defender_wins=winners["defender"] / trials,
        p_draw=winners["draw"] / trials,
        p_no_winner=winners["none"] / trials,
        p_loser_breaks=broke / trials,
        outcomes={name: count / trials for name, count in sorted(outcomes.items())},
        attacker_losses=distribution(attacker_lost, trials),
        defender_losses=distribution(defender_lost, trials),
        intervals={key: wilson(count, trials) for key, count in keys.items()},
        notes=(
            f"Monte Carlo: {trials} resolutions by the referee itself (seeds {seed} to {seed + trials - 1}); "
            "each probability has a 95% confidence interval.",
        ),
    )


__all__ = ["DEFAULT_TRIALS", "MAX_TRIALS", "loser_breaks", "monte_carlo"]
