"""What an odds calculation answers: who wins, how often the loser breaks, and the losses on each side.

The same quantities whether computed exactly or by Monte Carlo; a Monte Carlo answer also carries its number of
trials and a 95% confidence interval for every probability it prints.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal approximation)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class NotExact(Exception):
    """The request is outside what a game's exact solver covers; the reason says what, for the answer's note."""


@dataclass(frozen=True, slots=True)
class Odds:
    """The outcome distribution of one procedure for given sides and options.

    ``attacker_losses[n]`` is the probability that the attacker loses exactly ``n`` models (or units, where the
    game counts units), the same count as the report's ``lost``. ``p_loser_breaks`` is the probability that there
    is a loser and it breaks, flees, falls back or is destroyed (as opposed to holding).
    """

    game: str
    method: str  # "exact" or "monte-carlo"
    trials: int | None  # None when exact
    p_attacker_wins: float
    p_defender_wins: float
    p_draw: float
    p_no_winner: float  # the procedure never came to a fight (an assault that failed to contact)
    p_loser_breaks: float
    outcomes: Mapping[str, float]  # the report's outcome names
    attacker_losses: tuple[float, ...]
    defender_losses: tuple[float, ...]
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)  # 95%, Monte Carlo only
    notes: tuple[str, ...] = ()
    time_limit: float | None = None  # seconds, when the number of trials is what fitted in them

    def losses(self, side: str) -> tuple[float, ...]:
        return self.attacker_losses if side == "attacker" else self.defender_losses

    def expected_losses(self, side: str) -> float:
        return sum(count * p for count, p in enumerate(self.losses(side)))

    def p_at_least(self, side: str, count: int) -> float:
        """P(the side loses at least ``count``)."""
        return sum(self.losses(side)[max(0, count) :])

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "method": self.method,
            "trials": self.trials,
            "p_attacker_wins": self.p_attacker_wins,
            "p_defender_wins": self.p_defender_wins,
            "p_draw": self.p_draw,
            "p_no_winner": self.p_no_winner,
            "p_loser_breaks": self.p_loser_breaks,
            "outcomes": dict(self.outcomes),
            "attacker": {"losses": list(self.attacker_losses), "expected_losses": self.expected_losses("attacker")},
            "defender": {"losses": list(self.defender_losses), "expected_losses": self.expected_losses("defender")},
            "intervals_95": {key: list(bounds) for key, bounds in self.intervals.items()},
            "notes": list(self.notes),
            "time_limit": self.time_limit,
        }


def exact_odds(
    game: str, winners: Mapping[str, float], outcomes: Mapping[str, float], attacker_losses: Sequence[float],
    defender_losses: Sequence[float], *, breaks: float, note: str,
) -> Odds:  # fmt: skip
    """An exact answer from its laws: ``winners`` by the report's winner names (attacker, defender, draw, none),
    ``outcomes`` by outcome name (those of probability 0 left out), the losses indexed by count."""
    return Odds(
        game=game,
        method="exact",
        trials=None,
        p_attacker_wins=winners.get("attacker", 0.0),
        p_defender_wins=winners.get("defender", 0.0),
        p_draw=winners.get("draw", 0.0),
        p_no_winner=winners.get("none", 0.0),
        p_loser_breaks=breaks,
        outcomes={name: p for name, p in sorted(outcomes.items()) if p > 0},
        attacker_losses=trim(attacker_losses),
        defender_losses=trim(defender_losses),
        notes=(note,),
    )


def distribution(weights: Mapping[int, float], total: float | None = None) -> tuple[float, ...]:
    """A list indexed by count from {count: weight}, normalised by ``total`` (default: the weights' sum)."""
    whole = sum(weights.values()) if total is None else total
    size = max(weights, default=0) + 1
    return tuple(weights.get(count, 0.0) / whole for count in range(size))


def trim(values: Sequence[float]) -> tuple[float, ...]:
    """Drop trailing zeros (a count nobody reaches), keeping at least one entry."""
    end = len(values)
    while end > 1 and values[end - 1] == 0.0:
        end -= 1
    return tuple(values[:end])


__all__ = ["Z95", "NotExact", "Odds", "distribution", "exact_odds", "trim", "wilson"]
