"""Every 30 seconds (and at start), each challenge past its time is marked expired and its message edited to say
so, its buttons gone (bot/challenges/expiry.py). Several processes share the work: each challenge is claimed, so
edited, by one of them (``FOR UPDATE SKIP LOCKED``). A press on a challenge past its time is refused whether or not
the sweep has come by; the sweep makes the channel say so without anyone pressing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.challenges.expiry import sweep_expired
from bot.discord.challenges import show_expired

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

log = logging.getLogger("referee.bot")
SWEEP_SECONDS = 30.0
SWEEP_GRACE = 5.0  # seconds a sweep in progress is given to finish when the bot stops (after the league's 10)


class ChallengeSweepCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.sweeping = asyncio.Lock()  # held by a sweep in progress
        super().__init__()

    async def cog_load(self) -> None:
        self.sweeper.start()

    async def cog_unload(self) -> None:
        # A sweep in progress finishes first: the challenges it claimed are marked expired, and only this sweep
        # would edit their messages. Then the loop is cancelled (Loop.stop() would wait its sleep).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.sweeping.acquire(), SWEEP_GRACE)  # held from here: no sweep starts
        self.sweeper.cancel()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweeper(self) -> None:
        async with self.sweeping:
            try:
                await self.sweep_once()
            except Exception:  # a database hiccup: the next sweep tries again, nothing is lost
                log.exception("the challenge sweep failed; retrying in %s s", SWEEP_SECONDS)

    @sweeper.before_loop
    async def ready(self) -> None:
        await self.bot.wait_until_ready()  # edits go through the connection: none before it is up

    async def sweep_once(self, at: datetime | None = None) -> int:
        """Mark every open challenge past its time by ``at`` (default now) expired and edit its message; how many
        this process claimed."""
        return await sweep_expired(self.bot.store, partial(show_expired, self.bot), at=at)
