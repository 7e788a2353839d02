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

A result whose last attempt may have committed (its insert was sent and the connection dropped before the answer
came: ``bot.storage.failures.never_sent`` says it was not) is still looked for by its key after its answer said it
was not recorded: ``late(write_key)`` waits for it, checking whenever the database answers, until shortly before
the interaction's token expires (its message can be edited no later). Found, its answer is corrected (record id,
buttons). Nothing is written then, only looked for. A clean stop that cancels a write in flight looks its keys up
once before it reports them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from bot.storage import Store
from bot.storage.failures import is_transient, never_sent
from bot.storage.records import RecordRequest

log = logging.getLogger("referee.bot")
MAX_BATCH = 200
RETRY_SECONDS = 60.0  # how long a result is held through a database outage (Settings.record_retry_seconds)
FIRST_BACKOFF, MAX_BACKOFF = 0.2, 2.0  # seconds between two tries of what is held: doubling, up to the most
# A result told "not recorded" whose last attempt may have committed is looked for by its key until its message can
# no longer be edited: Discord's interaction token lives 15 minutes from the command, less a margin for the edit.
TOKEN_LIFE, EDIT_MARGIN = 15 * 60.0, 60.0
FIRST_LOOK, MAX_LOOK = 0.5, 10.0  # seconds between two look-ups of such results: doubling, up to the most


@dataclass(slots=True)
class Held:
    """A result waiting to be written: its request, the answer's future, when its time is up, whether an attempt
    may have written it (its key is then looked up before another)."""

    request: RecordRequest
    future: asyncio.Future[int]
    give_up_at: float
    started: float  # when it was handed over (time.monotonic()): its interaction's token is as old
    tried: bool = False
    error: BaseException | None = None  # the last failure, which its answer hears of once its time is up
    unknown: bool = False  # an insert was sent and failed, and no look-up since has settled whether it committed


@dataclass(slots=True)
class Watched:
    """A result told "not recorded" that may have been written: looked for by its key until ``until``."""

    future: asyncio.Future[int | None]
    until: float


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
        self.writing: list[Held] = []  # the batch being written now (a clean stop that cancels it looks it up)
        self.watched: dict[str, Watched] = {}  # write key -> a result told "not recorded" that may be written
        self.look_at, self.look_every = 0.0, FIRST_LOOK  # when to look the watched keys up next, and then how often
        self.found_late = 0  # results found written after their answer said they were not (and corrected)

    @property
    def holding(self) -> int:
        """Results tried and held for another try (the database failed for a reason that passes)."""
        return len(self.held)

    async def record(self, request: RecordRequest) -> int:
        """The record id once written; raises what the store raised (once the time to retry is up, if it passes)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        now = time.monotonic()
        self.waiting.append(Held(request, future, now + self.retry_seconds, now))
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run(), name="referee-record-writer")
        return await future

    def late(self, write_key: str) -> asyncio.Future[int | None] | None:
        """For a result whose answer said it is not recorded: None when it certainly was not; else the record id it
        turns out to have after all, or None once its message can no longer be edited (or the bot stops)."""
        watched = self.watched.get(write_key)
        return None if watched is None else watched.future

    async def run(self) -> None:
        while not (self.closing and not self.waiting and not self.held):
            pauses = [self.backoff] if self.held else []
            if self.watched:
                pauses.append(max(self.look_at - time.monotonic(), 0.0))
            if pauses and not self.waiting:  # sleep the backoff, woken early by a new result or the stop
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), min(pauses))
            else:
                await self.wake.wait()
            self.wake.clear()
            await asyncio.sleep(0)  # let answers already queued go out before this write
            self.give_up()
            if self.watched and time.monotonic() >= self.look_at:
                await self.look_up()
            # What is held goes first (it is older), with the new: one transaction for all of them.
            todo, self.waiting, self.held = self.held + self.waiting, [], []
            while todo:
                batch, todo = todo[:MAX_BATCH], todo[MAX_BATCH:]
                self.writing = batch
                await self.write(batch)
                self.writing = []
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
                self.tell_not_recorded(held, held.error)
        self.held = kept

    def tell_not_recorded(self, held: Held, error: BaseException) -> None:
        """Fail ``held``'s answer; if its last attempt may have committed, look for it afterwards (see late())."""
        if held.unknown:
            until = held.started + TOKEN_LIFE - EDIT_MARGIN
            self.watched[held.request.write_key] = Watched(asyncio.get_running_loop().create_future(), until)
            self.look_at, self.look_every = time.monotonic() + FIRST_LOOK, FIRST_LOOK
            self.wake.set()
        held.future.set_exception(error)

    async def look_up(self) -> None:
        """Look the watched keys up: a found one's answer is corrected, one past its time is given up."""
        moment = time.monotonic()
        for key, watched in list(self.watched.items()):
            if moment >= watched.until:
                log.warning("a result told it was not recorded was not found written before its message stopped "
                            "being editable: it stays not recorded")  # fmt: skip
                self.end_watch(key, None)
        try:
            written = await self.store.records.find_written(list(self.watched))
        except Exception as error:  # still away: looked for again later
            log.info(
                "results told they were not recorded cannot be looked up yet (%s)", " ".join(str(error).split())[:200]
            )
            self.look_every = min(self.look_every * 2, MAX_LOOK)
            self.look_at = time.monotonic() + self.look_every
            return
        for key, record_id in written.items():
            log.warning("a result told it was not recorded had been written after all (its acknowledgement was "
                        "lost): record #%d, its answer corrected", record_id)  # fmt: skip
            self.found_late += 1
            self.end_watch(key, record_id)
        self.look_every = min(self.look_every * 2, MAX_LOOK)
        self.look_at = time.monotonic() + self.look_every

    def end_watch(self, key: str, record_id: int | None) -> None:
        watched = self.watched.pop(key, None)
        if watched is not None and not watched.future.done():
            watched.future.set_result(record_id)

    async def write(self, batch: list[Held]) -> None:
        try:
            written = await self.store.records.find_written(h.request.write_key for h in batch if h.tried)
        except Exception as error:
            self.failed(batch, error)
            return
        for held in batch:
            held.unknown = False  # looked up: an earlier attempt either committed (found) or did not
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
            self.failed(todo, error, sent=True)
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
            self.failed([held], error, sent=True)
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

    def failed(self, batch: list[Held], error: BaseException, *, sent: bool = False) -> None:
        """A failure that passes keeps the batch for another try (until its time is up); any other is final.
        ``sent``: the insert was sent, so unless the connection was never made it may have committed."""
        if not is_transient(error):  # the server answered: nothing was committed
            for held in batch:
                if not held.future.done():
                    held.future.set_exception(error)
            return
        if sent and not never_sent(error):
            for held in batch:
                held.unknown = True
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
        if task is not None and not task.done():
            self.wake.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.last_look(self.writing + [h for h in self.held if h.unknown], self.watched)
        for held in self.writing + self.waiting + self.held:
            if not held.future.done():
                held.future.set_exception(ConnectionError("the referee stopped before this result was written"))
        self.writing, self.waiting, self.held = [], [], []

    async def last_look(self, unsure: list[Held], watched: dict[str, Watched]) -> None:
        """The bot is stopping: results whose write may have committed (one cancelled in flight, one whose
        acknowledgement was lost) are looked up once, briefly, so a written one is answered with its record id;
        what is watched ends (found, or not)."""
        keys = [h.request.write_key for h in unsure if not h.future.done()] + list(watched)
        written: dict[str, int] = {}
        if keys:
            try:
                written = await asyncio.wait_for(self.store.records.find_written(keys), 2.0)
            except Exception:  # the database is away: they stay not recorded
                log.info("stopping: %d results that may have been written could not be looked up", len(keys))
        for held in unsure:
            if held.request.write_key in written and not held.future.done():
                self.found_written += 1
                held.future.set_result(written[held.request.write_key])
        for key in list(watched):
            self.end_watch(key, written.get(key))
