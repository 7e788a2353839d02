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


@functools.cache
def value(counts: Counts, parries: int) -> Fraction:
    """The expected worth of the dice when the parrier holds ``parries`` and uses each only when it pays."""
    now = Fraction(worth(counts))
    if parries <= 0:
        return now
    return min(now, after_reroll(counts, parries))


@functools.cache
def after_reroll(counts: Counts, parries: int) -> Fraction:
    """The expected worth if one of ``parries`` re-rolls the highest die now (the rest used only when they pay)."""
    return sum((value(rerolled(counts, new), parries - 1) for new in range(1, 7)), Fraction(0)) / 6


@dataclass(frozen=True, slots=True)
class Advice:
    parry: bool
    now: Fraction  # the opponent's dice's worth as they stand
    after: Fraction  # its expectation after a re-roll (the parries still left used when they pay)

    @property
    def gain(self) -> Fraction:
        """How much the parry improves the parrier's expected score difference (negative: it would worsen it)."""
        return self.now - self.after


@functools.cache
def advise(counts: Counts, parries: int) -> Advice:
    """Whether ``auto`` parries dice ``counts`` with ``parries`` usable parries left (this one included)."""
    now, after = Fraction(worth(counts)), after_reroll(counts, parries)
    return Advice(after < now, now, after)


def should_parry(counts: Counts, parries: int) -> bool:
    return advise(counts, parries).parry


def number(value: Fraction) -> str:
    """A short decimal for a report: 2.5, 0.33, 4."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


__all__ = ["Advice", "Counts", "advise", "after_reroll", "counts_of", "number", "should_parry", "value", "worth"]
