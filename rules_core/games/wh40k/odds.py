"""Exact odds of a 40K assault: the referee's procedure (rules_core.games.wh40k.engine), with every dice roll
replaced by its probability distribution.
Long because it is one model that must agree with the referee term by term: the compact unit states, wound
allocation as allocation.py places it, the strike steps in the referee's own order, and the result, morale and
sweeping-advance tail; its sampled twin (odds_sampled.py) reuses every piece.

Covered exactly: one unit a side, of any number of groups (profiles, weapons, engaged, supporting and
out-of-reach models, multi-wound models), and every option. Several units a side, or force weapons (their
psychic tests slay particular models), are answered by Monte Carlo through the referee instead (``NotExact``).

Why it is small: every attack of a strike is an independent chain of dice (to hit, rending 6s, to wound with
its re-rolls, the save the target's majority allows), so the unsaved wounds of ``n`` attacks are binomial, and a
unit's state is, per group, the models alive in base contact and within 2" plus its one partly wounded model
(the referee allocates each batch one model at a time, wounded models first, so no group ever holds two).
- the charge (certain, impossible, or the 2D6-pick-highest roll through difficult terrain);
- a defender assaulted while falling back: its regroup test, a failure destroying it before the fight;
- strike steps in the referee's order (its own pools: Initiative, power fists, cover and grenades), each
  simultaneous step with its attacks counted and its majorities fixed at the start, wounds allocated as the
  referee does, only wounds actually inflicted counting towards the result;
- the result, the loser's Leadership test, the fall-back roll, and the sweeping advance with its automatic hits.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules_core.dice import SeededDice
from rules_core.games.wh40k.aftermath import FALL_BACK_DICE, FAST_FALL_BACK_DICE
from rules_core.games.wh40k.choosing import choose_weapons, p_unsaved
from rules_core.games.wh40k.engine import MAX_CHARGE, Assault, Outcome
from rules_core.games.wh40k.majorities import TargetSnapshot, choose_save_type, majority, majority_ws
from rules_core.games.wh40k.spec import (
    BIKE,
    DIES_FIRST,
    DIES_LAST,
    FORCE_WEAPON,
    GAME_ID,
    JUMP_PACK,
    USED_PSYCHIC_POWER,
    Group,
    Side,
    Unit,
)
from rules_core.games.wh40k.state import Pool, Role
from rules_core.games.wh40k.weapons import AttackProfile, engaged_profile
from rules_core.odds.budget import check
from rules_core.odds.laws import binomial, sum_d6, two_d6
from rules_core.odds.model import NotExact, Odds, exact_odds
from rules_core.options import OptionValue
from rules_core.report import SideName

SaveType = tuple[int | None, int | None]
# A group's changing state: (alive in base contact, alive within 2", wounds left on its partly wounded model or
# 0 when none is, that model's role). Models out of reach are never hit, so their number never changes.
GroupState = tuple[int, int, int, int]
SideState = tuple[GroupState, ...]


MAX_STATES = 200_000  # beyond this bound on the pairs of unit states, the model is sampled instead


def why_not_exact(attacker: Side, defender: Side) -> str | None:
    """Why the model cannot take these sides (then the referee itself is sampled), or None."""
    for name, side in (("attacker", attacker), ("defender", defender)):
        if len(side.units) != 1:
            return f"the {name} has {len(side.units)} units (exact odds cover one unit a side)"
        if any(FORCE_WEAPON in group.keywords and USED_PSYCHIC_POWER not in group.keywords
               for group in side.units[0].groups):  # fmt: skip
            return f"the {name} has force weapons, whose psychic tests slay particular models"
    return None


def state_bound(unit: Unit) -> int:
    """At most how many states the unit can be in: per group, the models alive in each role, and which role
    and how many wounds its one partly wounded model has."""
    bound = 1
    for group in unit.groups:
        bound *= (group.engaged + 1) * (group.supporting + 1) * (1 + 2 * (group.profile.w - 1))
    return bound


@dataclass(frozen=True, slots=True)
class Snapshot:
    ws: int
    t: int
    save_counts: tuple[tuple[SaveType, int], ...]


class _View:
    """What the referee's save-choice reads of a unit (its label and tie choices)."""

    __slots__ = ("label", "unit")

    def __init__(self, unit: Unit, label: str) -> None:
        self.unit = unit
        self.label = label


class Fighter:
    """One side's unit: what stays fixed about it, and the referee's rules over its compact states."""

    def __init__(self, unit: Unit, label: str, *, ws_over_half: bool = False) -> None:
        self.unit = unit
        self.ws_over_half = ws_over_half
        self.view = _View(unit, label)
        self.groups: tuple[Group, ...] = unit.groups
        self.out = tuple(group.out_of_fight for group in unit.groups)
        self.initial = unit.models
        self.start: SideState = tuple((group.engaged, group.supporting, 0, 0) for group in unit.groups)
        priorities = tuple(0 if DIES_FIRST in g.keywords else 2 if DIES_LAST in g.keywords else 1 for g in self.groups)
        self.priorities = priorities
        self.fast = tuple(BIKE in g.keywords or JUMP_PACK in g.keywords for g in self.groups)
        self.placed: dict[tuple[SideState, SaveType], SideState | None] = {}
        self.chains: dict[tuple[SideState, SaveType], list[tuple[SideState, int]]] = {}
        self.counts: dict[SideState, tuple[int, int]] = {}
        self.reaches: dict[SideState, tuple[int, ...]] = {}
        self.losses: dict[tuple[SideState, SaveType], list[int]] = {}
        self.survivors: dict[tuple[SideState, SaveType], list[int]] = {}
        self.snapshots: dict[SideState, Snapshot] = {}

    def alive(self, state: SideState) -> int:
        return self.count(state)[0]

    def count(self, state: SideState) -> tuple[int, int]:
        """(models alive, models alive in reach)."""
        known = self.counts.get(state)
        if known is None:
            in_zone = sum(engaged + supporting for engaged, supporting, _, _ in state)
            known = self.counts[state] = (in_zone + sum(self.out), in_zone)
        return known

    def group_alive(self, state: SideState, index: int) -> int:
        return state[index][0] + state[index][1] + self.out[index]

    def reach(self, state: SideState) -> tuple[int, ...]:
        """Per group, the models in base contact or within 2"."""
        known = self.reaches.get(state)
        if known is None:
            known = self.reaches[state] = tuple(engaged + supporting for engaged, supporting, _, _ in state)
        return known

    def in_zone(self, state: SideState) -> int:
        return self.count(state)[1]

    def snapshot(self, state: SideState) -> Snapshot:
        """majorities.snapshot: majorities over the living models, in group order."""
        known = self.snapshots.get(state)
        if known is None:
            known = self.snapshots[state] = self._snapshot(state)
        return known

    def _snapshot(self, state: SideState) -> Snapshot:
        ws: Counter[int] = Counter()
        t: Counter[int] = Counter()
        saves: Counter[SaveType] = Counter()
        for index, group in enumerate(self.groups):
            alive = self.group_alive(state, index)
            if alive:
                ws[group.profile.ws] += alive
                t[group.profile.t] += alive
                saves[group.profile.save_type] += alive
        chosen_ws, _ = majority_ws(ws, over_half=self.ws_over_half)
        chosen_t, tied = majority(t, on_tie="highest")
        if tied and self.unit.tie_t in tied:
            chosen_t = self.unit.tie_t
        return Snapshot(chosen_ws, chosen_t, tuple(saves.items()))

    def save_type(self, snap: Snapshot, profile: AttackProfile) -> SaveType:
        target = TargetSnapshot(snap.ws, snap.t, None, snap.save_counts)
        chosen, _ = choose_save_type(target, self.view, profile)  # type: ignore[arg-type]  # reads label, unit
        return chosen

    def highest_leadership(self, state: SideState) -> int:
        if len(self.groups) == 1:
            return self.groups[0].profile.ld
        return max(g.profile.ld for index, g in enumerate(self.groups) if self.group_alive(state, index))

    def falls_back_fast(self, state: SideState) -> bool:
        if len(self.groups) == 1:
            return self.fast[0]
        return all(fast for index, fast in enumerate(self.fast) if self.group_alive(state, index))

    def wound_one(self, state: SideState, save_type: SaveType) -> SideState | None:
        """One unsaved wound placed as allocation.allocate places it (None: no model left in reach).

        A batch of ``n`` wounds ends where ``n`` batches of one would: the referee takes wounded models first, so
        the model a batch is working on stays its best choice until it dies.
        """
        key = (state, save_type)
        if key in self.placed:
            return self.placed[key]
        best: tuple[Any, ...] | None = None
        for index, (engaged, supporting, left, role) in enumerate(state):
            group = self.groups[index]
            mismatch = 0 if group.profile.save_type == save_type else 1
            rank = (mismatch, self.priorities[index])
            if left:
                key_w = (*rank, 0, int(role == Role.ENGAGED), -group.count, index, role)
                if best is None or key_w < best:
                    best = key_w
            for kind, count in ((Role.SUPPORTING, supporting), (Role.ENGAGED, engaged)):
                if count - (1 if left and role == kind else 0) > 0:
                    key_u = (*rank, 1, int(kind == Role.ENGAGED), -group.count, index, kind)
                    if best is None or key_u < best:
                        best = key_u
                    break
        placed: SideState | None = None
        if best is not None:
            wounded, index, role = best[2] == 0, best[5], best[6]
            groups = list(state)
            engaged, supporting, left, wounded_role = groups[index]
            counts = [engaged, supporting]
            if wounded:
                if left == 1:  # it dies
                    counts[wounded_role] -= 1
                    left = wounded_role = 0
                else:
                    left -= 1
            elif self.groups[index].profile.w == 1:  # it dies
                counts[role] -= 1
            else:  # it is now the group's partly wounded model (the only one: wounded models are taken first)
                left, wounded_role = self.groups[index].profile.w - 1, role
            groups[index] = (counts[0], counts[1], left, wounded_role)
            placed = tuple(groups)
        self.placed[key] = placed
        return placed

    def alive_after(self, state: SideState, save_type: SaveType, most: int) -> list[int]:
        """For n = 0..most unsaved wounds: the models left alive."""
        key = (state, save_type)
        known = self.survivors.get(key)
        if known is None or len(known) <= most:
            known = self.survivors[key] = [self.alive(after) for after, _ in self.allocations(state, save_type, most)]
        return known

    def lost_after(self, state: SideState, save_type: SaveType, most: int) -> list[int]:
        """For n = 0..most unsaved wounds: the models the unit has lost in all."""
        key = (state, save_type)
        known = self.losses.get(key)
        if known is None or len(known) <= most:
            known = self.losses[key] = [self.initial - alive for alive in self.alive_after(state, save_type, most)]
        return known

    def allocations(self, state: SideState, save_type: SaveType, most: int) -> list[tuple[SideState, int]]:
        """For n = 0..most unsaved wounds: the state after, and the wounds actually inflicted."""
        key = (state, save_type)
        chain = self.chains.get(key)
        if chain is None:
            chain = self.chains[key] = [(state, 0)]
        while len(chain) <= most:
            last, inflicted = chain[-1]
            after = self.wound_one(last, save_type)
            if after is None:  # nobody left in reach: the rest are lost
                chain.extend([(last, inflicted)] * (most + 1 - len(chain)))
                break
            chain.append((after, inflicted + 1))
        return chain


@dataclass(frozen=True, slots=True)
class Strike:
    """A pool of the referee's: which side's group, in which role, with which profile, at which priority."""

    side: int  # 0 attacker, 1 defender
    group: int
    role: Role
    profile: AttackProfile


def pools_of(attacker: Side, defender: Side, options: Mapping[str, OptionValue], charged: bool) -> list[list[Strike]]:
    """The referee's own strike steps (engine.Assault.who_fights_step), as simultaneous lists in order."""
    assault = Assault(attacker, defender, options, SeededDice(0))
    assault.charge_step()  # the referee's own checks of the declaration: what it refuses, so do we
    assault.charged = charged
    pools: list[Pool] = assault.who_fights_step()
    steps: list[list[Strike]] = []
    for priority in sorted({pool.priority for pool in pools}):
        steps.append(
            [
                Strike(
                    0 if pool.unit.side is SideName.ATTACKER else 1,
                    pool.unit.groups.index(pool.group),
                    pool.role,
                    pool.profile,
                )
                for pool in pools
                if pool.priority == priority
            ]
        )
    return steps


def chosen_groups(attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> list[tuple[Group, ...]]:
    """Each side's groups as they strike: with the referee's choice of weapon where it makes one (choosing.py)."""
    assault = Assault(attacker, defender, options, SeededDice(0))
    choose_weapons(assault)
    return [tuple(state.group for state in assault.units[side][0].groups) for side in SideName]


State = tuple[SideState, SideState, int, int]  # attacker, defender, wounds inflicted by each


class Solver:
    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> None:
        self.attacker, self.defender, self.options = attacker, defender, options
        labels = (attacker.units[0].name, defender.units[0].name)
        over_half = options.get("ws_majority") == "over_half"
        self.fighters = (
            Fighter(attacker.units[0], labels[0], ws_over_half=over_half),
            Fighter(defender.units[0], labels[1], ws_over_half=over_half),
        )
        self.chances: dict[tuple[Any, ...], tuple[float, SaveType]] = {}
        self.sweeps: dict[tuple[Any, ...], tuple[list[int], tuple[float, ...], float]] = {}
        self.passes: dict[int, float] = {}
        traits = options.get("weapon_traits") == "traits"
        self.sweepers = tuple(
            tuple(Strike(side, index, Role.ENGAGED, engaged_profile(group, charged=False, sweep=True, traits=traits))
                  for index, group in enumerate(groups))
            for side, groups in enumerate(chosen_groups(attacker, defender, options))
        )  # fmt: skip

    def chance(self, strike: Strike, snap: Snapshot, target: Fighter, *, sweep: bool = False) -> tuple[float, SaveType]:
        key = (strike, snap, sweep)
        known = self.chances.get(key)
        if known is None:
            save_type = target.save_type(snap, strike.profile)
            known = self.chances[key] = (p_unsaved(strike.profile, snap.ws, snap.t, save_type, sweep=sweep), save_type)
        return known

    def step(self, dist: dict[State, float], strikes: list[Strike]) -> dict[State, float]:
        out: dict[State, float] = defaultdict(float)
        for state, p in dist.items():
            check()  # past its deadline, the calculation gives way to Monte Carlo
            sides = (state[0], state[1])
            models = [sides[s.side][s.group][s.role] for s in strikes]
            snaps = [
                fighter.snapshot(sides[index]) if fighter.alive(sides[index]) else None
                for index, fighter in enumerate(self.fighters)
            ]
            branch: dict[State, float] = {state: p}
            for strike, count in zip(strikes, models, strict=True):
                if not count or not strike.profile.attacks:
                    continue
                target_index = 1 - strike.side
                snap = snaps[target_index]
                if snap is None:
                    continue
                target = self.fighters[target_index]
                chance, save_type = self.chance(strike, snap, target)
                law = binomial(count * strike.profile.attacks, chance)
                following: dict[State, float] = defaultdict(float)
                for current, q in branch.items():
                    victim: SideState = current[1] if target_index else current[0]
                    if not target.in_zone(victim):
                        following[current] += q
                        continue
                    chain = target.allocations(victim, save_type, len(law) - 1)
                    for (after, inflicted), r in zip(chain, law, strict=False):
                        if not r:
                            continue
                        if target_index == 1:
                            nxt = (current[0], after, current[2] + inflicted, current[3])
                        else:
                            nxt = (after, current[1], current[2], current[3] + inflicted)
                        following[nxt] += q * r
                branch = following
            for current, q in branch.items():
                out[current] += q
        return out

    def sweep(self, winner: int, winning: SideState, victim: SideState) -> tuple[list[int], tuple[float, ...], float]:
        """The sweeping advance's automatic hits on the fleeing unit (aftermath.sweeping_advance_step): the models
        it may have lost in all, their probabilities, and P(none left)."""
        target = self.fighters[1 - winner]
        reach = self.fighters[winner].reach(winning)
        key = (winner, reach, victim)
        known = self.sweeps.get(key)
        if known is not None:
            return known
        snap = target.snapshot(victim)
        left: dict[int, float] = defaultdict(float)
        sweepers = self.sweepers[winner]
        active = [index for index, models in enumerate(reach) if models and sweepers[index].profile.attacks]
        if len(active) == 1 and target.in_zone(victim):  # the common case, without the intermediate states
            strike = self.sweepers[winner][active[0]]
            chance, save_type = self.chance(strike, snap, target, sweep=True)
            law = binomial(reach[active[0]] * strike.profile.attacks, chance)
            alive = target.alive_after(victim, save_type, len(law) - 1)
            wiped = sum(law[alive.index(0) :]) if alive[len(law) - 1] == 0 else 0.0
            known = self.sweeps[key] = (target.lost_after(victim, save_type, len(law) - 1), law, wiped)
            return known
        branch = {victim: 1.0}
        for index, models in enumerate(reach):
            strike = self.sweepers[winner][index]
            if not models or not strike.profile.attacks:
                continue
            chance, save_type = self.chance(strike, snap, target, sweep=True)
            law = binomial(models * strike.profile.attacks, chance)
            following: dict[SideState, float] = defaultdict(float)
            for current, q in branch.items():
                check()  # past its deadline, the calculation gives way to Monte Carlo
                if not target.in_zone(current):
                    following[current] += q
                    continue
                chain = target.allocations(current, save_type, len(law) - 1)
                for (after, _), r in zip(chain, law, strict=False):
                    if r:
                        following[after] += q * r
            branch = following
        for after, q in branch.items():
            left[target.initial - target.alive(after)] += q
        known = self.sweeps[key] = (list(left), tuple(left.values()), left.get(target.initial, 0.0))
        return known

    def holds(self, target: int) -> float:
        """P(the loser passes its Leadership test of 2D6 <= ``target``)."""
        known = self.passes.get(target)
        if known is None:
            double_one = bool(self.options.get("double_one_passes"))
            known = self.passes[target] = sum(
                1 / 36 for first, second in _PAIRS if first + second <= target or (double_one and first == second == 1)
            )
        return known

    def charge(self) -> tuple[float, bool]:
        """(P(the fight happens), whether the attacker charged): certain, impossible, or through difficult
        terrain the highest of 2D6 against the distance; in a later round, only a unit joining it charges."""
        if int(self.options.get("round") or 1) > 1 and not any(unit.charged for unit in self.attacker.units):
            return 1.0, False
        distance = self.options.get("charge_distance")
        if distance is not None and float(distance) > MAX_CHARGE:
            return 0.0, True
        if distance is not None and self.options.get("difficult_terrain"):
            need = max(1, math.ceil(float(distance)))
            return sum(p for best, p in two_d6(max).items() if best >= need), True
        return 1.0, True

    def unregrouped(self, charged: bool) -> float:
        """P(the defender, assaulted while falling back, fails its regroup test: 2D6 <= its highest Ld, no
        modifiers) and is destroyed (engine.Assault.regroup_step); 0 when it was not falling back."""
        if not charged or not self.options.get("defender_falling_back") or int(self.options.get("round") or 1) > 1:
            return 0.0
        return 1 - self.holds(max(group.profile.ld for group in self.fighters[1].groups))

    def catches(self) -> dict[int, float]:
        """P(the sweeping advance's 2D6 beats the fall-back roll), by the fall-back dice."""
        return {dice: sum(q * _P_2D6_ABOVE[rolled] for rolled, q in sum_d6(dice).items())
                for dice in (FALL_BACK_DICE, FAST_FALL_BACK_DICE)}  # fmt: skip

    def solve(self) -> Odds:
        options = self.options
        attacker_f, defender_f = self.fighters
        fights, charged = self.charge()
        winners: dict[str, float] = defaultdict(float)
        outcomes: dict[str, float] = defaultdict(float)
        lost = ([0.0] * (self.fighters[0].initial + 1), [0.0] * (self.fighters[1].initial + 1))
        breaks = 0.0
        if fights < 1.0:
            winners["none"] += 1 - fights
            outcomes[Outcome.NO_CHARGE.value] += 1 - fights
            lost[0][0] += 1 - fights
            lost[1][0] += 1 - fights
        steps = pools_of(self.attacker, self.defender, options, charged) if fights > 0.0 else []  # its checks too
        unregrouped = self.unregrouped(charged) * fights
        if unregrouped:  # assaulted while falling back: failed to regroup, destroyed before a blow is struck
            winners["attacker"] += unregrouped
            outcomes[Outcome.DESTROYED.value] += unregrouped
            lost[0][0] += unregrouped
            lost[1][defender_f.initial] += unregrouped
            breaks += unregrouped
        fights -= unregrouped
        if fights > 0.0:
            dist: dict[State, float] = {(attacker_f.start, defender_f.start, 0, 0): fights}
            for strikes in steps:
                dist = self.step(dist, strikes)
            per_wound = options.get("morale_modifier") == "per_wound"
            catches = self.catches()
            destroyed, fell_back, held = Outcome.DESTROYED.value, Outcome.FELL_BACK.value, Outcome.HELD.value
            for (a_state, d_state, a_tally, d_tally), p in dist.items():
                check()  # past its deadline, the calculation gives way to Monte Carlo
                a_left, d_left = attacker_f.alive(a_state), defender_f.alive(d_state)
                if not a_left or not d_left or a_tally == d_tally:
                    winner = "draw" if not a_left and not d_left else (
                        "attacker" if not d_left else "defender" if not a_left else "draw")  # fmt: skip
                else:
                    winner = "attacker" if a_tally > d_tally else "defender"
                winners[winner] += p
                if winner == "draw":
                    outcome = Outcome.BOTH_DESTROYED if not a_left and not d_left else Outcome.DRAWN
                    outcomes[outcome.value] += p
                    lost[0][attacker_f.initial - a_left] += p
                    lost[1][defender_f.initial - d_left] += p
                    continue
                win, lose = (0, 1) if winner == "attacker" else (1, 0)
                winning, losing = (a_state, d_state) if win == 0 else (d_state, a_state)
                loser_f = self.fighters[lose]
                left = d_left if lose == 1 else a_left
                lost[win][self.fighters[win].initial - (a_left if win == 0 else d_left)] += p
                if not left:
                    outcomes[destroyed] += p
                    breaks += p
                    lost[lose][loser_f.initial] += p
                    continue
                margin = abs(a_tally - d_tally)
                passed = self.holds(loser_f.highest_leadership(losing) - (margin if per_wound else 0))
                failed = p * (1 - passed)
                if passed:
                    outcomes[held] += p * passed
                    lost[lose][loser_f.initial - left] += p * passed
                if not failed:
                    continue
                breaks += failed
                caught = catches[FAST_FALL_BACK_DICE if loser_f.falls_back_fast(losing) else FALL_BACK_DICE]
                outcomes[fell_back] += failed * (1 - caught)
                lost[lose][loser_f.initial - left] += failed * (1 - caught)
                if caught:
                    counts, law, wiped = self.sweep(win, winning, losing)
                    weight = failed * caught
                    outcomes[destroyed] += weight * wiped
                    outcomes[fell_back] += weight * (1 - wiped)
                    row = lost[lose]
                    for count, q in zip(counts, law, strict=False):
                        row[count] += weight * q
        return exact_odds(
            GAME_ID, winners, outcomes, lost[0], lost[1], breaks=breaks,
            note="Exact: every roll of the referee's procedure replaced by its probability distribution (one round: "
            "charge, strikes in order, result, Leadership, fall back and sweeping advance).",
        )  # fmt: skip


_PAIRS = tuple((first, second) for first in range(1, 7) for second in range(1, 7))
# P(2D6 > n): the sweeping advance must beat the fall-back roll.
_P_2D6_ABOVE = {n: sum(1 for a, b in _PAIRS if a + b > n) / 36 for n in range(0, 19)}


def refusal(attacker: Side, defender: Side) -> str | None:
    """Why the exact solver will not take these sides (out of its model, or too many states), or None."""
    reason = why_not_exact(attacker, defender)
    if reason is not None:
        return reason
    bound = state_bound(attacker.units[0]) * state_bound(defender.units[0])
    if bound > MAX_STATES:
        return (f"the calculation could have to follow {bound:,} pairs of unit states (the limit is "
                f"{MAX_STATES:,}): its model is sampled instead")  # fmt: skip
    return None


def exact(attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> Odds:
    reason = refusal(attacker, defender)
    if reason is not None:
        raise NotExact(reason)
    return Solver(attacker, defender, options).solve()


__all__ = ["MAX_STATES", "exact", "refusal", "state_bound", "why_not_exact"]
