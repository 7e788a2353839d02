"""Suggestions for a near miss in a spec: a keyword, setting or stat key one letter off from one the game knows.

:func:`did_you_mean` and :func:`suggest_stat` name a guess in words; :func:`closest`, :func:`fixed_setting` and
:func:`fixed_stat` give a fix only when it is certain, for the front ends to offer the player's own spec corrected.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
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
    rolled = value.endswith("+") or value == "-"
    ranked = []
    for position, (candidate, example) in enumerate(stats.items()):
        distance = _edit_distance(wanted, candidate.lower())
        if distance <= 1:
            shape = 0 if (example.endswith("+") or example == "-") == rolled else 1
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
