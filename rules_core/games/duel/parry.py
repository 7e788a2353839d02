"""The default parry (``parry=auto``): re-roll the opponent's highest die exactly when it pays.

A parry forces the opponent to re-roll its highest die. The parrier's own dice do not change, so the parrier's
score minus the opponent's moves only with what the opponent's dice are *worth* to that difference:

    worth = highest die + criticals (each 6 after the first) - fumbles (each 1, which gives the parrier +1)

The re-roll has six equally likely results. ``auto`` parries exactly when the expected worth after the re-roll is
lower than the worth now, i.e. when the parry improves the parrier's expected score difference; on equal
expectation it does not parry (parrying is optional). With several usable parries (after the one-for-one
cancellation) they are used one after another, each seeing the dice the last one left, so the expectation of a
re-roll counts the best use of the parries still left: ``value(dice, k) = min(worth(dice), mean over the six
faces of value(dice with the highest re-rolled to that face, k - 1))``, ``value(dice, 0) = worth(dice)``. Once it
declines it stops: the dice do not change, and fewer parries left can only make a re-roll worth less.

Dice are held as counts per face (how many 1s, 2s, ..., 6s), so every order of the same dice is one state.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

Counts = tuple[int, ...]  # how many dice show 1, 2, ..., 6


def counts_of(faces: Iterable[int]) -> Counts:
    counts = [0] * 6
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


def highest(counts: Counts) -> int:
    return max(face for face in range(1, 7) if counts[face - 1])


def worth(counts: Counts) -> int:
    """What the dice add to their owner's combat score less the opponent's: highest + criticals - fumbles."""
    return highest(counts) + max(0, counts[5] - 1) - counts[0]


def rerolled(counts: Counts, new: int) -> Counts:
    """The dice after the highest die is re-rolled to ``new``."""
    changed = list(counts)
    changed[highest(counts) - 1] -= 1
    changed[new - 1] += 1
    return tuple(changed)


@functools.lru_cache(maxsize=1 << 16)
def form(counts: Counts, parries: int) -> tuple[Counts, int]:
    """The dice as far as ``parries`` more re-rolls of the highest die can tell them apart: (the ``parries + 1``
    highest dice, what the others add to the worth).

    Each re-roll takes away the highest die, so ``parries`` re-rolls take away at most the ``parries`` highest of
    these dice, and the highest die is always one of the ``parries + 1`` highest or a new one. The dice below those
    are never re-rolled and never the highest: they only count as fumbles (each 1: -1) and criticals (each 6, only
    there when every die above is a 6, so that the sixes number two or more whatever the re-rolls: +1). So the
    value and the advice of 20 dice are those of their 7 highest, plus a number.
    """
    top = [0] * 6
    kept, offset = max(parries, 0) + 1, 0
    for face in range(6, 0, -1):
        here = counts[face - 1]
        top[face - 1] = min(here, kept)
        kept -= top[face - 1]
        offset += (here - top[face - 1]) * (face == 6) - (here - top[face - 1]) * (face == 1)
    return tuple(top), offset


def reduced(top: Counts, parries: int) -> tuple[Counts, int]:
    """``top`` (at most ``parries + 2`` dice) as ``form`` writes it for ``parries``: its lowest die set apart."""
    if sum(top) <= parries + 1:
        return top, 0
    lowest = next(face for face in range(1, 7) if top[face - 1])
    changed = list(top)
    changed[lowest - 1] -= 1
    return tuple(changed), (lowest == 6) - (lowest == 1)


def _scale(parries: int) -> int:
    """6 to the power ``parries`` (0 or more): each re-roll to come is a mean of six. (int ** int reads as Any to
    mypy, as a negative power would be a float.)"""
    return int(6**parries)


@functools.cache
def _scaled_value(top: Counts, parries: int) -> int:
    """``value`` of dice ``form`` reduced to ``top`` (its number set apart) times 6 ** ``parries``: an integer, as
    each re-roll is a mean of six."""
    now = worth(top) * _scale(parries)
    if parries <= 0:
        return now
    return min(now, _scaled_after(top, parries))


@functools.cache
def _scaled_after(top: Counts, parries: int) -> int:
    """``after_reroll`` of ``top`` times 6 ** ``parries`` (1 or more: a parry is being weighed)."""
    total = 0
    for new in range(1, 7):
        following, offset = reduced(rerolled(top, new), parries - 1)
        total += _scaled_value(following, parries - 1) + offset * _scale(parries - 1)
    return total


def pays(top: Counts, parries: int) -> bool:
    """Whether ``auto`` re-rolls dice whose ``form`` for ``parries`` is ``top`` (the number set apart changes
    both sides of the comparison alike)."""
    return _scaled_after(top, parries) < worth(top) * _scale(parries)


def value(counts: Counts, parries: int) -> Fraction:
    """The expected worth of the dice when the parrier holds ``parries`` and uses each only when it pays."""
    parries = max(0, parries)
    top, offset = form(counts, parries)
    return Fraction(_scaled_value(top, parries), _scale(parries)) + offset


def after_reroll(counts: Counts, parries: int) -> Fraction:
    """The expected worth if one of ``parries`` (1 or more) re-rolls the highest die now (the rest used only when
    they pay)."""
    if parries < 1:
        raise ValueError(f"a re-roll needs a parry: {parries} left")
    top, offset = form(counts, parries)
    return Fraction(_scaled_after(top, parries), _scale(parries)) + offset


@dataclass(frozen=True, slots=True)
class Advice:
    parry: bool
    now: Fraction  # the opponent's dice's worth as they stand
    after: Fraction  # its expectation after a re-roll (the parries still left used when they pay)

    @property
    def gain(self) -> Fraction:
        """How much the parry improves the parrier's expected score difference (negative: it would worsen it)."""
        return self.now - self.after


def advise(counts: Counts, parries: int) -> Advice:
    """Whether ``auto`` parries dice ``counts`` with ``parries`` usable parries left (this one included)."""
    now, after = Fraction(worth(counts)), after_reroll(counts, parries)
    return Advice(after < now, now, after)


def should_parry(counts: Counts, parries: int) -> bool:
    return pays(form(counts, parries)[0], parries)


def number(value: Fraction) -> str:
    """A short decimal for a report: 2.5, 0.33, 4."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


__all__ = [
    "Advice",
    "Counts",
    "advise",
    "after_reroll",
    "counts_of",
    "form",
    "number",
    "pays",
    "reduced",
    "should_parry",
    "value",
    "worth",
]
