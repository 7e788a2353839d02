"""A result's write that committed but whose acknowledgement was lost on its last attempt (issue 34): the player
was told "not recorded", the row exists. The writer keeps looking for it by its write key once the database
answers, and corrects the answer (record id, buttons) while its message is still editable.

A real PostgreSQL server of the test's own, reached through a port the test holds (tests/e2e/db_ports.py) that
carries the combat's COMMIT to the server and swallows the server's answer: the ambiguity is made, not waited for.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.e2e import test_challenges as challenges
from tests.e2e.conftest import running_bot
from tests.e2e.db_ports import LosingPort
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.own_postgresql import Cluster, own_cluster
from tests.e2e.test_database_restart import RECORD, burst, migrated, rows
from tests.e2e.test_shards import eventually


def buttons(payload: dict[str, Any]) -> list[str]:
    return [c.get("custom_id", "") for row in payload.get("components", []) for c in row["components"]]


@contextlib.asynccontextmanager
async def losing_a_commit() -> AsyncIterator[tuple[Cluster, LosingPort]]:
    """A migrated server of the test's own behind a port that loses the answer to the first COMMIT of a
    transaction that inserts a combat record; the bot is to reach it by ``port.url(...)``."""
    with own_cluster() as cluster:
        await migrated(cluster)
        port = LosingPort(cluster.port, marker=b"INSERT INTO combat_records")
        try:
            yield cluster, port
        finally:
            port.close()


async def test_a_result_told_not_recorded_whose_commit_landed_is_corrected_with_its_record(
    fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with losing_a_commit() as (cluster, port):
        # No retry: the attempt whose acknowledgement is lost is the last, and the player is told at once.
        async with running_bot(fake, port.url(cluster.url, cluster.port), record_retry_seconds=0):
            (token,) = await burst(fake, 1)
            await eventually(lambda: len(fake.answers[token]) >= 2, "the player told it is not recorded", 60)
            told = fake.answers[token][1].payload
            await eventually(lambda: len(fake.answers[token]) >= 3, "the answer corrected", 60)
        stored = await rows(cluster)
    assert port.lost == 1, "the commit's acknowledgement was lost once"
    assert "Not recorded" in told["embeds"][0]["description"], told
    corrected = fake.answers[token][2].payload
    shown = RECORD.search(str(corrected["embeds"][0]["footer"]["text"]))
    assert shown is not None, corrected["embeds"][0]
    assert [record_id for record_id, _ in stored] == [int(shown[1])], (stored, shown[1])
    assert f"referee:verify:{shown[1]}" in buttons(corrected) and f"referee:rolls:{shown[1]}" in buttons(corrected)
    assert "Not recorded" not in corrected["embeds"][0].get("description", "")
    assert len(fake.answers[token]) == 3, "answered, told, corrected: nothing more"
    assert "had been written after all" in caplog.text


async def test_a_challenge_whose_resolution_committed_unacknowledged_shows_its_reveal_on_the_next_press(
    fake: FakeDiscord,
) -> None:
    """The last Accept resolves the challenge, and the COMMIT's answer is lost: that press hears that the database
    failed. The next press shows what the first would have: the result and its reveal in place of the challenge
    (not just a line saying it was resolved, the challenge left on screen with its buttons)."""
    async with losing_a_commit() as (cluster, port):
        async with running_bot(fake, port.url(cluster.url, cluster.port)) as referee:
            posted = await challenges.challenge(referee, fake)
            first = await challenges.press(fake, posted, "accept", challenges.OPPONENT_ID)
            calls, record_id = await challenges.accepted(referee, fake, posted, challenges.OPPONENT_ID)
        stored = await rows(cluster)
    assert port.lost == 1, "the resolution's acknowledgement was lost once"
    said = challenges.private_text(first[-1])
    assert "cannot use its database right now" in said and "Press Accept again: if the combat was resolved" in said
    assert [record_id_ for record_id_, _ in stored] == [record_id]
    revealed = calls[1].payload
    assert str(revealed["content"]).startswith(f"**Challenge #{posted.challenge.id} accepted by"), revealed
    assert f"`/verify record:{record_id}` checks it." in revealed["content"]
    assert f"referee:verify:{record_id}" in buttons(revealed), "the result's buttons, not the challenge's"


async def test_a_clean_stop_that_cancels_a_committed_write_answers_it_with_its_record(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops while a result's write is in flight: committed, its answer held back by the port. The stop's
    grace runs out, the write is cancelled, and its key looked up: the player sees the record, not "not recorded"
    (before, the answer was never edited at all)."""
    monkeypatch.setattr("bot.discord.app.SHUTDOWN_GRACE", 3.0)
    with own_cluster() as cluster:
        await migrated(cluster)
        port = LosingPort(cluster.port, marker=b"INSERT INTO combat_records", hold=True)
        try:
            async with running_bot(fake, port.url(cluster.url, cluster.port), record_retry_seconds=60):
                (token,) = await burst(fake, 1)
                await eventually(lambda: port.lost == 1, "the write committed, its answer held back")
        finally:
            port.close()
        stored = await rows(cluster)
    assert len(fake.answers[token]) == 2, [call.payload for call in fake.answers[token]]
    edited = fake.answers[token][1].payload
    shown = RECORD.search(str(edited["embeds"][0]["footer"]["text"]))
    assert shown is not None, edited["embeds"][0]
    assert [record_id for record_id, _ in stored] == [int(shown[1])]
