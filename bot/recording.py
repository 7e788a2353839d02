"""Recording resolutions from synchronous callers (the `referee` command), never losing what was shown.

The report is always shown first; only then is it written. A failed write is reported as "not recorded" and
logged, and the result the user saw stands.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.storage import LOCAL_USER, StorageError, Store
from bot.storage.records import AlreadyContinued
from rules_core.report import Report

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Recorded:
    record_id: int | None  # None: not recorded
    problem: str = ""  # one sentence: what failed and what to do


def with_store(work: Callable[[Store], Awaitable[T]], url: str | None = None) -> T:
    """Open the store, run ``work`` on it, close it: one event loop per call (the CLI is synchronous)."""

    async def run() -> T:
        store = await Store.open(url)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(run())


def record_report(
    report: Report,
    *,
    requested_by: str = LOCAL_USER,
    opponent: str | None = None,
    continues: int | None = None,
    url: str | None = None,
    house_rules: tuple[str, ...] = (),
) -> Recorded:
    """Store a report that has already been shown; any storage failure becomes a 'not recorded' answer."""
    try:
        record_id = with_store(
            lambda store: store.records.add(
                report, requested_by=requested_by, opponent=opponent, continues=continues, house_rules=house_rules
            ),
            url,
        )
    except (StorageError, AlreadyContinued) as error:  # the store turns every failure under it into StorageError
        log.info("combat not recorded", exc_info=True)  # the caller shows the one line; nothing more on stderr
        return Recorded(None, str(error))
    return Recorded(record_id)
