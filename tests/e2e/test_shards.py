"""Several bot processes on one PostgreSQL, each running its own shards, through the shard-aware fake Discord.

Each process is the real ``referee bot`` in its own operating-system process (tests/e2e/processes.py); the fake
Discord sends each server's interactions only to the process whose shard owns it. Here: every interaction answered
exactly once, by the process owning its server (a few, then 500 in bursts of 50 with every result stored once); a
rolling restart of one process (the other keeps answering, a result being recorded at SIGTERM is still recorded,
buttons posted before it still work after); two processes started together on an empty database, each upgrading it
first. What crosses processes (the league sweep, continuing, voiding, settings, rosters) is test_shards_across.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.storage.db import create_engine, head_revision
from tests.bot.storage.conftest import NO_SERVER, migrated_postgresql, reset_postgresql
from tests.e2e.fake_discord import (
    OPPONENT_ID,
    PLAYER_ID,
    FakeDiscord,
    command_interaction,
    component_interaction,
    final_answer,
    guild_on,
    shard_of,
)
from tests.e2e.processes import BotProcess, bot_processes
from tests.waits import eventually

EPHEMERAL = 64
DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]
MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
ORK_MOB = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


# (game as stored, command, subcommand, options): one of each game's commands, each a short fight.
FIGHTS: list[tuple[str, str, str | None, list[dict[str, Any]]]] = [
    ("duel", "duel", None, DUEL),
    ("40k", "assault", "40k", [
        option("attacker", MARINES), option("defender", ORK_MOB), option("charge_distance", 4.0, 10)]),
    ("epic", "assault", "epic", [
        option("attacker", "6x Tactical: CC4+ FF4+ Sv4+ INF"), option("defender", "8x Boyz: CC4+ FF6+ Sv6+ INF")]),
    ("reikhammer", "assault", "reikhammer", [
        option("attacker", "6x Line: CC4 FF3 Sv5+ INF"), option("defender", "6x Spearmen: CC4 FF1 Sv6+ INF")]),
    ("boltaction", "closequarters", None, [
        option("attacker", "8x Grenadiers: veteran smg=2 nco"), option("defender", "10x Rifles: regular nco"),
        option("reaction_shots", 10, 4), option("distance", 9.0, 10)]),
]  # fmt: skip


def fight(n: int, guild: int, user_id: int) -> tuple[str, dict[str, Any]]:
    """The ``n``-th of a mix of every game's combat command, in ``guild``, by ``user_id``: (its game, its payload)."""
    game, command, subcommand, options = FIGHTS[n % len(FIGHTS)]
    return game, command_interaction(command, options, subcommand=subcommand, guild_id=guild, user_id=user_id)


def record_id(edit: dict[str, Any]) -> int:
    """The record id a result's edit shows in its footer."""
    found = re.search(r"record #(\d+)", edit["embeds"][0]["footer"]["text"])
    assert found, edit["embeds"][0]["footer"]["text"]
    return int(found[1])


async def query(url: str, sql: str, **parameters: Any) -> list[Any]:
    """Rows read straight from the database the processes share (not through either of them)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return list((await connection.execute(text(sql), parameters)).all())
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def fake_discord(guilds: Sequence[int]) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(tuple(guilds))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def commands_by_interaction(processes: Sequence[BotProcess]) -> dict[int, list[tuple[int, int]]]:
    """Every command line of the processes' logs by interaction id: [(which process, the shard it names)]."""
    lines: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for index, process in enumerate(processes):
        for line in process.commands():
            lines[int(line["interaction"])].append((index, line["shard"]))
    return lines


async def test_each_process_answers_the_servers_of_its_own_shards_and_stops_cleanly(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    guilds = (guild_on(0, 2), guild_on(1, 2), guild_on(0, 2, 1), guild_on(1, 2, 1))
    async with fake_discord(guilds) as fake:
        first = BotProcess(fake, url, [0], 2, tmp_path / "shard0.log")
        second = BotProcess(fake, url, [1], 2, tmp_path / "shard1.log")
        async with bot_processes([first, second]):
            payloads = []
            for guild in guilds:
                payload = command_interaction("duel", DUEL, guild_id=guild)
                await fake.interaction(payload)
                answer = await final_answer(fake, payload["token"])
                assert answer.first["embeds"][0]["title"].startswith("40K 2nd edition duel")
                payloads.append(payload)
            stopped = [await first.stop(), await second.stop()]
        # SIGTERM, as systemd stops a service, is a clean stop (it used to kill the process: exit status -15).
        assert stopped == [0, 0]
        assert "stopped" in first.log() and "stopped" in second.log()
        # Both processes are gone: whatever either sent is all it will ever send. One answer each, edited once (a
        # second process answering too would have made a second callback).
        for payload in payloads:
            assert [call.method for call in fake.answers[payload["token"]]] == ["POST", "PATCH"]
        for process, shard in ((first, 0), (second, 1)):
            lines = process.commands()
            assert [line["guild"] for line in lines] == [g for g in guilds if (g >> 22) % 2 == shard]
            assert {line["shard"] for line in lines} == {shard}
        answered = commands_by_interaction([first, second])
        assert {int(p["id"]): [(shard_of(int(p["guild_id"]), 2),) * 2] for p in payloads} == answered


async def test_500_interactions_in_bursts_of_50_over_both_shards_are_each_answered_and_stored_once(
    tmp_path: Path,
) -> None:
    url = await migrated_postgresql()
    guilds = [guild_on(shard, 2, n) for n in range(3) for shard in (0, 1)]  # three servers on each shard
    sent: list[tuple[str, dict[str, Any]]] = []
    async with fake_discord(guilds) as fake:
        processes = [BotProcess(fake, url, [shard], 2, tmp_path / f"shard{shard}.log") for shard in (0, 1)]
        async with bot_processes(processes):
            for burst in range(10):
                # 500 players: nobody comes near the per-user limit (6 in 30 s); every game, every server.
                fights = [fight(n, guilds[n % len(guilds)], 800000000000000000 + n)
                          for n in range(burst * 50, burst * 50 + 50)]  # fmt: skip
                await asyncio.gather(*(fake.interaction(payload) for _, payload in fights))
                await asyncio.gather(*(final_answer(fake, payload["token"], 60) for _, payload in fights))
                sent += fights
            assert [await process.stop() for process in processes] == [0, 0]  # nothing more can arrive after this

    shown: dict[int, list[int]] = defaultdict(list)  # server -> the record ids its results' edits show
    for game, payload in sent:
        answers = fake.answers[payload["token"]]
        # Exactly one answer, edited once: the result shown, then its record id and buttons added.
        assert [a.method for a in answers] == ["POST", "PATCH"], (game, payload["token"])
        assert answers[0].payload["type"] == 4
        shown[int(payload["guild_id"])].append(record_id(answers[1].payload))
    ids = [record for records in shown.values() for record in records]
    assert len(ids) == len(set(ids)) == 500

    rows = await query(url, "SELECT id, guild_id, game FROM combat_records")
    stored: dict[int, list[int]] = defaultdict(list)
    for record, guild, _ in rows:
        stored[int(guild)].append(record)
    assert len(rows) == 500
    assert {guild: sorted(records) for guild, records in stored.items()} == {
        guild: sorted(records) for guild, records in shown.items()
    }  # every server has exactly the records its results announced, no more, no fewer
    games = {record: game for record, _, game in rows}
    assert Counter(games[record_id(fake.answers[p["token"]][1].payload)] == game for game, p in sent) == {True: 500}

    answered = commands_by_interaction(processes)
    assert len(answered) == 500 and sum(len(lines) for lines in answered.values()) == 500
    for _, payload in sent:
        owner = shard_of(int(payload["guild_id"]), 2)
        assert answered[int(payload["id"])] == [(owner, owner)]  # once, by the process that runs its shard


@contextlib.asynccontextmanager
async def holding(url: str, table: str, mode: str) -> AsyncIterator[Any]:
    """A transaction holding a lock on ``table`` in ``mode`` until the test rolls it back (or the block ends)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            transaction = await connection.begin()
            await connection.execute(text(f"LOCK TABLE {table} IN {mode} MODE"))
            try:
                yield transaction
            finally:
                if transaction.is_active:
                    await transaction.rollback()
    finally:
        await engine.dispose()


def holding_inserts(url: str) -> contextlib.AbstractAsyncContextManager[Any]:
    """A transaction that locks combat_records against inserts until it ends (a slow database, for real)."""
    return holding(url, "combat_records", "SHARE ROW EXCLUSIVE")


async def test_a_rolling_restart_keeps_the_other_shard_answering_and_the_replaced_one_answers_again(
    tmp_path: Path,
) -> None:
    url = await migrated_postgresql()
    mine, theirs = guild_on(0, 2), guild_on(1, 2)
    async with fake_discord([mine, theirs]) as fake:
        first = BotProcess(fake, url, [0], 2, tmp_path / "shard0.log")
        second = BotProcess(fake, url, [1], 2, tmp_path / "shard1.log")
        async with bot_processes([first, second]):
            before = command_interaction("duel", DUEL, guild_id=theirs)
            await fake.interaction(before)
            posted = await final_answer(fake, before["token"])
            buttons = [c["custom_id"] for row in posted.data["components"] for c in row["components"]]
            show_rolls = next(b for b in buttons if b.startswith("referee:rolls:"))

            # SIGTERM while a result is being recorded: the database holds its insert until the process is
            # stopping, and the process still writes it and edits the answer before it exits.
            async with holding_inserts(url) as held:
                late = command_interaction("duel", DUEL, guild_id=theirs, user_id=OPPONENT_ID)
                await fake.interaction(late)
                (first_answer,) = await fake.wait_answers(late["token"], 1)
                assert "Recording this combat" in first_answer.payload["data"]["embeds"][0]["description"]
                stopping = asyncio.create_task(second.stop())
                await eventually(lambda: "SIGTERM received" in second.log(), "the process heard SIGTERM")
                assert not stopping.done() and [c.method for c in fake.answers[late["token"]]] == ["POST"]
                await held.rollback()
            assert await stopping == 0
            assert "stopped" in second.log()
            late_edit = fake.answers[late["token"]][1].payload
            written = await query(url, "SELECT guild_id FROM combat_records WHERE id = :id", id=record_id(late_edit))
            assert written == [(str(theirs),)]

            # While it is down: its servers cannot be delivered to; the other shard answers as before.
            with pytest.raises(LookupError):
                await fake.interaction(command_interaction("duel", DUEL, guild_id=theirs))
            meanwhile = command_interaction("duel", DUEL, guild_id=mine)
            await fake.interaction(meanwhile)
            assert "record #" in (await final_answer(fake, meanwhile["token"])).data["embeds"][0]["footer"]["text"]

            # Its replacement connects and answers again; the button on a result posted before the restart works.
            replacement = await BotProcess(fake, url, [1], 2, tmp_path / "shard1-replacement.log").start()
            try:
                again = command_interaction("duel", DUEL, guild_id=theirs)
                await fake.interaction(again)
                assert "record #" in (await final_answer(fake, again["token"])).data["embeds"][0]["footer"]["text"]
                press = component_interaction(show_rolls, posted.data["components"], guild_id=theirs,
                                              user_id=OPPONENT_ID, asked_by=PLAYER_ID)  # fmt: skip
                (rolls,) = await fake.ask(press)
                data = rolls.payload["data"]
                assert data["flags"] & EPHEMERAL and data["embeds"], data
                assert f"record #{record_id(posted.data)}" in str(data["embeds"][0]), data["embeds"][0]
                assert await replacement.stop() == 0
            finally:
                await replacement.kill()
            assert [(line["shard"], line["guild"]) for line in replacement.commands()] == [(1, theirs)]  # commands
            assert [line["guild"] for line in second.commands()] == [theirs, theirs]  # before, and the late one
            assert [line["guild"] for line in first.commands()] == [mine]


async def test_processes_started_together_on_an_empty_database_upgrade_it_once_and_come_up(tmp_path: Path) -> None:
    """Each process runs `referee db upgrade` and then `referee bot` (a systemd unit with ExecStartPre), both at
    once: the migration lock lets one upgrade and the other find the schema current."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.skip(NO_SERVER)
    await reset_postgresql(url)
    assert await query(url, "SELECT to_regclass('alembic_version')") == [(None,)]  # empty: not even the marker
    guilds = (guild_on(0, 2), guild_on(1, 2))
    async with fake_discord(guilds) as fake:
        processes = [BotProcess(fake, url, [shard], 2, tmp_path / f"shard{shard}.log") for shard in (0, 1)]
        try:
            await asyncio.gather(*(process.start(wait=False, upgrade=True) for process in processes))
            await asyncio.gather(*(process.ready() for process in processes))
            for guild in guilds:
                payload = command_interaction("duel", DUEL, guild_id=guild)
                await fake.interaction(payload)
                assert "record #" in (await final_answer(fake, payload["token"])).data["embeds"][0]["footer"]["text"]
            assert [await process.stop() for process in processes] == [0, 0]
        finally:
            await asyncio.gather(*(process.kill() for process in processes))
    assert await query(url, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
    for process in processes:
        log = process.log()
        assert f"is at the latest schema ({head_revision()})" in log
        assert "Traceback" not in log and " ERROR " not in log and "error:" not in log, log
