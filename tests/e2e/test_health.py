"""The health line an operator watches (bot/discord/health.py): each bot process logs one JSON line a period with the
answers it gave, the results it recorded and those it could not, through the fake Discord on a real store."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.discord.app import RefereeBot
from bot.discord.settings import Settings
from bot.storage import Store
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, command_interaction, final_answer
from tests.e2e.processes import BotProcess
from tests.waits import scaled

DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]


class HealthLines(logging.Handler):
    """Every health line the bot logs, parsed; ``arrived`` is set at each."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith('{"health"'):
            self.lines.append(json.loads(message)["health"])
            self.arrived.set()

    async def fresh(self) -> None:
        """Wait for a line (the bot is writing them), then forget every line so far: what follows is counted anew."""
        await self.next()
        self.lines.clear()

    async def next(self) -> dict[str, Any]:
        """The next line logged from now on."""
        self.arrived.clear()
        await asyncio.wait_for(self.arrived.wait(), scaled(20))
        return self.lines[-1]


@contextlib.asynccontextmanager
async def bot_with_health_lines(fake: FakeDiscord, url: str, interval: float) -> AsyncIterator[HealthLines]:
    """The real bot on ``url``, writing its health line every ``interval`` seconds (a minute in production)."""
    lines = HealthLines()
    logger = logging.getLogger("referee.bot")
    level = logger.level
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    settings = Settings(discord_token=SecretStr("fake-token"), database_url=url, dev_guild_id=GUILD_ID,
                        _env_file=None)  # type: ignore[call-arg]  # fmt: skip
    referee = RefereeBot(settings, health_interval=interval)
    task = asyncio.create_task(referee.start("fake-token"))
    try:
        await asyncio.wait_for(fake.identified.wait(), scaled(15))
        await asyncio.wait_for(referee.wait_until_ready(), scaled(15))
        yield lines
    finally:
        await referee.close()  # its last line covers the time since the one before
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        logger.removeHandler(lines)
        logger.setLevel(level)


async def answer_duels(fake: FakeDiscord, count: int) -> list[str]:
    """``count`` duels, each answered and then edited with its record (or its "Not recorded")."""
    descriptions = []
    for _ in range(count):
        payload = command_interaction("duel", DUEL)
        await fake.interaction(payload)
        answer = await final_answer(fake, payload["token"])
        descriptions.append(answer.data["embeds"][0]["description"])
    return descriptions


async def test_a_store_that_fails_shows_in_the_not_recorded_count_of_the_health_line(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A real fault: SQLite opened read-only (which holds for root too): every result is shown, none is written."""
    path = tmp_path / "kept.db"
    await (await Store.open(f"sqlite+aiosqlite:///{path}")).close()  # created and migrated, then read-only
    async with bot_with_health_lines(fake, f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true", 0.3) as lines:
        await lines.fresh()
        descriptions = await answer_duels(fake, 3)
        assert all("Not recorded" in text for text in descriptions)
        while sum(line["answered"] for line in lines.lines) < 3:
            await lines.next()
    counted = lines.lines  # up to the last line, written as the bot stopped
    assert sum(line["answered"] for line in counted) == 3
    assert sum(line["not_recorded"] for line in counted) == 3
    assert sum(line["recorded"] for line in counted) == 0
    assert all(line["shard_ids"] == [0] for line in counted)
    timed = [line for line in counted if line["answered"]]
    assert all(0 < line["first_answer_p50_ms"] <= line["first_answer_p99_ms"] for line in timed)


async def test_a_working_store_counts_every_result_recorded_and_none_not_recorded(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_with_health_lines(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}", 0.3) as lines:
        await lines.fresh()
        descriptions = await answer_duels(fake, 4)
        assert not any("Not recorded" in text for text in descriptions)
        # An error is an answer too (an unknown roster: the player is told privately), and records nothing.
        options = [{"type": 3, "name": "attacker", "value": "@nosuch"}, *DUEL[1:]]
        (callback,) = await fake.ask(command_interaction("duel", options))
        assert callback.payload["data"]["flags"] & 64
        while sum(line["answered"] for line in lines.lines) < 5:
            await lines.next()
        # A line counts only the time since the one before: an idle period after it counts nothing.
        idle = await lines.next()
    counted = lines.lines
    assert sum(line["answered"] for line in counted) == 5
    assert sum(line["recorded"] for line in counted) == 4
    assert sum(line["not_recorded"] for line in counted) == 0
    assert idle == {"shard_ids": [0], "answered": 0, "recorded": 0, "not_recorded": 0, "first_answer_p50_ms": None,
                    "first_answer_p99_ms": None, "in_flight": 0}  # fmt: skip


async def test_a_bot_process_stopped_by_sigterm_writes_its_last_health_line_to_its_log(tmp_path: Path) -> None:
    """The real ``referee bot`` in its own process (as systemd runs it): its journal holds the health line, and a
    stop (a rolling restart) loses no count: the last line covers the time since the one before."""
    fake = FakeDiscord((GUILD_ID,))
    await fake.start()
    try:
        process = BotProcess(fake, f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", [0], 1, tmp_path / "bot.log")
        await process.start()
        try:
            await answer_duels(fake, 2)
        finally:
            assert await process.stop() == 0
    finally:
        await fake.stop()
    lines = [json.loads(line[line.index('{"health"') :])["health"] for line in process.log().splitlines()
             if '{"health"' in line]  # fmt: skip
    assert lines, process.log()
    assert sum(line["answered"] for line in lines) == 2
    assert sum(line["recorded"] for line in lines) == 2
    assert lines[-1]["shard_ids"] == [0] and lines[-1]["not_recorded"] == 0 and lines[-1]["in_flight"] == 0
