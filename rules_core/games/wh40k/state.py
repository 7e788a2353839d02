"""The state of one 40K assault as it is fought: each unit's groups with their models' wounds and places (in base
contact, within 2", out of reach), the pools of models that strike together, and the ``Fight`` every step reads
and writes (the inputs, the dice, the units, the steps written so far and the running tallies)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from rules_core.dice import DiceSource
from rules_core.errors import IllegalDeclarationError, OptionError
from rules_core.games.wh40k.combats import enemies_named
from rules_core.games.wh40k.spec import EXAMPLE_SPLIT, Group, Side, Unit, format_side
from rules_core.games.wh40k.weapons import AttackProfile
from rules_core.options import OptionValue
from rules_core.report import Combine, Event, FrozenMap, Inputs, Json, Op, Roll, SideName, Step, Target, event
from rules_core.rolling import roll_combined_test, roll_each, roll_unchecked


class Role(IntEnum):
    """Where a model stands: in base contact, within 2" of a friend who is (supporting), or out of reach."""

    ENGAGED = 0
    SUPPORTING = 1
    OUT = 2


class GroupState:
    """One group in the fight: the wounds each model has left, where each stands, and (a group dividing its
    models between enemy units) whom each fights."""

    __slots__ = ("aims", "alive_by_role", "full_wounds", "group", "roles", "unit", "wounds")

    def __init__(self, group: Group, unit: UnitState) -> None:
        self.group = group
        self.unit = unit
        self.full_wounds = group.profile.w
        self.wounds = [group.profile.w] * group.count
        self.roles = (
            [Role.ENGAGED] * group.engaged + [Role.SUPPORTING] * group.supporting + [Role.OUT] * group.out_of_fight
        )
        self.alive_by_role = [group.engaged, group.supporting, group.out_of_fight]
        # A group dividing its models between enemy units (vs=1:6+2,2:2): the enemy unit number each model fights
        # (0 when out of reach); None when the whole group fights its unit's target.
        self.aims: list[int] | None = None
        if group.split:
            self.aims = [target for target, engaged, _ in group.split for _ in range(engaged)]
            self.aims += [target for target, _, supporting in group.split for _ in range(supporting)]
            self.aims += [0] * group.out_of_fight

    def alive_aiming(self, role: Role, aim: int) -> int:
        """Living models of ``role`` that fight enemy unit number ``aim`` (0: the whole group's)."""
        if not aim or self.aims is None:
            return self.alive_by_role[role]
        return sum(
            1
            for left, its_role, its_aim in zip(self.wounds, self.roles, self.aims, strict=True)
            if left > 0 and its_role is role and its_aim == aim
        )

    def alive(self, role: Role | None = None) -> int:
        if role is None:
            return self.alive_by_role[0] + self.alive_by_role[1] + self.alive_by_role[2]
        return self.alive_by_role[role]

    def wound(self, index: int, amount: int) -> bool:
        """Take ``amount`` wounds on model ``index`` (at most what it has left); True when it dies."""
        left = self.wounds[index]
        self.wounds[index] = max(left - amount, 0)
        if left > 0 and self.wounds[index] == 0:
            self.alive_by_role[self.roles[index]] -= 1
            return True
        return False


class UnitState:
    """One unit in the fight: its groups, its label in the report, and the enemy units it fights."""

    __slots__ = ("groups", "index", "initial", "label", "side", "target", "targets", "unit", "ws_over_half")

    def __init__(self, unit: Unit, side: SideName, index: int, label: str) -> None:
        self.unit = unit
        self.side = side
        self.index = index
        self.label = label
        self.groups = [GroupState(group, self) for group in unit.groups]
        self.initial = unit.models
        self.target: UnitState | None = None
        self.targets: list[UnitState] = []  # every enemy unit it fights (dividing attacks), its target first
        self.ws_over_half = False  # option ws_majority=over_half: the majority WS type needs over half the models

    def alive(self) -> int:
        total = 0
        for group in self.groups:  # a loop, not sum() of a generator: the most asked question of a fight
            by_role = group.alive_by_role
            total += by_role[0] + by_role[1] + by_role[2]
        return total

    def alive_in_zone(self) -> int:
        total = 0
        for group in self.groups:
            by_role = group.alive_by_role
            total += by_role[Role.ENGAGED] + by_role[Role.SUPPORTING]
        return total

    def highest_leadership(self) -> int:
        return max(g.group.profile.ld for g in self.groups if g.alive())

    def alive_profiles(self) -> list[tuple[Group, int]]:
        return [(g.group, g.alive()) for g in self.groups if g.alive()]


@dataclass(slots=True)
class Pool:
    """Models of one group and place that strike together: their attack profile, target and place in the strike
    order."""

    unit: UnitState
    group: GroupState
    role: Role
    target: UnitState
    profile: AttackProfile
    priority: tuple[int, int]
    phase: str
    aim: int = 0  # the enemy unit number these models of a dividing group fight (0: the whole group's target)
    divide: tuple[UnitState, ...] = ()  # an independent character dividing its hits between these units

    def alive(self) -> int:
        return self.group.alive_aiming(self.role, self.aim)


@dataclass(slots=True)
class SideTally:
    """What a side did that counts: the wounds it inflicted (for the result) and its units' morale tests."""

    wounds_inflicted: int = 0
    morale: list[dict[str, Json]] = field(default_factory=list)


class Fight:
    """One resolution's state: the inputs, the dice, the units as they stand, the steps written so far and the
    tallies. Built from the two sides, it checks what they declare (whom each unit fights)."""

    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        self.inputs = Inputs(format_side(attacker), format_side(defender), FrozenMap(dict(options)))
        self.options = options
        self.dice = dice
        self.steps: list[Step] = []
        self.round = int(_opt_int(options, "round"))
        self.units: dict[SideName, list[UnitState]] = {
            SideName.ATTACKER: self._make_units(attacker, SideName.ATTACKER),
            SideName.DEFENDER: self._make_units(defender, SideName.DEFENDER),
        }
        for side in SideName:
            enemies = self.units[side.other]
            for state in self.units[side]:
                if state.unit.vs > len(enemies):
                    raise OptionError(
                        f"{state.label} fights vs={state.unit.vs}, but the {side.other.value} has only "
                        f"{len(enemies)} unit{'s' if len(enemies) != 1 else ''}.",
                        token=f"vs={state.unit.vs}",
                        example="... | 5x Ork Nob: WS4 S4 T4 W1 I3 A2 Ld7 Sv6+ vs=2",
                    )
                state.target = enemies[state.unit.vs - 1]
                state.targets = self._targets(state, enemies)
                state.ws_over_half = options.get("ws_majority") == "over_half"
        self._check_dividing_characters()
        self.tally = {SideName.ATTACKER: SideTally(), SideName.DEFENDER: SideTally()}
        self.charged = False
        self.destroyed_before_fight = False  # a unit failed to regroup while falling back (decision 20 may apply)
        # Psykers (group, model index) that took their psychic test this turn: one psychic power per turn.
        self.psychic_tested: set[tuple[int, int]] = set()
        self.perils_deaths: Counter[SideName] = Counter()  # models slain by Perils of the Warp, per side
        self.lost_why: dict[int, str] = {}  # unit -> why its attacks at a unit destroyed before the fight are lost
        self.weapon_choices: dict[int, Any] = {}  # group state -> the referee's choice of weapon (choosing.py)
        self.charges: dict[int, bool] = {}  # attacking unit -> whether it charged this turn (charging.py)
        self.covered: set[int] = set()  # defending units that strike first from cover this turn (charging.py)

    @staticmethod
    def _targets(state: UnitState, enemies: list[UnitState]) -> list[UnitState]:
        """Every enemy unit ``state`` fights: its groups' own targets (vs=1:6,2:2), a character's (vs=1,2)."""
        assert state.target is not None
        numbers = enemies_named(state.unit)
        for number in numbers:
            if number > len(enemies):
                raise OptionError(
                    f"{state.label} fights enemy unit {number}, but the {state.side.other.value} has only "
                    f"{len(enemies)} unit{'s' if len(enemies) != 1 else ''}.",
                    token=str(number),
                    example=EXAMPLE_SPLIT,
                )
        found = [enemies[number - 1] for number in dict.fromkeys(numbers)]
        return [state.target] + [e for e in found if e is not state.target] if state.target in found else found

    def _check_dividing_characters(self) -> None:
        """An independent character divides its hits only between units it is engaged with: units that say some
        of their models in base contact fight it (base contact is mutual, and the referee cannot see the table)."""
        for side in SideName:
            for state in self.units[side]:
                for enemy in state.targets if state.unit.divide else ():
                    if any(fights_in_contact(enemy, group.group, state) for group in enemy.groups):
                        continue
                    raise IllegalDeclarationError(
                        f"{state.label} divides its hits between "
                        + ", ".join(e.label for e in state.targets)
                        + f", but no model of {enemy.label} in base contact fights it, so they are not engaged. "
                        f"Say which of {enemy.label}'s models are in base contact with {state.label} (vs= on "
                        f"{enemy.label}, e.g. vs=1:6,{state.index + 1}:2), or leave {enemy.label} out of "
                        f"{state.label}'s vs=.",
                        token="vs=" + ",".join(map(str, state.unit.divide)),
                        example=EXAMPLE_SPLIT,
                    )

    @staticmethod
    def _make_units(side: Side, name: SideName) -> list[UnitState]:
        seen: Counter[str] = Counter(unit.name for unit in side.units)
        numbering: Counter[str] = Counter()
        states = []
        for index, unit in enumerate(side.units):
            label = unit.name
            if seen[unit.name] > 1:
                numbering[unit.name] += 1
                label = f"{unit.name} #{numbering[unit.name]}"
            states.append(UnitState(unit, name, index, label))
        return states

    # ----------------------------------------------------------------- dice helpers

    def roll_each(
        self, purpose: str, count: int, need: int, *, kind: str, side: SideName, reroll_failures: bool = False
    ) -> Roll:
        return roll_each(
            self.dice, purpose, count, Target(Op.AT_LEAST, need), reroll_failures=reroll_failures, kind=kind, side=side
        )

    def roll_2d6_test(
        self,
        purpose: str,
        target: Target,
        *,
        kind: str,
        side: SideName,
        combine: Combine = Combine.SUM,
        double_one_passes: bool = False,
    ) -> Roll:
        """A 2D6 test read as a total (or the highest die); one success entry for the combined result."""
        return roll_combined_test(
            self.dice, purpose, target, combine=combine, double_one_passes=double_one_passes, kind=kind, side=side
        )

    def roll_distance(self, purpose: str, count: int, *, kind: str, side: SideName) -> Roll:
        return roll_unchecked(self.dice, purpose, count, kind=kind, side=side)

    def engaged_with(self, state: UnitState) -> list[UnitState]:
        """The enemy units ``state`` is engaged with: those it fights and those that fight it."""
        enemies = self.units[state.side.other]
        return [e for e in enemies if e in state.targets or state in e.targets]


def unit_policy(choice: str, state: UnitState, note: str) -> Event:
    """The report's ``policy`` event about one unit: ``choice`` names the decision taken for it, ``note`` says it."""
    return event("policy", choice=choice, side=state.side.value, unit=state.label, note=note)


def fights_in_contact(enemy: UnitState, group: Group, character: UnitState) -> bool:
    """Whether some of ``group``'s models (of ``enemy``) in base contact fight ``character``."""
    number = character.index + 1
    if group.split:
        return any(target == number and engaged for target, engaged, _ in group.split)
    if enemy.unit.divide:
        return number in enemy.unit.divide
    return bool(group.engaged) and enemy.unit.vs == number


def _opt_int(options: Mapping[str, OptionValue], name: str) -> int:
    value = options.get(name)
    return int(value) if isinstance(value, int | float) else 1
