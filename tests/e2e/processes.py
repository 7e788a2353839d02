"""Bot processes: the real `referee bot`, each in its own operating-system process, against the fake Discord.

Run as a module (``python -m tests.e2e.processes``), this file is the launcher of one such process: it points
discord.py's REST base URL and its default gateway (the one a bot given SHARD_COUNT connects to) at the fake
Discord named by FAKE_DISCORD_API and FAKE_DISCORD_GATEWAY, and runs the unmodified ``referee bot`` command with
the rest of its environment (DISCORD_TOKEN, DATABASE_URL, SHARD_COUNT, SHARD_IDS...). Imported, it gives
:class:`BotProcess`, which starts, waits for and stops such a process and reads its log: one JSON line per command,
with the shard that received it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.cli import main
from tests.e2e.fake_discord import FakeDiscord
from tests.waits import scaled

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """One ``referee bot`` process running ``shards`` of ``count`` on ``database_url``; its log in ``log_path``."""

    def __init__(
        self, fake: FakeDiscord, database_url: str, shards: Sequence[int], count: int, log_path: Path,
        **environment: str,
    ) -> None:  # fmt: skip
        self.fake = fake
        self.database_url = database_url
        self.shards = list(shards)
        self.count = count
        self.log_path = log_path
        self.environment = environment
        self.process: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "SHARD_"))}
        return env | {
            "FAKE_DISCORD_API": self.fake.api_base, "FAKE_DISCORD_GATEWAY": self.fake.gateway_url,
            "DISCORD_TOKEN": "fake-token", "DATABASE_URL": self.database_url, "SHARD_COUNT": str(self.count),
            "SHARD_IDS": ",".join(map(str, self.shards)), "LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT),
        } | self.environment  # fmt: skip

    async def start(self, *, wait: bool = True, timeout: float = 60.0, upgrade: bool = False) -> BotProcess:
        """Start the process (from an empty directory: no .env, no referee.db) and, unless ``wait`` is False, wait
        until every one of its shards is connected to the fake Discord. With ``upgrade``, ``referee db upgrade``
        runs first, in its own process, and the bot starts once it succeeded (a systemd unit's ExecStartPre)."""
        workdir = self.log_path.parent / f"{self.log_path.stem}-cwd"
        workdir.mkdir(parents=True, exist_ok=True)
        if upgrade:
            with self.log_path.open("ab") as log:
                upgrading = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.cli", "db", "upgrade", cwd=workdir, env=self.env(),
                    stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
                )  # fmt: skip
            if await asyncio.wait_for(upgrading.wait(), scaled(timeout)) != 0:
                raise RuntimeError(f"referee db upgrade failed ({upgrading.returncode}):\n{self.log()}")
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.processes", cwd=workdir, env=self.env(),
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
            )  # fmt: skip
        if wait:
            await self.ready(timeout)
        return self

    async def ready(self, timeout: float = 60.0) -> None:
        waiting = asyncio.ensure_future(self.fake.wait_shards(self.shards, self.count, timeout))
        assert self.process is not None
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiting.cancel()
            raise RuntimeError(f"the bot process stopped ({self.process.returncode}) before connecting:\n{self.log()}")
        exited.cancel()
        waiting.result()

    async def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, as systemd stops a service, and wait for the process to exit; its exit status."""
        if self.process is None:
            return 0
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), scaled(timeout))
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        return self.process.returncode or 0

    async def kill(self) -> None:
        """SIGKILL: the process dies at once (a crash, the OOM killer)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def commands(self) -> list[dict[str, Any]]:
        """The structured line of every command this process answered (bot/discord/app.py log_command)."""
        lines = []
        for line in self.log().splitlines():
            start = line.find('{"command"')
            if start >= 0:
                with contextlib.suppress(json.JSONDecodeError):
                    lines.append(json.loads(line[start:]))
        return lines


@contextlib.asynccontextmanager
async def bot_processes(processes: Sequence[BotProcess]) -> AsyncIterator[Sequence[BotProcess]]:
    """Start every process at once (as a deploy does), wait for all their shards, stop them all at the end."""
    try:
        await asyncio.gather(*(p.start(wait=False) for p in processes))
        await asyncio.gather(*(p.ready() for p in processes))
        yield processes
    finally:
        await asyncio.gather(*(p.stop() for p in processes), return_exceptions=True)


def launch() -> None:
    """The launcher: discord.py pointed at the fake Discord, then the real ``referee bot``."""
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    main(["bot", *sys.argv[1:]])


if __name__ == "__main__":
    launch()
