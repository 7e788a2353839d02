"""How long a test waits for something that should happen: every bound in the tests and their helpers (a fake-Discord
answer, a process or server starting or stopping, a Selenium script, a hang guard) is ``scaled(base)``.

A bound is never what a test checks: it only turns a hang into a failure. On an idle machine ``scaled(base)`` is
``base``, so a broken test fails as fast as before; on a loaded one (the suite beside other work on two cores) the
same step takes longer, and so does its bound. The factor is, in this order:

- ``TEST_TIME_FACTOR`` when set: a number from 1 to 100 (``TEST_TIME_FACTOR=3`` waits three times as long);
- otherwise the machine's load per core over the last minute (``os.getloadavg()[0] / cores``), at least 1 and at
  most ``MOST``, read when each wait starts, so a wait begun after the load rose is longer.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import os
import time
from collections.abc import Awaitable, Callable

VARIABLE = "TEST_TIME_FACTOR"
MOST = 10.0  # the automatic factor's cap: a bound stays a bound on a machine that is hopelessly overloaded
EXAMPLE = f"Example: {VARIABLE}=3 (every wait three times as long), or leave it unset to follow the load"


class BadFactor(ValueError):
    """TEST_TIME_FACTOR is set to something that is not a factor; the message names it and shows an example."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def load_factor() -> float:
    """The load per core over the last minute, from 1 (idle, or only the suite's own workers) to ``MOST``."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this system
        return 1.0
    return min(MOST, max(1.0, load / cores()))


def factor() -> float:
    """How many times longer than its base every wait is now (see the module's docstring)."""
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return load_factor()
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 1 <= value <= 100:  # NaN and infinity too
        raise BadFactor(f"{VARIABLE} is a number from 1 to 100, not '{text}'. {EXAMPLE}")
    return value


def scaled(base: float) -> float:
    """``base`` seconds scaled by :func:`factor`: the bound for a wait that takes ``base`` at most when idle."""
    return base * factor()


async def eventually(
    check: Callable[[], object | Awaitable[object]], what: str, timeout: float = 20.0, every: float = 0.05
) -> None:
    """Wait for ``check()`` (a function or a coroutine function) to hold, polling every ``every`` seconds, up to
    ``scaled(timeout)``; a failure says what never happened."""
    deadline = time.monotonic() + scaled(timeout)
    while True:
        held = check()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(every)


def describe() -> str:
    """One line for pytest's header: the factor now and where it comes from."""
    if os.environ.get(VARIABLE, "").strip():
        return f"waits scaled by {factor():g} ({VARIABLE})"
    return (
        f"waits scaled by the load (now {load_factor():.2f}: load average per core, 1 to {MOST:g}; {VARIABLE} fixes it)"
    )
