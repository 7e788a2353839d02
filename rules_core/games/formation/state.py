"""The formation assault's state: each side's units and the damage left on them, the hits an exchange scores,
how hits are allocated, the check that the positions given can all be true, and ``Fight``, the resolution's state
and its shared words, which the step modules build on (saves.py, attacks.py, result.py, aftermath.py; engine.py
runs them in order).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_core.dice import DiceSource
from rules_core.errors import SpecError
from rules_core.games.formation.rules import FormationRules, FormationSettings
from rules_core.games.formation.spec import MACRO_WEAPON, Formation, Group, Position, Support
from rules_core.report import Inputs, Json, Op, SideName, Step, Target

ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER


class Outcome(StrEnum):
    NO_ASSAULT = "no_assault"  # no attacking unit is directly engaged: the assault does not take place
    BROKEN = "broken"  # the loser breaks and withdraws
    DESTROYED = "destroyed"  # the loser has no unit left (wiped out, or destroyed for being Broken already)
    TIED = "tied"  # still tied after max_rounds: a draw
    BOTH_DESTROYED = "both_destroyed"


# --------------------------------------------------------------------------- state


class UnitState:
    """One unit (a stand, a vehicle, a war engine); ``dc`` is 1 for anything but a war engine."""

    __slots__ = ("dc", "group", "group_index", "position")

    def __init__(self, group: Group, group_index: int, position: Position) -> None:
        self.group = group
        self.group_index = group_index
        self.position = position
        self.dc = group.dc


class Units:
    """Units counted as the result and the markers count them: a side's, or one formation's of a side."""

    __slots__ = ("initial", "units")

    def __init__(self, units: list[UnitState]) -> None:
        self.units = units
        self.initial = sum(unit.dc for unit in units)  # units at the start, a war engine counting its DC

    def alive(self) -> list[UnitState]:
        return [unit for unit in self.units if unit.dc > 0]

    def strength(self) -> int:
        """Units remaining as the result counts them: a war engine counts its remaining damage capacity."""
        return sum(unit.dc for unit in self.units if unit.dc > 0)

    def lost_strength(self) -> int:
        return self.initial - self.strength()

    def units_alive(self) -> int:
        return sum(1 for unit in self.units if unit.dc > 0)

    def war_engine_capacity(self) -> int:
        """The damage capacity left on its war engines (the table line shows it beside the units left)."""
        return sum(unit.dc for unit in self.units if unit.dc > 0 and unit.group.war_engine)

    def strength_text(self) -> str:
        """Its strength in words: "3 units", "3 damage points" (a war engine's), "2 units and 3 damage points"."""
        units = sum(1 for unit in self.units if unit.dc > 0 and not unit.group.war_engine)
        return _units_and_points(units, self.war_engine_capacity())

    def lost_kinds(self) -> str:
        """What each marker it gains is for: "unit", "damage point" (a war engine's) or "unit or damage point"."""
        units = any(unit.dc <= 0 for unit in self.units if not unit.group.war_engine)
        points = any(unit.dc < unit.group.dc for unit in self.units if unit.group.war_engine)
        return "unit or damage point" if units and points else "damage point" if points else "unit"

    def measure(self, *, one: bool = False) -> str:
        """What its markers are compared with: its "units", a war engine's "damage points", or "units and damage
        points" (``one``: "unit", "damage point", "unit or damage point")."""
        engines = any(unit.group.war_engine for unit in self.units)
        plain = any(not unit.group.war_engine for unit in self.units)
        if engines and plain:
            return "unit or damage point" if one else "units and damage points"
        return ("damage point" if engines else "unit") + ("" if one else "s")


def _units_and_points(units: int, points: int) -> str:
    said = [plural(units, "unit")] if units or not points else []
    if points:
        said.append(plural(points, "damage point"))
    return " and ".join(said)


class Part(Units):
    """One formation of a side of several fighting as one (Reikhammer: '|' between them): it has its own markers
    before and after the assault, and breaks on its own."""

    __slots__ = ("broken_at_start", "broken_by_markers", "markers_at_start", "name")

    def __init__(self, name: str, groups: tuple[int, ...], units: list[UnitState], markers: int, flag: bool) -> None:
        super().__init__([unit for unit in units if unit.group_index in groups])
        self.name = name
        self.markers_at_start = markers
        # A formation is Broken when its markers are at least its units (a war engine counting its DC), whether
        # or not the players say so (REFERENCE.md 001 and 004).
        self.broken_by_markers = markers >= self.initial
        self.broken_at_start = flag or self.broken_by_markers


class SideState(Units):
    __slots__ = (
        "broken_at_start",
        "broken_by_markers",
        "formation",
        "kills",
        "markers_at_start",
        "name",
        "parts",
        "score",
        "support",
        "war_engine_damage",
    )

    def __init__(
        self, name: SideName, formation: Formation, support: Support | None, settings: FormationSettings
    ) -> None:
        # Allocation order: units in base contact first, then those in range, then the rest; groups in the
        # order given (nearest first).
        super().__init__(
            [
                UnitState(group, index, position)
                for position in Position
                for index, group in enumerate(formation.groups)
                for _ in range(group.at(position))
            ]
        )
        self.name = name
        self.formation = formation
        self.support = support
        broken = settings.broken_at_start(name)
        # Each formation's markers: its own setting (shock=N), else the side's option (a side of one formation).
        parts = formation.parts()
        given = [
            next((g.markers for i in part if (g := formation.groups[i]).markers is not None), None) for part in parts
        ]
        if all(markers is None for markers in given):
            given = [settings.markers_of(name), *[0] * (len(parts) - 1)]
        self.parts = [
            Part(formation.groups[part[0]].name, part, self.units, markers or 0, broken)
            for part, markers in zip(parts, given, strict=True)
        ]
        self.markers_at_start = sum(part.markers_at_start for part in self.parts)
        # Formations fighting as one are Broken together only when each is ("only destroyed if the intermingled
        # formation was considered broken before the assault").
        self.broken_by_markers = all(part.broken_by_markers for part in self.parts)
        self.broken_at_start = all(part.broken_at_start for part in self.parts)
        self.kills = 0  # enemy units destroyed, war-engine damage points counting one each (for the result)
        self.war_engine_damage = 0  # of those kills, the damage points dealt to war engines (for the words)
        self.score: int | None = None

    @property
    def several(self) -> bool:
        """Whether the side is several formations fighting as one."""
        return len(self.parts) > 1

    def engaged(self) -> list[UnitState]:
        """The directly engaged units still alive: the only ones that attack and can be hit."""
        return [unit for unit in self.units if unit.dc > 0 and unit.position is not Position.OUT]

    def alive_by_group(self) -> list[int]:
        counts = [0] * len(self.formation.groups)
        for unit in self.units:
            if unit.dc > 0:
                counts[unit.group_index] += 1
        return counts


@dataclass(slots=True)
class Hits:
    """Hits scored at one side in one exchange; macro-weapon hits are allocated and saved apart."""

    normal: int = 0
    macro: int = 0

    def add(self, group: Group, hits: int) -> None:
        if MACRO_WEAPON in group.specials:
            self.macro += hits
        else:
            self.normal += hits

    @property
    def total(self) -> int:
        return self.normal + self.macro


def allocate(targets: list[UnitState], hits: int, *, one_pass: bool = False) -> list[UnitState]:
    """Which unit takes each hit, as for shooting: front to back, no unit a second hit before every unit has one.

    A war engine takes up to its remaining damage capacity in each pass (the Epic convention). With
    ``one_pass`` (unsaveable hits, which need no second pass) hits beyond the last unit are left out.
    """
    order: list[UnitState] = []
    if not targets:
        return order
    while len(order) < hits:
        for unit in targets:
            order.extend([unit] * min(unit.dc, hits - len(order)))
            if len(order) == hits:
                break
        if one_pass:
            break
    return order


def check_positions(rules: FormationRules, attacker: Formation, defender: Formation) -> None:
    """Refuse positions that cannot both be true: base contact is mutual, and so is being directly engaged.

    An attacker with no unit directly engaged is no refusal: the assault does not take place (``no_assault``),
    whatever the defender's positions say.
    """
    touching = rules.contact  # "base contact" / "close contact"
    sides = ((ATTACKER, attacker), (DEFENDER, defender))
    if not any(group.contact or group.in_range for group in attacker.groups):
        return
    contact = {name: [group for group in formation.groups if group.contact] for name, formation in sides}
    for name in (ATTACKER, DEFENDER):
        other = name.other
        if contact[name] and not contact[other]:
            group = contact[name][0]
            raise SpecError(
                f"The {name.value} has units in {touching} ({group.name}: {group.contact}) but no {other.value} "
                f"unit is in {touching}: {touching} is mutual. A group with no contact= or ff= is all in "
                f"{touching}; give each group's positions, e.g. contact=0 ff=2 for units within "
                f"{rules.engagement_range} only.",
                token=f"{group.count}x {group.name}",
                example=rules.example_group,
            )
    if not any(group.contact or group.in_range for group in defender.groups):
        raise SpecError(
            f"The attacker has units directly engaged but no defending unit is directly engaged (in {rules.contact} or "
            f"within {rules.engagement_range} with a line of fire): a unit within {rules.engagement_range} of an "
            "enemy is within that enemy's range too, and supporting fire needs a directly engaged enemy to fire at.",
            token=f"{defender.groups[0].count}x {defender.groups[0].name}",
            example=rules.example_group,
        )


def attack_value(group: Group, position: Position, contact_lost: bool) -> int | None:
    """The value a unit of ``group`` attacks with at ``position`` (None: it cannot attack there); units in contact
    whose every contact partner died (``contact_lost``) shoot as units in range with a line of fire would."""
    if position is Position.CONTACT:
        return group.ff if contact_lost else group.cc
    return group.range_value if position is Position.IN_RANGE else None


def plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def be(count: int) -> str:
    return "is" if count == 1 else "are"


class Fight:
    """One resolution's state: the two sides, the steps written so far, the round, and what each side ends with."""

    def __init__(
        self,
        rules: FormationRules,
        settings: FormationSettings,
        *,
        attacker: Formation,
        defender: Formation,
        support: tuple[Support | None, Support | None],
        inputs: Inputs,
        dice: DiceSource,
    ) -> None:
        self.rules = rules
        self.settings = settings
        self.inputs = inputs
        self.dice = dice
        self.sides = {
            ATTACKER: SideState(ATTACKER, attacker, support[0], settings),
            DEFENDER: SideState(DEFENDER, defender, support[1], settings),
        }
        self.steps: list[Step] = []
        self.round = 1
        self.support_markers: dict[SideName, list[tuple[str, int]]] = {ATTACKER: [], DEFENDER: []}
        self.after: dict[SideName, dict[str, Json]] = {ATTACKER: {}, DEFENDER: {}}

    # ------------------------------------------------------------------ helpers

    def hit_target(self, value: int) -> Target:
        return Target(self.rules.hit_op, value)

    def units_text(self, count: int) -> str:
        return plural(count, "unit")

    def value(self, value: int | None) -> str:
        return self.rules.value_text(value)

    def save_text(self, value: int) -> str:
        """Sv4+ when saves roll over, Sv4 when they roll under (Reikhammer's save_direction=under)."""
        return f"{value}+" if self.settings.save_op is Op.AT_LEAST else str(value)
