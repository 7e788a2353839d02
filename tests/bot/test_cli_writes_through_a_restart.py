"""The terminal's other writes through a PostgreSQL restart (issue 34): `referee void`, `referee annotate` (a note)
and `referee accept` are tried again for a few seconds at most, as a combat's write is, then print their one line.
A retry first looks for what an attempt whose acknowledgement was lost wrote, so nothing is written twice.

A real server of the test's own behind a port the test holds (tests/e2e/db_ports.py): its first connection is
dropped (the server going down), or the COMMIT of the write's transaction reaches the server and its answer is
swallowed (committed, the acknowledgement lost). Nothing is timed.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage import LOCAL_USER
from bot.storage.db import create_engine
from bot.storage.store import Store
from rules_core.registry import get_game
from tests.bot.storage.test_records import a_report
from tests.bot.test_cli import referee
from tests.bot.test_cli_database_restart import behind
from tests.e2e.db_ports import DroppingPort, LosingPort
from tests.e2e.own_postgresql import Cluster

W40K = get_game("40k")
NOTES = [("void", "--reason", "Record #1 is void."), ("annotate", "--note", "Note added to record #1.")]


def select(cluster: Cluster, query: str) -> list[tuple[object, ...]]:
    async def read() -> list[tuple[object, ...]]:
        engine = create_engine(cluster.url)
        try:
            async with engine.connect() as connection:
                return [tuple(row) for row in await connection.execute(text(query))]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def a_record() -> None:
    """Record #1, written straight to the server (DATABASE_URL reaches it)."""

    async def add() -> None:
        store = await Store.open()
        try:
            await store.records.add(a_report(1), requested_by=LOCAL_USER)
        finally:
            await store.close()

    asyncio.run(add())


@pytest.mark.parametrize(("command", "option", "said"), NOTES)
@pytest.mark.parametrize("fault", ["dropped", "acknowledgement lost"])
def test_a_void_or_a_note_meeting_a_restart_is_written_once_on_the_retry(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *, command: str, option: str, said: str,
    fault: str,
) -> None:  # fmt: skip
    def port(server_port: int) -> DroppingPort | LosingPort:
        if fault == "dropped":
            return DroppingPort(server_port, forward_after=1)
        return LosingPort(server_port, marker=b"INSERT INTO record_events")

    with behind(monkeypatch, port, a_record) as (cluster, held):
        code, out, err = referee(command, "1", option, "The wrong unit was entered", capsys=capsys)
        events = select(cluster, "SELECT kind, reason FROM record_events")
    assert (held.dropped if isinstance(held, DroppingPort) else held.lost) == 1, "the fault happened once"
    assert code == 0, err
    assert out.strip().splitlines()[0].startswith(said), out
    kind = "void" if command == "void" else "note"
    assert events == [(kind, "The wrong unit was entered")], events


def a_challenge(file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("challenge", "40k", "--attacker", W40K.example_attacker, "--defender",
                           W40K.example_defender, "--out", str(file), capsys=capsys)  # fmt: skip
    assert code == 0, err


@pytest.mark.parametrize("fault", ["dropped", "acknowledgement lost"])
def test_a_challenge_accepted_meeting_a_restart_is_resolved_once_on_the_retry(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, fault: str
) -> None:
    file = tmp_path / "challenge.json"

    def port(server_port: int) -> DroppingPort | LosingPort:
        if fault == "dropped":
            return DroppingPort(server_port, forward_after=1)
        return LosingPort(server_port, marker=b"INSERT INTO combat_records")

    with behind(monkeypatch, port, lambda: a_challenge(file, capsys)) as (cluster, held):
        code, out, err = referee("accept", str(file), capsys=capsys)
        records = select(cluster, "SELECT id FROM combat_records")
        challenges = select(cluster, "SELECT status, record_id FROM challenges")
    assert (held.dropped if isinstance(held, DroppingPort) else held.lost) == 1, "the fault happened once"
    assert code == 0, err
    assert "Challenge #1 resolved and recorded as #1." in out, out
    assert records == [(1,)] and challenges == [("resolved", 1)], (records, challenges)
    assert json.loads(file.read_text())["challenge"] == 1


def test_a_void_while_the_server_stays_away_gets_its_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def port(server_port: int) -> DroppingPort:
        return DroppingPort(server_port, forward_after=None)

    with behind(monkeypatch, port, a_record) as (cluster, held):
        code, out, err = referee("void", "1", "--reason", "The wrong unit was entered", capsys=capsys)
        events = select(cluster, "SELECT kind FROM record_events")
    assert held.dropped >= 2, "tried again"
    assert code != 0 and out == ""
    (line,) = err.strip().splitlines()
    assert "Cannot reach the PostgreSQL" in line, line
    assert events == []
