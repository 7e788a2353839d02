"""Monte Carlo odds of a 40K assault, vectorised: many trials at once through the exact solver's model.

The exact solver (``rules_core.games.wh40k.odds``) reduces the referee's procedure to small unit states and the law of
each step; this samples those same laws for ``trials`` fights at once with NumPy instead of summing over every
branch. It is for what the exact calculation covers but would take too long (big units of several multi-wound
groups, whose states multiply), and it is fast: every trial lives as a pair of state numbers, and each step
draws all the trials' dice at once, grouped by the few distinct states they are in. When a unit could be in more
than MAX_SIDE_STATES states (many groups of multi-wound models), nearly every trial reaches states of its own,
each worked out in Python, and the referee itself is the faster to sample: ``sample`` then declines.

Each step samples exactly what the referee rolls, with the probabilities the exact solver uses: the charge, the
regroup test of a defender assaulted while falling back, the unsaved wounds of every pool (binomial), their
allocation, the Leadership test, the fall back and the sweeping advance. The answer says it is Monte Carlo, with
its trials and 95% intervals. The trials run in the batches of ``rules_core.odds.budget`` (so the arrays stay a
few MB whatever the number of trials, and a time limit stops them), the batch from trial ``i`` drawn from seed
``seed + i``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from rules_core.games.wh40k.aftermath import FALL_BACK_DICE, FAST_FALL_BACK_DICE
from rules_core.games.wh40k.engine import Outcome
from rules_core.games.wh40k.odds import SaveType, SideState, Solver, pools_of, state_bound, why_not_exact
from rules_core.games.wh40k.spec import GAME_ID, Side
from rules_core.odds.budget import batches
from rules_core.odds.model import NotExact, Odds
from rules_core.odds.montecarlo import Tally
from rules_core.options import OptionValue

Ints = npt.NDArray[np.int64]


class Registry:
    """Each side's states as numbers, so that a trial is two integers."""

    def __init__(self) -> None:
        self.ids: dict[SideState, int] = {}
        self.states: list[SideState] = []

    def id(self, state: SideState) -> int:
        known = self.ids.get(state)
        if known is None:
            known = self.ids[state] = len(self.states)
            self.states.append(state)
        return known


def groups(keys: Ints) -> list[tuple[int, Ints]]:
    """The distinct values of ``keys``, each with the positions holding it (none for no keys)."""
    if not len(keys):
        return []  # a few trials can leave no fight at a stage; np.r_[True, ...] would invent a group
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(keys)]
    return [(int(ordered[start]), order[start:end]) for start, end in zip(starts, ends, strict=True)]


class Sampler:
    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> None:
        self.solver = Solver(attacker, defender, options)
        self.attacker, self.defender, self.options = attacker, defender, options
        self.registries = (Registry(), Registry())
        self.tables: dict[tuple[int, int, SaveType, int], tuple[Ints, Ints]] = {}
        self.unregrouped = 0  # trials whose defender failed to regroup while falling back

    def table(self, side: int, state_id: int, save_type: SaveType, most: int) -> tuple[Ints, Ints]:
        """For 0..most unsaved wounds on this state: the state numbers after, and the wounds inflicted."""
        key = (side, state_id, save_type, most)
        known = self.tables.get(key)
        if known is None:
            registry = self.registries[side]
            chain = self.solver.fighters[side].allocations(registry.states[state_id], save_type, most)[: most + 1]
            known = self.tables[key] = (
                np.array([registry.id(after) for after, _ in chain], dtype=np.int64),
                np.array([inflicted for _, inflicted in chain], dtype=np.int64),
            )
        return known

    def run(self, trials: int, seed: int) -> Tally:
        """One batch of ``trials`` fights from ``seed``."""
        rng = np.random.default_rng(seed)
        solver = self.solver
        fighters = solver.fighters
        fights, charged = solver.charge()
        reached = rng.random(trials) < fights if 0 < fights < 1 else np.full(trials, fights > 0)
        fought = reached
        unregrouped = solver.unregrouped(charged)  # assaulted while falling back: destroyed before the fight
        if unregrouped:
            fought = reached & (rng.random(trials) >= unregrouped)
        self.unregrouped = int(np.count_nonzero(reached)) - int(np.count_nonzero(fought))
        n = int(fought.sum())
        ids = [np.full(n, self.registries[side].id(fighters[side].start), dtype=np.int64) for side in (0, 1)]
        tallies = [np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)]
        steps = pools_of(self.attacker, self.defender, self.options, charged)  # the referee's checks, always
        for strikes in steps if n else []:
            start = [ids[0].copy(), ids[1].copy()]
            width = len(self.registries[1].states) + 1
            pairs = groups(start[0] * width + start[1])
            for strike in strikes:
                if not strike.profile.attacks:
                    continue
                target = 1 - strike.side
                attacks = np.zeros(n, dtype=np.int64)
                chance = np.zeros(n)
                saves: list[SaveType] = []
                save_index = np.zeros(n, dtype=np.int64)
                for key, where in pairs:
                    states = (self.registries[0].states[key // width], self.registries[1].states[key % width])
                    models = states[strike.side][strike.group][strike.role]
                    if not models or not fighters[target].alive(states[target]):
                        continue
                    p, save_type = solver.chance(strike, fighters[target].snapshot(states[target]), fighters[target])
                    attacks[where] = models * strike.profile.attacks
                    chance[where] = p
                    if save_type not in saves:
                        saves.append(save_type)
                    save_index[where] = saves.index(save_type)
                unsaved = rng.binomial(attacks, chance)
                hit = np.flatnonzero(unsaved > 0)
                if not len(hit):
                    continue
                current = ids[target][hit]
                for key, where in groups(current * len(saves) + save_index[hit]):
                    rows = hit[where]
                    most = int(unsaved[rows].max())
                    after, inflicted = self.table(target, key // len(saves), saves[key % len(saves)], most)
                    ids[target][rows] = after[unsaved[rows]]
                    tallies[strike.side][rows] += inflicted[unsaved[rows]]
        return self.finish(rng, trials, ids, tallies)

    def finish(self, rng: np.random.Generator, trials: int, ids: list[Ints], tallies: list[Ints]) -> Tally:
        """The result, the Leadership test, the fall back and the sweeping advance, for every trial at once."""
        solver, fighters = self.solver, self.solver.fighters
        alive = [np.array([fighters[s].alive(state) for state in self.registries[s].states], dtype=np.int64)[ids[s]]
                 for s in (0, 1)]  # fmt: skip
        a_left, d_left = alive
        winner = np.where((a_left == 0) & (d_left == 0), 2, np.where(d_left == 0, 0, np.where(a_left == 0, 1,
                          np.where(tallies[0] > tallies[1], 0, np.where(tallies[1] > tallies[0], 1, 2)))))  # fmt: skip
        outcome = np.full(len(winner), -1, dtype=np.int64)  # indexes NAMES
        outcome[winner == 2] = np.where((a_left == 0) & (d_left == 0), BOTH_DESTROYED, DRAWN)[winner == 2]
        loser_left = np.where(winner == 0, d_left, a_left)
        decided = winner < 2
        outcome[decided & (loser_left == 0)] = DESTROYED
        testing = np.flatnonzero(decided & (loser_left > 0))
        per_wound = self.options.get("morale_modifier") == "per_wound"
        margin = np.abs(tallies[0] - tallies[1])
        hold = np.zeros(len(winner))
        fast = np.zeros(len(winner), dtype=bool)
        for side in (0, 1):
            rows = testing[winner[testing] == 1 - side]
            for key, where in groups(ids[side][rows]):
                state = self.registries[side].states[key]
                at = rows[where]
                ld = fighters[side].highest_leadership(state)
                hold[at] = [solver.holds(ld - (int(m) if per_wound else 0)) for m in margin[at]]
                fast[at] = fighters[side].falls_back_fast(state)
        held = testing[rng.random(len(testing)) < hold[testing]]
        outcome[held] = HELD
        fled = np.setdiff1d(testing, held, assume_unique=True)
        outcome[fled] = FELL_BACK
        catches = solver.catches()
        chance = np.where(fast[fled], catches[FAST_FALL_BACK_DICE], catches[FALL_BACK_DICE])
        caught = fled[rng.random(len(fled)) < chance]
        for side in (0, 1):  # the loser's side
            rows = caught[winner[caught] == 1 - side]
            width = len(self.registries[side].states) + 1
            for key, where in groups(ids[1 - side][rows] * width + ids[side][rows]):
                winning = self.registries[1 - side].states[key // width]
                victim = self.registries[side].states[key % width]
                counts, law, _ = solver.sweep(1 - side, winning, victim)
                lost = np.array(counts[: len(law)], dtype=np.int64)
                bounds = np.cumsum(law)
                at = rows[where]
                drawn = lost[np.minimum(np.searchsorted(bounds, rng.random(len(at)) * bounds[-1], side="right"),
                                        len(lost) - 1)]  # fmt: skip
                alive[side][at] = fighters[side].initial - drawn
                outcome[at[drawn == fighters[side].initial]] = DESTROYED
        broke = int(np.count_nonzero(decided & (loser_left == 0))) + len(fled) + self.unregrouped
        return self.tally(trials, winner, outcome, alive, breaks=broke)

    def tally(self, trials: int, winner: Ints, outcome: Ints, alive: list[Ints], *, breaks: int) -> Tally:
        """The batch's counts (those of fights that never happened included)."""
        fighters = self.solver.fighters
        gone = self.unregrouped  # failed to regroup while falling back: the attacker wins, the defender is destroyed
        skipped = trials - len(winner) - gone
        wins = np.bincount(winner, minlength=3)
        wins[0] += gone
        kinds = np.bincount(outcome, minlength=len(NAMES))
        kinds[DESTROYED] += gone
        counted = Tally(trials=trials, broke=breaks)
        for side, row in ((0, counted.attacker_lost), (1, counted.defender_lost)):
            lost = np.bincount(fighters[side].initial - alive[side], minlength=fighters[side].initial + 1)
            lost[0] += skipped
            lost[0 if side == 0 else fighters[side].initial] += gone
            row.update({count: int(number) for count, number in enumerate(lost) if number})
        counted.winners.update({"attacker": int(wins[0]), "defender": int(wins[1]), "draw": int(wins[2]),
                                "none": skipped})  # fmt: skip
        counted.outcomes.update({name: int(kinds[index]) for index, name in enumerate(NAMES) if kinds[index]})
        if skipped:
            counted.outcomes[Outcome.NO_CHARGE.value] = skipped
        return counted


NAMES = (Outcome.DRAWN.value, Outcome.BOTH_DESTROYED.value, Outcome.DESTROYED.value, Outcome.HELD.value,
         Outcome.FELL_BACK.value)  # fmt: skip
DRAWN, BOTH_DESTROYED, DESTROYED, HELD, FELL_BACK = range(len(NAMES))


MAX_SIDE_STATES = 1_000_000  # beyond this bound on one unit's states, the referee itself is faster to sample


def sample(attacker: Side, defender: Side, options: Mapping[str, OptionValue], *, trials: int, seed: int) -> Odds:
    reason = why_not_exact(attacker, defender)
    if reason is not None:
        raise NotExact(reason)
    for name, side in (("attacker", attacker), ("defender", defender)):
        states = state_bound(side.units[0])
        if states > MAX_SIDE_STATES:  # every trial would reach states of its own, each worked out in Python
            raise NotExact(f"the {name}'s unit could be in {states:,} states (the sampled model takes "
                           f"{MAX_SIDE_STATES:,}), so the referee itself is sampled")  # fmt: skip
    sampler = Sampler(attacker, defender, options)
    tally = Tally()
    for first, size in batches(trials):  # each batch from its own seed: a few MB of arrays at a time
        tally.add(sampler.run(size, seed + first))
    return tally.odds(GAME_ID, f"Monte Carlo: {tally.trials} fights sampled with NumPy (the batch from trial i "
                               f"drawn from seed {seed} + i) from the exact calculation's model of the referee; "
                               "each probability has a 95% confidence interval.")  # fmt: skip


__all__ = ["MAX_SIDE_STATES", "Sampler", "sample"]
