"""A stop that loses nothing: what arrives or runs while the bot stops (SIGTERM, Ctrl-C, ``bot.close()``).

- an interaction arriving during the grace period (a result still being recorded) is refused privately ("The
  referee is restarting"), never shown as a combat and left unfinished; the result being recorded is finished; the
  command lines and the last health line agree;
- a league sweep in progress when the bot stops finishes: every match it confirmed is edited and announced (they
  are claimed for good: no later sweep would ever do it);
- a button pressed just before the stop (a league report's Confirm: committed, then edited and announced) is
  finished;
- a second SIGTERM while the first waits makes the process exit at once (status 128 + 15), saying so in one line.

Real bot processes on PostgreSQL (tests/e2e/processes.py) for the signals; the in-process bot for the sweep.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from sqlalchemy import text

from bot.discord.app import RefereeBot
from bot.server_settings.cache import SettingRow
from bot.storage.db import create_engine
from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e import test_leagues as leagues
from tests.e2e.fake_discord import (
    GUILD_ID,
    LEAGUE_CHANNEL_ID,
    OPPONENT_ID,
    Call,
    FakeDiscord,
    command_interaction,
    component_interaction,
)
from tests.e2e.processes import BotProcess
from tests.e2e.test_shards import DUEL, EPHEMERAL, fake_discord, holding_inserts, query, record_id
from tests.waits import eventually, scaled


def health_lines(process: BotProcess) -> list[dict[str, Any]]:
    return [json.loads(line[line.index('{"health"') :])["health"] for line in process.log().splitlines()
            if '{"health"' in line]  # fmt: skip


async def test_an_interaction_arriving_while_the_bot_stops_is_refused_privately_and_the_late_result_finished(
    tmp_path: Path,
) -> None:
    url = await migrated_postgresql()
    async with fake_discord([GUILD_ID]) as fake:
        process = await BotProcess(fake, url, [0], 1, tmp_path / "bot.log").start()
        try:
            async with holding_inserts(url) as held:
                late = command_interaction("duel", DUEL, guild_id=GUILD_ID)
                await fake.interaction(late)
                await fake.wait_answers(late["token"], 1)  # shown; its insert waits on the lock
                assert process.process is not None
                process.process.send_signal(15)
                await eventually(lambda: "SIGTERM received" in process.log(), "the process heard SIGTERM")
                # B arrives while the process waits for the late result: before, it was shown as "Recording this
                # combat...", written once the lock went, and never edited (Discord had closed by then).
                during = command_interaction("duel", DUEL, guild_id=GUILD_ID, user_id=OPPONENT_ID)
                await fake.interaction(during)
                (refused,) = await fake.wait_answers(during["token"], 1)
                await held.rollback()
            assert process.process is not None
            assert await asyncio.wait_for(process.process.wait(), scaled(30)) == 0
        finally:
            await process.kill()
    data = refused.payload["data"]
    assert data["flags"] & EPHEMERAL, data
    assert data["embeds"][0]["description"] == "The referee is restarting: try again in a few seconds.", data
    assert [call.method for call in fake.answers[during["token"]]] == ["POST"]  # nothing more: no combat to finish
    late_calls = fake.answers[late["token"]]
    assert [call.method for call in late_calls] == ["POST", "PATCH"]
    assert await query(url, "SELECT id FROM combat_records") == [(record_id(late_calls[1].payload),)]
    outcomes = {line["interaction"]: line["outcome"] for line in process.commands()}
    assert len(process.commands()) == len(outcomes) == 2 and outcomes[int(during["id"])] == "refused: restarting"
    assert not outcomes[int(late["id"])].startswith(("refused", "error")), outcomes
    lines = health_lines(process)
    assert sum(line["answered"] for line in lines) == 2 and sum(line["recorded"] for line in lines) == 1
    assert lines[-1]["in_flight"] == 0 and lines[-1]["not_recorded"] == 0
    assert "stopped" in process.log() and "Traceback" not in process.log()


async def test_a_second_sigterm_while_the_first_waits_exits_at_once(tmp_path: Path) -> None:
    url = await migrated_postgresql()
    async with fake_discord([GUILD_ID]) as fake:
        process = await BotProcess(fake, url, [0], 1, tmp_path / "bot.log").start()
        try:
            async with holding_inserts(url):
                late = command_interaction("duel", DUEL, guild_id=GUILD_ID)
                await fake.interaction(late)
                await fake.wait_answers(late["token"], 1)
                assert process.process is not None
                process.process.send_signal(15)
                await eventually(lambda: "SIGTERM received" in process.log(), "the process heard SIGTERM")
                process.process.send_signal(15)
                # Still inside the lock. Before, the second signal was ignored: the process waited out its grace period
                # and exited 0 as if clean; now it exits at once with the status that says it was forced.
                status = await asyncio.wait_for(process.process.wait(), scaled(30))
        finally:
            await process.kill()
    assert status == 128 + 15  # forced, as a shell reports death by SIGTERM: systemd and scripts see it was
    assert "SIGTERM received again: exiting at once" in process.log()
    assert [call.method for call in fake.answers[late["token"]]] == ["POST"]  # what was open is lost, as asked


async def test_a_league_sweep_in_progress_when_the_bot_stops_edits_and_announces_every_match_it_confirmed(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = str(GUILD_ID)
    bot.server_settings.replace_guild(guild, [SettingRow("server", guild, guild, "league_channel",
                                                         str(LEAGUE_CHANNEL_ID))])  # fmt: skip
    created = [leagues.option("name", "Autumn"), leagues.option("game", "40k")]
    await leagues.answer(fake, leagues.admin("create", created, by=leagues.ORGANISER))
    players = (leagues.ANN, leagues.BOB, leagues.CID)
    for player in players:
        await leagues.answer(fake, leagues.league("join", [], by=player))
    for by, opponent in zip(players, players[1:] + players[:1], strict=True):  # none the reverse of another
        await leagues.report(fake, by, opponent, "win")
    # Their windows passed (as if the week went by): the next sweep confirms all three.
    engine = create_engine(bot.settings.database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE league_matches SET confirm_by = :past"),
                                     {"past": datetime.now(UTC) - timedelta(minutes=1)})  # fmt: skip
    finally:
        await engine.dispose()

    # Discord slow to edit a report's message: the sweep is still editing when the bot is told to stop.
    route = fake.route
    edited = asyncio.Event()

    async def slow_edits(method: str, path: str, call: Call, authorization: str = "") -> web.StreamResponse:
        if method == "PATCH" and path.startswith("/channels/") and "/messages/" in path:
            edited.set()
            await asyncio.sleep(0.3)
        return await route(method, path, call, authorization)

    monkeypatch.setattr(fake, "route", slow_edits)  # the fake's, not the bot's
    cog: Any = bot.get_cog("LeagueCog")
    sweeping = asyncio.create_task(cog.sweeper.run())  # one iteration, as the loop runs it each minute
    await asyncio.wait_for(edited.wait(), scaled(10))
    await bot.close()
    await sweeping
    edits = [
        c for c in fake.calls if c.method == "PATCH" and c.path.startswith("/channels/") and "/messages/" in c.path
    ]
    news = fake.in_channel(LEAGUE_CHANNEL_ID)
    assert len(edits) == 3, [c.path for c in edits]
    assert sorted(n["embeds"][0]["title"] for n in news) == [f"Match #{n} confirmed" for n in (1, 2, 3)]


async def test_a_button_pressed_just_before_the_bot_stops_is_finished(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league report's Confirm button, pressed as the bot is told to stop: the confirmation is committed, so its
    message's edit and the league channel's news must follow (before, the stop did not wait for a button's work)."""
    guild = str(GUILD_ID)
    bot.server_settings.replace_guild(guild, [SettingRow("server", guild, guild, "league_channel",
                                                         str(LEAGUE_CHANNEL_ID))])  # fmt: skip
    created = [leagues.option("name", "Autumn"), leagues.option("game", "40k")]
    await leagues.answer(fake, leagues.admin("create", created, by=leagues.ORGANISER))
    for player in (leagues.ANN, leagues.BOB):
        await leagues.answer(fake, leagues.league("join", [], by=player))
    shown = await leagues.report(fake, leagues.ANN, leagues.BOB, "win")

    press = component_interaction("referee:league:confirm:1", shown["data"]["components"], user_id=leagues.BOB)
    route = fake.route
    answering = asyncio.Event()

    async def slow_answer(method: str, path: str, call: Call, authorization: str = "") -> web.StreamResponse:
        if path.startswith(f"/interactions/{press['id']}/"):
            answering.set()
            await asyncio.sleep(0.3)  # Discord slow to take the button's answer: the bot is stopping meanwhile
        return await route(method, path, call, authorization)

    monkeypatch.setattr(fake, "route", slow_answer)  # the fake's, not the bot's
    await fake.interaction(press)
    await asyncio.wait_for(answering.wait(), scaled(10))
    await bot.close()
    assert [news["embeds"][0]["title"] for news in fake.in_channel(LEAGUE_CHANNEL_ID)] == ["Match #1 confirmed"]
    [edit] = [call.payload for call in fake.answers[press["token"]]]
    assert edit["type"] == 7 and not edit["data"]["components"], edit  # the report's message: confirmed, no buttons
