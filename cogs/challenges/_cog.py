"""Every 30 seconds (and at start), each challenge past its time is marked expired and its message edited to say
so, its buttons gone (bot/challenges/expiry.py). Several processes share the work: each challenge is claimed, so
edited, by one of them (``FOR UPDATE SKIP LOCKED``). A press on a challenge past its time is refused whether or not
the sweep has come by; the sweep makes the channel say so without anyone pressing."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from discord.ext import commands

from bot.challenges.expiry import sweep_expired
from bot.discord.challenges import show_expired
from bot.discord.sweeps import Sweeper

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

SWEEP_SECONDS = 30.0
SWEEP_GRACE = 5.0  # seconds a sweep in progress is given to finish when the bot stops (after the league's 10)


class ChallengeSweepCog(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        self.sweeper = Sweeper("challenge sweep", self.sweep_once, seconds=SWEEP_SECONDS, grace=SWEEP_GRACE)
        self.sweeper.loop.before_loop(bot.wait_until_ready)  # edits go through the connection: none before it is up
        super().__init__()

    async def cog_load(self) -> None:
        self.sweeper.start()

    async def cog_unload(self) -> None:
        await self.sweeper.stop()  # the challenges a sweep in progress claimed only it would edit

    async def sweep_once(self, at: datetime | None = None) -> int:
        """Mark every open challenge past its time by ``at`` (default now) expired and edit its message; how many
        this process claimed."""
        return await sweep_expired(self.bot.store, partial(show_expired, self.bot), at=at)
