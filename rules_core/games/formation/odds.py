"""Exact odds of a formation assault (Epic: Armageddon A4-A8, Reikhammer I-VII): the referee's procedure
(rules_core.games.formation.engine), with every dice roll replaced by its probability distribution.

The state of a side is the damage capacity left on each of its units, in the referee's allocation order (units
of one group and position that are not war engines are interchangeable, so only how many are left counts), plus
the enemy units it has destroyed so far (the result counts them). Each round maps a distribution over states to
the next:
- both sides' attacks at once: per group and position, Bin(units x dice, P(hit)), macro-weapon hits apart;
- hits allocated as the referee allocates them (its own ``allocate``: front to back, one a unit a pass, a war
  engine up to its damage capacity), each unit's hits saved independently (armour with re-rolls, then the better
  of cover and invulnerable), a unit losing one damage capacity per unsaved hit;
- the immediate outcomes, supporting fire, then the result roll with the referee's own modifiers: a tie fights
  another round (a Markov chain up to ``max_rounds``), a win deals the difference as hits with no save;
- what follows: a loser already Broken is destroyed, any other loser breaks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_core.dice import SeededDice
from rules_core.games.formation.engine import ATTACKER, DEFENDER, FormationAssault, Outcome, SideState, allocate
from rules_core.games.formation.spec import MACRO_WEAPON, REINFORCED_ARMOUR, Formation, Position
from rules_core.odds.budget import check
from rules_core.odds.laws import Law, binomial, convolve, d6_meets, two_d6
from rules_core.odds.model import NotExact, Odds, exact_odds
from rules_core.options import OptionValue
from rules_core.report import Combine

if TYPE_CHECKING:  # the game loads this module on first use: a run-time import back would be a cycle
    from rules_core.games.formation.game import FormationGame

Units = tuple[int, ...]  # damage capacity left on each unit, in allocation order
State = tuple[Units, Units, int, int]  # attacker, defender, units destroyed by the attacker, by the defender


class Side:
    """One side's fixed facts, and the referee's rules over its compact states."""

    def __init__(self, state: SideState, assault: FormationAssault) -> None:
        self.state = state
        self.units = state.units
        self.index = {id(unit): position for position, unit in enumerate(self.units)}
        self.start: Units = tuple(unit.dc for unit in self.units)
        blocks: list[tuple[int, int]] = []  # interchangeable units: (first, last + 1)
        for position, unit in enumerate(self.units):
            key = (unit.group_index, unit.position)
            if not unit.group.war_engine and blocks and position == blocks[-1][1] and key == self._key(blocks[-1][0]):
                blocks[-1] = (blocks[-1][0], position + 1)
            elif not unit.group.war_engine:
                blocks.append((position, position + 1))
        self.blocks = blocks
        self.block_of = {i: block for block in blocks for i in range(*block)}
        self.unsaved: list[tuple[float, float]] = []  # per group: P(a normal hit unsaved), P(a macro hit unsaved)
        for group in state.formation.groups:
            second = assault.second_save(state, group)
            fail_second = 1.0 if second is None else 1 - d6_meets(second[1].op, second[1].value)
            fail_armour = 1.0 if group.save is None else 1 - d6_meets(assault.settings.save_op, group.save)
            # Against macro-weapon hits only reinforced armour keeps its save, and never re-rolls it.
            fail_macro = fail_armour if assault.reinforced_saves_macro(group) else 1.0
            if REINFORCED_ARMOUR in group.specials:
                fail_armour *= fail_armour
            self.unsaved.append((fail_armour * fail_second, fail_macro * fail_second))
        self.exchanges: dict[tuple[Units, int, int, tuple[int, ...] | None], Law] = {}
        self.counted: dict[Units, int] = {}

    def _key(self, position: int) -> tuple[int, Position]:
        unit = self.units[position]
        return (unit.group_index, unit.position)

    def load(self, units: Units, kills: int = 0) -> SideState:
        """The referee's side object set to this state (to ask it what it would do)."""
        for unit, dc in zip(self.units, units, strict=True):
            unit.dc = dc
        self.state.kills = kills
        return self.state

    def canonical(self, units: list[int]) -> Units:
        for first, last in self.blocks:
            alive = sum(units[first:last])
            units[first:last] = [1] * alive + [0] * (last - first - alive)
        return tuple(units)

    def alive(self, units: Units) -> int:
        known = self.counted.get(units)
        if known is None:
            known = self.counted[units] = sum(1 for dc in units if dc > 0)
        return known

    def in_contact(self, units: Units) -> bool:
        return any(dc > 0 and unit.position is Position.CONTACT for unit, dc in zip(self.units, units, strict=True))

    def engaged(self, units: Units) -> bool:
        return any(dc > 0 and unit.position is not Position.OUT for unit, dc in zip(self.units, units, strict=True))

    def take(self, units: Units, normal: int, macro: int, targets: tuple[int, ...] | None = None) -> Law:
        """Hits landing on this side: {(units after, units destroyed or damage dealt): p} (engine.take_hits);
        ``targets``: the positions of the units they may land on (default: the directly engaged ones)."""
        key = (units, normal, macro, targets)
        known = self.exchanges.get(key)
        if known is not None:
            return known
        state = self.load(units)
        eligible = state.engaged() if targets is None else [self.units[position] for position in targets]
        counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        if eligible:
            for kind, hits in ((0, normal), (1, macro)):
                for unit in allocate(eligible, hits):
                    counts[self.index[id(unit)]][kind] += 1
        law: Law = {(units, 0): 1.0}
        for position, (n, m) in sorted(counts.items()):
            unit = self.units[position]
            q_normal, q_macro = self.unsaved[unit.group_index]
            damage = convolve(dict(enumerate(binomial(n, q_normal))), dict(enumerate(binomial(m, q_macro))),
                              lambda a, b: a + b)  # fmt: skip
            dc = units[position]
            following: Law = defaultdict(float)
            for (current, dealt), p in law.items():
                for unsaved, q in damage.items():
                    taken = min(dc, unsaved)
                    changed = list(current)
                    changed[position] -= taken
                    following[(tuple(changed), dealt + taken)] += p * q
            law = following
        known = self.exchanges[key] = {}
        for (after, dealt), p in law.items():
            final = (self.canonical(list(after)), dealt)
            known[final] = known.get(final, 0.0) + p
        return known


class FormationSolver:
    def __init__(self, game: FormationGame, attacker: Formation, defender: Formation,
                 options: Mapping[str, OptionValue]) -> None:  # fmt: skip
        self.assault = game.assault(attacker, defender, options, SeededDice(0))
        self.rules, self.settings = self.assault.rules, self.assault.settings
        self.sides = (
            Side(self.assault.sides[ATTACKER], self.assault),
            Side(self.assault.sides[DEFENDER], self.assault),
        )
        self.hit_laws: dict[tuple[int, Units, bool], Law] = {}
        self.support_laws = tuple(self.support_hits(side) for side in (0, 1))
        roll = self.result_roll()
        self.differences: Law = defaultdict(float)  # the law of attacker's roll - defender's roll
        for a_roll, p in roll.items():
            for d_roll, q in roll.items():
                self.differences[a_roll - d_roll] += p * q
        self.extras: dict[tuple[int, Units, int], Units] = {}
        self.targets: dict[tuple[Units, Units, bool], tuple[tuple[bool, tuple[int, ...]], ...]] = {}

    def hit_chance(self, value: int) -> float:
        return d6_meets(self.rules.hit_op, value)

    def hits(self, side: int, units: Units, contact_lost: bool = False) -> Law:
        """{(normal hits, macro hits): p} of a side's attacks (engine.attacks); with ``contact_lost`` its units
        in base contact fight with FF (engine.contact_lost)."""
        key = (side, units, contact_lost)
        known = self.hit_laws.get(key)
        if known is None:
            fighters = self.sides[side]
            counts: dict[tuple[int, Position], int] = defaultdict(int)
            for unit, dc in zip(fighters.units, units, strict=True):
                if dc > 0 and unit.position is not Position.OUT:
                    counts[(unit.group_index, unit.position)] += 1
            known = {(0, 0): 1.0}
            for index, group in enumerate(fighters.state.formation.groups):
                contact_value = group.ff if contact_lost else group.cc
                for position, value in ((Position.CONTACT, contact_value), (Position.IN_RANGE, group.range_value)):
                    count = counts.get((index, position), 0)
                    if count and value is not None:
                        known = self.add_attacks(known, group.specials, count * (1 + group.extra_attacks), value)
            self.hit_laws[key] = known
        return known

    def add_attacks(self, law: Law, specials: frozenset[str], dice: int, value: int) -> Law:
        macro = MACRO_WEAPON in specials
        scored = dict(enumerate(binomial(dice, self.hit_chance(value))))
        return convolve(law, scored, lambda h, k: (h[0], h[1] + k) if macro else (h[0] + k, h[1]))

    def support_hits(self, side: int) -> Law | None:
        """engine.support_fire: the supporting formations' FF dice, the same every round."""
        support = self.sides[side].state.support
        if support is None:
            return None
        law: Law = {(0, 0): 1.0}
        for formation in support.formations:
            for group in formation.groups:
                if group.in_range and group.ff is not None:
                    law = self.add_attacks(law, group.specials, group.in_range * (1 + group.extra_attacks), group.ff)
        return law

    def result_roll(self) -> Law:
        return two_d6(max if self.settings.result_dice is Combine.HIGHEST else lambda a, b: a + b)

    def exchange(self, dist: dict[State, float], laws: tuple[Law | None, ...] | None = None, *,
                 later: bool = False) -> dict[State, float]:  # fmt: skip
        """Both sides' hits land together (engine.exchange_saves); ``later``: a round after a tie."""
        out: dict[State, float] = defaultdict(float)
        attacker, defender = self.sides
        check_contact = later and not self.settings.recontact
        for (a, d, a_kills, d_kills), p in dist.items():
            check()  # past its deadline, the calculation gives way to Monte Carlo
            a_lost = check_contact and attacker.in_contact(a) and not defender.in_contact(d)
            d_lost = check_contact and defender.in_contact(d) and not attacker.in_contact(a)
            targets: tuple[tuple[int, ...] | None, ...] = (None, None)
            a_hits: Law | None
            d_hits: Law | None
            if laws is None:
                a_hits, d_hits = self.hits(0, a, a_lost), self.hits(1, d, d_lost)
            elif not self.rules.support_needs_attacker:  # Epic: the support fires at any directly engaged unit
                a_hits, d_hits = laws[0], laws[1]
            else:
                (a_may, a_targets), (d_may, d_targets) = self.support_targets(a, d, later)
                a_hits, d_hits = laws[0] if d_may else None, laws[1] if a_may else None
                targets = (a_targets, d_targets)
            on_d = self.landing(1, d, a_hits, targets[1])
            on_a = self.landing(0, a, d_hits, targets[0])
            for (d_after, dealt_by_a), q in on_d.items():
                for (a_after, dealt_by_d), r in on_a.items():
                    out[(a_after, d_after, a_kills + dealt_by_a, d_kills + dealt_by_d)] += p * q * r
        return out

    def support_targets(self, a: Units, d: Units, later: bool) -> tuple[tuple[bool, tuple[int, ...]], ...]:
        """engine.support_targets of both sides in this state: whether the enemy's support may fire at it, and the
        positions of the units its hits may land on."""
        key = (a, d, later)
        known = self.targets.get(key)
        if known is None:
            self.sides[0].load(a)
            self.sides[1].load(d)
            self.assault.round = 2 if later else 1
            found = []
            for side in self.sides:
                may, units = self.assault.support_targets(side.state)
                found.append((may, tuple(side.index[id(unit)] for unit in units)))
            known = self.targets[key] = tuple(found)
        return known

    def landing(self, target: int, units: Units, hits: Law | None, targets: tuple[int, ...] | None = None) -> Law:
        if not hits:
            return {(units, 0): 1.0}
        law: Law = defaultdict(float)
        for (normal, macro), p in hits.items():
            if normal or macro:
                for outcome, q in self.sides[target].take(units, normal, macro, targets).items():
                    law[outcome] += p * q
            else:
                law[(units, 0)] += p
        return law

    def decided(self, state: State, after_support: bool = False) -> str | None:
        """engine.decided: after the attacks, every defender or every engaged attacker gone; after supporting
        fire, a side wiped out."""
        attacker, defender = self.sides
        if not defender.alive(state[1]):
            if attacker.alive(state[0]):
                return "attacker"
            return "defender" if self.settings.both_wiped_out == "defender" else "draw"
        if not (attacker.alive(state[0]) if after_support else attacker.engaged(state[0])):
            return "defender"
        return None

    def solve(self) -> Odds:
        attacker, defender = self.sides
        self.ends: dict[tuple[str, str, int, int], float] = defaultdict(float)
        if not attacker.engaged(attacker.start):
            self.ends[("none", Outcome.NO_ASSAULT.value, 0, 0)] = 1.0
            return self.odds()
        dist: dict[State, float] = {(attacker.start, defender.start, 0, 0): 1.0}
        has_support = any(law is not None for law in self.support_laws)
        for round_number in range(1, self.settings.max_rounds + 1):
            dist = self.exchange(dist, later=round_number > 1)
            dist = self.settle(dist)
            if has_support and dist:
                dist = self.settle(self.exchange(dist, self.support_laws, later=round_number > 1), after_support=True)
            tied: dict[State, float] = defaultdict(float)
            for state, p in dist.items():
                check()  # past its deadline, the calculation gives way to Monte Carlo
                for key, q in self.result(state).items():
                    if key == "tie":
                        tied[state] += p * q
                    else:
                        self.finish(key[0], key[1], key[2], p * q)
            if round_number == self.settings.max_rounds:
                for state, p in tied.items():
                    self.finish("draw", state[0], state[1], p)
                tied = defaultdict(float)
            dist = tied
        return self.odds()

    def settle(self, dist: dict[State, float], after_support: bool = False) -> dict[State, float]:
        """Finish the states the immediate outcomes decide (after supporting fire: a side wiped out); return the
        others."""
        going: dict[State, float] = {}
        for state, p in dist.items():
            check()  # past its deadline, the calculation gives way to Monte Carlo
            winner = self.decided(state, after_support)
            if winner is None:
                going[state] = p
            else:
                self.finish(winner, state[0], state[1], p)
        return going

    def result(self, state: State) -> Law:
        """engine.result_step: {"tie": p} or {(winner, attacker units, defender units): p}."""
        a, d, a_kills, d_kills = state
        attacker, defender = self.sides
        attacker.load(a, a_kills)
        defender.load(d, d_kills)
        bonus = [sum(value for _, value in self.assault.modifiers(side.state)) for side in self.sides]
        law: Law = defaultdict(float)
        for difference, p in self.differences.items():
            margin = difference + bonus[0] - bonus[1]
            if margin == 0:
                law["tie"] += p
            elif margin > 0:
                law[("attacker", a, self.extra_hits(1, d, margin))] += p
            else:
                law[("defender", self.extra_hits(0, a, -margin), d)] += p
        return law

    def extra_hits(self, loser: int, units: Units, hits: int) -> Units:
        """The loser's extra hits, with no save, one pass over its whole formation (engine.result_step)."""
        key = (loser, units, hits)
        known = self.extras.get(key)
        if known is None:
            side = self.sides[loser]
            after = list(units)
            for unit in allocate(side.load(units).alive(), hits, one_pass=True):
                after[side.index[id(unit)]] -= 1
            known = self.extras[key] = side.canonical(after)
        return known

    def finish(self, winner: str, a: Units, d: Units, p: float) -> None:
        """engine.aftermath: a loser already Broken is destroyed; the outcome and each side's units lost."""
        attacker, defender = self.sides
        if winner == "draw":
            both_gone = not attacker.alive(a) and not defender.alive(d)
            outcome = Outcome.BOTH_DESTROYED if both_gone else Outcome.TIED
        else:
            losing = 1 if winner == "attacker" else 0
            if self.sides[losing].state.broken_at_start:  # the flag, or markers at least its units
                if losing:
                    d = tuple(0 for _ in d)
                else:
                    a = tuple(0 for _ in a)
            left = self.sides[losing].alive(d if losing else a)
            outcome = Outcome.DESTROYED if not left else Outcome.BROKEN
            if not attacker.alive(a) and not defender.alive(d):
                outcome = Outcome.BOTH_DESTROYED  # the attack stalled with the defenders wiped out too
        lost = (len(a) - attacker.alive(a), len(d) - defender.alive(d))
        self.ends[(winner, outcome.value, lost[0], lost[1])] += p

    def odds(self) -> Odds:
        winners: dict[str, float] = defaultdict(float)
        outcomes: dict[str, float] = defaultdict(float)
        lost: tuple[list[float], list[float]] = ([0.0] * (len(self.sides[0].start) + 1),
                                                 [0.0] * (len(self.sides[1].start) + 1))  # fmt: skip
        for (winner, outcome, a_lost, d_lost), p in self.ends.items():
            winners[winner] += p
            outcomes[outcome] += p
            lost[0][a_lost] += p
            lost[1][d_lost] += p
        breaks = winners["attacker"] + winners["defender"]  # the loser always breaks (or is destroyed)
        return exact_odds(
            self.rules.game_id, winners, outcomes, lost[0], lost[1], breaks=breaks,
            note="Exact: every roll of the referee's procedure replaced by its probability distribution (attacks, "
            "allocation, saves, supporting fire, the result roll, and tied rounds as a Markov chain).",
        )  # fmt: skip


MAX_PAIRS = 3000  # beyond this bound on the pairs of formation states, Monte Carlo through the referee answers


def state_bound(formation: Formation) -> int:
    """At most how many states a formation can be in: per group and position, how many units are left (war
    engines: each one's damage capacity left)."""
    bound = 1
    for group in formation.groups:
        for position in Position:
            count = group.at(position)
            bound *= (group.dc + 1) ** count if group.war_engine else count + 1
    return bound


def refusal(attacker: Formation, defender: Formation) -> str | None:
    pairs = state_bound(attacker) * state_bound(defender)
    if pairs > MAX_PAIRS:
        return (f"the calculation could have to follow {pairs:,} pairs of formation states (the limit is "
                f"{MAX_PAIRS:,})")  # fmt: skip
    return None


def exact(game: FormationGame, attacker: Formation, defender: Formation, options: Mapping[str, OptionValue]) -> Odds:
    """The exact odds of one formation game's assault (``game`` holds its rules table)."""
    reason = refusal(attacker, defender)
    if reason is not None:
        raise NotExact(reason)
    return FormationSolver(game, attacker, defender, options).solve()


__all__ = ["MAX_PAIRS", "FormationSolver", "exact", "refusal", "state_bound"]
