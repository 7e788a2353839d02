"""Results written in batches behind the answers: one transaction for every result waiting.

The bot answers first and records second. In a burst, the recording of one result should not delay the next
player's answer, and fifty single-row transactions cost far more than one of fifty rows. So the bot hands each
result to this writer: it waits one turn of the event loop (letting queued answers go out), then writes
everything waiting in one transaction. A lone result is written by itself; a batch that fails as a whole (a
continuation already taken) is retried one by one, so one bad row never loses the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.exc import IntegrityError

from bot.storage import Store
from bot.storage.records import RecordRequest

log = logging.getLogger("referee.bot")
MAX_BATCH = 200


class RecordWriter:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.waiting: list[tuple[RecordRequest, asyncio.Future[int]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closing = False

    async def record(self, request: RecordRequest) -> int:
        """The record id once written; raises what the store raised."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append((request, future))
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run(), name="referee-record-writer")
        return await future

    async def run(self) -> None:
        while not (self.closing and not self.waiting):
            await self.wake.wait()
            self.wake.clear()
            await asyncio.sleep(0)  # let answers already queued go out before this write
            while self.waiting:
                batch, self.waiting = self.waiting[:MAX_BATCH], self.waiting[MAX_BATCH:]
                await self.write(batch)
                del batch  # not kept alive (fifty reports) until the next result comes

    async def write(self, batch: list[tuple[RecordRequest, asyncio.Future[int]]]) -> None:
        if len(batch) == 1:
            await self.write_one(*batch[0])
            return
        try:
            ids = await self.store.records.add_many([request for request, _ in batch])
        except IntegrityError:
            for request, future in batch:
                await self.write_one(request, future)
            return
        except Exception as error:  # every waiting answer hears about the failure
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (_, future), record_id in zip(batch, ids, strict=True):
            if not future.done():
                future.set_result(record_id)

    async def write_one(self, request: RecordRequest, future: asyncio.Future[int]) -> None:
        try:
            record_id = await self.store.records.add(
                request.report, requested_by=request.requested_by, opponent=request.opponent,
                guild_id=request.guild_id, channel_id=request.channel_id, at=request.at, continues=request.continues,
                private=request.private, house_rules=request.house_rules, slug=request.slug,
            )  # fmt: skip
        except Exception as error:  # handed to the answer that waits for it
            if not future.done():
                future.set_exception(error)
            return
        if not future.done():
            future.set_result(record_id)

    async def close(self, timeout: float = 0.0) -> None:
        """Write what is waiting (up to ``timeout`` seconds), then stop; what is still unwritten then is cancelled
        (its answers hear of it as a failure, never silence)."""
        self.closing = True
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
        for _, future in self.waiting:
            if not future.done():
                future.set_exception(ConnectionError("the referee stopped before this result was written"))
        self.waiting = []
