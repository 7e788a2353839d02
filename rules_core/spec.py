"""The one lexical shape of unit specs shared by every game (see docs/specs.md).

A side is units separated by ``|``; a unit is groups separated by ``;``; a
group is ``[N x] name: tokens``. Tokens are ``KEYvalue`` stats (``WS4``,
``Sv3+``, ``Sv-``), ``key=value`` settings (``engaged=3``; keys are
case-insensitive), kebab-case keywords (``power-fist``) and unit types in
capitals (``INF``, ``WE``). This module only splits and classifies; what the
tokens mean is each game's business. It also enforces the input limits, before
any expensive work, so no input can make the parser hang.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

from rules_core.errors import LimitError, SpecError

MAX_SPEC_CHARS = 4_000
MAX_NAME_CHARS = 100
MAX_UNITS_PER_SIDE = 50
MAX_MODELS_PER_SIDE = 200

_GROUP = re.compile(r"^\s*(?:(\d+)\s*[x×]\s+)?([^:]*?)\s*:(.*)$", re.DOTALL | re.IGNORECASE)
_STAT = re.compile(r"^([A-Z][A-Za-z]*)([0-9+\-].*)$")
_KEYWORD = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_TYPE_KEYWORD = re.compile(r"^[A-Z]{2,5}$")  # unit types written in capitals: INF, LV, AV, WE
_SETTING = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)=(\S+)$")
_NAME = re.compile(r"^[\w][\w '’.()/&+,-]*$")


class TokenKind(StrEnum):
    STAT = "stat"
    SETTING = "setting"
    KEYWORD = "keyword"


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    kind: TokenKind
    key: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class GroupSpec:
    count: int
    name: str
    tokens: tuple[Token, ...]
    text: str


@dataclass(frozen=True, slots=True)
class UnitSpec:
    groups: tuple[GroupSpec, ...]


@dataclass(frozen=True, slots=True)
class SideSpec:
    units: tuple[UnitSpec, ...]

    @property
    def models(self) -> int:
        return sum(group.count for unit in self.units for group in unit.groups)


def did_you_mean(word: str, candidates: tuple[str, ...]) -> str:
    """`` Did you mean 'X'?`` for the closest candidate (a near spelling, or the same word in other case), or ''."""
    match = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    if not match:
        found = {candidate.lower(): candidate for candidate in candidates}.get(word.lower())
        match = [found] if found else []
    return f" Did you mean '{match[0]}'?" if match else ""


def classify_token(text: str, *, example: str) -> Token:
    """Classify one whitespace-free token, or raise :class:`SpecError` naming it."""
    token = _classify_cached(text)
    if token is None:
        _raise_unreadable(text, example)
    return token


@functools.lru_cache(maxsize=4096)
def _classify_cached(text: str) -> Token | None:
    # Specs repeat a small vocabulary (WS4, Sv3+, power-fist...): classification is pure, so cache it.
    if "=" in text:
        match = _SETTING.match(text)
        if match is None:
            return None
        # Setting keys are case-insensitive (DC=3 and dc=3 are the same setting).
        return Token(text, TokenKind.SETTING, match.group(1).lower(), match.group(2))
    match = _STAT.match(text)
    if match is not None:
        return Token(text, TokenKind.STAT, match.group(1), match.group(2))
    if _KEYWORD.match(text) or _TYPE_KEYWORD.match(text):
        return Token(text, TokenKind.KEYWORD, text)
    return None


def _raise_unreadable(text: str, example: str) -> NoReturn:
    if "=" in text:
        raise SpecError(
            f"Cannot read the setting '{text}': settings are written key=value, "
            "with a lower-case key and no spaces around '='.",
            token=text,
            example=example,
        )
    raise SpecError(
        f"Cannot read the token '{text}': write stats as KEYvalue (WS4, Sv3+), "
        "settings as key=value (engaged=3) and keywords in kebab-case (power-fist).",
        token=text,
        example=example,
    )


def _parse_group(text: str, *, example: str) -> GroupSpec:
    match = _GROUP.match(text)
    if match is None:
        shown = text.strip()[:60]
        raise SpecError(
            f"Cannot read the group '{shown}': a group is '[N x] name: stats', with a colon after the name.",
            token=shown,
            example=example,
        )
    count_text, name, rest = match.group(1), match.group(2).strip(), match.group(3)
    if not name:
        raise SpecError(
            f"The group '{text.strip()[:60]}' has no name before its colon.",
            token=text.strip()[:60],
            example=example,
        )
    if name.startswith("@"):
        raise SpecError(
            f"'{name}' looks like a saved roster reference; write @name on its own in place of a whole side.",
            token=name,
            example=example,
        )
    if len(name) > MAX_NAME_CHARS:
        raise LimitError(
            f"The name '{name[:30]}…' is {len(name)} characters long; the limit is {MAX_NAME_CHARS}.",
            token=name[:30],
            example=example,
        )
    if not _NAME.match(name):
        raise SpecError(
            f"The name '{name}' holds a character names may not use (names use letters, digits, spaces "
            "and ' . ( ) / & + , -).",
            token=name,
            example=example,
        )
    if count_text is None:
        count = 1
    else:
        if len(count_text) > 4:
            raise LimitError(
                f"The model count '{count_text}' of '{name}' is over the limit of {MAX_MODELS_PER_SIDE} models a side.",
                token=count_text,
                example=example,
            )
        count = int(count_text)
        if count < 1:
            raise SpecError(
                f"'{count_text}x {name}' has a model count of {count}; a group needs at least one model.",
                token=f"{count_text}x",
                example=example,
            )
    tokens = tuple(classify_token(word, example=example) for word in rest.split())
    return GroupSpec(count=count, name=name, tokens=tokens, text=text.strip())


def parse_side_spec(text: str, *, example: str) -> SideSpec:
    """Split a side spec into units and groups, enforcing the limits first."""
    if not isinstance(text, str):
        raise SpecError(f"A side must be spec text, not {type(text).__name__}.", example=example)
    if len(text) > MAX_SPEC_CHARS:
        raise LimitError(
            f"The spec is {len(text)} characters long; the limit is {MAX_SPEC_CHARS}.",
            token=text[:30],
            example=example,
        )
    if not text.strip():
        raise SpecError("The side is empty: give at least one unit.", token="", example=example)
    if text.strip().startswith("@"):
        raise SpecError(
            f"'{text.strip()[:40]}' is a saved roster reference: the referee command and the bot look rosters up "
            "before the rules engine sees them; here, write the units out.",
            token=text.strip()[:40],
            example=example,
        )
    unit_texts = text.split("|")
    if len(unit_texts) > MAX_UNITS_PER_SIDE:
        raise LimitError(
            f"The side has {len(unit_texts)} units; the limit is {MAX_UNITS_PER_SIDE}.",
            token="|",
            example=example,
        )
    units: list[UnitSpec] = []
    for position, unit_text in enumerate(unit_texts, start=1):
        if not unit_text.strip():
            raise SpecError(
                f"Unit {position} is empty: there is nothing between two '|' (or at an end).",
                token="|",
                example=example,
            )
        groups: list[GroupSpec] = []
        for group_text in unit_text.split(";"):
            if not group_text.strip():
                raise SpecError(
                    f"Unit {position} has an empty group: there is nothing between two ';' (or at an end).",
                    token=";",
                    example=example,
                )
            groups.append(_parse_group(group_text, example=example))
        units.append(UnitSpec(tuple(groups)))
    side = SideSpec(tuple(units))
    if side.models > MAX_MODELS_PER_SIDE:
        raise LimitError(
            f"The side has {side.models} models; the limit is {MAX_MODELS_PER_SIDE} a side.",
            token=str(side.models),
            example=example,
        )
    return side
