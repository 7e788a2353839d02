"""The bot running against the fake Discord on loopback, for the benchmarks that time it end to end."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import discord
from pydantic import SecretStr

from bot.discord.app import RefereeBot
from bot.discord.settings import Settings
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord


@contextlib.asynccontextmanager
async def running_bot(
    prepare: Callable[[RefereeBot], None] | None = None, *, database_url: str | None = None
) -> AsyncIterator[tuple[FakeDiscord, RefereeBot]]:
    """A fake Discord and a ready bot; ``prepare`` runs before the bot starts. The store is ``database_url`` (a
    PostgreSQL database must already be at the latest schema: ``referee db upgrade``), else a temporary SQLite
    file."""
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    try:
        with tempfile.TemporaryDirectory() as folder:
            url = database_url or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            settings = Settings(discord_token=SecretStr("bench"), dev_guild_id=GUILD_ID, _env_file=None,
                                database_url=url)  # type: ignore[call-arg]  # fmt: skip
            bot = RefereeBot(settings)
            if prepare is not None:
                prepare(bot)
            task = asyncio.create_task(bot.start("bench"))
            try:
                await asyncio.wait_for(fake.identified.wait(), 30)
                await bot.wait_until_ready()
                yield fake, bot
            finally:
                await bot.close()
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
    finally:
        await fake.stop()
