"""The dice laws every exact solver is built from: binomial pools, one D6 against a target, 2D6 and nD6."""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from rules_core.report import Op

Law = dict[Any, float]


@functools.cache
def binomial(n: int, p: float) -> tuple[float, ...]:
    """P(k successes of n), k = 0..n (a single (1.0,) when p is 0)."""
    if p <= 0.0:
        return (1.0,)
    if p >= 1.0:
        return (0.0,) * n + (1.0,)
    q = 1.0 - p
    first = q**n
    if first < 1e-280:  # the recurrence would start from an underflow: term by term instead
        return tuple(_term(n, k, p, q) for k in range(n + 1))
    ratio = p / q
    law = [first]
    for k in range(1, n + 1):
        law.append(law[-1] * ratio * (n - k + 1) / k)
    return tuple(law)


def _term(n: int, k: int, p: float, q: float) -> float:
    """P(k successes of n), one term: through logarithms when C(n, k) is past what a float holds (thousands of
    attacks: a sweeping advance of 200 models with 10 attacks each)."""
    ways = math.comb(n, k)
    if ways < 1e300:
        return ways * p**k * q ** (n - k)
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
                    + (n - k) * math.log(q))  # fmt: skip


def d6_meets(op: Op, value: int | None) -> float:
    """P(one D6 scores ``value`` or more (AT_LEAST), or ``value`` or less (AT_MOST)); 0 when there is no value."""
    if value is None:
        return 0.0
    faces = 7 - value if op is Op.AT_LEAST else value
    return min(6, max(0, faces)) / 6


def p_at_least(need: int | None) -> float:
    """P(a D6 scores ``need`` or more); 0 when nothing can (``None``)."""
    return d6_meets(Op.AT_LEAST, need)


def two_d6(read: Callable[[int, int], Any]) -> Law:
    """The law of ``read(first die, second die)`` over 2D6."""
    law: Law = defaultdict(float)
    for first in range(1, 7):
        for second in range(1, 7):
            law[read(first, second)] += 1 / 36
    return dict(law)


def sum_d6(count: int) -> dict[int, float]:
    """The law of the sum of ``count`` D6."""
    law = {0: 1.0}
    for _ in range(count):
        step: dict[int, float] = defaultdict(float)
        for total, p in law.items():
            for face in range(1, 7):
                step[total + face] += p / 6
        law = dict(step)
    return law


def convolve(first: Law, second: Law, add: Callable[[Any, Any], Any]) -> Law:
    """The law of ``add(a, b)`` for independent ``a`` and ``b``."""
    out: Law = defaultdict(float)
    for a, p in first.items():
        for b, q in second.items():
            out[add(a, b)] += p * q
    return out


__all__ = ["Law", "binomial", "convolve", "d6_meets", "p_at_least", "sum_d6", "two_d6"]
