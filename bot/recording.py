"""Recording resolutions from synchronous callers (the `referee` command), never losing what was shown.

The report is always shown first; only then is it written. A write that fails for a reason that passes (the
database restarting: ``bot.storage.failures.is_transient``) is tried again for a few seconds at most
(``CLI_RETRY_SECONDS``: a person is waiting at the prompt), each retry first looking for the row an unacknowledged
attempt wrote (the result's write key). A write that still fails is reported as "not recorded" and logged, and the
result the user saw stands. The terminal's other writes (a void, a note, a challenge accepted) are tried again the
same way (:func:`with_store_retrying`), each retry first looking for what an earlier attempt may have written.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.storage import LOCAL_USER, StorageError, Store
from bot.storage.failures import is_transient
from bot.storage.records import AlreadyContinued
from rules_core.report import Report

log = logging.getLogger(__name__)
T = TypeVar("T")
CLI_RETRY_SECONDS = 5.0  # how long the terminal tries again through a database restart before it says "not recorded"
FIRST_BACKOFF = 0.25  # seconds before the first retry; doubled for each next one


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


def with_store_retrying(attempt: Callable[..., Awaitable[T]], url: str | None = None) -> T:
    """:func:`with_store` for a write: ``attempt(store, retried=...)`` is run again while it fails for a reason that
    passes, for ``CLI_RETRY_SECONDS`` at most; ``retried`` is True on every later try, which first looks for what
    an earlier one may have written (its acknowledgement lost), so nothing is written twice. The last failure is
    raised (the caller's one line)."""
    give_up_at = time.monotonic() + CLI_RETRY_SECONDS
    delay, tried = FIRST_BACKOFF, False
    while True:
        try:
            return with_store(functools.partial(attempt, retried=tried), url)
        except StorageError as error:  # the store turns every failure under it into StorageError
            if not (is_transient(error) and time.monotonic() + delay < give_up_at):
                raise
            log.info("not written yet, trying again in %g s", delay, exc_info=True)
            time.sleep(delay)
            delay, tried = delay * 2, True


def record_report(
    report: Report,
    *,
    requested_by: str = LOCAL_USER,
    opponent: str | None = None,
    continues: int | None = None,
    url: str | None = None,
    house_rules: tuple[str, ...] = (),
) -> Recorded:
    """Store a report that has already been shown; any storage failure becomes a 'not recorded' answer, after a
    few seconds of retries when it may pass."""
    write_key = secrets.token_urlsafe(16)  # made before the first attempt: a retry finds what that one wrote

    async def add_once(store: Store, retried: bool) -> int:
        if retried:
            written = await store.records.find_written([write_key])
            if write_key in written:
                return written[write_key]
        return await store.records.add(report, requested_by=requested_by, opponent=opponent, continues=continues,
                                       house_rules=house_rules, write_key=write_key)  # fmt: skip

    try:
        return Recorded(with_store_retrying(add_once, url))
    except (StorageError, AlreadyContinued) as error:
        log.info("combat not recorded", exc_info=True)  # the caller shows the one line; nothing more on stderr
        return Recorded(None, str(error))
