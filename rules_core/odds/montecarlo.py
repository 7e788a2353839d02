"""Odds by Monte Carlo through the referee itself: the real engine, resolved again and again from known seeds.

Slower than an exact answer but right by construction (it is the referee), for every game and every input, so
it is the fallback wherever no exact calculation exists or the state space is too large. Trial ``i`` is
resolved from seed ``seed + i``: the same call gives the same answer. The trials run in the batches of
``rules_core.odds.budget``, which stop at the time limit when one is in force; :class:`Tally` holds the counts,
which the vectorised samplers fill in as well.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_core.dice import SeededDice
from rules_core.odds.budget import batches
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


@dataclass(slots=True)
class Tally:
    """The counts of Monte Carlo trials: who won (the report's winner names), the outcomes, each side's losses,
    and how often the loser broke. Batches add up."""

    trials: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    attacker_lost: Counter[int] = field(default_factory=Counter)
    defender_lost: Counter[int] = field(default_factory=Counter)
    broke: int = 0

    def add(self, other: Tally) -> None:
        self.trials += other.trials
        self.winners.update(other.winners)
        self.outcomes.update(other.outcomes)
        self.attacker_lost.update(other.attacker_lost)
        self.defender_lost.update(other.defender_lost)
        self.broke += other.broke

    def odds(self, game: str, note: str) -> Odds:
        """The probabilities with their 95% Wilson intervals."""
        trials, winners = self.trials, self.winners
        keys = {"p_attacker_wins": winners["attacker"], "p_defender_wins": winners["defender"],
                "p_draw": winners["draw"], "p_no_winner": winners["none"], "p_loser_breaks": self.broke}  # fmt: skip
        return Odds(
            game=game,
            method="monte-carlo",
            trials=trials,
            p_attacker_wins=winners["attacker"] / trials,
            p_defender_wins=winners["defender"] / trials,
            p_draw=winners["draw"] / trials,
            p_no_winner=winners["none"] / trials,
            p_loser_breaks=self.broke / trials,
            outcomes={name: count / trials for name, count in sorted(self.outcomes.items()) if count},
            attacker_losses=distribution(self.attacker_lost, trials),
            defender_losses=distribution(self.defender_lost, trials),
            intervals={key: wilson(count, trials) for key, count in keys.items()},
            notes=(note,),
        )


def monte_carlo(
    game: Game, attacker: Any, defender: Any, options: Mapping[str, Any], *, trials: int = DEFAULT_TRIALS,
    seed: int = 1,
) -> Odds:  # fmt: skip
    """``trials`` resolutions of parsed sides with validated options (fewer under a time limit: as many as fit);
    the probabilities with 95% intervals."""
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be 1 to {MAX_TRIALS}")
    tally = Tally()
    for first, size in batches(trials):
        for number in range(first, first + size):
            report = game.resolve_sides(attacker, defender, options, SeededDice(seed + number))
            tally.winners[report.result.winner.value] += 1
            tally.outcomes[report.result.outcome] += 1
            tally.attacker_lost[report.result.attacker.lost] += 1
            tally.defender_lost[report.result.defender.lost] += 1
            tally.broke += loser_breaks(report)
        tally.trials += size
    done = tally.trials
    return tally.odds(game.id, f"Monte Carlo: {done} resolutions by the referee itself (seeds {seed} to "
                               f"{seed + done - 1}); each probability has a 95% confidence interval.")  # fmt: skip


__all__ = ["DEFAULT_TRIALS", "MAX_TRIALS", "Tally", "loser_breaks", "monte_carlo"]
