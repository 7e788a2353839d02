"""The errors for the slips a player makes as they type a spec, each with the fix to copy where it is certain.

Commas between tokens (``WS4, S4``), a stat's key left out (``Ld8 3+``), a setting's value written apart from it
(``smg 2``, ``high-ground=1 3``), a keyword written as two words (``power sword``): :mod:`rules_core.spec` calls
these when a token cannot be read, before its general error; :mod:`rules_core.spec_hints` finds the fixes.
"""

from __future__ import annotations

from rules_core.errors import SpecError
from rules_core.spec_hints import Vocabulary, rolled, without_commas


def refuse_commas(words: list[str], rest: str, example: str) -> None:
    """For ``WS4, S4, T4``: commas do not separate tokens; the tokens are shown without them, to copy."""
    fixed = without_commas(words)
    if fixed is not None:
        raise SpecError(
            f"Cannot read '{' '.join(words)}': commas do not separate tokens, spaces do. Write '{' '.join(fixed)}'.",
            token=rest.strip(),
            example=example,
            fix=" ".join(fixed),
        )


def refuse_keyless(word: str, name: str, given: list[str], vocabulary: Vocabulary) -> None:
    """For ``Ld8 3+``: a roll (or a number) standing alone is a stat with its key left out (Sv3+)."""
    keys = vocabulary.missing_keys(word, given)
    if keys:
        # A roll is the first missing roll (Sv3+ before Inv3+, a decision); a number is certain only when one stat
        # alone may have lost its key (else M3 or BS3 is named, never corrected).
        certain = rolled(word) or len(keys) == 1
        others = "".join(f" (or {key}{word})" for key in keys[1:2])
        which = "" if certain else ": which stat is it?"
        raise SpecError(
            f"Cannot read '{word}' on '{name}': a stat is written with its key, as {keys[0]}{word}{others}{which}",
            token=word,
            example=vocabulary.example,
            fix=keys[0] + word if certain else None,
        )


def refuse_setting_apart(before: str, word: str, name: str, vocabulary: Vocabulary) -> None:
    """For ``smg 2`` or ``high-ground=1 3``: a value written apart from its setting is that setting's value."""
    found = vocabulary.setting_apart(before, word)
    if found is not None:
        written, fix = found
        how = "key=value with no spaces, and a list with commas:" if "=" in before else "key=value, as"
        raise SpecError(
            f"Cannot read '{written}' on '{name}': write a setting as {how} {fix}.",
            token=written,
            example=vocabulary.example,
            fix=fix,
        )


def refuse_two_words(first: str, second: str, name: str, vocabulary: Vocabulary) -> None:
    """For ``power sword``: a keyword written as two words is looked up hyphenated (power-sword) first."""
    found = vocabulary.two_words(first, second)
    if found is not None:
        words, fix = found
        raise SpecError(
            f"Cannot read '{first} {second}' on '{name}': {words}",
            token=f"{first} {second}",
            example=vocabulary.example,
            fix=fix,
        )
