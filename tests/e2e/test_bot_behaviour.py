"""The bot as an operator sees it: synced payloads, cooldowns, error ids, command logs, a rejected token."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.app import RefereeBot
from tests.bot.test_cli import referee
from tests.cogs.test_command_payloads import check_command
from tests.e2e.fake_discord import (
    GUILD_ID,
    PLAYER_ID,
    REJECTED_TOKEN,
    FakeDiscord,
    base_interaction,
    command_interaction,
    component_interaction,
    final_answer,
    snowflake,
)  # fmt: skip
from tests.waits import eventually, scaled

DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]
EPHEMERAL = 64


async def test_the_synced_payload_obeys_discords_rules(bot: RefereeBot, fake: FakeDiscord) -> None:
    synced = fake.synced[f"guild:{GUILD_ID}"]
    names = {command["name"] for command in synced}
    assert names >= {"assault", "duel", "closequarters", "roster", "replay", "verify", "history", "void", "privacy",
                     "roll", "chart", "help", "league"}  # fmt: skip
    for command in synced:
        check_command(command)


async def test_a_flood_from_one_player_meets_the_cooldown(bot: RefereeBot, fake: FakeDiscord) -> None:
    answers = []
    for number in range(7):
        payload = command_interaction("duel", DUEL)
        await fake.interaction(payload)
        if number < 6:
            answers.append((await final_answer(fake, payload["token"])).calls[0].payload)
        else:
            answers.append((await fake.wait_answers(payload["token"], 1))[0].payload)
    assert all(a["type"] == 4 and not (a["data"].get("flags", 0) & EPHEMERAL) for a in answers[:6])
    assert answers[6]["data"]["flags"] & EPHEMERAL
    assert "Slow down" in answers[6]["data"]["embeds"][0]["description"]


async def test_the_allowance_is_shared_by_all_the_combat_commands(bot: RefereeBot, fake: FakeDiscord) -> None:
    for _ in range(6):
        payload = command_interaction("duel", DUEL)
        await fake.interaction(payload)
        await final_answer(fake, payload["token"])
    epic = [{"type": 3, "name": "attacker", "value": "6x Tactical: CC4+ FF4+ Sv4+ INF"},
            {"type": 3, "name": "defender", "value": "8x Boyz: CC4+ FF6+ Sv6+ INF"}]  # fmt: skip
    payload = command_interaction("assault", epic, subcommand="epic")
    await fake.interaction(payload)
    refused = (await fake.wait_answers(payload["token"], 1))[0].payload
    assert refused["data"]["flags"] & EPHEMERAL
    assert re.search(r"Slow down: try again in (29|30) seconds", refused["data"]["embeds"][0]["description"])


async def test_an_unexpected_error_shows_an_id_that_is_in_the_log(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The module the running cog was loaded from (discord.py re-imports extensions for every bot it starts).
    combat = sys.modules[type(bot.get_cog("CombatCog")).__module__]

    def broken(*_args: object, **_kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(combat, "resolve", broken)
    caplog.set_level(logging.INFO, logger="referee.bot")
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    (answer,) = await fake.wait_answers(payload["token"], 1)
    embed = answer.payload["data"]["embeds"][0]
    assert answer.payload["data"]["flags"] & EPHEMERAL
    assert embed["title"].startswith("Sorry")
    error_id = embed["description"].split("Error id: `")[1].split("`")[0]
    assert any(error_id in record.getMessage() and record.exc_info for record in caplog.records)
    assert "ZeroDivisionError" not in json.dumps(answer.payload)  # the traceback goes to the log only


async def test_each_command_logs_one_structured_line(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="referee.bot")
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    await final_answer(fake, payload["token"])

    def duel_lines() -> list[dict[str, Any]]:
        lines = [json.loads(r.getMessage()) for r in caplog.records if r.getMessage().startswith("{")]
        return [entry for entry in lines if entry["command"] == "duel"]

    await eventually(duel_lines, "the duel's command line logged", 5)  # written just after the answer
    (line,) = duel_lines()
    assert line["guild"] == GUILD_ID and line["latency_ms"] is not None and line["outcome"]


async def test_buttons_and_autocomplete_leave_no_clock_behind(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Only a command's clock is kept until its log line: a button press or an autocomplete kept one for ever (a
    slow leak in a bot that runs for months)."""
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    (rolls,) = [c["custom_id"] for row in answer.data["components"] for c in row["components"]
                if c["custom_id"].startswith("referee:rolls:")]  # fmt: skip
    for _ in range(3):
        await fake.ask(component_interaction(rolls, answer.data["components"]))
    typing = base_interaction(4, {"id": snowflake(), "name": "roster", "type": 1, "options": [
        {"type": 1, "name": "show", "options": [{"type": 3, "name": "name", "value": "ma", "focused": True}]}]},
        user_id=PLAYER_ID)  # fmt: skip
    await fake.ask(typing)
    assert bot.started == {}


def test_a_rejected_token_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bot runs its own event loop (as `referee bot` does), so the fake Discord gets a thread of its own.
    fake = FakeDiscord()
    ready = threading.Event()
    stop = threading.Event()

    def serve() -> None:
        async def run() -> None:
            await fake.start()
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.05)
            await fake.stop()

        asyncio.run(run())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(scaled(10))
    try:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("DISCORD_TOKEN", REJECTED_TOKEN)
        code, _, err = referee("bot", capsys=capsys)
    finally:
        stop.set()
        thread.join(scaled(10))
    assert code == 2
    assert err.startswith("error: Discord rejected DISCORD_TOKEN")
    assert "Traceback" not in err and REJECTED_TOKEN not in err


def test_discord_out_of_reach_is_one_line_and_its_own_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No network, a wrong DNS, a proxy in the way: one line saying Discord cannot be reached (it was a traceback from
    aiohttp ending 'Cannot connect to host'), exit status 4, so a supervisor or a script can tell it from bad input."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:1/api/v10")  # nothing listens on port 1
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    code, _, err = referee("bot", capsys=capsys)
    assert code == 4
    lines = [line for line in err.splitlines() if not re.match(r"\d{4}-\d\d-\d\d ", line)]  # the log's own lines
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach Discord (")
    assert "127.0.0.1" in lines[0] or "Connect call failed" in lines[0]
    assert "Traceback" not in err and "a-token" not in err


async def test_roster_autocomplete_offers_the_players_and_the_servers_rosters(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    from bot.storage.rosters import RosterInput
    from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, base_interaction

    await bot.store.rosters.save(
        str(PLAYER_ID), RosterInput("duel", "mine", "A: WS4 S4 T4 W1 I4 A1 Sv3+ | B: WS3 S3 T3 W1 I3 A1 Sv-")
    )
    await bot.store.rosters.save(str(OPPONENT_ID), RosterInput("duel", "shared", "C: WS4 S4 T4 W1 I4 A1 Sv3+"),
                                guild_id=str(GUILD_ID))  # fmt: skip
    data = {"id": "1", "name": "duel", "type": 1,
            "options": [{"type": 3, "name": "attacker", "value": "@", "focused": True}]}  # fmt: skip
    payload = base_interaction(4, data, user_id=PLAYER_ID)
    await fake.interaction(payload)
    (answer,) = await fake.wait_answers(payload["token"], 1)
    assert answer.payload["type"] == 8  # autocomplete result
    values = [choice["value"] for choice in answer.payload["data"]["choices"]]
    assert values == ["@mine", "@mine/1", "@mine/2", "@shared", "@shared/1"]


async def test_a_giant_input_is_a_clear_private_error(bot: RefereeBot, fake: FakeDiscord) -> None:
    units = " | ".join(f"1x Unit {n}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" for n in range(60))  # 60 units: the limit is 50
    defender = "5x B: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    options = [{"type": 3, "name": "attacker", "value": units}, {"type": 3, "name": "defender", "value": defender}]
    payload = command_interaction("assault", options, subcommand="40k")
    await fake.interaction(payload)
    (answer,) = await fake.wait_answers(payload["token"], 1)
    assert answer.payload["data"]["flags"] & EPHEMERAL
    assert "limit is 50" in answer.payload["data"]["embeds"][0]["description"]


async def test_referee_sync_publishes_the_global_commands(fake: FakeDiscord, tmp_path: Path) -> None:
    from pydantic import SecretStr

    from bot.discord.app import sync_commands
    from bot.discord.settings import Settings

    settings = Settings(discord_token=SecretStr("fake-token"), database_url=f"sqlite+aiosqlite:///{tmp_path / 's.db'}",
                        _env_file=None)  # type: ignore[call-arg]  # fmt: skip
    count = await sync_commands(settings)
    assert count == len(fake.synced["global"]) >= 12
    for command in fake.synced["global"]:
        check_command(command)


async def test_referee_sync_stops_the_cogs_sweeps_before_its_store_closes(fake: FakeDiscord, tmp_path: Path) -> None:
    """`referee sync` loads the cogs, and the league's sweep starts on the store at once. It used to be left running
    after the store closed: its next query opened a connection on the closed store's engine, so an aiosqlite thread
    outlived the event loop, and one with a query in flight as the loop closed died with "Event loop is closed"."""
    from pydantic import SecretStr

    from bot.discord.app import sync_commands
    from bot.discord.settings import Settings

    before = set(threading.enumerate())
    settings = Settings(discord_token=SecretStr("fake-token"), database_url=f"sqlite+aiosqlite:///{tmp_path / 's.db'}",
                        _env_file=None)  # type: ignore[call-arg]  # fmt: skip
    await sync_commands(settings)
    sweeps = [task.get_name() for task in asyncio.all_tasks() if task.get_name().startswith("discord-ext-tasks")]
    assert sweeps == [], "a sweep outlived `referee sync`"
    workers = [thread for thread in threading.enumerate()
               if thread not in before and thread.name.endswith("(_connection_worker_thread)")]  # fmt: skip
    for thread in workers:  # a connection being closed: its thread ends at once
        await asyncio.to_thread(thread.join, scaled(5))
    assert not [thread.name for thread in workers if thread.is_alive()], "a database connection outlived its store"
