"""The time budget of an odds answer: how long the exact calculation may run before it gives way to Monte Carlo,
and how Monte Carlo is split into batches that stop at the deadline (docs/odds.md, "The time budget").

The exact solvers are plain loops over probability laws; they call :func:`check` once per state they expand, and
when the deadline of the calculation in progress has passed it raises ``NotExact``, so the dispatcher answers by
Monte Carlo instead. The deadline lives in a context variable: a solver needs no extra argument, a calculation
with no deadline (a fixed number of trials, or the solver called directly) never consults the clock, and two
threads computing odds at once (the bot's worker threads) each see their own.

Monte Carlo runs in batches of a fixed schedule (:func:`schedule`): with a number of trials the batches are cut
from the schedule, and with a time budget they run until the next one would pass the deadline. Either way the
batch starting at trial ``i`` is drawn from seed ``seed + i``, so an answer of N trials under a time budget is
exactly the answer of ``--trials N`` with the same seed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rules_core.odds.model import NotExact

DEFAULT_TIME_LIMIT = 5.0  # seconds: the CLI's default, and the most the bot allows itself
MIN_TIME_LIMIT = 0.1
MAX_TIME_LIMIT = 600.0
EXACT_SHARE = 0.6  # of the budget, what the exact calculation may use before Monte Carlo takes the rest
EXACT_ALONE = 1.0  # of the budget, what it may use when only an exact answer was asked for
FIRST_BATCH = 10  # trials of the first Monte Carlo batch; each next one doubles, up to MAX_BATCH
MAX_BATCH = 50_000  # the sampled model holds a few arrays of this many trials: a few MB

# (when the exact calculation must give up, when Monte Carlo must stop), or None: no clock at all
_deadlines: ContextVar[tuple[float, float] | None] = ContextVar("odds_deadlines", default=None)


class OutOfTime(NotExact):
    """The exact calculation passed its share of the time limit (its reason is the answer's note)."""


@contextmanager
def time_limit(seconds: float | None, *, exact_share: float = EXACT_SHARE, start: float | None = None
               ) -> Iterator[None]:  # fmt: skip
    """Under this context the exact solvers give up (:class:`OutOfTime`) once ``exact_share`` of ``seconds`` has
    passed since ``start`` (a ``time.monotonic()``; default now), and Monte Carlo stops at ``seconds``; None: no
    clock (the trials asked for are run in full)."""
    now = time.monotonic() if start is None else start
    token = _deadlines.set(None if seconds is None else (now + seconds * exact_share, now + seconds))
    try:
        yield
    finally:
        _deadlines.reset(token)


def limited() -> bool:
    """Whether a time limit is in force."""
    return _deadlines.get() is not None


def check() -> None:
    """Called by the exact solvers once per state they expand: raises :class:`OutOfTime` past their deadline."""
    ends = _deadlines.get()
    if ends is not None and time.monotonic() >= ends[0]:
        raise OutOfTime("the exact calculation did not finish within its share of the time limit")


def schedule() -> Iterator[tuple[int, int]]:
    """The batches of Monte Carlo, endless: (the first trial's number, the batch size)."""
    first, size = 0, FIRST_BATCH
    while True:
        yield first, size
        first += size
        size = min(MAX_BATCH, size * 2)


def batches(trials: int) -> Iterator[tuple[int, int]]:
    """The batches to run: ``trials`` in all, or under a time limit as many of those as fit before it (at least
    one batch). The batch starting at trial ``first`` is drawn from seed ``seed + first``.

    Under a time limit the clock is read between batches: a batch runs only if, at the pace so far, it ends
    before the deadline, and the last one is cut to what fits, as ``--trials`` would cut it."""
    ends = _deadlines.get()
    started, last = time.monotonic(), 1  # when the last batch started, and its size
    for first, planned in schedule():
        if first >= trials:
            return
        size = min(planned, trials - first)
        if ends is not None and first:
            now = time.monotonic()
            pace = (now - started) / last  # seconds a trial, in the last batch (past the first one's setting up)
            fits = int(0.95 * (ends[1] - now) / pace) if pace > 0 else size  # 5% spare: the pace varies
            if fits <= 0:
                return
            size = min(size, fits)
        started, last = time.monotonic(), size
        yield first, size
        if size < planned:
            return


__all__ = ["DEFAULT_TIME_LIMIT", "EXACT_ALONE", "EXACT_SHARE", "MAX_TIME_LIMIT", "MIN_TIME_LIMIT", "OutOfTime",
           "batches", "check", "limited", "schedule", "time_limit"]  # fmt: skip
