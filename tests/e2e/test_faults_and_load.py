"""Faults (a 500, a 429, a dropped gateway, a dead database, a read-only one) and load (500 interactions in bursts
of 50)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.storage import Store
from rules_core import resolve
from tests.e2e.conftest import long_fight, running_bot
from tests.e2e.fake_discord import PLAYER_ID, FakeDiscord, command_interaction, final_answer
from tests.waits import scaled

DUEL = [
    {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+"},
    {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
]


def successful(calls: list[Any], fake: FakeDiscord) -> list[Any]:
    return [c for c in calls if c.path.endswith("/callback")]


async def test_a_callback_that_fails_with_500_once_is_retried(bot: RefereeBot, fake: FakeDiscord) -> None:
    fake.fail_next.append((500, 0))
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    assert answer.data["embeds"]
    attempts = [c for c in fake.calls if c.path.endswith("/callback") and payload["id"] in c.path]
    assert len(attempts) == 2  # the failed attempt, then the one that landed


async def test_a_rate_limited_callback_waits_and_lands(bot: RefereeBot, fake: FakeDiscord) -> None:
    fake.fail_next.append((429, 0.3))
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    assert answer.data["embeds"]


async def test_after_the_gateway_drops_the_bot_resumes_and_keeps_answering(bot: RefereeBot, fake: FakeDiscord) -> None:
    first = command_interaction("duel", DUEL)
    await fake.interaction(first)
    await final_answer(fake, first["token"])
    await fake.drop_gateway()
    await asyncio.wait_for(fake.identified.wait(), scaled(30))
    assert fake.resumed + fake.ready_count >= 2  # it came back: resumed (or identified anew)
    second = command_interaction("duel", DUEL)
    await fake.interaction(second)
    answer = await final_answer(fake, second["token"])
    assert "record #2" in answer.data["embeds"][0]["footer"]["text"]


async def test_with_the_database_down_the_result_is_still_shown_marked_not_recorded(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def down(*_args: object, **_kwargs: object) -> int:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(bot.store.records, "add", down)
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    (embed,) = answer.data["embeds"]
    assert "Not recorded" in embed["description"]
    assert "record #" not in embed["footer"]["text"]
    assert answer.files == ["combat.md"]  # the full log comes with it, since there is no record to page through


async def test_a_long_result_not_recorded_claims_no_page_it_cannot_turn(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its pages would need a record to turn: its footer says where the other steps are (the attached log) rather
    than "page 1/2" with no Next button."""

    async def down(*_args: object, **_kwargs: object) -> int:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(bot.store.records, "add", down)
    attackers, defenders = long_fight()
    options = [{"type": 3, "name": "attacker", "value": attackers}, {"type": 3, "name": "defender", "value": defenders},
               {"type": 10, "name": "charge_distance", "value": 4.0}]  # fmt: skip
    payload = command_interaction("assault", options, subcommand="40k")
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"], scaled(60))
    (embed,) = answer.data["embeds"]
    assert "Not recorded" in embed["description"]
    buttons = [c.get("custom_id", "") for row in answer.data.get("components") or [] for c in row["components"]]
    assert not any(b.startswith("referee:page:") for b in buttons), buttons
    footer = embed["footer"]["text"]
    assert "page 1/" not in footer and "attached log" in footer, footer
    assert answer.files == ["combat.md"]


async def test_on_a_read_only_database_players_are_told_in_one_sentence_and_the_log_has_the_traceback(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real fault (SQLite opened with mode=ro, which holds for root too): reads work, every write fails."""
    path = tmp_path / "kept.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=1)
    record = await store.records.add(report, requested_by=str(PLAYER_ID), guild_id="900000000000000003")
    await store.close()
    caplog.set_level(logging.INFO, logger="referee.bot")
    async with running_bot(fake, f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true"):
        # A combat: shown, then marked not recorded, with the reason in a player's words and an error id.
        payload = command_interaction("duel", DUEL)
        await fake.interaction(payload)
        answer = await final_answer(fake, payload["token"])
        description = answer.data["embeds"][0]["description"]
        found = re.search(r"Not recorded \(the referee's database is read-only; error id ([0-9a-f]{8})\)", description)
        assert found, description
        logged = [r for r in caplog.records if r.getMessage().startswith(f"error {found[1]}: combat not recorded")]
        assert logged and logged[0].exc_info, "the log holds the traceback under the same error id"
        # A command that writes: answered privately with the sentence, the traceback logged under its id.
        options = [{"type": 4, "name": "record", "value": record}, {"type": 3, "name": "reason", "value": "typo"}]
        (callback,) = await fake.ask(command_interaction("void", options))
        data = callback.payload["data"]
        assert data["flags"] & 64  # ephemeral: only the user sees it
        text = data["embeds"][0]["description"]
        found = re.fullmatch(
            r"The referee cannot use its database right now \(the referee's database is read-only\), so nothing was "
            r"read or changed\. Try again in a few minutes; if it keeps failing, give the bot's operator this error "
            r"id: ([0-9a-f]{8})\.",
            text,
        )
        assert found, text
        assert "DATABASE_URL" not in text and "'referee " not in text  # no terminal words for a Discord user
        logged = [r for r in caplog.records if r.getMessage().startswith(f"error {found[1]} in /void: Cannot write")]
        assert logged and logged[0].exc_info
        # Reading still works: the record is there, unchanged.
        (replayed,) = await fake.ask(command_interaction("replay", [{"type": 4, "name": "record", "value": record}]))
        assert f"record #{record}" in replayed.payload["data"]["embeds"][0]["footer"]["text"]
        assert "VOID" not in replayed.payload["data"]["embeds"][0]["description"]


async def test_referee_bot_with_an_unreachable_database_stops_with_one_line_and_exit_3(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """`referee bot` as its own process (discord.py pointed at the fake Discord), its PostgreSQL port refusing."""
    code = (f"import discord.http; discord.http.Route.BASE = {fake.api_base!r}; "
            "from bot.cli import main; main(['bot'])")  # fmt: skip
    env = {**os.environ, "DISCORD_TOKEN": "fake-token", "DATABASE_URL": "postgresql+asyncpg://u:secret@127.0.0.1:1/r"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), scaled(120))
    stderr = err.decode()
    assert process.returncode == 3, stderr
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if not re.match(r"\d{4}-\d\d-\d\d ", line)]  # the bot's log
    (line,) = errors
    assert line.startswith("error: Cannot reach the PostgreSQL database r at 127.0.0.1:1 (Connect call failed"), stderr
    assert line.endswith("Start the database server, or correct the host and port in DATABASE_URL."), stderr


async def test_500_interactions_in_bursts_of_50_are_each_answered_exactly_once(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    tokens: list[str] = []
    for burst in range(10):
        payloads = [command_interaction("duel", DUEL, user_id=800000000000000000 + burst * 50 + n) for n in range(50)]
        await asyncio.gather(*(fake.interaction(p) for p in payloads))
        tokens += [p["token"] for p in payloads]
        await asyncio.gather(*(final_answer(fake, p["token"], 60) for p in payloads))
    await asyncio.sleep(scaled(0.5))  # anything answered twice would have arrived by now
    for token in tokens:
        answers = fake.answers[token]
        # Exactly one answer, edited once: the result shown, then its record id and buttons added.
        assert [a.method for a in answers] == ["POST", "PATCH"], token
        assert answers[0].payload["type"] == 4
    rows = await bot.store.records.history(actor=OPERATOR, limit=200)
    assert rows[0].id == 500


async def test_a_slow_store_never_delays_the_answer(
    bot: RefereeBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bot.store.records.add
    gate = asyncio.Event()

    async def slow(*args: object, **kwargs: object) -> int:
        await gate.wait()  # the database hangs until the test lets it go
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.store.records, "add", slow)
    payload = command_interaction("duel", DUEL)
    await fake.interaction(payload)
    (shown,) = await fake.wait_answers(payload["token"], 1)
    assert shown.payload["type"] == 4  # the result is on screen while the write is still waiting
    assert "Recording this combat" in shown.payload["data"]["embeds"][0]["description"]
    gate.set()
    answer = await final_answer(fake, payload["token"])
    assert "record #1" in answer.data["embeds"][0]["footer"]["text"]


async def test_stopping_the_bot_lets_answers_being_recorded_finish(bot: RefereeBot, fake: FakeDiscord) -> None:
    tokens = []
    for _ in range(6):
        payload = command_interaction("duel", DUEL)
        await fake.interaction(payload)
        await fake.wait_answers(payload["token"], 1)  # shown; the record and its edit may still be on their way
        tokens.append(payload["token"])
    await asyncio.wait_for(bot.close(), scaled(15))
    footers = []
    for token in tokens:
        assert [call.method for call in fake.answers[token]] == ["POST", "PATCH"]
        footers.append(fake.answers[token][1].payload["embeds"][0]["footer"]["text"])
    assert sorted(int(f.split("record #")[1].split(" ")[0]) for f in footers) == [1, 2, 3, 4, 5, 6]
