"""The web application's shared objects, by key: the store, the settings cache, the configuration and the rate
limit (set by ``bot.web.app.make_app``; read by the pages' modules, which app.py imports, so they live here)."""

from __future__ import annotations

from aiohttp import web

from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.web.config import WebConfig
from bot.web.security import RateLimit

STORE = web.AppKey("store", Store)
SETTINGS = web.AppKey("settings", SettingsCache)
CONFIG = web.AppKey("config", WebConfig)
LIMIT = web.AppKey("limit", RateLimit)

__all__ = ["CONFIG", "LIMIT", "SETTINGS", "STORE"]
