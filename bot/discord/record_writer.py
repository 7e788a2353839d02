"""Results written in batches behind the answers: one transaction for every result waiting, and held through a
database restart.

The bot answers first and records second. In a burst, the recording of one result should not delay the next
player's answer, and fifty single-row transactions cost far more than one of fifty rows. So the bot hands each
result to this writer: it waits one turn of the event loop (letting queued answers go out), then writes
everything waiting in one transaction. A lone result is written by itself; a batch that fails as a whole (a
continuation already taken) is retried one by one, so one bad row never loses the others.

A write that fails for a reason that passes (``bot.storage.failures.is_transient``: the server restarting, a
connection dropped, a serialization failure) is held in memory and tried again with backoff, for up to
``retry_seconds`` from the result's first attempt (``RECORD_RETRY_SECONDS``). Every result carries a write key made
before its first attempt: each retry first looks its keys up, so a row whose insert committed but whose
acknowledgement was lost is found, never written twice. Once a result's time is up it fails (its answer says, once,
that it is not recorded) and it is never tried again: nothing is written after a player was told it was not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from bot.storage import Store
from bot.storage.failures import is_transient
from bot.storage.records import RecordRequest

log = logging.getLogger("referee.bot")
MAX_BATCH = 200
RETRY_SECONDS = 60.0  # how long a result is held through a database outage (Settings.record_retry_seconds)
FIRST_BACKOFF, MAX_BACKOFF = 0.2, 2.0  # seconds between two tries of what is held: doubling, up to the most


@dataclass(slots=True)
class Held:
    """A result waiting to be written: its request, the answer's future, when its time is up, whether an attempt
    may have written it (its key is then looked up before another)."""

    request: RecordRequest
    future: asyncio.Future[int]
    give_up_at: float
    tried: bool = False
    error: BaseException | None = None  # the last failure, which its answer hears of once its time is up


class RecordWriter:
    def __init__(self, store: Store, *, retry_seconds: float = RETRY_SECONDS) -> None:
        self.store = store
        self.retry_seconds = retry_seconds
        self.waiting: list[Held] = []  # not tried yet
        self.held: list[Held] = []  # tried, failed for a reason that passes: tried again after a backoff
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closing = False
        self.stop_at: float | None = None  # the bot is stopping: nothing is held past this moment
        self.backoff = FIRST_BACKOFF
        self.outage_logged = False
        self.found_written = 0  # results a retry found already written (by their write keys), since the start

    @property
    def holding(self) -> int:
        """Results tried and held for another try (the database failed for a reason that passes)."""
        return len(self.held)

    async def record(self, request: RecordRequest) -> int:
        """The record id once written; raises what the store raised (once the time to retry is up, if it passes)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append(Held(request, future, time.monotonic() + self.retry_seconds))
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run(), name="referee-record-writer")
        return await future

    async def run(self) -> None:
        while not (self.closing and not self.waiting and not self.held):
            if self.held and not self.waiting:  # sleep the backoff, woken early by a new result or the stop
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), self.backoff)
            else:
                await self.wake.wait()
            self.wake.clear()
            await asyncio.sleep(0)  # let answers already queued go out before this write
            self.give_up()
            # What is held goes first (it is older), with the new: one transaction for all of them.
            todo, self.waiting, self.held = self.held + self.waiting, [], []
            while todo:
                batch, todo = todo[:MAX_BATCH], todo[MAX_BATCH:]
                await self.write(batch)
                del batch  # not kept alive (fifty reports) until the next result comes
            if self.held:
                self.backoff = min(self.backoff * 2, MAX_BACKOFF)
            else:
                self.backoff = FIRST_BACKOFF

    def give_up(self) -> None:
        """Fail what is held past its time (or past the stop's): its answer says it is not recorded."""
        moment = time.monotonic()
        kept = []
        for held in self.held:
            limit = held.give_up_at if self.stop_at is None else min(held.give_up_at, self.stop_at)
            if moment < limit:
                kept.append(held)
            elif not held.future.done() and held.error is not None:
                held.future.set_exception(held.error)
        self.held = kept

    async def write(self, batch: list[Held]) -> None:
        try:
            written = await self.store.records.find_written(h.request.write_key for h in batch if h.tried)
        except Exception as error:
            self.failed(batch, error)
            return
        if written:  # attempts that committed but whose acknowledgement was lost: found, not written again
            self.found_written += len(written)
            log.info("%d results held were written already (their acknowledgement was lost): found by their keys",
                     len(written))  # fmt: skip
        for held in batch:
            held.tried = True
        todo = [h for h in batch if not self.settle(h, written.get(h.request.write_key))]
        if len(todo) == 1:
            await self.write_one(todo[0])
            return
        if not todo:
            return
        try:
            ids = await self.store.records.add_many([h.request for h in todo])
        except IntegrityError:
            for held in todo:
                await self.write_one(held)
            return
        except Exception as error:  # every waiting answer hears about the failure (or waits for the next try)
            self.failed(todo, error)
            return
        for held, record_id in zip(todo, ids, strict=True):
            self.settle(held, record_id)

    async def write_one(self, held: Held) -> None:
        request = held.request
        try:
            record_id = await self.store.records.add(
                request.report, requested_by=request.requested_by, opponent=request.opponent,
                guild_id=request.guild_id, channel_id=request.channel_id, at=request.at, continues=request.continues,
                private=request.private, house_rules=request.house_rules, slug=request.slug,
                write_key=request.write_key,
            )  # fmt: skip
        except Exception as error:  # handed to the answer that waits for it
            self.failed([held], error)
            return
        self.settle(held, record_id)

    def settle(self, held: Held, record_id: int | None) -> bool:
        """Hand ``record_id`` (when written) to the answer; whether it was."""
        if record_id is None:
            return False
        if self.outage_logged:
            log.warning("the database is back: results are written again")
            self.outage_logged = False
        if not held.future.done():
            held.future.set_result(record_id)
        return True

    def failed(self, batch: list[Held], error: BaseException) -> None:
        """A failure that passes keeps the batch for another try (until its time is up); any other is final."""
        if not is_transient(error):
            for held in batch:
                if not held.future.done():
                    held.future.set_exception(error)
            return
        if not self.outage_logged:
            log.warning("the database failed (%s): %d results held, tried again for up to %g s each",
                        " ".join(str(error).split())[:200], len(batch), self.retry_seconds)  # fmt: skip
            self.outage_logged = True
        for held in batch:
            held.error = error
        self.held += batch
        self.give_up()

    def stop_retrying(self, at: float) -> None:
        """The bot is stopping: what is held is tried until ``at`` (time.monotonic()) at the latest, then fails."""
        self.stop_at = at
        self.wake.set()

    async def close(self, timeout: float = 0.0) -> None:
        """Write what is waiting (up to ``timeout`` seconds), then stop; what is still unwritten then is cancelled
        (its answers hear of it as a failure, never silence)."""
        self.closing = True
        self.stop_retrying(min(self.stop_at or float("inf"), time.monotonic() + timeout))
        task = self.task
        if task is None or task.done():
            return
        self.wake.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), timeout)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for held in self.waiting + self.held:
            if not held.future.done():
                held.future.set_exception(ConnectionError("the referee stopped before this result was written"))
        self.waiting, self.held = [], []
