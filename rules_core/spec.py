"""The one lexical shape of unit specs shared by every game (see docs/specs.md).

A side is units separated by ``|``; a unit is groups separated by ``;``; a
group is ``[N x] name: tokens``.

How a group's count and name are read is in :mod:`rules_core.spec_heads`; the suggestions for a
near miss (a key, keyword or setting one letter off) in :mod:`rules_core.spec_hints`; the errors for a slip a
player makes as they type (commas, a stat's key left out, a setting's value apart, a keyword in two words) in
:mod:`rules_core.spec_slips`.

Tokens are ``KEYvalue`` stats (``WS4``,
``Sv3+``, ``Sv-``; the keys a game declares are read in any case, ``ws4`` is
``WS4``, and a game's keywords, in any case, are never read as stats), ``key=value`` settings (``engaged=3``; keys are
case-insensitive), kebab-case keywords (``power-fist``) and unit types in
capitals (``INF``, ``WE``). This module only splits and classifies; what the
tokens mean is each game's business. It also enforces the input limits, before
any expensive work, so no input can make the parser hang.

The character limit (:data:`MAX_SPEC_CHARS`) is on what a player gives, after any ``@roster`` reference is
expanded. It never applies to the canonical form a report stores: that form writes every default, so a side given
within the limit can be twice as long stored (or longer). The engine reads its own canonical form again (to verify a
record, or to fight a combat's next round) inside :func:`reading_canonical`, where only the limits on units, models
and names apply: they hold for the canonical form exactly as for what the player gave.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

from rules_core.errors import LimitError, SpecError
from rules_core.spec_heads import bare_count_hint, read_head
from rules_core.spec_hints import (
    Vocabulary,
    closest,
    did_you_mean,
    fixed_setting,
    fixed_stat,
    suggest_stat,
)
from rules_core.spec_slips import refuse_commas, refuse_keyless, refuse_setting_apart, refuse_two_words

MAX_SPEC_CHARS = 4_000
MAX_NAME_CHARS = 100
# What may stand before a group's colon: its count and its name, with room for spaces around them. Longer is refused
# before the count patterns read it (they take time that grows with its square).
MAX_HEAD_CHARS = 4 * MAX_NAME_CHARS
MAX_UNITS_PER_SIDE = 50
MAX_MODELS_PER_SIDE = 200
UNIT_SEPARATOR = "|"  # between the units of a side
GROUP_SEPARATOR = ";"  # between the groups of a unit

# True while the engine reads back its own canonical form (see reading_canonical): no character limit.
_CANONICAL: ContextVar[bool] = ContextVar("reading_canonical", default=False)


@contextmanager
def reading_canonical() -> Iterator[None]:
    """Read side texts (and text options) as the canonical form the engine wrote, with no character limit.

    For a report's stored inputs and the next round built from them: they were checked as the player gave them, and
    their canonical form, which writes every default, may be longer than :data:`MAX_SPEC_CHARS`. The limits on units,
    models and names still apply.
    """
    token = _CANONICAL.set(True)
    try:
        yield
    finally:
        _CANONICAL.reset(token)


_GROUP = re.compile(r"^([^:]*):(.*)$", re.DOTALL)
# A stat's value is a number, a roll (3+) or '-' for none: Power-Fist is not the stat "Power".
_STAT = re.compile(r"^([A-Z][A-Za-z]*)(-\d*$|[0-9+].*)$", re.DOTALL)
_ANY_CASE_STAT = re.compile(r"^([A-Za-z]+)(-\d*$|[0-9+].*)$", re.DOTALL)
_LOWER_STAT = re.compile(r"^[a-z]{1,3}\d+\+?$")  # wz4: shaped like a stat, not like a keyword
_KEYWORD = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_TYPE_KEYWORD = re.compile(r"^[A-Z]{2,5}$")  # unit types written in capitals: INF, LV, AV, WE
_SETTING = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)=(\S+)$")
# A setting written with spaces around '=' ("engaged = 5"): said as one token, with the fix.
_SPACED_SETTING = re.compile(r"([A-Za-z][\w-]*)(\s+=\s*|=\s+)([^\s=]+)")
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


def classify_token(
    text: str, *, example: str, stats: tuple[str, ...] = (), keywords: frozenset[str] = frozenset()
) -> Token:
    """Classify one whitespace-free token, or raise :class:`SpecError` naming it.

    ``stats`` are the game's stat keys as the rules write them (``WS``, ``Sv``): a stat written in another case
    (``ws4``, ``SV3+``) is read as that stat, with the key in the rules' capitals. ``keywords`` are the game's
    keywords, which stay keywords whatever they look like.
    """
    token = _classify_cached(text, stats, keywords)
    if token is None:
        _raise_unreadable(text, Vocabulary(example, dict.fromkeys(stats, ""), keywords))
    return token


@functools.lru_cache(maxsize=4096)
def _classify_cached(text: str, stats: tuple[str, ...], keywords: frozenset[str]) -> Token | None:
    # Specs repeat a small vocabulary (WS4, Sv3+, power-fist...): classification is pure, so cache it.
    if "=" in text:
        match = _SETTING.match(text)
        if match is None:
            return None
        # Setting keys are case-insensitive (DC=3 and dc=3 are the same setting).
        return Token(text, TokenKind.SETTING, match.group(1).lower(), match.group(2))
    if text in keywords:
        return Token(text, TokenKind.KEYWORD, text)
    known_keyword = next((keyword for keyword in keywords if keyword.lower() == text.lower()), None)
    if known_keyword is not None:  # Power-Fist is power-fist, inf is INF
        return Token(text, TokenKind.KEYWORD, known_keyword)
    match = _ANY_CASE_STAT.match(text)
    if match is not None:
        key, value = match.groups()
        # Stat keys are case-insensitive: ws4 and SV3+ are WS4 and Sv3+.
        known = next((stat for stat in stats if stat.lower() == key.lower()), None)
        if known is not None:
            return Token(text, TokenKind.STAT, known, value)
        # A capital, a value no keyword can hold (sb3+), or a short key with a number (wz4): an unknown stat,
        # which the game names with a suggestion.
        if _STAT.match(text) or not _KEYWORD.match(text) or (stats and _LOWER_STAT.match(text)):
            return Token(text, TokenKind.STAT, key, value)
    if _KEYWORD.match(text) or _TYPE_KEYWORD.match(text):
        return Token(text, TokenKind.KEYWORD, text)
    if _KEYWORD.match(text.lower()):  # Power-Sword: a keyword in capitals, which the game names with a suggestion
        return Token(text, TokenKind.KEYWORD, text.lower())
    return None


def _raise_unreadable(text: str, vocabulary: Vocabulary) -> NoReturn:
    example = vocabulary.example
    if "=" in text:
        raise SpecError(
            f"Cannot read the setting '{text}': settings are written key=value, with a key of letters, digits and "
            "dashes and no spaces around '='.",
            token=text,
            example=example,
        )
    raise SpecError(
        f"Cannot read the token '{text}': write {vocabulary.shapes()}.",
        token=text,
        example=example,
    )


def _parse_group(text: str, vocabulary: Vocabulary) -> GroupSpec:
    example, stats, keywords = vocabulary.example, tuple(vocabulary.stats), vocabulary.keywords
    match = _GROUP.match(text)
    if match is None:
        shown = text.strip()[:60]
        head = _head_before_stats(text, stats)
        raise SpecError(
            f"Cannot read the group '{shown}': a group is '[N x] name: stats', with a colon after the name.",
            token=shown if head is None else head,
            example=example,
            fix=None if head is None else head + ":",
        )
    if len(match.group(1)) > MAX_HEAD_CHARS:  # a name is at most MAX_NAME_CHARS: refused before any regex reads it
        head = match.group(1).strip()
        raise LimitError(
            f"The group '{head[:30]}…' has {len(head)} characters before its colon; a name is at most "
            f"{MAX_NAME_CHARS} characters.",
            token=head[:30],
            example=example,
        )
    count_text, name = read_head(match.group(1), example=example)
    rest = match.group(2)
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
        if len(count_text) > 4 or int(count_text) > MAX_MODELS_PER_SIDE:
            raise LimitError(
                f"The model count '{count_text}' of '{name}' is over the limit of {MAX_MODELS_PER_SIDE} models a side."
                + bare_count_hint(text, count_text, name),
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
    spaced = _SPACED_SETTING.search(rest) if " =" in rest or "= " in rest else None
    if spaced:
        written = " ".join(spaced.group(0).split())
        raise SpecError(
            f"Cannot read '{written}': write a setting with no spaces around '=', "
            f"as {spaced.group(1)}={spaced.group(3)}.",
            token=written,
            example=example,
            fix=f"{spaced.group(1)}={spaced.group(3)}",
        )
    words = rest.split()
    if "," in rest:  # the happy path reads no hint: a comma is the only sign of this slip
        refuse_commas(words, rest, example)
    tokens: list[Token] = []
    for position, word in enumerate(words):
        token = _classify_cached(word, stats, keywords)
        if token is None:
            before = words[position - 1] if position else ""
            _refuse_spaced_stat(before, word, stats, example)
            refuse_setting_apart(before, word, name, vocabulary)
            if not (before.isalpha() and before.lower() not in vocabulary.lower_keywords):  # 'XX 4': XX is its key
                refuse_keyless(word, name, _stat_keys(words, stats), vocabulary)
            _raise_unreadable(word, vocabulary)
        if (
            token.kind is TokenKind.KEYWORD
            and position + 1 < len(words)
            and token.text.lower() not in vocabulary.lower_keywords  # a keyword the game knows stands alone
        ):
            refuse_two_words(token.text, words[position + 1], name, vocabulary)  # as typed: Power Sword
        tokens.append(token)
    return GroupSpec(count=count, name=name, tokens=tuple(tokens), text=text.strip())


def _known_stat(word: str, stats: tuple[str, ...]) -> bool:
    match = _ANY_CASE_STAT.match(word)
    return match is not None and any(stat.lower() == match.group(1).lower() for stat in stats)


def _stat_keys(words: list[str], stats: tuple[str, ...]) -> list[str]:
    """The keys of the game's stats among ``words`` (before and after a faulty one)."""
    return [match.group(1) for word in words if _known_stat(word, stats) and (match := _ANY_CASE_STAT.match(word))]


def _refuse_spaced_stat(before: str, word: str, stats: tuple[str, ...], example: str) -> None:
    """For ``WS 4`` (a stat's key and value apart): refuse it as one token, with the two written together. A stat
    before a value (``Ld8 3+``) is not its key: that value lost its own (see spec_slips.refuse_keyless)."""
    if before.isalpha() and _known_stat(before + word, stats):
        raise SpecError(
            f"Cannot read '{before} {word}': write a stat with no space between its key and its value, "
            f"as {before}{word}.",
            token=f"{before} {word}",
            example=example,
            fix=before + word,
        )


def _head_before_stats(text: str, stats: tuple[str, ...]) -> str | None:
    """``10x Marine`` of ``10x Marine WS4 S4...`` (a group with no colon): the words before its first stat, or
    None when no word after the first is one of the game's stats (then where the colon goes is not certain)."""
    words = text.split()
    first = next((n for n, word in enumerate(words) if n and _known_stat(word, stats)), None)
    return None if first is None else " ".join(words[:first])


def parse_side_spec(
    text: str,
    *,
    example: str,
    stats: Iterable[str] = (),
    keywords: Iterable[str] = (),
    settings: Iterable[str] = (),
    part: str = "Unit",
) -> SideSpec:
    """Split a side spec into units and groups, enforcing the limits first.

    ``stats``: the game's stat keys as the rules write them (read in any case); ``keywords``: its keywords (never
    read as stats); ``settings``: its setting keys, for the hints (a mapping to an example value says which take a
    list: ``{"high-ground": "1,3"}``). See :func:`classify_token`. ``part``: what the game calls what '|'
    separates, for the errors of an empty one ("Formation 2 is empty"; default "Unit").
    """
    vocabulary = _vocabulary(
        example, tuple(_examples(stats).items()), frozenset(keywords), tuple(_examples(settings).items())
    )
    if not isinstance(text, str):
        raise SpecError(f"A side must be spec text, not {type(text).__name__}.", example=example)
    if len(text) > MAX_SPEC_CHARS and not _CANONICAL.get():
        raise LimitError(
            f"The spec is {len(text)} characters long; the limit is {MAX_SPEC_CHARS}.",
            token=text[:30],
            example=example,
        )
    if not text.strip():
        raise SpecError("The side is empty: give at least one unit.", token="", example=example)
    if text.strip().startswith("@"):
        raise SpecError(
            f"'{text.strip()[:40]}' starts with a saved roster reference: a reference (@name, or @name/unit for "
            "one of its units) stands alone for a whole side; to add units to a roster's, write them all out.",
            token=text.strip()[:40],
            example=example,
        )
    unit_texts = split_units(text)
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
                f"{part} {position} is empty: there is nothing between two '|' (or at an end).",
                token="|",
                example=example,
            )
        groups: list[GroupSpec] = []
        for index, group_text in enumerate(split_groups(unit_text)):
            if not group_text.strip():
                where = "before ';'" if index == 0 else "after ';'"
                raise SpecError(
                    f"Unit {position} has an empty group: there is nothing between two ';' (or at an end)."
                    if part == "Unit"
                    else f"{part} {position}: the group {where} is empty (there is nothing between two ';', or at "
                    "an end).",
                    token=";",
                    example=example,
                )
            groups.append(_parse_group(group_text, vocabulary))
        units.append(UnitSpec(tuple(groups)))
    side = SideSpec(tuple(units))
    if side.models > MAX_MODELS_PER_SIDE:
        raise LimitError(
            f"The side has {side.models} models; the limit is {MAX_MODELS_PER_SIDE} a side.",
            token=str(side.models),
            example=example,
        )
    return side


@functools.lru_cache(maxsize=64)
def _vocabulary(
    example: str, stats: tuple[tuple[str, str], ...], keywords: frozenset[str], settings: tuple[tuple[str, str], ...]
) -> Vocabulary:
    """A game's vocabulary, made once: every side of every combat is read with the same few."""
    return Vocabulary(example, dict(stats), keywords, dict(settings))


def _examples(keys: Iterable[str]) -> dict[str, str]:
    return dict(keys) if isinstance(keys, Mapping) else dict.fromkeys(keys, "")


def split_units(text: str) -> list[str]:
    """The unit texts of a side text, split at ``|`` exactly as :func:`parse_side_spec` splits them (not stripped).

    For the front ends' listings of a roster's units (and their number), so the separator lives in this grammar only.
    """
    return text.split(UNIT_SEPARATOR)


def split_groups(unit_text: str) -> list[str]:
    """The group texts of a unit text, split at ``;`` exactly as :func:`parse_side_spec` splits them (not stripped)."""
    return unit_text.split(GROUP_SEPARATOR)


def group_head(text: str) -> tuple[int, str]:
    """(count, name) of the first group of a unit or side text, read as :func:`parse_side_spec` reads it.

    For the front ends' look-ups (a roster's units by name, short listings), so that they understand every way of
    writing a count that the rules engine does. Raises :class:`SpecError` when the head does not read.
    """
    first = split_groups(split_units(text)[0])[0]
    match = _GROUP.match(first)
    if match is None:
        raise SpecError(f"Cannot read the group '{first.strip()[:60]}'.", token=first.strip()[:60])
    count_text, name = read_head(match.group(1), example="")
    return (1 if count_text is None else int(count_text)), name


def side_summary(text: str) -> str:
    """How a side was read, in short: ``9× Tactical Marine, 1× Sergeant | 1× Warlock`` (groups by ',', units by '|').

    The count is written ``N×`` so that it cannot be taken for part of a name: ``3× Headed Beast`` shows at once that
    ``3 Headed Beast`` was read as three models (a name beginning with a number follows an explicit count).

    Only the groups' counts and names are read (with the same grammar as :func:`parse_side_spec`), so a report's
    canonical input can be summarised without its game; text that does not read raises :class:`SpecError`.
    """
    units = []
    for unit_text in split_units(text):
        heads = (group_head(group_text) for group_text in split_groups(unit_text))
        units.append(", ".join(f"{count}× {name}" for count, name in heads))
    return " | ".join(units)


# The near-miss suggestions (rules_core.spec_hints) are the grammar's too: games import them from here.
__all__ = [
    "GROUP_SEPARATOR",
    "MAX_HEAD_CHARS",
    "MAX_MODELS_PER_SIDE",
    "MAX_NAME_CHARS",
    "MAX_SPEC_CHARS",
    "MAX_UNITS_PER_SIDE",
    "UNIT_SEPARATOR",
    "GroupSpec",
    "SideSpec",
    "Token",
    "TokenKind",
    "UnitSpec",
    "classify_token",
    "closest",
    "did_you_mean",
    "fixed_setting",
    "fixed_stat",
    "group_head",
    "parse_side_spec",
    "reading_canonical",
    "side_summary",
    "split_groups",
    "split_units",
    "suggest_stat",
]
