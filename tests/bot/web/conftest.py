"""The web pages over a real store (SQLite in a temporary file), served by aiohttp's test server on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.web.app import make_app
from bot.web.config import WebConfig
from tests.bot.web.browser import WebBrowser
from tests.e2e.discord_view import browser, chromium_missing

Serve = Callable[..., Awaitable[TestClient[Any, Any]]]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def serve(store: Store) -> AsyncIterator[Serve]:
    """``await serve(**config)``: a client of the pages over ``store`` (settings loaded from it)."""
    clients: list[TestClient[Any, Any]] = []

    async def start(**config: Any) -> TestClient[Any, Any]:
        settings = SettingsCache()
        await settings.load(store)
        app = make_app(store, settings, WebConfig(_env_file=None, **config))  # type: ignore[call-arg]
        client = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
        return client

    yield start
    for client in clients:
        await client.close()


@pytest.fixture(scope="module")
def web_browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebBrowser]:
    """Headless Chromium for the pages: skipped, with the reason, only when CI is unset and there is no browser."""
    if reason := chromium_missing():
        pytest.skip(reason)
    with browser(tmp_path_factory.mktemp("web-chromium")) as opened:
        yield WebBrowser(opened)
