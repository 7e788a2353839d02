"""Exact odds of Bolt Action close quarters: the referee's procedure (rules_core.games.boltaction.engine), with
every dice roll replaced by its probability distribution.

The procedure's state is small: for each unit, its plain men (without and with an assault weapon or Tough
Fighters), and whether its NCO and officer still stand. Every roll only matters through counts (damage
successes, how many were 6s), so each step maps a distribution over states to the next one:
- reaction fire: hits (Bin, or a 6 then a second roll), damage, exceptional damage, the morale check on 2D6;
- each round: damage rolls (Tough Fighters' extra rolls included) as a joint law of (successes, sixes), casualties
  capped at the men left and removed in the referee's order (exceptional damage takes the officer, then the NCO;
  otherwise plain men first);
- drawn rounds repeat, simultaneously, as a Markov chain, up to the referee's own limit of rounds.
The result is exact up to floating point (tests hold it to an independent oracle at 1e-9).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb

from rules_core.games.boltaction.spec import FANATICS, NCO, OFFICER, TOUGH_FIGHTERS, Unit
from rules_core.games.boltaction.state import (
    BASE_TO_HIT,
    MAX_ROUNDS,
    ROUGH_MOVE,
    RUN_MOVE,
    Outcome,
    check_terrain,
    declared_close,
)
from rules_core.odds.budget import check
from rules_core.odds.laws import binomial, two_d6
from rules_core.odds.model import Odds, distribution, exact_odds
from rules_core.options import OptionValue

GAME_ID = "boltaction"
NEGLIGIBLE = 1e-16  # probability mass below this, in a state still fighting, is dropped (far below the 1e-9 checked)


@dataclass(frozen=True, slots=True)
class Kind:
    """What stays fixed about a unit: how hard it is to damage, its morale, its leaders' toughness, fanatics."""

    damage_value: int
    morale: int
    nco_tough: bool
    officer_tough: bool
    fanatics: bool


# A unit's changing state: (plain men, plain tough men, NCO standing 0/1, officer standing 0/1).
State = tuple[int, int, int, int]


def kind_and_state(unit: Unit) -> tuple[Kind, State]:
    """The referee's loadout (state.unit_men): the officer, then the NCO, carry the first assault weapons."""
    everyone = unit.has(TOUGH_FIGHTERS)
    weapons = unit.assault_weapon_men
    officer, nco = int(unit.has(OFFICER)), int(unit.has(NCO))
    officer_tough = bool(officer) and (everyone or weapons > 0)
    nco_tough = bool(nco) and (everyone or weapons - officer > 0)
    plain = unit.count - officer - nco
    plain_tough = plain if everyone else max(0, min(plain, weapons - officer - nco))
    kind = Kind(unit.quality.damage_value, unit.quality.morale, nco_tough, officer_tough, unit.has(FANATICS))
    return kind, (plain - plain_tough, plain_tough, nco, officer)


def alive(state: State) -> int:
    return sum(state)


def tough(kind: Kind, state: State) -> int:
    return state[1] + (state[2] if kind.nco_tough else 0) + (state[3] if kind.officer_tough else 0)


def remove(state: State, casualties: int, exceptional: int) -> State:
    """state.UnitState.remove: ``exceptional`` picks (officer, then NCO), the rest plain men first."""
    plain, plain_tough, nco, officer = state
    left = casualties
    for _ in range(min(exceptional, casualties)):
        if officer:
            officer, left = 0, left - 1
        elif nco:
            nco, left = 0, left - 1
        else:
            break
    taken = min(left, plain)
    plain, left = plain - taken, left - taken
    taken = min(left, plain_tough)
    plain_tough, left = plain_tough - taken, left - taken
    taken = min(left, nco)
    nco, left = nco - taken, left - taken
    officer -= min(left, officer)
    return (plain, plain_tough, nco, officer)


@functools.cache
def _dice(count: int, value: int, track_sixes: bool) -> tuple[tuple[int, int, float], ...]:
    """The law of (successes, sixes) of ``count`` D6 each succeeding on ``value``+ (sixes 0 unless tracked)."""
    success = (7 - value) / 6
    six_given_success = (1 / 6) / success
    law: list[tuple[int, int, float]] = []
    for hits in range(count + 1):
        p_hits = comb(count, hits) * success**hits * (1 - success) ** (count - hits)
        if not track_sixes:
            law.append((hits, 0, p_hits))
            continue
        for sixes in range(hits + 1):
            p_sixes = comb(hits, sixes) * six_given_success**sixes * (1 - six_given_success) ** (hits - sixes)
            law.append((hits, sixes, p_hits * p_sixes))
    return tuple(law)


@functools.cache
def damage(
    value: int, target_alive: int, leaders: int, attacks: int, tough_attacks: int
) -> tuple[tuple[int, int, float], ...]:
    """damage.roll_damage as a law of (casualties applied, exceptional picks applied) against the target.

    Casualties are capped at the men standing and picks at the leaders and the casualties, exactly as the
    referee applies them.
    """
    track = leaders > 0
    law: dict[tuple[int, int], float] = defaultdict(float)
    plain = attacks - tough_attacks
    for t_hits, t_sixes, p_t in _dice(tough_attacks, value, track):
        check()  # past its deadline, the calculation gives way to Monte Carlo
        for p_hits, p_sixes, p_p in _dice(plain, value, track):
            base = p_t * p_p
            casualties, sixes = t_hits + p_hits, t_sixes + p_sixes
            extra = min(t_hits, target_alive - casualties) if tough_attacks and t_hits else 0
            outcomes = _dice(extra, value, track) if extra > 0 else ((0, 0, 1.0),)
            for x_hits, x_sixes, p_x in outcomes:
                total, all_sixes = casualties + x_hits, sixes + x_sixes
                applied = min(total, target_alive)
                chance = base * p_x
                if not (track and all_sixes):
                    law[(applied, 0)] += chance
                    continue
                # Each 6 is rolled again; another 6 is exceptional, up to the leaders there are to pick.
                for picks, p_picks in enumerate(binomial(all_sixes, 1 / 6)):
                    law[(applied, min(picks, leaders, applied))] += chance * p_picks
    return tuple((c, e, p) for (c, e), p in law.items())


def _strike(kind: Kind, target: State, attacks: int, tough_attacks: int) -> tuple[tuple[State, int, float], ...]:
    """The target's states after one side's damage rolls, with the casualties caused."""
    law = damage(kind.damage_value, alive(target), target[2] + target[3], attacks, tough_attacks)
    return tuple((remove(target, c, e), c, p) for c, e, p in law)


def _two_d6_at_most(value: int) -> float:
    return sum(p for total, p in two_d6(lambda a, b: a + b).items() if total <= value)


class Solver:
    def __init__(self, attacker: Unit, defender: Unit, options: Mapping[str, OptionValue]) -> None:
        check_terrain(options)  # what the referee refuses has no odds either
        self.options = options
        self.a_kind, self.a_start = kind_and_state(attacker)
        self.d_kind, self.d_start = kind_and_state(defender)
        self.attacker, self.defender = attacker, defender
        self.outcomes: dict[tuple[str, str], float] = defaultdict(float)  # (outcome, winner) -> p
        self.a_lost: dict[int, float] = defaultdict(float)
        self.d_lost: dict[int, float] = defaultdict(float)
        self.broke = 0.0
        self.rounds: dict[tuple[State, State, bool], dict[tuple[State, State, int, int], float]] = {}

    def end(self, outcome: str, winner: str, a: State, d: State, p: float, *, loser_destroyed: bool = False) -> None:
        self.outcomes[(outcome, winner)] += p
        self.a_lost[alive(self.a_start) - alive(a)] += p
        self.d_lost[alive(self.d_start) - alive(d)] += p
        if loser_destroyed:
            self.broke += p

    def solve(self) -> Odds:
        a, d = self.a_start, self.d_start
        distance = self.options["distance"]
        reach = ROUGH_MOVE if self.options["rough_ground"] else RUN_MOVE
        if distance is not None and float(distance) > reach:
            self.end(Outcome.FAILED_TO_CONTACT, "none", a, d, 1.0)
            return self.odds()
        fighting = self.reaction_fire(a, d)
        self.fight(fighting)
        return self.odds()

    def reaction_fire(self, a: State, d: State) -> dict[tuple[State, State], float]:
        no_reaction = (
            bool(self.options["target_has_acted"])
            or (declared_close(self.options) and not self.options["ambush"])
            or bool(self.options["out_of_arc"])
            or not self.options["reaction_shots"]
        )
        if no_reaction:
            return {(a, d): 1.0}
        shots = int(str(self.options["reaction_shots"]))
        inexperienced = -1 if self.defender.quality.value == "inexperienced" else 0
        need = BASE_TO_HIT - (-1 - self.defender.pins + inexperienced + int(str(self.options["reaction_modifiers"])))
        hits_law: dict[int, float] = defaultdict(float)
        if need <= 6:
            for hits, p in enumerate(binomial(shots, (7 - max(2, need)) / 6)):
                hits_law[hits] += p
        elif need <= 9:
            for sixes, p_six in enumerate(binomial(shots, 1 / 6)):
                for hits, p in enumerate(binomial(sixes, (7 - (need - 3)) / 6)):
                    hits_law[hits] += p_six * p
        else:
            hits_law[0] = 1.0
        fighting: dict[tuple[State, State], float] = defaultdict(float)
        before = alive(a)
        pins_after = self.attacker.pins + 1
        for hits, p_hits in hits_law.items():
            check()  # past its deadline, the calculation gives way to Monte Carlo
            if not hits:
                fighting[(a, d)] += p_hits
                continue
            for after, _, p in _strike(self.a_kind, a, hits, 0):
                chance = p_hits * p
                if not alive(after):
                    self.end(Outcome.SHOT_DOWN, "defender", after, d, chance, loser_destroyed=True)
                elif self.options["morale_check"] and alive(after) * 2 <= before and not self.a_kind.fanatics:
                    passes = _two_d6_at_most(self.a_kind.morale - pins_after)
                    fighting[(after, d)] += chance * passes
                    gone: State = (0, 0, 0, 0)
                    self.end(Outcome.FAILED_MORALE, "defender", gone, d, chance * (1 - passes), loser_destroyed=True)
                else:
                    fighting[(after, d)] += chance
        return fighting

    def round(self, a: State, d: State, simultaneous: bool) -> dict[tuple[State, State, int, int], float]:
        """The law of (attacker state, defender state, caused by attacker, caused by defender) after a round."""
        key = (a, d, simultaneous)
        known = self.rounds.get(key)
        if known is None:
            known = self.rounds[key] = self._round(a, d, simultaneous)
        return known

    def _round(self, a: State, d: State, simultaneous: bool) -> dict[tuple[State, State, int, int], float]:
        law: dict[tuple[State, State, int, int], float] = defaultdict(float)
        a_attacks, d_attacks = alive(a), alive(d)
        if simultaneous:
            by_attacker = _strike(self.d_kind, d, a_attacks, tough(self.a_kind, a))
            by_defender = _strike(self.a_kind, a, d_attacks, tough(self.d_kind, d))
            for d_after, a_caused, p_a in by_attacker:
                for a_after, d_caused, p_d in by_defender:
                    law[(a_after, d_after, a_caused, d_caused)] += p_a * p_d
            return law
        for d_after, a_caused, p_a in _strike(self.d_kind, d, a_attacks, tough(self.a_kind, a)):
            if not alive(d_after):
                law[(a, d_after, a_caused, 0)] += p_a
                continue
            for a_after, d_caused, p_d in _strike(self.a_kind, a, alive(d_after), tough(self.d_kind, d_after)):
                law[(a_after, d_after, a_caused, d_caused)] += p_a * p_d
        return law

    def fight(self, fighting: dict[tuple[State, State], float]) -> None:
        simultaneous = bool(self.options["rough_ground"]) or bool(self.options["defended_obstacle"])
        gone: State = (0, 0, 0, 0)
        for _ in range(MAX_ROUNDS):
            following: dict[tuple[State, State], float] = defaultdict(float)
            for (a, d), p_state in fighting.items():
                check()  # past its deadline, the calculation gives way to Monte Carlo
                for (a_after, d_after, a_caused, d_caused), p in self.round(a, d, simultaneous).items():
                    chance = p_state * p
                    a_wiped, d_wiped = not alive(a_after), not alive(d_after)
                    if a_wiped and d_wiped:
                        self.end(Outcome.BOTH_DESTROYED, "draw", a_after, d_after, chance)
                        continue
                    if a_wiped or d_wiped:
                        winner = "defender" if a_wiped else "attacker"
                    elif a_caused != d_caused:
                        winner = "attacker" if a_caused > d_caused else "defender"
                    else:
                        following[(a_after, d_after)] += chance
                        continue
                    loser_kind, loser = (self.d_kind, d_after) if winner == "attacker" else (self.a_kind, a_after)
                    if alive(loser) and loser_kind.fanatics:
                        following[(a_after, d_after)] += chance  # fanatics fight on
                        continue
                    if winner == "attacker":
                        self.end(Outcome.DESTROYED, winner, a_after, gone, chance, loser_destroyed=True)
                    else:
                        self.end(Outcome.DESTROYED, winner, gone, d_after, chance, loser_destroyed=True)
            simultaneous = True
            fighting = {state: p for state, p in following.items() if p > NEGLIGIBLE}
            if not fighting:
                return
        for (a, d), p in fighting.items():
            self.end(Outcome.UNDECIDED, "draw", a, d, p)

    def odds(self) -> Odds:
        total = sum(self.outcomes.values())
        by_winner: dict[str, float] = defaultdict(float)
        by_outcome: dict[str, float] = defaultdict(float)
        for (outcome, winner), p in self.outcomes.items():
            by_winner[winner] += p / total
            by_outcome[outcome] += p / total
        return exact_odds(
            GAME_ID, by_winner, by_outcome, distribution(self.a_lost, total), distribution(self.d_lost, total),
            breaks=self.broke / total, note="Exact: every roll of the referee's procedure taken as its probability "
            "distribution.",
        )  # fmt: skip


def exact(attacker: Unit, defender: Unit, options: Mapping[str, OptionValue]) -> Odds:
    return Solver(attacker, defender, options).solve()


__all__ = ["exact", "kind_and_state", "remove"]
