"""What the shared Discord UI needs of the bot, as a protocol: the store, the record writer, the answers still
being recorded and the health counters. ``bot.discord.app.RefereeBot`` provides it; the UI modules name this
protocol rather than the app, so the app imports them and never the other way round."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from bot.discord.health import Health
from bot.discord.record_writer import RecordWriter
from bot.discord.settings import Settings
from bot.server_settings.cache import SettingsCache
from bot.storage import Store


class BotServices(Protocol):
    @property
    def store(self) -> Store: ...

    @property
    def writer(self) -> RecordWriter: ...

    in_flight: set[asyncio.Task[Any]]  # results being recorded, waited for on shutdown
    settings: Settings  # the bot's own settings (WEB_BASE_URL: where result buttons link its web pages)
    server_settings: SettingsCache  # every server's settings and players' preferences (bot/server_settings)
    health: Health  # answers, results recorded and not recorded: the health line (bot/discord/health.py)


__all__ = ["BotServices"]
