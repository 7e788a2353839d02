"""Shared timing for the benchmarks: medians and 90th percentiles on one core (never assertions)."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def median_ms(work: Callable[[int], object], runs: int) -> tuple[float, float]:
    """(median, p90) in milliseconds of ``work(seed)`` over ``runs`` seeds, after a warm-up."""
    for seed in range(min(runs, 200)):
        work(seed)
    times = []
    for seed in range(runs):
        start = time.perf_counter_ns()
        work(seed)
        times.append(time.perf_counter_ns() - start)
    times.sort()
    return statistics.median(times) / 1e6, times[int(len(times) * 0.9)] / 1e6
