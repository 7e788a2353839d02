"""Game options, declared once and validated in one place.

Each game declares its options as :class:`OptionSpec` (name, type, default,
choices, range, help). The Python keyword (``charge_distance``), the CLI flag
(``--charge-distance``) and the slash-command option are the same words; the
CLI and the bot are generated from these declarations. An option's ``example`` names
options structurally (:class:`rules_core.errors.Example`); each front end writes it.
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rules_core.errors import Example, OptionError, OptionName, Part, Setting, shown

OptionValue = bool | int | float | str | None
BRIEF_CHARS = 100  # an option's short help fits a slash command's option description (Discord's limit)

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class OptionType(StrEnum):
    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    CHOICE = "choice"
    TEXT = "text"  # free text a game parses itself (a supporting formation's spec)


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A name a player may give for what the game writes another way, which no spelling rule finds: Bolt Action's
    ``cover`` is its option ``reaction_modifiers`` (``suggest``: that option is named, then ``says`` what to write),
    its ``pins`` a unit's own token (``suggest`` False: only ``says``). Declared on the option it belongs to."""

    word: str
    says: tuple[Part, ...]
    suggest: bool = True


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: OptionType
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    example: Example | None = None  # options set to values (rules_core.errors.example), written by each front end
    # The option in at most BRIEF_CHARS characters, whole, where space is short (a slash command's option
    # description); empty when ``help`` is short enough itself.
    brief: str = ""
    # A rules variant a group may play differently (REFERENCE.md's "named options": the sum of the result dice, a
    # morale table), which a server may make a house rule; False for what describes one combat (a distance, a
    # round, markers, cover), which only the players of that combat can say.
    variant: bool = False
    # Other names a player may give for it, or for a token it is said with (see NearMiss).
    also: tuple[NearMiss, ...] = ()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def short_help(self) -> str:
        """``brief`` if the game wrote one, else ``help``: what a front end with little room shows."""
        return self.brief or self.help

    def describe_range(self) -> str:
        if self.type is OptionType.CHOICE:
            return " | ".join(self.choices)
        if self.type is OptionType.BOOL:
            return "on or off"
        if self.type is OptionType.TEXT:
            return "text"
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        return f"{low} to {high}".strip()

    def convert(self, value: object) -> OptionValue:
        """Check and convert one value; raise :class:`OptionError` naming the option."""
        example = self.example or (None if self.default is None else Example((Setting(self.name, self.default),)))
        if value is None:
            if self.default is None:
                return None
            raise OptionError(
                ["The option ", OptionName(self.name), f" needs a value ({self.describe_range()})."],
                token=self.name,
                example=example,
            )
        if self.type is OptionType.BOOL:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise OptionError(
                ["The option ", OptionName(self.name), f" is on or off (true/false), not {shown(value)}."],
                token=self.name,
                example=example,
            )
        if self.type is OptionType.TEXT:
            if not isinstance(value, str) or not value.strip():
                raise OptionError(
                    ["The option ", OptionName(self.name), f" is text and cannot be empty, not {shown(value)}."],
                    token=self.name,
                    example=example,
                )
            return value
        if self.type is OptionType.CHOICE:
            text = value.strip().lower().replace("-", "_") if isinstance(value, str) else ""
            for choice in self.choices:
                if text == choice.replace("-", "_"):
                    return choice
            raise OptionError(
                ["The option ", OptionName(self.name), f" is one of {', '.join(self.choices)}, not {shown(value)}."],
                token=self.name,
                example=example,
            )
        number = _number(value)
        if math.isnan(number):
            raise OptionError(
                ["The option ", OptionName(self.name), f" is a number ({self.describe_range()}), not {shown(value)}."],
                token=self.name,
                example=example,
            )
        if math.isinf(number):  # 10**400, 1e400 or inf: over any range
            raise OptionError(
                ["The option ", OptionName(self.name), f" must be {self.describe_range()}, not {shown(value)}."],
                token=self.name,
                example=example,
            )
        if self.type is OptionType.INT:
            if number != int(number):
                raise OptionError(
                    ["The option ", OptionName(self.name), f" is a whole number, not {shown(value)}."],
                    token=self.name,
                    example=example,
                )
            number = int(number)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise OptionError(
                ["The option ", OptionName(self.name), f" must be {self.describe_range()}, not {shown(value)}."],
                token=self.name,
                example=example,
            )
        return int(number) if self.type is OptionType.INT else float(number)


def _number(value: object) -> float:
    """A number or its text as a float: NaN for anything else (a bool, another type, text that is no number), and
    infinity for a number too large for a float (10**400)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real | str):
        return math.nan
    try:
        return float(value)
    except OverflowError:
        return -math.inf if isinstance(value, numbers.Real) and value < 0 else math.inf
    except (ValueError, TypeError):
        return math.nan


def near_names(word: str, names: tuple[str, ...]) -> list[str]:
    """The option names ``word`` is near, in their declared order: spelt nearly the same (``charge_distanse``), or
    holding all its words (``cover``: ``defender_in_cover``, ``cover_power_fists``). Names and word are compared
    with '-' as '_' and without leading dashes, so a CLI flag (``--cover``) is matched the same way."""
    wanted = word.lstrip("-").lower().replace("-", "_")
    if not wanted:
        return []
    parts = set(wanted.split("_"))
    close = set(difflib.get_close_matches(wanted, [name.replace("-", "_") for name in names], n=3, cutoff=0.75))
    found = [
        name for name in names if name.replace("-", "_") in close or parts <= set(name.replace("-", "_").split("_"))
    ]
    return found[:3]


def near_miss(word: str, specs: tuple[OptionSpec, ...]) -> tuple[list[Part], OptionSpec | None]:
    """`` Did you mean reaction_modifiers? Cover is ...`` for a name the game declares as a near miss of one of its
    options (:class:`NearMiss`: ``--cover`` in Bolt Action), with the option suggested; or nothing and None."""
    wanted = word.lstrip("-").lower().replace("-", "_")
    for spec in specs:
        for miss in spec.also:
            if miss.word.replace("-", "_") == wanted:
                if not miss.suggest:
                    return [" ", *miss.says], None
                return [" Did you mean ", OptionName(spec.name), "? ", *miss.says], spec
    return [], None


def did_you_mean_options(word: str, names: tuple[str, ...]) -> list[Part]:
    """`` Did you mean charge_distance?`` with each name an :class:`OptionName` (each front end writes its own), or
    nothing when no name is near."""
    near = near_names(word, names)
    if not near:
        return []
    parts: list[Part] = [" Did you mean "]
    for position, name in enumerate(near):
        if position:
            parts.append(" or " if position == len(near) - 1 else ", ")
        parts.append(OptionName(name))
    return [*parts, "?"]


def validate_options(specs: tuple[OptionSpec, ...], given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Every declared option with its checked value, defaults filled in, in declaration order."""
    by_name = {spec.name: spec for spec in specs}
    normalised: dict[str, object] = {}
    for raw_name, value in given.items():
        name = raw_name.replace("-", "_")
        if name not in by_name:
            known: list[Part] = []
            for spec in specs:
                known += [", ", OptionName(spec.name)] if known else [OptionName(spec.name)]
            missed, meant = near_miss(raw_name, specs)
            raise OptionError(
                [
                    f"Unknown option '{raw_name}'.",
                    *(missed or did_you_mean_options(raw_name, tuple(by_name))),
                    " This game's options: ",
                    *(known or ["none"]),
                    ".",
                ],
                token=raw_name,
                example=(meant or specs[0]).example if specs else None,
            )
        normalised[name] = value
    return {
        spec.name: spec.convert(normalised[spec.name]) if spec.name in normalised else spec.default for spec in specs
    }
