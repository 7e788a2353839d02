"""The state of a Bolt Action assault: the procedure's constants, each unit's men, and the fight they share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_core.dice import DiceSource
from rules_core.errors import OptionError, OptionName, example
from rules_core.games.boltaction.spec import NCO, OFFICER, TOUGH_FIGHTERS, Unit
from rules_core.options import OptionValue
from rules_core.report import Roll, SideName, Step
from rules_core.roll_kinds import DAMAGE, LEADERSHIP, REACTION_FIRE

GAME_ID = "boltaction"
RUN_MOVE = 12.0  # the maximum Run move: the assault's reach
ROUGH_MOVE = 6.0  # through rough ground or over an obstacle
SURPRISE_RANGE = 6.0
BASE_TO_HIT = 3
MAX_ROUNDS = 200  # a guard only: simultaneous rounds end long before (each side always has a chance to damage)
ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER

# What each roll is for (Roll.kind): reaction fire's to-hit rolls (the 7+ second roll included), damage rolls in
# reaction fire and close quarters (Tough Fighters' extra rolls included), the morale check, and this game's own:
EXCEPTIONAL_DAMAGE = "exceptional_damage"  # each damage 6 re-rolled: another 6 lets the striker pick the casualty
REGROUP_DISTANCE = "regroup_distance"  # the winner's D6" regroup
ROLL_KINDS = (REACTION_FIRE, DAMAGE, EXCEPTIONAL_DAMAGE, LEADERSHIP, REGROUP_DISTANCE)


class Outcome:
    FAILED_TO_CONTACT = "failed_to_contact"
    SHOT_DOWN = "shot_down"  # reaction fire wiped the assaulters out
    FAILED_MORALE = "failed_morale"  # the assaulters failed their morale check under reaction fire: destroyed
    DESTROYED = "destroyed"  # the loser of close quarters is destroyed
    BOTH_DESTROYED = "both_destroyed"
    UNDECIDED = "undecided"  # only after MAX_ROUNDS drawn rounds


# Which men a unit's owner removes first (plain riflemen, then assault-weapon men, then the NCO, the officer last);
# exceptional damage lets the enemy pick the officer, then the NCO.
_OWNER_ORDER = {"man": 0, NCO: 1, OFFICER: 2}


@dataclass(slots=True)
class Man:
    role: str  # "man", "nco" or "officer"
    tough: bool  # a Tough Fighter (the unit's rule, or an assault weapon)


def unit_men(unit: Unit) -> list[Man]:
    """The unit's men; the officer, then the NCO, carry the first assault weapons (the usual loadout)."""
    everyone_tough = unit.has(TOUGH_FIGHTERS)
    weapons = unit.assault_weapon_men
    roles = [role for role in (OFFICER, NCO) if unit.has(role)]
    roles += ["man"] * (unit.count - len(roles))
    men = []
    for role in roles:
        men.append(Man(role, everyone_tough or weapons > 0))
        weapons -= 1
    return men


@dataclass(slots=True, eq=False)
class UnitState:
    unit: Unit
    side: SideName
    men: list[Man]
    pins: int
    side_name: str = ""
    caused: int = 0  # casualties this unit inflicted by damage rolls (reaction fire and close quarters)
    surrendered: int = 0  # survivors removed when the unit lost
    regroup_inches: int | None = None
    start: int = field(init=False)

    def __post_init__(self) -> None:
        self.start = len(self.men)

    @property
    def alive(self) -> int:
        return len(self.men)

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def leaders(self) -> int:
        return sum(man.role != "man" for man in self.men)

    def remove(self, casualties: int, picked_by_enemy: int) -> list[str]:
        """Remove casualties: ``picked_by_enemy`` leaders first (exceptional damage), the rest as the owner picks."""
        removed: list[str] = []
        for _ in range(min(picked_by_enemy, casualties)):
            leader = next((man for man in self.men if man.role == OFFICER), None) or next(
                (man for man in self.men if man.role == NCO), None
            )
            if leader is None:
                break
            self.men.remove(leader)
            removed.append(leader.role)
        for _ in range(casualties - len(removed)):
            if not self.men:
                break
            man = min(self.men, key=lambda m: (_OWNER_ORDER[m.role], m.tough))
            self.men.remove(man)
            removed.append(man.role)
        return removed


@dataclass(frozen=True, slots=True)
class Damage:
    """One side's damage rolls against the other: casualties (before capping at the men left) and exceptional."""

    rolls: tuple[Roll, ...]
    casualties: int
    exceptional: int


@dataclass(slots=True, eq=False)
class Fight:
    """What every step reads and writes: the options, the dice, both units, and the steps said so far."""

    options: Mapping[str, OptionValue]
    dice: DiceSource
    attacker: UnitState
    defender: UnitState
    steps: list[Step] = field(default_factory=list)


def check_terrain(options: Mapping[str, OptionValue]) -> None:
    """Refuse rough ground with a defended obstacle (decision 2): the text lets an assault reach 12" at defenders
    behind an obstacle only when the line "is clear of all terrain except for" that obstacle, so a path across
    rough ground (or another obstacle) is never a defended obstacle's."""
    if options["rough_ground"] and options["defended_obstacle"]:
        raise OptionError(
            [OptionName("rough_ground"), " and ", OptionName("defended_obstacle"), " cannot both hold: a defended "
             "obstacle needs a line clear of all terrain except for the obstacle the target shelters right behind "
             '(full 12" reach). Give only ', OptionName("rough_ground"), " when the path crosses rough ground or "
             'another obstacle (6" reach), only ', OptionName("defended_obstacle"), " when the target shelters "
             "behind the one obstacle on a clear line."],
            token="rough_ground",
            example=example(distance=9, defended_obstacle=True),
        )  # fmt: skip


def declared_close(options: Mapping[str, OptionValue]) -> bool:
    """Whether the assault was declared from 6" or less (a surprise charge): the distance given says so, and with
    none given, an assault over rough ground (which reaches only 6") must have been."""
    distance = options["distance"]
    if distance is None:
        return bool(options["rough_ground"])
    return float(distance) <= SURPRISE_RANGE


def surrender_words(survivors: int) -> str:
    """What a destroyed unit's survivors do, its verbs agreeing with their number: "surrenders, flees or plays
    dead" for one man."""
    return "surrenders, flees or plays dead" if survivors == 1 else "surrender, flee or play dead"
