"""Suggestions for a near miss in a spec: a keyword, setting or stat key one letter off from one the game knows.

:func:`did_you_mean` and :func:`suggest_stat` name a guess in words; :func:`closest`, :func:`fixed_setting` and
:func:`fixed_stat` give a fix only when it is certain, for the front ends to offer the player's own spec corrected.

:class:`Vocabulary` holds what a game's errors name of its tokens (its own, never another game's), and reads the
slips a new player makes (docs/specs.md): a value standing alone (``Ld8 3+``) is a stat with its key left out, read
as the game's first stat of that shape the group does not give yet (a decision: ``Sv3+`` before ``Inv3+``, the next
candidate named in the error), offered as a fix only for a roll or when one stat alone fits (a number may be any of
several characteristics: ``M3`` or ``BS3`` is named, never corrected); a value apart from its setting (``smg 2``,
``high-ground=1 3``) is that setting's value (``smg=2``, ``high-ground=1,3``); a keyword in two words (``power
sword``) is looked up hyphenated first; :func:`without_commas` takes out commas written between tokens.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_core.spec import Token


def did_you_mean(word: str, candidates: tuple[str, ...]) -> str:
    """`` Did you mean 'X'?`` for the closest candidate (a near spelling, or the same word in other case), or ''."""
    match = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    if not match:
        found = {candidate.lower(): candidate for candidate in candidates}.get(word.lower())
        match = [found] if found else []
    return f" Did you mean '{match[0]}'?" if match else ""


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The one candidate ``word`` is surely a slip of the finger for, or None: the same word in another case, else
    the only candidate one letter away (wrong, missing, extra or two swapped; two letters for a word of eight or
    more). A fix offered to copy must be certain: did_you_mean may still name a looser guess (power-sword,
    power-weapon) in words."""
    unique = tuple(dict.fromkeys(candidates))
    found = {candidate.lower(): candidate for candidate in unique}.get(word.lower())
    if found is not None:
        return found
    allowed = 2 if len(word) >= 8 else 1
    near = sorted((_edit_distance(word.lower(), candidate.lower()), candidate) for candidate in unique)
    near = [(distance, candidate) for distance, candidate in near if distance <= allowed]
    if not near or (len(near) > 1 and near[1][0] == near[0][0]):
        return None
    return near[0][1]


def fixed_setting(token: Token, candidates: Iterable[str]) -> str | None:
    """``engaged=3`` for ``engagd=3``: a setting's key surely misspelt, with its value kept; or None."""
    key = closest(token.key, candidates)
    return None if key is None else f"{key}={token.value}"


def suggest_stat(key: str, value: str, stats: Mapping[str, str]) -> str:
    """`` Did you mean 'Sv3+'?`` for a stat key no game knows, or ''.

    ``stats`` maps each stat key of the game to an example value (``{"WS": "4", "Sv": "3+"}``). The closest key
    (one letter wrong, missing, extra or swapped) is preferred among those whose values look like ``value`` (a
    roll such as ``3+`` or ``-`` for a save, a plain number for a characteristic), so ``Sb3+`` suggests ``Sv3+``
    rather than ``S3+``.
    """
    ranked = _ranked_stats(key, value, stats)
    return f" Did you mean '{ranked[0][-1]}{value}'?" if ranked else ""


def fixed_stat(key: str, value: str, stats: Mapping[str, str]) -> str | None:
    """``Sv3+`` for ``Sb3+``: the stat suggest_stat names, when no other key is as near (else None)."""
    ranked = _ranked_stats(key, value, stats)
    if not ranked or (len(ranked) > 1 and ranked[0][:3] == ranked[1][:3]):
        return None
    return f"{ranked[0][-1]}{value}"


def _ranked_stats(key: str, value: str, stats: Mapping[str, str]) -> list[tuple[int, int, int, int, str]]:
    wanted = key.lower()
    is_roll = rolled(value)
    ranked = []
    for position, (candidate, example) in enumerate(stats.items()):
        distance = _edit_distance(wanted, candidate.lower())
        if distance <= 1:
            shape = 0 if rolled(example) == is_roll else 1
            ranked.append((distance, shape, abs(len(candidate) - len(key)), position, candidate))
    return sorted(ranked)


def _edit_distance(first: str, second: str) -> int:
    """Letters inserted, deleted, replaced or swapped (optimal string alignment) to turn one key into the other."""
    rows = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i in range(len(first) + 1):
        rows[i][0] = i
    for j in range(len(second) + 1):
        rows[0][j] = j
    for i in range(1, len(first) + 1):
        for j in range(1, len(second) + 1):
            cost = 0 if first[i - 1] == second[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and first[i - 1] == second[j - 2] and first[i - 2] == second[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


# What the words of a spec error need to know of a game's tokens (see Vocabulary).
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_CAPITALS = re.compile(r"^[A-Z]{2,5}$")
# A stat's value standing alone ("Ld8 3+", "WS4 4 T4"): a stat whose key was left out.
_KEYLESS_VALUE = re.compile(r"^(?:\d{1,2}\+?|-)$")
# The items of a setting's list, as a list setting writes them: "1,3" (high-ground), "1:6+2,2:2" (vs), "2:1" (hits).
_LIST_ITEM = re.compile(r"^[0-9][0-9:+]*(?:,[0-9][0-9:+]*)*$")


def rolled(value: str) -> bool:
    """A roll (3+) or '-' for none, as a save is written; else a plain number (a characteristic)."""
    return value.endswith("+") or value == "-"


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A game's tokens as its spec errors name them: its stats with an example value each (``{"WS": "4", "Sv":
    "3+"}``, in the order the game declares them), its keywords and its example spec. A game's errors show its own
    tokens (a Bolt Action error never shows WS4 or power-fist)."""

    example: str
    stats: Mapping[str, str]
    keywords: frozenset[str]
    # Its setting keys with an example value each; a value with a comma (``high-ground``: ``1,3``) takes a list.
    settings: Mapping[str, str] = field(default_factory=dict)
    # Its keywords in lower case, made once: every keyword a spec gives is looked up in it.
    lower_keywords: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lower_keywords", frozenset(keyword.lower() for keyword in self.keywords))

    def example_tokens(self) -> list[str]:
        """The tokens of the example spec, in order (the text after each group's colon)."""
        groups = re.split(r"[|;]", self.example)
        return [word for group in groups for word in group.partition(":")[2].split()]

    def shapes(self) -> str:
        """How tokens are written, each kind shown by one of this game's own: ``stats as KEYvalue (WS4, Sv3+),
        settings as key=value (smg=2) and keywords in kebab-case (force-weapon)``."""
        phrases = []
        words = self.example_tokens()
        # The example's own stats (WS4 before Sv3+), else the game's first ones.
        keys = tuple(key.lower() for key in self.stats)
        stats = [word for word in words if "=" not in word and word.lower().rstrip("0123456789+-") in keys]
        stats = stats or [key + (value or "1") for key, value in self.stats.items()]
        if stats:
            # The first stat and a save (the first roll) where the first is a number, else the second stat.
            roll = next((stat for stat in stats if rolled(stat)), None)
            other = roll if not rolled(stats[0]) and roll else (stats[1] if len(stats) > 1 else None)
            phrases.append(f"stats as KEYvalue ({', '.join([stats[0], other] if other else [stats[0]])})")
        setting = next((word for word in words if "=" in word), None)
        phrases.append(f"settings as key=value ({setting})" if setting else "settings as key=value")
        known = self.lower_keywords
        keywords = [word for word in words if "=" not in word and (word.lower() in known or not known)]
        kebab = [word for word in keywords if _KEBAB.match(word)]
        capitals = [word for word in keywords if _CAPITALS.match(word)]
        if kebab:
            chosen = next((word for word in kebab if "-" in word), kebab[0])
            phrases.append(f"keywords in kebab-case ({chosen})")
        if capitals:
            phrases.append(f"unit types in capitals ({capitals[0]})")
        if not kebab and not capitals:
            phrases.append("keywords in kebab-case")
        return ", ".join(phrases[:-1]) + " and " + phrases[-1]

    def missing_keys(self, value: str, given: Iterable[str]) -> list[str]:
        """The stats a value standing alone (``3+``, ``4``) may have lost its key from: those of its shape (a roll
        or a number) the group does not give yet, in the game's order (``Sv`` before ``Inv``)."""
        if not _KEYLESS_VALUE.match(value):
            return []
        taken = {key.lower() for key in given}
        return [
            key
            for key, example in self.stats.items()
            if example and key.lower() not in taken and rolled(example) == rolled(value)
        ]

    def setting_apart(self, before: str, value: str) -> tuple[str, str] | None:
        """For a value written apart from its setting: (what was written, the certain fix), or None. ``smg 2`` (a
        setting of the game, in any case, and a value) is ``smg=2``; ``high-ground=1 3`` (a setting that takes a
        list, and an item of it) is ``high-ground=1,3``."""
        if not _KEYLESS_VALUE.match(value) and not _LIST_ITEM.match(value):
            return None
        keys = {key.lower(): key for key in self.settings}
        key, equals, given = before.partition("=")
        known = keys.get(key.lower())
        if known is None or (equals and not ("," in self.settings[known] and _LIST_ITEM.match(given + "," + value))):
            return None
        return f"{before} {value}", (f"{known}={given},{value}" if equals else f"{known}={value}")

    def two_words(self, first: str, second: str) -> tuple[str, str | None] | None:
        """For ``power sword`` (a keyword in two words, the first unknown): the words of the error (the keyword
        the game knows, hyphenated, or the guess for the hyphenated form) and the certain fix, or None."""
        known = {keyword.lower(): keyword for keyword in self.keywords}
        if not known or first.lower() in known or not _KEBAB.match(second.lower()):
            return None
        joined = f"{first.lower()}-{second.lower()}"
        if joined in known:
            return f"a keyword is one word, in kebab-case: {known[joined]}.", known[joined]
        if second.lower() in known:
            return None
        guess = did_you_mean(joined, tuple(self.keywords))
        if not guess:
            return None
        return f"a keyword is one word, in kebab-case, and there is no {joined}.{guess}", closest(joined, self.keywords)


def without_commas(words: list[str]) -> list[str] | None:
    """The tokens of ``WS4, S4, T4`` (or ``WS4,S4``) with the commas that separate them taken out, or None when no
    comma separates tokens (a comma inside a setting's value, ``vs=1,2``, is the setting's own)."""
    fixed: list[str] = []
    for word in words:
        if "=" in word:
            fixed += [word.strip(",")] if word.strip(",") else []
        else:
            fixed += [part for part in word.split(",") if part]
    return fixed if fixed != words else None
