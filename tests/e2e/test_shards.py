"""Several bot processes on one PostgreSQL, each running its own shards, through the shard-aware fake Discord.

Each process is the real ``referee bot`` in its own operating-system process (tests/e2e/processes.py); the fake
Discord sends each server's interactions only to the process whose shard owns it.
"""

from __future__ import annotations

from pathlib import Path

from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e.fake_discord import FakeDiscord, command_interaction, final_answer, guild_on
from tests.e2e.processes import BotProcess, bot_processes

DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]


async def test_each_process_answers_the_servers_of_its_own_shards_and_stops_cleanly(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    guilds = (guild_on(0, 2), guild_on(1, 2), guild_on(0, 2, 1), guild_on(1, 2, 1))
    fake = FakeDiscord(guilds)
    await fake.start()
    try:
        first = BotProcess(fake, url, [0], 2, tmp_path / "shard0.log")
        second = BotProcess(fake, url, [1], 2, tmp_path / "shard1.log")
        async with bot_processes([first, second]):
            for guild in guilds:
                payload = command_interaction("duel", DUEL, guild_id=guild)
                await fake.interaction(payload)
                answer = await final_answer(fake, payload["token"])
                assert answer.first["embeds"][0]["title"].startswith("40K 2nd edition duel")
            stopped = [await first.stop(), await second.stop()]
        # SIGTERM, as systemd stops a service, is a clean stop (it used to kill the process: exit status -15).
        assert stopped == [0, 0]
        assert "stopped" in first.log() and "stopped" in second.log()
        for process, shard in ((first, 0), (second, 1)):
            lines = process.commands()
            assert [line["guild"] for line in lines] == [g for g in guilds if (g >> 22) % 2 == shard]
            assert {line["shard"] for line in lines} == {shard}
    finally:
        await fake.stop()
