"""Bolt Action unit specs: one unit a side, its men, quality and close-quarters rules.

Shape: ``[N x] name: quality [tough-fighters] [fanatics] [nco] [officer] [smg=N] [assault-rifle=N] [pistol=N]
[pins=N]``, e.g. ``6x Volksgrenadiers: inexperienced smg=2 nco``. Quality (``inexperienced``, ``regular``,
``veteran``) is required: it gives the damage value (3+ / 4+ / 5+) and Morale (8 / 9 / 10).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from rules_core.errors import LimitError, SpecError, UnsupportedError
from rules_core.spec import TokenKind, closest, did_you_mean, fixed_setting, parse_side_spec

EXAMPLE_UNIT = "10x Infantry: regular"
EXAMPLE_FULL = "6x Volksgrenadiers: inexperienced smg=2 nco"
MAX_PINS = 20
MAX_MEN = 30  # a big infantry section; 2 x 30 men keep a fight well inside the engine's limits


class Quality(StrEnum):
    INEXPERIENCED = "inexperienced"
    REGULAR = "regular"
    VETERAN = "veteran"

    @property
    def damage_value(self) -> int:
        """The D6 score that damages a man of this quality (REFERENCE.md 003)."""
        return {"inexperienced": 3, "regular": 4, "veteran": 5}[self.value]

    @property
    def morale(self) -> int:
        return {"inexperienced": 8, "regular": 9, "veteran": 10}[self.value]


TOUGH_FIGHTERS = "tough-fighters"
FANATICS = "fanatics"
NCO = "nco"
OFFICER = "officer"
KEYWORDS = (TOUGH_FIGHTERS, FANATICS, NCO, OFFICER)
ASSAULT_WEAPONS = ("smg", "assault-rifle", "pistol")
SETTINGS = (*ASSAULT_WEAPONS, "pins")
UNSUPPORTED = {
    "vehicle": "Close quarters against vehicles are not supported yet: give an infantry or artillery unit.",
    "tank": "Close quarters against vehicles are not supported yet: give an infantry or artillery unit.",
}
_NUMBER = re.compile(r"^\d{1,2}$")


@dataclass(frozen=True, slots=True)
class Unit:
    count: int
    name: str
    quality: Quality
    keywords: frozenset[str]
    assault_weapons: tuple[tuple[str, int], ...]  # (weapon, men carrying it), only those given
    pins: int

    @property
    def assault_weapon_men(self) -> int:
        return sum(men for _, men in self.assault_weapons)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


def _error(message: str, token: str, example: str = EXAMPLE_FULL, fix: str | None = None) -> SpecError:
    return SpecError(message, token=token, example=example, fix=fix)


def parse_unit(text: str) -> Unit:
    """Parse one side: exactly one unit, written as one group."""
    # Its keywords are read in any case (NCO, Veteran), and named in its own errors.
    known = (*(q.value for q in Quality), *KEYWORDS, *UNSUPPORTED)
    side = parse_side_spec(text, example=EXAMPLE_FULL, keywords=known, settings=SETTINGS)
    groups = [group for unit in side.units for group in unit.groups]
    if len(groups) != 1:
        raise _error(
            f"A Bolt Action side is one unit written as one group, not {len(groups)}: a unit assaults one enemy "
            "unit, and its men share one quality.",
            "|" if len(side.units) > 1 else ";",
        )
    spec = groups[0]
    if spec.count > MAX_MEN:
        raise LimitError(
            f"'{spec.name}' has {spec.count} men; the limit is {MAX_MEN}.", token=f"{spec.count}x", example=EXAMPLE_FULL
        )
    quality: Quality | None = None
    keywords: set[str] = set()
    weapons: dict[str, int] = {}
    pins = 0
    pins_given = False
    for token in spec.tokens:
        if token.kind is TokenKind.STAT:
            raise _error(
                f"'{token.text}' on '{spec.name}': Bolt Action units have no stat line here; give the quality "
                "(inexperienced, regular or veteran) and keywords.",
                token.text,
            )
        if token.kind is TokenKind.KEYWORD:
            if token.key in UNSUPPORTED:
                raise UnsupportedError(UNSUPPORTED[token.key], token=token.text, example=EXAMPLE_UNIT)
            if token.key in tuple(Quality):
                if quality is not None:
                    raise _error(
                        f"'{spec.name}' gives two qualities ({quality.value}, {token.key}); a unit has one.",
                        token.text,
                    )
                quality = Quality(token.key)
                continue
            if token.key not in KEYWORDS:
                hint = did_you_mean(token.key, (*(q.value for q in Quality), *KEYWORDS))
                raise _error(
                    f"Unknown keyword '{token.text}' on '{spec.name}'.{hint} Keywords: inexperienced, regular, "
                    f"veteran, {', '.join(KEYWORDS)}.",
                    token.text,
                    fix=closest(token.key, (*(q.value for q in Quality), *KEYWORDS)),
                )
            if token.key in keywords:
                raise _error(f"'{spec.name}' gives {token.key} twice.", token.text)
            keywords.add(token.key)
            continue
        if token.key not in SETTINGS:
            hint = did_you_mean(token.key, SETTINGS)
            raise _error(
                f"Unknown setting '{token.text}' on '{spec.name}'.{hint} Settings: smg=N, assault-rifle=N, pistol=N, "
                "pins=N.",
                token.text,
                fix=fixed_setting(token, SETTINGS),
            )
        high = MAX_PINS if token.key == "pins" else spec.count
        if not _NUMBER.match(token.value) or not 0 <= int(token.value) <= high:
            what = "pin markers" if token.key == "pins" else "men carrying one"
            raise _error(
                f"'{token.text}' on '{spec.name}': {token.key} is a number of {what}, 0 to {high}.", token.text
            )
        if token.key == "pins":
            if pins_given:
                raise _error(f"'{spec.name}' gives pins= twice.", token.text)
            pins, pins_given = int(token.value), True
        else:
            if token.key in weapons:
                raise _error(f"'{spec.name}' gives {token.key}= twice.", token.text)
            weapons[token.key] = int(token.value)
    if quality is None:
        raise _error(
            f"'{spec.name}' has no quality: add inexperienced, regular or veteran (it sets the damage value and "
            "Morale).",
            spec.name,
        )
    if sum(weapons.values()) > spec.count:
        raise _error(
            f"'{spec.name}' has {spec.count} men but {sum(weapons.values())} assault weapons.",
            next(f"{key}={value}" for key, value in weapons.items()),
        )
    leaders = int(NCO in keywords) + int(OFFICER in keywords)
    if leaders > spec.count:
        raise _error(f"'{spec.name}' has {spec.count} man but both an officer and an NCO.", NCO)
    ordered = tuple((weapon, weapons[weapon]) for weapon in ASSAULT_WEAPONS if weapons.get(weapon))
    return Unit(spec.count, spec.name, quality, frozenset(keywords), ordered, pins)


def format_unit(unit: Unit) -> str:
    """Canonical text: parse_unit(format_unit(u)) == u."""
    words = [unit.quality.value, *(keyword for keyword in KEYWORDS if keyword in unit.keywords)]
    words += [f"{weapon}={men}" for weapon, men in unit.assault_weapons]
    words.append(f"pins={unit.pins}")
    return f"{unit.count}x {unit.name}: " + " ".join(words)
