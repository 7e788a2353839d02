"""The database goes away and comes back (issue 34): a real PostgreSQL server of the test's own, stopped with
``pg_ctl stop -m fast`` and started again, under the real bot through the fake Discord.

- 200 combats in bursts while the server stops for a few seconds and starts again: every one answered at once
  ("Recording this combat…"), every one then edited with its record id, every one stored exactly once (one row per
  write key; the ids the players were shown are exactly the rows stored);
- the server away longer than RECORD_RETRY_SECONDS (shortened here): each result is told once that it is not
  recorded, and none is written when the server comes back;
- the web pages and the settings poll ride out the restart: a page asked for while the server is away says to try
  again (503), the same page answers normally once it is back, and no traceback is logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from typing import Any

import aiohttp
import pytest
from sqlalchemy import text

from bot.storage.db import create_engine, upgrade
from tests.e2e import test_challenges as challenges
from tests.e2e import test_leagues as leagues
from tests.e2e.conftest import running_bot
from tests.e2e.fake_discord import FakeDiscord, command_interaction, component_interaction
from tests.e2e.own_postgresql import Cluster, free_port, own_cluster
from tests.e2e.test_shards import eventually

DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]
RECORD = re.compile(r"record #(\d+)")


async def migrated(cluster: Cluster) -> None:
    engine = create_engine(cluster.url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


async def rows(cluster: Cluster) -> list[tuple[int, str | None]]:
    engine = create_engine(cluster.url)
    try:
        async with engine.connect() as connection:
            found = await connection.execute(text("SELECT id, write_key FROM combat_records ORDER BY id"))
            return [(int(record_id), key) for record_id, key in found]
    finally:
        await engine.dispose()


PLAYERS = iter(range(800000000000000000, 800000000000100000))  # one player each: no cooldown between them


async def burst(fake: FakeDiscord, count: int) -> list[str]:
    """``count`` combats pushed at once, each by its own player; their interaction tokens."""
    payloads = [command_interaction("duel", DUEL, user_id=next(PLAYERS)) for _ in range(count)]
    await asyncio.gather(*(fake.interaction(payload) for payload in payloads))
    return [str(payload["token"]) for payload in payloads]


def finished(fake: FakeDiscord, tokens: list[str]) -> bool:
    """Every combat shown and then edited (recorded, or told it is not)."""
    return all(len(fake.answers[token]) >= 2 for token in tokens)


def footer(fake: FakeDiscord, token: str) -> str:
    return str(fake.answers[token][-1].payload["embeds"][0]["footer"]["text"])


def health_total(caplog: pytest.LogCaptureFixture, key: str) -> int:
    """A count summed over the health lines the bot wrote (the last as it stopped)."""
    lines = [json.loads(r.getMessage())["health"] for r in caplog.records if r.getMessage().startswith('{"health"')]
    assert lines, "the bot wrote its health lines"
    return sum(int(line[key]) for line in lines)


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


async def page_status(port: int) -> tuple[int, str]:
    """A web page that reads the database (a combat's, by an unknown slug: 404 when the database answers)."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/c/{'x' * 22}") as answer:
        return answer.status, await answer.text()


async def test_200_combats_through_a_restart_are_all_answered_and_each_recorded_exactly_once(
    fake: FakeDiscord, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    with own_cluster() as cluster:
        await migrated(cluster)
        port = free_port()
        monkeypatch.setenv("WEB_PORT", str(port))
        tokens: list[str] = []
        async with running_bot(fake, cluster.url, serve_web=True, record_retry_seconds=60) as referee:
            assert (await page_status(port))[0] == 404
            for number in range(10):  # 10 bursts of 20: 3 before the stop, 4 while it is away, 3 after
                if number == 3:
                    await cluster.stopped()
                    away = time.monotonic()
                if number == 6:
                    status, body = await page_status(port)  # asked while the server is away
                    assert status == 503 and "try again" in body.lower(), (status, body)
                if number == 7:
                    await cluster.started()
                    downtime = time.monotonic() - away
                tokens += await burst(fake, 20)
                if 3 <= number < 7:
                    await asyncio.sleep(1.0)  # the server stays away a few seconds
            await eventually(lambda: finished(fake, tokens), "every combat edited after its first answer", 120)
            assert (await page_status(port))[0] == 404  # the same page, answered normally again
            await eventually(lambda: "the settings are refreshed again" in caplog.text, "the settings poll recovered")
            found = referee.writer.found_written
        stored = await rows(cluster)
    answered = sum(1 for token in tokens if fake.answers[token][0].method == "POST")
    shown = [RECORD.search(footer(fake, token)) for token in tokens]
    shown_ids = [int(found[1]) for found in shown if found]
    keys = {key for _, key in stored}
    recorded_once = len(stored) if len(keys) == len(stored) and None not in keys else 0
    figures = (f"answered {answered}/200, edited with a record id {len(shown_ids)}/200, rows {len(stored)}, "
               f"recorded once {recorded_once}/200, found by key after a lost acknowledgement {found}, "
               f"server away {downtime:.1f} s")  # fmt: skip
    print(figures)  # the figures the issue asks for (pytest -s shows them)
    assert answered == 200, figures
    assert all("Recording this combat" in fake.answers[t][0].payload["data"]["embeds"][0]["description"]
               for t in tokens), "each first answer says it is being recorded"  # fmt: skip
    assert len(shown_ids) == 200 and sorted(shown_ids) == [record_id for record_id, _ in stored], figures
    assert recorded_once == 200, figures
    for token, record_id in zip(tokens, shown_ids, strict=True):  # the buttons a recorded answer has
        buttons = [
            c.get("custom_id") for row in fake.answers[token][-1].payload["components"] for c in row["components"]
        ]
        assert f"referee:verify:{record_id}" in buttons and f"referee:rolls:{record_id}" in buttons, buttons
    assert all(len(fake.answers[token]) == 2 for token in tokens), "each answered once and edited once"
    assert "the database failed" in caplog.text and "the database is back" in caplog.text
    assert tracebacks(caplog) == [], "the restart is ridden out without a traceback"
    assert (health_total(caplog, "recorded"), health_total(caplog, "not_recorded")) == (200, 0)


async def test_a_server_away_longer_than_the_bound_tells_each_player_once_and_records_nothing_later(
    fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with own_cluster() as cluster:
        await migrated(cluster)
        async with running_bot(fake, cluster.url, record_retry_seconds=2) as referee:
            await cluster.stopped()
            tokens = await burst(fake, 10)
            await asyncio.sleep(0.5)
            tokens += await burst(fake, 10)
            await eventually(lambda: finished(fake, tokens), "every combat told it is not recorded", 60)
            told_at = time.monotonic()
            await cluster.started()
            # Well past the writer's longest backoff: anything still held would have been written by now.
            await eventually(lambda: time.monotonic() - told_at > 5, "five seconds with the server back")
            assert referee.writer.holding == 0
        stored = await rows(cluster)
    calls: list[list[Any]] = [fake.answers[token] for token in tokens]
    told_once = sum(1 for c in calls if len(c) == 2 and "Not recorded" in c[1].payload["embeds"][0]["description"])
    figures = f"answered {len(calls)}/20, told once {told_once}/20, recorded later {len(stored)}"
    print(figures)  # the figures the issue asks for
    assert told_once == 20, figures
    assert stored == [], figures
    assert (health_total(caplog, "recorded"), health_total(caplog, "not_recorded")) == (0, 20)
    assert all("cannot be reached" in c[1].payload["embeds"][0]["description"] for c in calls), "the reason is said"


@pytest.mark.parametrize("back_during_the_stop", [False, True])
async def test_a_clean_stop_writes_what_it_holds_or_tells_each_player_once(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, back_during_the_stop: bool
) -> None:
    """The bot stops (SIGTERM's path, ``close()``) holding ten results: a server back within the grace period gets
    them written (each edited with its record id); one still away gets each player told once, before the bot goes."""
    monkeypatch.setattr("bot.discord.app.SHUTDOWN_GRACE", 10.0 if back_during_the_stop else 3.0)
    with own_cluster() as cluster:
        await migrated(cluster)
        async with running_bot(fake, cluster.url, record_retry_seconds=60) as referee:
            await cluster.stopped()
            tokens = await burst(fake, 10)
            await eventually(lambda: referee.writer.holding == 10, "ten results held")
            coming_back = asyncio.create_task(cluster.started()) if back_during_the_stop else None
        await (coming_back or cluster.started())  # the bot is gone: nothing it held can be written now
        stored = await rows(cluster)
    calls = [fake.answers[token] for token in tokens]
    assert all(len(c) == 2 for c in calls), [len(c) for c in calls]
    footers = [str(c[1].payload["embeds"][0]["footer"]["text"]) for c in calls]
    if back_during_the_stop:
        shown = sorted(int(found[1]) for f in footers if (found := RECORD.search(f)))
        assert shown == [record_id for record_id, _ in stored] and len(shown) == 10, footers
    else:
        assert all("Not recorded" in c[1].payload["embeds"][0]["description"] for c in calls)
        assert stored == []


async def test_a_button_or_a_league_report_while_the_server_is_away_is_answered_never_silent(
    fake: FakeDiscord,
) -> None:
    """A league match's Confirm pressed while the database is away is answered privately (not confirmed, try
    again), as a /league report sent then is, and a challenge's Accept (still open); once the server is back the
    same presses confirm the match and resolve the challenge."""
    with own_cluster() as cluster:
        await migrated(cluster)
        async with running_bot(fake, cluster.url) as referee:
            posted = await challenges.challenge(referee, fake)
            created = [leagues.option("name", "Autumn"), leagues.option("game", "40k")]
            await leagues.answer(fake, leagues.admin("create", created, by=leagues.ORGANISER))
            for player in (leagues.ANN, leagues.BOB, leagues.CID):
                await leagues.answer(fake, leagues.league("join", [], by=player))
            shown = (await leagues.report(fake, leagues.ANN, leagues.BOB, "win"))["data"]
            await cluster.stopped()
            press = component_interaction("referee:league:confirm:1", shown["components"], user_id=leagues.BOB)
            pressed = await leagues.answer(fake, press)
            options = [leagues.option("opponent", str(leagues.CID), 6), leagues.option("result", "win")]
            reported = await leagues.answer(fake, leagues.league("report", options, by=leagues.ANN,
                                                                 users=(leagues.CID,)))  # fmt: skip
            refused = await challenges.press(fake, posted, "accept", challenges.OPPONENT_ID)
            await cluster.started()
            confirmed = await leagues.click(fake, "referee:league:confirm:1", shown, leagues.BOB)
            _, record_id = await challenges.accepted(referee, fake, posted, challenges.OPPONENT_ID)
    for (answer,) in (pressed, reported):
        data = answer["data"]
        assert data["flags"] & leagues.EPHEMERAL, data
        assert "cannot use its database right now" in data["embeds"][0]["description"], data
    assert confirmed["data"]["embeds"][0]["title"] == "Match #1: confirmed", confirmed
    said = challenges.private_text(refused[-1])
    assert "cannot use its database right now" in said and "The challenge is still open: try again." in said, said
    assert record_id == 1
