"""Two ``referee bot`` processes running the same shard on one PostgreSQL: the deployment mistake, not a setup.

Discord computes the shard formula for every session on its own, so two sessions of one shard (overlapping
SHARD_IDS, or a replacement started before the old process stopped) both receive every interaction of its servers;
the first callback answers it and the second is refused (400, "Interaction has already been acknowledged.", code
40060). The process that loses the race must show the player nothing more (no error follow-up), record nothing, and
log one warning naming the likely cause; the winner answers, records and edits as usual.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e.fake_discord import FakeDiscord, command_interaction, final_answer, guild_on
from tests.e2e.processes import BotProcess, bot_processes
from tests.e2e.test_shards import DUEL, EPHEMERAL, fake_discord, query, record_id
from tests.waits import eventually, scaled


async def refused(fake: FakeDiscord, token: str, timeout: float = 20.0) -> None:
    """Wait until a second callback for ``token`` has been refused (the losing process tried to answer too)."""

    async def seen() -> None:
        async with fake.answered:
            await fake.answered.wait_for(lambda: len(fake.refused[token]) >= 1)

    await asyncio.wait_for(seen(), scaled(timeout))


async def test_two_processes_on_one_shard_answer_each_interaction_once_and_the_loser_warns(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    guilds = (guild_on(0, 1), guild_on(0, 1, 1))
    async with fake_discord(guilds) as fake:
        processes = [BotProcess(fake, url, [0], 1, tmp_path / f"copy{n}.log") for n in (1, 2)]
        async with bot_processes(processes):
            await eventually(lambda: len([c for c in fake.live_connections() if c.shard == (0, 1)]) == 2,
                             "both processes connected as shard 0 of 1")  # fmt: skip
            payloads = [command_interaction("duel", DUEL, guild_id=guilds[n % 2], user_id=700000000000000000 + n)
                        for n in range(8)]  # fmt: skip
            for payload in payloads:
                await fake.interaction(payload)
                await final_answer(fake, payload["token"])
                await refused(fake, payload["token"])  # both processes received it and both tried to answer
            # A spec both processes refuse: each sends its error, and the second's is refused in turn.
            typo = command_interaction("duel", [DUEL[0], {"type": 3, "name": "defender", "value": "B: WS3 Q9"}],
                                       guild_id=guilds[0], user_id=700000000000000099)  # fmt: skip
            await fake.interaction(typo)
            await refused(fake, typo["token"])
            await fake.wait_answers(typo["token"])
            assert [await process.stop() for process in processes] == [0, 0]  # all either will ever send is sent

    shown = []
    for payload in payloads:
        token = payload["token"]
        # One answer and its one edit: no error follow-up from the process that lost the race, no second edit.
        assert [(call.method, call.path.split("/")[0 + 1]) for call in fake.answers[token]] == [
            ("POST", "interactions"), ("PATCH", "webhooks")]  # fmt: skip
        assert len(fake.refused[token]) == 1
        shown.append(record_id(fake.answers[token][1].payload))
    stored = await query(url, "SELECT id FROM combat_records ORDER BY id")
    assert sorted(shown) == [row[0] for row in stored] and len(set(shown)) == 8  # one record per interaction

    [error] = fake.answers[typo["token"]]  # the player sees one refusal, privately
    assert error.payload["data"]["flags"] & EPHEMERAL and len(fake.refused[typo["token"]]) == 1

    logs = [process.log() for process in processes]
    for payload in [*payloads, typo]:
        warned = [
            line for log in logs for line in log.splitlines()
            if " WARNING " in line and payload["id"] in line and "SHARD_IDS" in line
        ]  # fmt: skip
        assert len(warned) == 1, warned  # one line, in the log of the process that lost
        # The command line is the winner's alone: the logs together still say which process answered it.
        answered = [p for p in processes for line in p.commands() if str(line["interaction"]) == payload["id"]]
        assert len(answered) == 1
    for log in logs:
        assert "Traceback" not in log and " ERROR " not in log, log
