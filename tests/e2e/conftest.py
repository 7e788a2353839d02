"""The real bot against the fake Discord: discord.py's base URL points at 127.0.0.1, nothing else is changed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from pydantic import SecretStr

from bot.discord.app import RefereeBot
from bot.discord.settings import Settings
from bot.render.embeds import DESCRIPTION, EMBED_TOTAL, FIELD_VALUE, FIELDS
from tests.e2e.discord_view import Browser, browser, chromium_missing
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord
from tests.waits import scaled


def size(embed: dict[str, Any]) -> int:
    """An embed's characters as Discord counts them against its 6,000 (title, description, footer, fields)."""
    total = len(embed.get("title", "")) + len(embed.get("description", "")) + len(embed["footer"]["text"])
    return total + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def within_limits(embed: dict[str, Any]) -> None:
    """An embed as the bot sent it keeps every Discord limit."""
    assert size(embed) <= EMBED_TOTAL, size(embed)
    assert len(embed.get("description", "")) <= DESCRIPTION
    assert len(embed.get("fields", [])) <= FIELDS
    assert all(len(f["value"]) <= FIELD_VALUE for f in embed.get("fields", []))


def long_fight() -> tuple[str, str]:
    """A 40K fight as long as the limits allow (50 units and 200 models a side, each unit against its own): even its
    one line a step pages. One combat (40K decision 22): each Mob but the last splits between its Marines and the
    next ones."""
    attackers = " | ".join(f"4x Marine {n}: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ vs={n}" for n in range(1, 51))
    defenders = " | ".join(
        f"4x Ork Mob {n}: WS4 S3 T4 W1 I2 A3 Ld7 Sv6+ " + (f"vs={n}:3,{n + 1}:1" if n < 50 else f"vs={n}")
        for n in range(1, 51)
    )
    return attackers, defenders


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, url: str, **more: Any) -> AsyncIterator[RefereeBot]:
    """The real bot on the database at ``url`` (and any further settings, ``docs_url=...``), connected to the fake
    Discord and ready."""
    settings = Settings(discord_token=SecretStr("fake-token"), database_url=url, dev_guild_id=GUILD_ID,
                        _env_file=None, **more)  # type: ignore[call-arg]  # fmt: skip
    referee = RefereeBot(settings)
    # discord.py waits this long after the last GUILD_CREATE for another before it is ready (2 s by default): the fake
    # sends all of its guilds right after READY, and what a test pushes comes after them on the same gateway socket
    referee._connection.guild_ready_timeout = 0.1
    task = asyncio.create_task(referee.start("fake-token"))
    try:
        await started(referee, fake, task)
        yield referee
    finally:
        await referee.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def started(referee: RefereeBot, fake: FakeDiscord, task: asyncio.Task[None], timeout: float = 15) -> None:
    """Wait until ``referee`` (started as ``task``) is connected and ready; a start that ends first (its setup
    failed: a schema mismatch, a bad setting) raises its own error at once, not a timeout."""

    async def ready() -> None:
        await fake.identified.wait()
        await referee.wait_until_ready()

    waiting = asyncio.create_task(ready())
    try:
        done, _ = await asyncio.wait({task, waiting}, timeout=scaled(timeout), return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
    if waiting in done:
        return
    if task in done:
        task.result()  # raises what stopped the start
        raise AssertionError("the bot stopped before it was ready, without an error")
    raise TimeoutError(f"the bot was not ready within {timeout:g} s")


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[RefereeBot]:
    async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}") as referee:
        yield referee


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Headless Chromium (tests/e2e/discord_view.py): skipped, with the reason, only when CI is unset and there is
    no browser; under CI a missing browser fails."""
    if reason := chromium_missing():
        pytest.skip(reason)
    with browser(tmp_path_factory.mktemp("chromium")) as opened:
        yield opened
