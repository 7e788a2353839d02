"""Duel specs: one model (or N identical models) per group, its profile, weapons and flags.

Shape: ``[N x] name: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged parry=auto``.
Models of a side are separated by ``|`` (or ``;``); ``3x Ork Boy: ...`` is three
identical models that fight one after another. Weapons are names from the weapon
table or inline definitions (``weapon=claw/S+1/dmg=D3/sv=-1/parry/cc``). The
canonical form writes every weapon inline, so a stored spec replays without the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from rules_core.errors import LimitError, SpecError
from rules_core.games.duel.weapons import (
    EMPTY_ARMOURY,
    INLINE_EXAMPLE,
    WEAPON_TABLE,
    Armoury,
    Weapon,
    WeaponError,
    parse_inline_weapon,
)
from rules_core.spec import (
    GroupSpec,
    TokenKind,
    closest,
    did_you_mean,
    fixed_setting,
    fixed_stat,
    parse_side_spec,
    suggest_stat,
)

EXAMPLE_MODEL = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
EXAMPLE_SIDE = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ weapon=choppa/S=user/dmg=1/cc"
MAX_MODELS = 10  # about as many models as fit in base contact around one
MAX_WEAPONS = 6

STATS: dict[str, tuple[int, int, str]] = {
    "WS": (1, 10, "Weapon Skill"),
    "S": (1, 10, "Strength"),
    "T": (1, 10, "Toughness"),
    "W": (1, 10, "Wounds"),
    "I": (1, 10, "Initiative"),
    "A": (1, 10, "Attacks"),
}
# Kept when given (a pasted 2nd-edition profile) but not used in hand-to-hand.
UNUSED_STATS: dict[str, tuple[int, int, str]] = {
    "M": (0, 20, "Move"),
    "BS": (0, 10, "Ballistic Skill"),
    "Ld": (1, 10, "Leadership"),
}
STAT_ORDER = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
REQUIRED = ("WS", "S", "T", "W", "I", "A", "Sv")
# Every stat key with an example value: keys are read in any case (ws4 is WS4), near misses suggest one of these.
STAT_EXAMPLES = {
    "M": "4",
    "WS": "4",
    "BS": "4",
    "S": "4",
    "T": "4",
    "W": "1",
    "I": "4",
    "A": "1",
    "Ld": "8",
    "Sv": "3+",
}

CHARGED = "charged"
HIGH_GROUND = "high-ground"
ENCUMBERED = "encumbered"
OBSTACLE = "obstacle"
BREAKING_OFF = "breaking-off"
FLAGS = (CHARGED, HIGH_GROUND, ENCUMBERED, OBSTACLE, BREAKING_OFF)
SETTINGS = ("weapon", "parry", "weapon-choice", HIGH_GROUND)
HIGH_GROUND_EXAMPLE = "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power-sword high-ground=1,3"

_NUMBER = re.compile(r"^\d{1,2}$")
_SAVE = re.compile(r"^([2-6])\+$")


class ParryPolicy(StrEnum):
    AUTO = "auto"  # parry when the re-roll improves the expected score difference (games.duel.parry)
    ALWAYS = "always"
    NEVER = "never"


@dataclass(frozen=True, slots=True)
class Profile:
    ws: int
    s: int
    t: int
    w: int
    i: int
    a: int
    sv: int | None
    unused: tuple[tuple[str, int], ...] = ()  # M, BS, Ld as given


@dataclass(frozen=True, slots=True)
class ModelGroup:
    count: int
    name: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    flags: frozenset[str]
    parry: ParryPolicy
    weapon_choice: str | None
    # ``high-ground=1,3``: the opponents (numbered in the order the other side lists its models) it stands above;
    # the plain ``high-ground`` flag stands above every opponent.
    high_ground_over: tuple[int, ...] = ()
    # Derived once (every combat round reads them).
    close_combat_weapons: tuple[Weapon, ...] = field(init=False, compare=False, repr=False)
    parries: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "close_combat_weapons", tuple(w for w in self.weapons if w.close_combat))
        object.__setattr__(self, "parries", sum(weapon.parry for weapon in self.weapons))

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def flags_against(self, opponent: int) -> frozenset[str]:
        """Its flags in its round against its ``opponent``-th opponent: ``high-ground=N,...`` adds the high ground
        against the opponents it names."""
        if opponent in self.high_ground_over:
            return self.flags | {HIGH_GROUND}
        return self.flags


@dataclass(frozen=True, slots=True)
class Side:
    groups: tuple[ModelGroup, ...]

    @property
    def models(self) -> int:
        return sum(group.count for group in self.groups)


def _error(message: str, token: str, example: str = EXAMPLE_MODEL, fix: str | None = None) -> SpecError:
    return SpecError(message, token=token, example=example, fix=fix)


def _stat(key: str, value: str, text: str, name: str) -> int | None:
    if key == "Sv":
        if value == "-":
            return None
        match = _SAVE.match(value)
        if match is None:
            raise _error(f"'{text}' on '{name}': the armour save is written Sv2+ to Sv6+, or Sv- for none.", text,
                         fix=f"Sv{value}+" if value in ("2", "3", "4", "5", "6") else None)  # fmt: skip
        return int(match.group(1))
    low, high, long_name = STATS[key] if key in STATS else UNUSED_STATS[key]
    if not _NUMBER.match(value) or not low <= int(value) <= high:
        raise _error(f"'{text}' on '{name}': {long_name} ({key}) must be {low} to {high}.", text)
    return int(value)


def _parse_group(spec: GroupSpec, armoury: Armoury) -> ModelGroup:
    stats: dict[str, int | None] = {}
    flags: set[str] = set()
    weapons: list[Weapon] = []
    parry: ParryPolicy | None = None
    weapon_choice: str | None = None
    high_ground_over: tuple[int, ...] | None = None
    for token in spec.tokens:
        if token.kind is TokenKind.STAT:
            if token.key not in STATS and token.key not in UNUSED_STATS and token.key != "Sv":
                hint = suggest_stat(token.key, token.value, STAT_EXAMPLES)
                raise _error(
                    f"Unknown stat '{token.text}' on '{spec.name}'. Duel stats are WS S T W I A Sv "
                    f"(M BS Ld may be given and are not used).{hint}",
                    token.text,
                    fix=fixed_stat(token.key, token.value, STAT_EXAMPLES),
                )
            if token.key in stats:
                raise _error(f"'{spec.name}' gives {token.key} twice.", token.text)
            stats[token.key] = _stat(token.key, token.value, token.text, spec.name)
        elif token.kind is TokenKind.KEYWORD:
            if token.key in FLAGS:
                if token.key in flags:
                    raise _error(f"'{spec.name}' gives {token.key} twice.", token.text)
                flags.add(token.key)
                continue
            weapon = armoury.get(token.key)
            if weapon is None:
                known = armoury.names
                hint = did_you_mean(token.key, (*FLAGS, *known))
                if known:
                    where = f"It is neither a flag ({', '.join(FLAGS)}) nor a weapon in the table ({', '.join(known)})."
                    how = "Define a weapon inline with"
                else:  # the game was not given its table: say which, and how to do without it
                    where = (
                        f"It is not a flag ({', '.join(FLAGS)}), and weapon names need the duel's weapon table "
                        f"({WEAPON_TABLE}), which was not given."
                    )
                    how = "Bind the table with the game's with_data(), or define the weapon inline with"
                raise _error(
                    f"Unknown keyword '{token.text}' on '{spec.name}'. {where}{hint} "
                    f"{how} weapon=NAME/S+1/dmg=1/sv=-1/parry/cc.",
                    token.text,
                    f"{EXAMPLE_MODEL} {INLINE_EXAMPLE}",
                    fix=closest(token.key, (*FLAGS, *known)),
                )
            weapons.append(weapon)
        elif token.key == "weapon":
            try:
                weapons.append(parse_inline_weapon(token.value))
            except WeaponError as error:
                raise _error(
                    f"Cannot read the weapon '{token.text}' on '{spec.name}': {error}.",
                    token.text,
                    f"{EXAMPLE_MODEL} {INLINE_EXAMPLE}",
                ) from None
        elif token.key == "parry":
            if parry is not None:
                raise _error(f"'{spec.name}' gives parry= twice.", token.text)
            try:
                parry = ParryPolicy(token.value.lower())
            except ValueError:
                raise _error(
                    f"'{token.text}' on '{spec.name}': parry= is auto (parry when the re-roll improves the "
                    "expected score difference), always or never.",
                    token.text,
                    f"{EXAMPLE_MODEL} parry=always",
                ) from None
        elif token.key == HIGH_GROUND:
            if high_ground_over is not None:
                raise _error(f"'{spec.name}' gives high-ground= twice.", token.text, HIGH_GROUND_EXAMPLE)
            high_ground_over = _high_ground_over(token.text, token.value, spec.name)
        elif token.key == "weapon-choice":
            if weapon_choice is not None:
                raise _error(f"'{spec.name}' gives weapon-choice= twice.", token.text)
            weapon_choice = token.value
        else:
            hint = did_you_mean(token.key, SETTINGS)
            raise _error(
                f"Unknown setting '{token.text}' on '{spec.name}'.{hint} Duel settings: weapon=, parry=, "
                "weapon-choice=, high-ground=.",
                token.text,
                fix=fixed_setting(token, SETTINGS),
            )
    missing = [key for key in REQUIRED if key not in stats]
    if missing:
        raise _error(
            f"'{spec.name}' is missing {', '.join(missing)}: every model needs WS S T W I A and Sv "
            "(Sv- for no armour save).",
            spec.name,
        )
    if len(weapons) > MAX_WEAPONS:
        raise LimitError(
            f"'{spec.name}' carries {len(weapons)} weapons; the limit is {MAX_WEAPONS}.",
            token=spec.name,
            example=EXAMPLE_MODEL,
        )
    if high_ground_over is not None and HIGH_GROUND in flags:
        raise _error(
            f"'{spec.name}' gives both high-ground (above every opponent) and high-ground= (above the opponents it "
            "names): give one of them.",
            HIGH_GROUND,
            HIGH_GROUND_EXAMPLE,
        )
    if OBSTACLE in flags and CHARGED not in flags:
        raise _error(
            f"'{spec.name}' has obstacle, which means it charged an opponent behind an obstacle: add charged too.",
            OBSTACLE,
            f"{EXAMPLE_MODEL} obstacle",
        )
    usable = [weapon.name for weapon in weapons if weapon.close_combat]
    if weapon_choice is not None and weapon_choice not in usable:
        choices = ", ".join(usable) if usable else "nothing: it has no Close Combat weapon"
        raise _error(
            f"'weapon-choice={weapon_choice}' on '{spec.name}': it can strike with {choices}.",
            f"weapon-choice={weapon_choice}",
            "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power-sword bolt-pistol weapon-choice=bolt-pistol",
        )
    unused = tuple((key, value) for key in ("M", "BS", "Ld") if (value := stats.get(key)) is not None)
    profile = Profile(
        ws=_required(stats, "WS"),
        s=_required(stats, "S"),
        t=_required(stats, "T"),
        w=_required(stats, "W"),
        i=_required(stats, "I"),
        a=_required(stats, "A"),
        sv=stats["Sv"],
        unused=unused,
    )
    return ModelGroup(
        spec.count,
        spec.name,
        profile,
        tuple(weapons),
        frozenset(flags),
        parry or ParryPolicy.AUTO,
        weapon_choice,
        high_ground_over or (),
    )


def _high_ground_over(text: str, value: str, name: str) -> tuple[int, ...]:
    """``high-ground=1,3``: the opponents, by their number in the other side's order, sorted."""
    numbers: list[int] = []
    for part in value.split(","):
        if not _NUMBER.match(part) or not 1 <= int(part) <= MAX_MODELS:
            raise _error(
                f"'{text}' on '{name}': high-ground= names the opponents it stands above by their number in the "
                f"other side's order, 1 to {MAX_MODELS}, separated by commas.",
                text,
                HIGH_GROUND_EXAMPLE,
            )
        if int(part) in numbers:
            raise _error(f"'{text}' on '{name}' names opponent {part} twice.", text, HIGH_GROUND_EXAMPLE)
        numbers.append(int(part))
    return tuple(sorted(numbers))


def _required(stats: dict[str, int | None], key: str) -> int:
    value = stats[key]
    assert value is not None  # only Sv may be None
    return value


def parse_side(text: str, armoury: Armoury = EMPTY_ARMOURY) -> Side:
    """Parse one side of a duel; named weapons come from ``armoury``."""
    keywords = frozenset((*FLAGS, *armoury.names))
    settings = {**dict.fromkeys(SETTINGS, ""), HIGH_GROUND: "1,3"}  # for the hints: high-ground takes a list
    side_spec = parse_side_spec(text, example=EXAMPLE_MODEL, stats=STAT_EXAMPLES, keywords=keywords, settings=settings)
    groups = tuple(_parse_group(group, armoury) for unit in side_spec.units for group in unit.groups)
    side = Side(groups)
    if side.models > MAX_MODELS:
        raise LimitError(
            f"The side has {side.models} models; a duel or multiple combat takes at most {MAX_MODELS} "
            "(the models in base contact with one enemy).",
            token=str(side.models),
            example=EXAMPLE_SIDE,
        )
    return side


def format_group(group: ModelGroup) -> str:
    p = group.profile
    values = dict(p.unused) | {"WS": p.ws, "S": p.s, "T": p.t, "W": p.w, "I": p.i, "A": p.a}
    words = [f"{key}{values[key]}" for key in STAT_ORDER if key in values]
    words.append("Sv-" if p.sv is None else f"Sv{p.sv}+")
    words += [flag for flag in FLAGS if flag in group.flags]
    if group.high_ground_over:
        words.append(f"{HIGH_GROUND}=" + ",".join(map(str, group.high_ground_over)))
    words += [weapon.inline() for weapon in group.weapons]
    words.append(f"parry={group.parry.value}")
    if group.weapon_choice is not None:
        words.append(f"weapon-choice={group.weapon_choice}")
    return f"{group.count}x {group.name}: " + " ".join(words)


def format_side(side: Side) -> str:
    """Canonical text: defaults written out and weapons inline, so it re-parses to the same side."""
    return " | ".join(format_group(group) for group in side.groups)
