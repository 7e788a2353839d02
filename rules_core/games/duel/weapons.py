"""Hand-to-hand weapons of the duel: profiles, the inline form, and the weapon table's schema.

A weapon carries a Strength (fixed ``S5``, relative to its user ``S+1``, or the
user's own ``S=user``), a Damage (``1``, ``D3``, ``D6``, ``2D6``, ``D3+1``...), an
optional save modifier (``sv=-1``; without one the Strength-to-save table applies)
and two flags: ``parry`` and ``cc`` (the Close Combat rule).

The shipped weapon table is YAML in ``data/weapons/duel.yaml``. rules_core does no
I/O: ``bot/`` reads the file and hands the parsed mapping to :func:`parse_weapon_table`,
which checks it against the schema (plain data in, typed :class:`Armoury` out).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import product

WEAPON_TABLE_SCHEMA = "referee-weapons/1"
MAX_WEAPON_NAME_CHARS = 30

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_DAMAGE = re.compile(r"^(?:([1-3])?D([36]))?(?:\+?(\d{1,2}))?$")
_FIXED_STRENGTH = re.compile(r"^S(\d{1,2})$")
_RELATIVE_STRENGTH = re.compile(r"^S([+-]\d)$")
_TABLE_STRENGTH = re.compile(r"^user(?:([+-]\d))?$")
_SAVE_MODIFIER = re.compile(r"^(0|-\d{1,2})$")

INLINE_EXAMPLE = "weapon=claw/S+1/dmg=D3/sv=-1/parry/cc"


class WeaponError(ValueError):
    """An inline weapon or a weapon-table entry that does not match the weapon schema."""


@dataclass(frozen=True, slots=True)
class Damage:
    """Wounds per unsaved hit: ``dice`` D``sides`` + ``bonus`` (``sides`` 0 for a fixed number)."""

    dice: int
    sides: int
    bonus: int

    @property
    def fixed(self) -> bool:
        return self.sides == 0

    def text(self) -> str:
        if self.fixed:
            return str(self.bonus)
        dice = f"{self.dice if self.dice > 1 else ''}D{self.sides}"
        return dice + (f"+{self.bonus}" if self.bonus else "")

    def value(self, faces: list[int]) -> int:
        """The damage from the D6 faces rolled for it (a D3 is half a D6, rounded up)."""
        if self.sides == 3:
            return sum((face + 1) // 2 for face in faces) + self.bonus
        return sum(faces) + self.bonus

    def outcomes(self) -> Iterator[int]:
        """Every equally likely damage value (for choosing the best weapon)."""
        if self.fixed:
            yield self.bonus
            return
        for faces in product(range(1, 7), repeat=self.dice):
            yield self.value(list(faces))


def parse_damage(text: str) -> Damage:
    match = _DAMAGE.match(text)
    if match is None or not text or (match.group(2) is None and match.group(1) is not None):
        raise WeaponError(f"the damage '{text}' is not a number (1 to 10) or dice (D3, D6, 2D6, D3+1)")
    count, sides, bonus = match.group(1), match.group(2), match.group(3)
    if sides is None:
        value = int(bonus)
        if not 1 <= value <= 10:
            raise WeaponError(f"the damage '{text}' must be 1 to 10")
        return Damage(0, 0, value)
    if int(bonus or 0) > 10:
        raise WeaponError(f"the damage '{text}' adds more than +10")
    return Damage(int(count or 1), int(sides), int(bonus or 0))


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    strength: int  # the fixed Strength, or the bonus over the user's Strength when ``relative``
    relative: bool
    damage: Damage
    save_modifier: int | None  # None: the Strength-to-save table decides
    parry: bool
    close_combat: bool

    def strength_for(self, user_strength: int) -> int:
        if self.relative:
            return max(1, min(10, user_strength + self.strength))
        return self.strength

    def strength_text(self) -> str:
        if not self.relative:
            return f"S{self.strength}"
        if self.strength == 0:
            return "S=user"
        return f"S{self.strength:+d}"

    def inline(self) -> str:
        """The canonical inline form, which re-parses to this weapon without any table."""
        parts = [self.name, self.strength_text(), f"dmg={self.damage.text()}"]
        if self.save_modifier is not None:
            parts.append(f"sv={self.save_modifier}")
        if self.parry:
            parts.append("parry")
        if self.close_combat:
            parts.append("cc")
        return "weapon=" + "/".join(parts)

    def describe(self, user_strength: int) -> str:
        modifier = "Strength table" if self.save_modifier is None else f"{self.save_modifier:+d}"
        return f"{self.name} (S{self.strength_for(user_strength)}, damage {self.damage.text()}, save {modifier})"


def _check_name(name: str) -> str:
    if not _NAME.match(name) or len(name) > MAX_WEAPON_NAME_CHARS:
        raise WeaponError(
            f"the weapon name '{name[:40]}' must be kebab-case (lower-case words joined by '-'), "
            f"at most {MAX_WEAPON_NAME_CHARS} characters"
        )
    return name


_LOWER_STRENGTH = re.compile(r"^s[0-9+=]")


def parse_inline_weapon(value: str) -> Weapon:
    """``claw/S+1/dmg=D3/sv=-1/parry/cc`` (the text after ``weapon=``) as a weapon."""
    name, *fields = value.split("/")
    _check_name(name)
    strength: tuple[int, bool] | None = None
    damage: Damage | None = None
    save_modifier: int | None = None
    flags: set[str] = set()
    seen: set[str] = set()
    for written in fields:
        # Strength is a stat: read in any case (s+1 is S+1), as the spec's stat keys are.
        field = "S" + written[1:] if _LOWER_STRENGTH.match(written) else written
        kind = "S" if field.startswith("S") else field.split("=", 1)[0]
        if kind in seen:
            raise WeaponError(f"'{name}' gives {kind} twice")
        seen.add(kind)
        if field == "S=user":
            strength = (0, True)
        elif (fixed := _FIXED_STRENGTH.match(field)) is not None:
            if not 1 <= int(fixed.group(1)) <= 10:
                raise WeaponError(f"'{name}': a fixed Strength is S1 to S10, not {field}")
            strength = (int(fixed.group(1)), False)
        elif (relative := _RELATIVE_STRENGTH.match(field)) is not None:
            strength = (int(relative.group(1)), True)
        elif field.startswith("dmg="):
            damage = parse_damage(field[4:])
        elif field.startswith("sv="):
            if not _SAVE_MODIFIER.match(field[3:]) or int(field[3:]) < -10:
                raise WeaponError(f"'{name}': the save modifier is 0 or a negative number down to -10, not {field}")
            save_modifier = int(field[3:])
        elif field in ("parry", "cc"):
            flags.add(field)
        else:
            raise WeaponError(
                f"'{name}' has the field '{field}', which is not S5, S+1, S=user, dmg=N, sv=-N, parry or cc"
            )
    relative_strength = strength if strength is not None else (0, True)
    return Weapon(
        name=name,
        strength=relative_strength[0],
        relative=relative_strength[1],
        damage=damage if damage is not None else Damage(0, 0, 1),
        save_modifier=save_modifier,
        parry="parry" in flags,
        close_combat="cc" in flags,
    )


@dataclass(frozen=True, slots=True)
class Armoury:
    """The named weapons a spec may use as keywords (``chainsword``), in table order."""

    weapons: Mapping[str, Weapon]
    source: str = ""

    def get(self, name: str) -> Weapon | None:
        return self.weapons.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.weapons)


EMPTY_ARMOURY = Armoury({})
# The weapon table under data/ (bot/ reads it and binds it with DuelGame.with_data: rules_core does no I/O).
WEAPON_TABLE = "weapons/duel.yaml"

_ENTRY_KEYS = {"strength", "damage", "save_modifier", "parry", "close_combat", "note"}
_REQUIRED_KEYS = {"strength", "damage", "parry", "close_combat"}


def _table_strength(name: str, value: object) -> tuple[int, bool]:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 10:
            raise WeaponError(f"weapon '{name}': strength {value} is not 1 to 10")
        return value, False
    if isinstance(value, str) and (match := _TABLE_STRENGTH.match(value)) is not None:
        return int(match.group(1) or 0), True
    raise WeaponError(f"weapon '{name}': strength must be 1 to 10, 'user' or 'user+N', not {value!r}")


def parse_weapon_table(data: object, *, name: str = "weapon table") -> Armoury:
    """Check a parsed weapon table (schema ``referee-weapons/1``) and build the armoury it describes."""
    if not isinstance(data, Mapping):
        raise WeaponError(f"{name}: the top level must be a mapping")
    extra = set(data) - {"schema", "game", "source", "weapons"}
    if extra:
        raise WeaponError(f"{name}: unknown top-level keys {sorted(map(str, extra))}")
    if data.get("schema") != WEAPON_TABLE_SCHEMA:
        raise WeaponError(f"{name}: 'schema' must be {WEAPON_TABLE_SCHEMA!r}")
    source = data.get("source", "")
    if not isinstance(source, str):
        raise WeaponError(f"{name}: 'source' must be text")
    entries = data.get("weapons")
    if not isinstance(entries, Mapping) or not entries:
        raise WeaponError(f"{name}: 'weapons' must map weapon names to profiles")
    weapons: dict[str, Weapon] = {}
    for key, entry in entries.items():
        weapon_name = _check_name(str(key))
        if not isinstance(entry, Mapping):
            raise WeaponError(f"{name}: weapon '{weapon_name}' must be a mapping of its profile")
        keys = set(map(str, entry))
        if not keys >= _REQUIRED_KEYS or not keys <= _ENTRY_KEYS:
            raise WeaponError(
                f"{name}: weapon '{weapon_name}' needs {sorted(_REQUIRED_KEYS)} and may add save_modifier and note; "
                f"it has {sorted(keys)}"
            )
        strength, relative = _table_strength(weapon_name, entry["strength"])
        damage = entry["damage"]
        if isinstance(damage, bool) or not isinstance(damage, int | str):
            raise WeaponError(f"{name}: weapon '{weapon_name}': damage must be a number or dice like D3")
        save_modifier = entry.get("save_modifier")
        if save_modifier is not None and (
            isinstance(save_modifier, bool) or not isinstance(save_modifier, int) or not -10 <= save_modifier <= 0
        ):
            raise WeaponError(f"{name}: weapon '{weapon_name}': save_modifier must be 0 to -10")
        flags = (entry["parry"], entry["close_combat"])
        if not all(isinstance(flag, bool) for flag in flags):
            raise WeaponError(f"{name}: weapon '{weapon_name}': parry and close_combat must be true or false")
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise WeaponError(f"{name}: weapon '{weapon_name}': note must be text")
        weapons[weapon_name] = Weapon(
            weapon_name, strength, relative, parse_damage(str(damage)), save_modifier, flags[0], flags[1]
        )
    return Armoury(weapons, source)
