"""The formation games' typed units: a group of units with its values and positions, a formation (or a side of
several formations fighting as one), supporting formations, and the keywords and limits the spec reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

MACRO_WEAPON = "macro-weapon"
REINFORCED_ARMOUR = "reinforced-armour"
INVULNERABLE = "invulnerable"
INSPIRING = "inspiring"
NO_LINE_OF_FIRE = "no-line-of-fire"  # Reikhammer: the group's ff= units are within 4 tiles with no line of fire
SPECIALS = (MACRO_WEAPON, REINFORCED_ARMOUR, INVULNERABLE, INSPIRING, NO_LINE_OF_FIRE)
SETTINGS = ("contact", "ff", "extra-attacks", "cover", "dc")
INVULNERABLE_SAVE = 6
MAX_DC = 20
MAX_EXTRA_ATTACKS = 10
MAX_MARKERS = 200


class UnitType(StrEnum):
    INFANTRY = "INF"
    LIGHT_VEHICLE = "LV"
    ARMOURED_VEHICLE = "AV"
    WAR_ENGINE = "WE"


UNIT_TYPES = frozenset(unit_type.value for unit_type in UnitType)


class Position(IntEnum):
    """Where a unit stands after the charge and counter-charges; also the order hits are allocated in."""

    CONTACT = 0  # base contact: attacks with CC
    IN_RANGE = 1  # within the engagement range with a line of fire: attacks with FF
    OUT = 2  # in the formation but not directly engaged: neither attacks nor can be hit (bar result hits)


@dataclass(frozen=True, slots=True)
class Group:
    count: int
    name: str
    cc: int | None  # None: no CC value (cannot attack in contact)
    ff: int | None  # None: FF- (assault weapons only)
    save: int | None  # None: no armour save
    unit_type: UnitType | None  # None only in supporting formations, where it is never needed
    dc: int  # damage capacity of each war engine; 1 for every other unit
    contact: int
    in_range: int
    extra_attacks: int
    cover: int | None
    specials: frozenset[str]
    markers: int | None = None  # its formation's starting markers (shock=N; Reikhammer), None: not given here

    @property
    def out_of_fight(self) -> int:
        return self.count - self.contact - self.in_range

    @property
    def war_engine(self) -> bool:
        return self.unit_type is UnitType.WAR_ENGINE

    def at(self, position: Position) -> int:
        return (self.contact, self.in_range, self.out_of_fight)[position]

    @property
    def range_value(self) -> int | None:
        """The FF value its units within range attack with: none without a line of fire (Reikhammer)."""
        return None if NO_LINE_OF_FIRE in self.specials else self.ff


@dataclass(frozen=True, slots=True)
class Formation:
    groups: tuple[Group, ...]
    # A side of several formations fighting as one (Reikhammer, '|' between them): how many groups each has, in
    # order. Empty: one formation.
    sizes: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        return self.groups[0].name

    def parts(self) -> tuple[tuple[int, ...], ...]:
        """The group indices of each formation making up the side (one formation: every group)."""
        parts: list[tuple[int, ...]] = []
        first = 0
        for size in self.sizes or (len(self.groups),):
            parts.append(tuple(range(first, first + size)))
            first += size
        return tuple(parts)

    @property
    def units(self) -> int:
        return sum(group.count for group in self.groups)


@dataclass(frozen=True, slots=True)
class Support:
    """Supporting formations: each fires with FF and gains a marker if its side loses."""

    formations: tuple[Formation, ...]
