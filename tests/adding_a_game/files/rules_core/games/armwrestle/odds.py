"""The arm-wrestle's exact odds: the bouts as a Markov chain over (wrestlers left each side, bouts left)."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from rules_core.games.armwrestle.engine import GAME_ID, bonuses
from rules_core.games.armwrestle.spec import Team
from rules_core.odds.model import Odds, exact_odds

Final = tuple[int, int, str]  # (attacker left, defender left, outcome)


def bout_law(attacker_add: int, defender_add: int) -> tuple[float, float, float]:
    """P(the attacker wins a bout), P(the defender wins it), P(a tie)."""
    pairs = [(a + attacker_add, d + defender_add) for a in range(1, 7) for d in range(1, 7)]
    return (sum(a > d for a, d in pairs) / 36, sum(a < d for a, d in pairs) / 36, sum(a == d for a, d in pairs) / 36)


def exact(attacker: Team, defender: Team, options: Mapping[str, Any]) -> Odds:
    win, lose, tie = bout_law(*bonuses(attacker, defender, options))
    both_out = options["ties"] == "both_out"

    @functools.cache
    def finals(a: int, d: int, bouts: int) -> tuple[tuple[Final, float], ...]:
        if not a or not d or not bouts:
            return (((a, d, ""), 1.0),)
        law: dict[Final, float] = defaultdict(float)
        tied = (a - 1, d - 1) if both_out else (a, d)
        for (next_a, next_d), p in (((a, d - 1), win), ((a - 1, d), lose), (tied, tie)):
            for final, q in finals(next_a, next_d, bouts - 1):
                law[final] += p * q
        return tuple(law.items())

    winners: dict[str, float] = defaultdict(float)
    outcomes: dict[str, float] = defaultdict(float)
    attacker_losses = [0.0] * (attacker.count + 1)
    defender_losses = [0.0] * (defender.count + 1)
    breaks = 0.0
    for (a, d, _), p in finals(attacker.count, defender.count, int(options["bouts"])):
        if not a and not d:
            outcome, winner = "both_out", "draw"
        elif not a or not d:
            outcome, winner = "pinned", "attacker" if a else "defender"
            breaks += p
        elif attacker.count - a == defender.count - d:
            outcome, winner = "time_called", "draw"
        else:
            outcome, winner = "on_points", "attacker" if attacker.count - a < defender.count - d else "defender"
        winners[winner] += p
        outcomes[outcome] += p
        attacker_losses[attacker.count - a] += p
        defender_losses[defender.count - d] += p
    return exact_odds(GAME_ID, winners, outcomes, attacker_losses, defender_losses, breaks=breaks,
                      note="Exact: every bout's 36 pairs of dice, through every bout to the end.")  # fmt: skip
