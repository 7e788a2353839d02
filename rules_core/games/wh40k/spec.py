"""40K unit specs: typed profiles, the parser and the canonical formatter.
Long because it is the one grammar of a 40K side: every token's check with its own error and correct example, and
the formatter that writes back exactly what the parser reads (reports store that text and re-parse it); split
apart, the parser and the formatter would drift.

Shape (DESIGN.md): ``[N x] name: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ [Inv5+] keywords settings``,
groups of a unit separated by ``;``, units of a side by ``|``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from rules_core.errors import Do, Hint, SpecError, UnsupportedError
from rules_core.spec import (
    MAX_UNITS_PER_SIDE,
    GroupSpec,
    Token,
    TokenKind,
    UnitSpec,
    closest,
    did_you_mean,
    fixed_setting,
    fixed_stat,
    parse_side_spec,
    suggest_stat,
)

GAME_ID = "40k"  # the game's id, also for the errors that point at its help

EXAMPLE_GROUP = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
EXAMPLE_SIDE = (
    "4x Guardian: WS3 S3 T3 W1 I4 A1 Ld8 Sv5+ | "
    "1x Warlock: WS4 S3 T3 W1 I4 A1 Ld8 Sv5+ Inv4+ force-weapon independent-character"
)

# Stat tokens, exactly as written in the rules, with their ranges.
STATS: dict[str, tuple[int, int, str]] = {
    "WS": (1, 10, "Weapon Skill"),
    "S": (1, 10, "Strength"),
    "T": (1, 10, "Toughness"),
    "W": (1, 10, "Wounds"),
    "I": (1, 10, "Initiative"),
    "A": (0, 10, "Attacks"),
    "Ld": (1, 10, "Leadership"),
}
REQUIRED_STATS = ("WS", "S", "T", "W", "I", "A", "Ld", "Sv")
# Every stat key with an example value: keys are read in any case (ws4 is WS4), near misses suggest one of these.
STAT_EXAMPLES = {"WS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1", "Ld": "8", "Sv": "3+", "Inv": "4+"}

# Close-combat weapons. Each is a special attack form a model may choose not to use.
POWER_FIST = "power-fist"
POWER_WEAPON = "power-weapon"
LIGHTNING_CLAW = "lightning-claw"
LIGHTNING_CLAWS = "lightning-claws"
FORCE_WEAPON = "force-weapon"
HEAVY_CCW = "heavy-ccw"
RENDING = "rending"
POISONED = "poisoned"
WEAPONS = (
    POWER_FIST,
    POWER_WEAPON,
    LIGHTNING_CLAW,
    LIGHTNING_CLAWS,
    FORCE_WEAPON,
    HEAVY_CCW,
    RENDING,
    POISONED,
)
# Weapons held in a hand: two of them make a model count as having two weapons (the dual-weapon note).
HAND_WEAPONS = (POWER_FIST, POWER_WEAPON, LIGHTNING_CLAW, LIGHTNING_CLAWS, FORCE_WEAPON)
ARMOUR_IGNORING = frozenset({POWER_FIST, POWER_WEAPON, LIGHTNING_CLAW, LIGHTNING_CLAWS, FORCE_WEAPON})

MONSTROUS = "monstrous"
TWO_WEAPONS = "two-weapons"
FRAG = "frag-grenades"
PLASMA = "plasma-grenades"
BIKE = "bike"
JUMP_PACK = "jump-pack"
INDEPENDENT_CHARACTER = "independent-character"
DIES_FIRST = "dies-first"
DIES_LAST = "dies-last"
# Facts of this turn about a unit (who charged, who is in cover): written on any of its groups, they hold for the
# whole unit, and a next round's survivors drop them (this_turn_only).
CHARGED = "charged"
NOT_CHARGED = "not-charged"
IN_COVER = "in-cover"
# A psyker that already used a psychic power this turn: its force weapon strikes as a power weapon (decision 13).
USED_PSYCHIC_POWER = "used-psychic-power"
TURN_FACTS = (CHARGED, NOT_CHARGED, IN_COVER, USED_PSYCHIC_POWER)

KEYWORDS = (
    *WEAPONS,
    MONSTROUS,
    TWO_WEAPONS,
    FRAG,
    PLASMA,
    BIKE,
    JUMP_PACK,
    INDEPENDENT_CHARACTER,
    DIES_FIRST,
    DIES_LAST,
    *TURN_FACTS,
)
_KEYWORD_SET = frozenset(KEYWORDS)
_NOT_FACTS = tuple(keyword for keyword in KEYWORDS if keyword not in TURN_FACTS)
# Keyword order in the canonical form.
_KEYWORD_ORDER = {keyword: position for position, keyword in enumerate(KEYWORDS)}

GROUP_SETTINGS = ("engaged", "supporting", "poisoned", "strike-with", "vs", "tie-t", "tie-save", "grenades", "hits")
UNIT_SETTINGS = ("vs", "tie-t", "tie-save", "grenades", "hits")
# For the hints on a value written apart from its setting: vs= and hits= take lists.
_SETTING_EXAMPLES = {**dict.fromkeys(GROUP_SETTINGS, ""), "vs": "1,2", "hits": "2:1,3:1"}

# Dividing attacks between enemy units (MULTIPLE COMBATS; CHARACTERS IN ASSAULTS).
EXAMPLE_SPLIT = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ engaged=8 supporting=2 vs=1:6+2,2:2"
EXAMPLE_DIVIDE = "1x Captain: WS6 S4 T4 W3 I5 A3 Ld10 Sv3+ Inv4+ independent-character vs=1,2 hits=2:1"
_SPLIT_ITEM = re.compile(r"^(\d{1,2}):(\d{1,3})(?:\+(\d{1,3}))?$")

_SAVE = re.compile(r"^([2-6])\+$")
_NUMBER = re.compile(r"^\d{1,3}$")


class Grenades(StrEnum):
    NONE = "none"
    FRAG = "frag"
    PLASMA = "plasma"


@dataclass(frozen=True, slots=True)
class Profile:
    ws: int
    s: int
    t: int
    w: int
    i: int
    a: int
    ld: int
    sv: int | None
    inv: int | None

    @property
    def save_type(self) -> tuple[int | None, int | None]:
        return (self.sv, self.inv)


@dataclass(frozen=True, slots=True)
class Group:
    count: int
    name: str
    profile: Profile
    keywords: frozenset[str]
    poisoned: int | None  # the score a poisoned weapon wounds on, None when not poisoned
    engaged: int
    supporting: int
    strike_with: str | None  # a weapon keyword, "none", or None for the default policy
    # vs=1:6+2,2:2: (enemy unit, models in base contact, models within 2") per enemy unit the group's models
    # fight; empty when the whole group fights its unit's target.
    split: tuple[tuple[int, int, int], ...] = ()

    @property
    def weapons(self) -> tuple[str, ...]:
        return tuple(weapon for weapon in WEAPONS if weapon in self.keywords)

    @property
    def out_of_fight(self) -> int:
        return self.count - self.engaged - self.supporting


@dataclass(frozen=True, slots=True)
class Unit:
    groups: tuple[Group, ...]
    vs: int  # 1-based index of the enemy unit it fights
    tie_t: int | None
    tie_save: int | None  # armour value chosen on a tied save majority; 7 stands for "no armour save"
    grenades: Grenades | None  # explicit choice when it carries both kinds
    # An independent character's vs=1,2: the enemy units it divides its hits between (vs is the first).
    divide: tuple[int, ...] = ()
    # hits=2:1: (enemy unit, at most that many hits), dealt first, in order; the rest go round in turn.
    hits: tuple[tuple[int, int], ...] = ()

    @property
    def name(self) -> str:
        return self.groups[0].name

    @property
    def models(self) -> int:
        return sum(group.count for group in self.groups)

    @property
    def independent_character(self) -> bool:
        return any(INDEPENDENT_CHARACTER in group.keywords for group in self.groups)

    def carries(self, keyword: str) -> bool:
        for group in self.groups:  # noqa: SIM110 (a loop, not any(): asked many times a resolution)
            if keyword in group.keywords:
                return True
        return False

    @property
    def charged(self) -> bool | None:
        """``charged`` (True) or ``not-charged`` (False) as written on the unit; None: the options decide."""
        return True if self.carries(CHARGED) else False if self.carries(NOT_CHARGED) else None


@dataclass(frozen=True, slots=True)
class Side:
    units: tuple[Unit, ...]

    @property
    def models(self) -> int:
        return sum(unit.models for unit in self.units)


NO_ARMOUR = 7  # tie-save=- : the owner picks the models with no armour save


def _error(message: str, token: str, example: str = EXAMPLE_GROUP, fix: str | None = None) -> SpecError:
    return SpecError(message, token=token, example=example, fix=fix)


def _missing_plus(token: Token) -> str | None:
    """``Sv3+`` for ``Sv3``: a roll written without its '+' (the one way to read it)."""
    return f"{token.key}{token.value}+" if token.value in ("2", "3", "4", "5", "6") else None


def _int_setting(token: Token, low: int, high: int, group: str) -> int:
    if not _NUMBER.match(token.value) or not low <= int(token.value) <= high:
        raise _error(
            f"'{token.text}' on '{group}': {token.key} must be a whole number from {low} to {high}.",
            token.text,
            f"{EXAMPLE_GROUP} {token.key}={max(low, 1)}",
        )
    return int(token.value)


def _save_value(token: Token, group: str) -> int | None:
    if token.value == "-":
        return None
    match = _SAVE.match(token.value)
    if match is None:
        raise _error(
            f"'{token.text}' on '{group}': a save is written {token.key}2+ to {token.key}6+"
            + (" (or Sv- for none)." if token.key == "Sv" else "."),
            token.text,
            fix=_missing_plus(token),
        )
    return int(match.group(1))


def _parse_group(spec: GroupSpec) -> tuple[Group, dict[str, Token]]:
    stats: dict[str, int | None] = {}
    keywords: set[str] = set()
    settings: dict[str, Token] = {}
    for token in spec.tokens:
        if token.kind is TokenKind.STAT:
            if token.key in ("Sv", "Inv"):
                if token.key == "Inv" and token.value == "-":
                    raise _error(
                        f"'{token.text}' on '{spec.name}': leave Inv out for no invulnerable save.",
                        token.text,
                    )
                value: int | None = _save_value(token, spec.name)
            elif token.key in STATS:
                low, high, long_name = STATS[token.key]
                if not _NUMBER.match(token.value) or not low <= int(token.value) <= high:
                    raise _error(
                        f"'{token.text}' on '{spec.name}': {long_name} ({token.key}) must be {low} to {high}.",
                        token.text,
                    )
                value = int(token.value)
            else:
                hint = suggest_stat(token.key, token.value, STAT_EXAMPLES)
                raise _error(
                    f"Unknown stat '{token.text}' on '{spec.name}'. 40K stats are WS S T W I A Ld Sv Inv.{hint}",
                    token.text,
                    fix=fixed_stat(token.key, token.value, STAT_EXAMPLES),
                )
            if token.key in stats:
                raise _error(f"'{spec.name}' gives {token.key} twice ('{token.text}').", token.text)
            stats[token.key] = value
        elif token.kind is TokenKind.KEYWORD:
            if token.key == "vehicle":
                raise UnsupportedError(
                    "Vehicles in assault are not supported yet: give only models with a profile (WS S T W I A Ld Sv).",
                    token=token.text,
                    example=EXAMPLE_GROUP,
                )
            if token.key not in KEYWORDS:
                # A turn's facts (charged, in-cover...) are guessed only one letter off: 'chainswrd' is no charge.
                fact = closest(token.key, TURN_FACTS)
                hint = f" Did you mean '{fact}'?" if fact else did_you_mean(token.key, _NOT_FACTS)
                raise SpecError(
                    f"Unknown keyword '{token.text}' on '{spec.name}'.{hint}",
                    token=token.text,
                    example=EXAMPLE_GROUP,
                    hint=Hint(Do.GAME_HELP, GAME_ID),
                    fix=closest(token.key, KEYWORDS),
                )
            if token.key in keywords:
                raise _error(f"'{spec.name}' gives the keyword {token.key} twice.", token.text)
            keywords.add(token.key)
        else:
            if token.key not in GROUP_SETTINGS:
                hint = did_you_mean(token.key, GROUP_SETTINGS)
                raise _error(
                    f"Unknown setting '{token.text}' on '{spec.name}'.{hint} 40K settings: "
                    + ", ".join(f"{name}=" for name in GROUP_SETTINGS)
                    + ".",
                    token.text,
                    fix=fixed_setting(token, GROUP_SETTINGS),
                )
            if token.key in settings:
                raise _error(f"'{spec.name}' gives {token.key}= twice.", token.text)
            settings[token.key] = token
    missing = [name for name in REQUIRED_STATS if name not in stats]
    if missing:
        raise _error(
            f"'{spec.name}' is missing {', '.join(missing)}: every 40K group needs "
            "WS S T W I A Ld and Sv (Sv- for no armour save).",
            spec.name,
        )
    if LIGHTNING_CLAW in keywords and LIGHTNING_CLAWS in keywords:
        raise _error(
            f"'{spec.name}' has both lightning-claw and lightning-claws: use lightning-claws for a pair.",
            LIGHTNING_CLAW,
        )
    poisoned: int | None = None
    if "poisoned" in settings:
        token = settings["poisoned"]
        match = _SAVE.match(token.value)
        if match is None:
            raise _error(
                f"'{token.text}' on '{spec.name}': a poisoned weapon wounds on 2+ to 6+.",
                token.text,
                f"{EXAMPLE_GROUP} poisoned=2+",
            )
        poisoned = int(match.group(1))
        keywords.add(POISONED)
    elif POISONED in keywords:
        poisoned = 4
    engaged = _int_setting(settings["engaged"], 0, spec.count, spec.name) if "engaged" in settings else None
    supporting = _int_setting(settings["supporting"], 0, spec.count, spec.name) if "supporting" in settings else 0
    if engaged is None:
        engaged = spec.count - supporting
    if engaged + supporting > spec.count:
        raise _error(
            f"'{spec.name}' has {spec.count} models but engaged={engaged} and supporting={supporting} "
            f"make {engaged + supporting}.",
            settings.get("supporting", settings.get("engaged", spec.tokens[0])).text,
            "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ engaged=6 supporting=4",
        )
    split: tuple[tuple[int, int, int], ...] = ()
    if "vs" in settings and ":" in settings["vs"].value:
        if INDEPENDENT_CHARACTER in keywords:
            token = settings["vs"]
            raise _error(
                f"'{token.text}' on '{spec.name}': an independent character is one model; it divides its hits "
                "between the units it is engaged with: vs= lists them.",
                token.text,
                EXAMPLE_DIVIDE,
            )
        split = _parse_split(settings.pop("vs"), spec.name, engaged, supporting)
    strike_with: str | None = None
    if "strike-with" in settings:
        token = settings["strike-with"]
        strike_with = token.value
        weapons = [w for w in WEAPONS if w in keywords]
        if strike_with != "none" and strike_with not in weapons:
            choices = " or ".join(f"strike-with={w}" for w in [*weapons, "none"])
            raise _error(
                f"'{token.text}' on '{spec.name}': '{spec.name}' has no {strike_with}; it can use {choices}.",
                token.text,
                "1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist power-weapon strike-with=power-weapon",
            )
    if INDEPENDENT_CHARACTER in keywords and spec.count != 1:
        raise _error(
            f"'{spec.name}' is an independent character: write it as one model ('1x {spec.name}').",
            f"{spec.count}x",
            "1x Warlock: WS4 S3 T3 W1 I4 A1 Ld8 Sv5+ Inv4+ independent-character",
        )
    if USED_PSYCHIC_POWER in keywords and FORCE_WEAPON not in keywords:
        raise _error(
            f"'{spec.name}' has used-psychic-power but no force-weapon: the token says a psyker that already used "
            "a psychic power this turn strikes with its force weapon as a power weapon.",
            USED_PSYCHIC_POWER,
            "1x Librarian: WS5 S4 T4 W2 I5 A2 Ld10 Sv3+ force-weapon used-psychic-power",
        )
    if DIES_FIRST in keywords and DIES_LAST in keywords:
        raise _error(f"'{spec.name}' cannot be both dies-first and dies-last.", DIES_LAST)
    profile = Profile(
        ws=_req(stats, "WS"),
        s=_req(stats, "S"),
        t=_req(stats, "T"),
        w=_req(stats, "W"),
        i=_req(stats, "I"),
        a=_req(stats, "A"),
        ld=_req(stats, "Ld"),
        sv=stats["Sv"],
        inv=stats.get("Inv"),
    )
    group = Group(
        spec.count, spec.name, profile, frozenset(keywords), poisoned, engaged, supporting, strike_with, split
    )
    return group, {key: token for key, token in settings.items() if key in UNIT_SETTINGS}


def _parse_split(token: Token, group: str, engaged: int, supporting: int) -> tuple[tuple[int, int, int], ...]:
    """vs=1:6+2,2:2 -> ((1, 6, 2), (2, 2, 0)): the group's models in base contact (+ within 2") per enemy unit."""
    split: list[tuple[int, int, int]] = []
    for item in token.value.split(","):
        match = _SPLIT_ITEM.match(item)
        if match is None or not 1 <= int(match.group(1)) <= MAX_UNITS_PER_SIDE:
            raise _error(
                f"'{token.text}' on '{group}': divide the group's models as enemy-unit:in-contact(+within-2\"), "
                "separated by commas.",
                token.text,
                EXAMPLE_SPLIT,
            )
        target = int(match.group(1))
        if any(target == known for known, _, _ in split):
            raise _error(f"'{token.text}' on '{group}' names enemy unit {target} twice.", token.text, EXAMPLE_SPLIT)
        split.append((target, int(match.group(2)), int(match.group(3) or 0)))
    named = (sum(e for _, e, _ in split), sum(s for _, _, s in split))
    if named != (engaged, supporting):
        raise _error(
            f"'{token.text}' on '{group}' divides {named[0]} model{'s' if named[0] != 1 else ''} in base contact and "
            f'{named[1]} within 2", but the group has engaged={engaged} and supporting={supporting}: every model in '
            "reach fights one enemy unit (write the ones within 2\" after '+').",
            token.text,
            EXAMPLE_SPLIT,
        )
    return tuple(split)


def _req(stats: dict[str, int | None], key: str) -> int:
    value = stats[key]
    assert value is not None  # only Sv and Inv may be None
    return value


def _parse_unit(spec: UnitSpec, position: int, enemy_units: int | None) -> Unit:
    groups: list[Group] = []
    unit_settings: dict[str, Token] = {}
    for group_spec in spec.groups:
        group, settings = _parse_group(group_spec)
        for key, token in settings.items():
            earlier = unit_settings.get(key)
            if earlier is not None and earlier.value != token.value:
                raise _error(
                    f"Unit {position} gives {key}= twice with different values "
                    f"({earlier.text}, {token.text}); it is one setting for the whole unit.",
                    token.text,
                )
            unit_settings[key] = token
        groups.append(group)
    name = groups[0].name
    if len(groups) > 1 and any(INDEPENDENT_CHARACTER in g.keywords for g in groups):
        raise _error(
            f"Unit {position} ('{name}') mixes an independent character with other groups: independent "
            "characters fight and are hit as units of their own, so give the character its own unit after '|'.",
            INDEPENDENT_CHARACTER,
            EXAMPLE_SIDE,
        )
    if sum(g.engaged for g in groups) == 0:
        raise _error(
            f"Unit {position} ('{name}') has no model in base contact (engaged=0). A unit that is not in "
            "base contact takes no part in the combat: leave it out.",
            "engaged=0",
            "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ engaged=4 supporting=6",
        )
    _check_turn_facts(groups, position, name)
    vs = 1
    high = enemy_units if enemy_units is not None else MAX_UNITS_PER_SIDE
    divide: tuple[int, ...] = ()
    if "vs" in unit_settings and "," in unit_settings["vs"].value:
        token = unit_settings["vs"]
        if not any(INDEPENDENT_CHARACTER in g.keywords for g in groups):
            raise _error(
                f"'{token.text}' on '{name}': only an independent character divides its hits between enemy units; "
                "a unit divides its models, enemy-unit:models each (models within 2\" after '+').",
                token.text,
                EXAMPLE_SPLIT,
            )
        items = token.value.split(",")
        if not all(_NUMBER.match(item) and 1 <= int(item) <= high for item in items) or len(set(items)) != len(items):
            raise _error(
                f"'{token.text}' on '{name}': list the enemy units it is engaged with, each once, by number "
                f"(1 to {high}).",
                token.text,
                EXAMPLE_DIVIDE,
            )
        divide = tuple(int(item) for item in items)
        vs = divide[0]
    elif "vs" in unit_settings:
        vs = _int_setting(unit_settings["vs"], 1, high, name)
    elif all(g.split for g in groups):
        vs = groups[0].split[0][0]  # every group names its own targets: the first one stands for the unit
    hits: tuple[tuple[int, int], ...] = ()
    if "hits" in unit_settings:
        token = unit_settings["hits"]
        if not divide:
            raise _error(
                f"'{token.text}' on '{name}': hits= says how an independent character dividing its hits between "
                "units (vs=1,2) deals them.",
                token.text,
                EXAMPLE_DIVIDE,
            )
        parsed: list[tuple[int, int]] = []
        for item in token.value.split(","):
            target, colon, most = item.partition(":")
            if not (colon and target.isdigit() and most.isdigit()) or int(target) not in divide:
                raise _error(
                    f"'{token.text}' on '{name}': give enemy-unit:most-hits for units it divides its hits between "
                    f"({', '.join(map(str, divide))}).",
                    token.text,
                    EXAMPLE_DIVIDE,
                )
            if any(int(target) == known for known, _ in parsed):
                raise _error(f"'{token.text}' on '{name}' names enemy unit {target} twice.", token.text, EXAMPLE_DIVIDE)
            parsed.append((int(target), int(most)))
        hits = tuple(parsed)
    tie_t = _int_setting(unit_settings["tie-t"], 1, 10, name) if "tie-t" in unit_settings else None
    tie_save: int | None = None
    if "tie-save" in unit_settings:
        token = unit_settings["tie-save"]
        armour = _save_value(Token(token.text, TokenKind.STAT, "tie-save=", token.value), name)
        tie_save = NO_ARMOUR if armour is None else armour
    grenades: Grenades | None = None
    if "grenades" in unit_settings:
        token = unit_settings["grenades"]
        if token.value not in ("frag", "plasma"):
            raise _error(
                f"'{token.text}' on '{name}': grenades= is frag or plasma.",
                token.text,
                f"{EXAMPLE_GROUP} frag-grenades plasma-grenades grenades=plasma",
            )
        carried = [kind for kind in (FRAG, PLASMA) if any(kind in group.keywords for group in groups)]
        if len(carried) < 2:
            has = " and ".join(carried) if carried else "no grenades"
            raise _error(
                f"'{token.text}' on '{name}': grenades= chooses between frag and plasma grenades for a unit that "
                f"carries both kinds, but '{name}' has {has}.",
                token.text,
                f"{EXAMPLE_GROUP} frag-grenades plasma-grenades grenades={token.value}",
            )
        grenades = Grenades(token.value)
    return Unit(tuple(groups), vs, tie_t, tie_save, grenades, divide, hits)


def _check_turn_facts(groups: list[Group], position: int, name: str) -> None:
    """A unit either charged this turn or did not: ``charged`` and ``not-charged`` together are refused."""
    if any(CHARGED in g.keywords for g in groups) and any(NOT_CHARGED in g.keywords for g in groups):
        raise _error(
            f"Unit {position} ('{name}') is both charged and not-charged: a unit either launched the assault this "
            "turn or did not; keep one.",
            NOT_CHARGED,
            f"{EXAMPLE_GROUP} charged",
        )


def this_turn_only(unit: Unit) -> Unit:
    """``unit`` without this turn's facts (charged, not-charged, in-cover): a next round starts without them."""
    if not any(group.keywords & _TURN_FACT_SET for group in unit.groups):
        return unit
    groups = tuple(replace(group, keywords=group.keywords - _TURN_FACT_SET) for group in unit.groups)
    return replace(unit, groups=groups)


_TURN_FACT_SET = frozenset(TURN_FACTS)


def parse_side(text: str, *, enemy_units: int | None = None) -> Side:
    """Parse a 40K side. ``enemy_units`` bounds ``vs=`` when the other side is known."""
    side_spec = parse_side_spec(
        text, example=EXAMPLE_SIDE, stats=STAT_EXAMPLES, keywords=_KEYWORD_SET, settings=_SETTING_EXAMPLES
    )
    return Side(tuple(_parse_unit(unit, n, enemy_units) for n, unit in enumerate(side_spec.units, start=1)))


def _save_text(key: str, value: int | None) -> str:
    return f"{key}-" if value is None else f"{key}{value}+"


def _split_text(split: tuple[tuple[int, int, int], ...]) -> str:
    return ",".join(
        f"{target}:{engaged}" + (f"+{supporting}" if supporting else "") for target, engaged, supporting in split
    )


def format_group(group: Group, unit: Unit | None, *, unit_vs: bool = True) -> str:
    """``unit``: the unit whose settings this group writes (its first group), or None; ``unit_vs``: whether it
    writes the unit's plain vs= (the first group without a split of its own does)."""
    p = group.profile
    words = [
        f"WS{p.ws}",
        f"S{p.s}",
        f"T{p.t}",
        f"W{p.w}",
        f"I{p.i}",
        f"A{p.a}",
        f"Ld{p.ld}",
        _save_text("Sv", p.sv),
    ]
    if p.inv is not None:
        words.append(_save_text("Inv", p.inv))
    for keyword in sorted(group.keywords, key=_KEYWORD_ORDER.__getitem__):
        if keyword == POISONED and group.poisoned != 4:
            words.append(f"poisoned={group.poisoned}+")
        else:
            words.append(keyword)
    words += [f"engaged={group.engaged}", f"supporting={group.supporting}"]
    if group.strike_with is not None:
        words.append(f"strike-with={group.strike_with}")
    if group.split:
        words.append(f"vs={_split_text(group.split)}")
    if unit is not None and unit.divide:
        words.append("vs=" + ",".join(map(str, unit.divide)))
    elif unit_vs and unit is not None:
        words.append(f"vs={unit.vs}")
    if unit is not None:
        if unit.tie_t is not None:
            words.append(f"tie-t={unit.tie_t}")
        if unit.tie_save is not None:
            words.append("tie-save=-" if unit.tie_save == NO_ARMOUR else f"tie-save={unit.tie_save}+")
        if unit.grenades is not None:
            words.append(f"grenades={unit.grenades.value}")
        if unit.hits:
            words.append("hits=" + ",".join(f"{target}:{most}" for target, most in unit.hits))
    return f"{group.count}x {group.name}: " + " ".join(words)


def format_side(side: Side) -> str:
    """Canonical text: every default written out, so it re-parses to the same side.

    Every resolution writes its sides into its report, and the bot hands in the same parsed side objects again
    and again (it parses each text once): the text is kept per side object (each entry holds its object, so the
    id cannot be reused while it is kept).
    """
    known = _FORMATTED.get(id(side))
    if known is not None and known[0] is side:
        return known[1]
    text = " | ".join(_format_unit(unit) for unit in side.units)
    if len(_FORMATTED) >= _FORMATTED_KEPT:
        _FORMATTED.clear()
    _FORMATTED[id(side)] = (side, text)
    return text


def _format_unit(unit: Unit) -> str:
    if not any(group.split for group in unit.groups):
        return " ; ".join(format_group(group, unit if index == 0 else None) for index, group in enumerate(unit.groups))
    # The unit's plain vs= goes on its first group without a split of its own (none: every group names its own).
    plain = next((index for index, group in enumerate(unit.groups) if not group.split), None)
    words = []
    for index, group in enumerate(unit.groups):
        if index == 0:
            words.append(format_group(group, unit, unit_vs=plain == 0))
        elif index == plain:  # only the plain vs= moves: the other unit settings stay on the first group
            words.append(format_group(group, _only_vs(unit)))
        else:
            words.append(format_group(group, None))
    return " ; ".join(words)


def _only_vs(unit: Unit) -> Unit:
    return Unit(unit.groups, unit.vs, None, None, None)


_FORMATTED: dict[int, tuple[Side, str]] = {}
_FORMATTED_KEPT = 256
