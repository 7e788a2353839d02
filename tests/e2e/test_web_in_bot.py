"""`referee bot --web`: the pages served from the bot's own process, on its store and its settings cache, so a
manager's `/settings web public|off` is what the pages obey at once."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest

from bot.server_settings.model import WEB
from tests.e2e.conftest import running_bot
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, command_interaction


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_bot_serves_the_pages_with_web_and_obeys_the_servers_choice(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = _free_port()
    monkeypatch.setenv("WEB_PORT", str(port))
    async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}", serve_web=True) as referee:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
            assert answer.status == 200 and await answer.text() == "ok"
        option = {"type": 3, "name": "value", "value": "public"}
        (callback,) = await fake.ask(command_interaction("settings", [option], subcommand="web"))
        assert callback.payload["data"]["embeds"][0]["description"] == "Web pages: unset → public (whole server)."
        assert referee.server_settings.effective(str(GUILD_ID), None).web_public
        assert await referee.store.settings.rows_for_guild(str(GUILD_ID)) != []
        assert any(row.key == WEB for row in await referee.store.settings.rows_for_guild(str(GUILD_ID)))
    with socket.socket() as probe:  # stopped with the bot
        assert probe.connect_ex(("127.0.0.1", port)) != 0
