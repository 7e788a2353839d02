"""What an operator watches: one JSON health line a minute from each bot process, counting since the line before.

``{"health": {"shard_ids": [0, 1], "answered": 812, "recorded": 790, "not_recorded": 0,
"first_answer_p50_ms": 31.2, "first_answer_p99_ms": 140.5, "in_flight": 2}}``

- ``answered``: interactions answered (commands and their errors). A result's first answer is timed when its
  message goes out (before it is recorded); any other command's when it completes (an upper bound: most answer
  once, at the end).
- ``recorded`` / ``not_recorded``: results written, and results shown but not written because the database failed
  (each also logged with its error id; a failure that could pass, the database restarting, counts only once the
  result's ``RECORD_RETRY_SECONDS`` of retries are spent: bot/discord/record_writer.py). A ``not_recorded`` above
  0 means players are getting results the referee cannot replay or verify: look at the database (docs/deploy.md,
  "What to watch").
- ``in_flight``: results shown and still being recorded when the line was written (those held through a database
  restart among them).

Every process writes its own line; a deployment's totals are the sum over its processes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("referee.bot")
HEALTH_INTERVAL = 60.0  # seconds between two health lines (RefereeBot's health_interval, for the tests)
MAX_TIMED = 100_000  # first-answer times kept between two lines (over that, the later ones are not timed)


class Health:
    """The counters behind the health line; :meth:`run` writes one line every ``interval`` seconds."""

    def __init__(self, interval: float = HEALTH_INTERVAL) -> None:
        self.interval = interval
        self.arrived: dict[int, float] = {}  # interaction id -> when it reached the bot, until it is answered
        self.latencies: list[float] = []
        self.answered = 0
        self.recorded = 0
        self.not_recorded = 0

    def arrive(self, interaction_id: int) -> None:
        self.arrived[interaction_id] = time.perf_counter()

    def answer(self, interaction_id: int) -> None:
        """The interaction's first answer went out (later calls for the same interaction count nothing)."""
        began = self.arrived.pop(interaction_id, None)
        if began is None:
            return
        self.answered += 1
        if len(self.latencies) < MAX_TIMED:
            self.latencies.append((time.perf_counter() - began) * 1000)

    def record(self, *, recorded: bool) -> None:
        if recorded:
            self.recorded += 1
        else:
            self.not_recorded += 1

    def line(self, shard_ids: list[int], in_flight: int) -> dict[str, Any]:
        """The counts since the previous line, which start again from zero."""
        ordered = sorted(self.latencies)

        def percentile(share: float) -> float | None:
            return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 1) if ordered else None

        line = {"shard_ids": shard_ids, "answered": self.answered, "recorded": self.recorded,
                "not_recorded": self.not_recorded, "first_answer_p50_ms": percentile(0.5),
                "first_answer_p99_ms": percentile(0.99), "in_flight": in_flight}  # fmt: skip
        self.latencies, self.answered, self.recorded, self.not_recorded = [], 0, 0, 0
        # Interactions never answered through a command (button presses) are not kept past one period.
        stale = time.perf_counter() - max(self.interval, 1.0)
        self.arrived = {key: began for key, began in self.arrived.items() if began >= stale}
        return line

    def write(self, shard_ids: list[int], in_flight: int) -> None:
        log.info(json.dumps({"health": self.line(shard_ids, in_flight)}))

    async def run(self, shard_ids: Callable[[], list[int]], in_flight: Callable[[], int]) -> None:
        """One line every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            self.write(shard_ids(), in_flight())


__all__ = ["HEALTH_INTERVAL", "Health"]
