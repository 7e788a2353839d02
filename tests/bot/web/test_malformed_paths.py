"""Issue 34, found by attacking: an address with a NUL, a newline or another control character (``/l/N/players/%00``)
is the one 404 page on SQLite and PostgreSQL, never a 500; and no value a visitor sends can forge a log line: every
logged value is written with its control characters escaped (bot/log_lines.py)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.log_lines import OneLine
from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.web.app import make_app
from bot.web.config import WebConfig
from tests.bot.storage.conftest import migrated_postgresql
from tests.bot.web.league_data import seed_league


@pytest.fixture(params=["sqlite", "postgresql"])
async def client(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], int]]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}" if request.param == "sqlite" else await migrated_postgresql()
    store = await Store.open(url)
    try:
        seeded = await seed_league(store)
        settings = SettingsCache()
        await settings.load(store)
        served = TestClient(TestServer(make_app(store, settings, WebConfig(_env_file=None))))  # type: ignore[call-arg]
        await served.start_server()
        try:
            yield served, seeded.league
        finally:
            await served.close()
    finally:
        await store.close()


ODD = ("%00", "%0a", "%0d%0aFORGED", "a%00b", "%1b%5b31m", "%7f", "%c2%85")


async def test_an_address_with_a_control_character_is_the_one_not_found_page(
    client: tuple[TestClient[Any, Any], int], caplog: pytest.LogCaptureFixture
) -> None:
    served, league = client
    page = await (await served.get("/c/no-such-combat")).text()
    for odd in ODD:
        for path in (f"/l/{league}/players/{odd}", f"/l/{league}/players/{odd}.json", f"/c/{odd}", f"/l/{odd}",
                     f"/l/{league}{odd}", f"/static/{odd}", f"/{odd}"):  # fmt: skip
            response = await served.get(path)
            assert response.status == 404, (path, response.status)
            assert await response.text() == page, path
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_logged_value_cannot_forge_a_line() -> None:
    record = logging.LogRecord("referee.web", logging.ERROR, __file__, 1, "error %s on %s",
                               ("ab12", "/c/x\n2026-11-28 ERROR referee.bot forged\r\x00\x1b[31m"), None)  # fmt: skip
    line = OneLine("%(levelname)s %(name)s %(message)s").format(record)
    assert "\n" not in line and "\r" not in line and "\x00" not in line and "\x1b" not in line
    assert line == "ERROR referee.web error ab12 on /c/x\\n2026-11-28 ERROR referee.bot forged\\r\\x00\\x1b[31m"


def test_a_traceback_keeps_its_lines_and_the_message_is_escaped() -> None:
    try:
        raise ValueError("bad\nvalue")
    except ValueError as error:
        record = logging.LogRecord("referee.web", logging.ERROR, __file__, 1, "on %s", ("/x\ny",),
                                   (type(error), error, error.__traceback__))  # fmt: skip
    line = OneLine("%(message)s").format(record)
    first, *rest = line.split("\n")
    assert first == "on /x\\ny" and rest[0].startswith("Traceback") and rest[-1] == "ValueError: bad\\nvalue"


def test_the_bot_and_the_web_pages_log_through_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.discord.app import configure_logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    configure_logging("INFO")
    assert root.handlers and all(isinstance(h.formatter, OneLine) for h in root.handlers)
