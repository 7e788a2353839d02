"""`referee bot`'s log, from its own process against the fake Discord: no line about voice, which the referee never
uses (discord.py warns once per process that PyNaCl and davey are missing), and its other warnings untouched."""

from __future__ import annotations

import logging
from pathlib import Path

from tests.e2e.processes import BotProcess
from tests.e2e.test_shards import fake_discord

GUILD_ID = 424242


async def test_referee_bot_starts_without_voice_warnings(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'referee.db'}"
    async with fake_discord([GUILD_ID]) as fake:
        process = await BotProcess(fake, url, [0], 1, tmp_path / "bot.log").start()  # its shard connected
        assert await process.stop() == 0
    log = process.log()
    assert "SIGTERM received" in log, log  # the whole life of the process is in it
    voice = [line for line in log.splitlines() if "voice" in line.lower() or "PyNaCl" in line or "davey" in line]
    assert not voice, voice


def test_only_the_voice_warnings_are_silenced() -> None:
    """At the cause, discord.py's own once-only flags: its logger keeps every other warning."""
    import discord

    from bot.discord.app import RefereeBot  # noqa: F401 (importing the bot's client turns the flags off)

    assert discord.VoiceClient.warn_nacl is False and discord.VoiceClient.warn_dave is False
    client_log = logging.getLogger("discord.client")
    assert not client_log.filters and client_log.isEnabledFor(logging.WARNING)
