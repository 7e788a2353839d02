"""A cog's periodic sweep (the league's confirmations, the challenges' expiry): run at start and every ``seconds``,
one at a time, a failure logged and tried again at the next run (a database hiccup loses nothing: what is due stays
due). A clean stop lets a sweep in progress finish, up to ``grace`` seconds: what it claimed in the database only it
would edit and announce."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from discord.ext import tasks

from bot.storage.failures import is_transient

log = logging.getLogger("referee.bot")


class Sweeper:
    def __init__(self, name: str, work: Callable[[], Awaitable[object]], *, seconds: float, grace: float) -> None:
        self.name, self.work, self.seconds, self.grace = name, work, seconds, grace
        self.running = asyncio.Lock()  # held by a sweep in progress
        self.loop = tasks.loop(seconds=seconds)(self.run)

    async def run(self) -> None:
        async with self.running:
            try:
                await self.work()
            except Exception as error:  # the next sweep tries again
                if is_transient(error):  # the database restarting: known, passing, one line without a traceback
                    log.warning("the %s failed (%s); retrying in %s s", self.name, " ".join(str(error).split())[:300],
                                self.seconds)  # fmt: skip
                    return
                log.exception("the %s failed; retrying in %s s", self.name, self.seconds)

    def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        """Wait for a sweep in progress (at most ``grace`` seconds), then cancel the loop (Loop.stop() would wait
        its sleep); no sweep starts after."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.running.acquire(), self.grace)  # held from here: no sweep starts
        self.loop.cancel()


__all__ = ["Sweeper"]
