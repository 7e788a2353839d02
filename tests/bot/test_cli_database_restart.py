"""The terminal through a PostgreSQL restart (issue 34): a combat shown while the server is away is tried again for
a few seconds at most, then either recorded once or answered with its one "not recorded" line.

A real server of the test's own (tests/e2e/own_postgresql.py), reached through a port the test holds: the
connections the referee makes there are accepted and dropped at once (as a server going down drops them), or
carried to the server, so the test counts the referee's attempts and decides which fail without timing anything.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from sqlalchemy import text

from bot.storage.db import create_engine, upgrade
from tests.bot.test_cli import referee
from tests.bot.test_cli_records import DUEL
from tests.e2e.db_ports import DroppingPort, HeldPort, SilentPort
from tests.e2e.own_postgresql import Cluster, own_cluster

P = TypeVar("P", bound=HeldPort)


@contextmanager
def migrated(monkeypatch: pytest.MonkeyPatch, *, forward_after: int | None) -> Iterator[tuple[Cluster, DroppingPort]]:
    """A migrated server of the test's own, reached by the referee only through a :class:`DroppingPort`."""
    with behind(monkeypatch, lambda server_port: DroppingPort(server_port, forward_after=forward_after)) as made:
        yield made


@contextmanager
def behind(
    monkeypatch: pytest.MonkeyPatch, make_port: Callable[[int], P], prepare: Callable[[], object] | None = None
) -> Iterator[tuple[Cluster, P]]:
    """A migrated server of the test's own; ``prepare`` runs reaching it directly (DATABASE_URL set to it), then the
    referee reaches it only through the port ``make_port`` holds in front of it."""
    with own_cluster() as cluster:

        async def migrate() -> None:
            engine = create_engine(cluster.url)
            try:
                await upgrade(engine)
            finally:
                await engine.dispose()

        asyncio.run(migrate())
        if prepare is not None:
            monkeypatch.setenv("DATABASE_URL", cluster.url)
            prepare()
        port = make_port(cluster.port)
        monkeypatch.setenv("DATABASE_URL", port.url(cluster.url, cluster.port))
        try:
            yield cluster, port
        finally:
            port.close()


def rows(cluster: Cluster) -> list[tuple[int, str | None]]:
    async def read() -> list[tuple[int, str | None]]:
        engine = create_engine(cluster.url)
        try:
            async with engine.connect() as connection:
                found = await connection.execute(text("SELECT id, write_key FROM combat_records"))
                return [(int(record_id), key) for record_id, key in found]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def test_a_combat_whose_write_meets_a_dropped_connection_is_recorded_once_on_the_retry(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with migrated(monkeypatch, forward_after=1) as (cluster, port):
        code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
        stored = rows(cluster)
    assert port.dropped == 1  # the first attempt met a server going away
    assert code == 0 and "Round 1" in out
    assert err.strip().startswith("Recorded as #1:"), err
    assert len(stored) == 1 and stored[0][0] == 1 and stored[0][1], stored


def test_a_server_away_longer_than_a_few_seconds_gets_its_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with migrated(monkeypatch, forward_after=None) as (cluster, port):
        code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
        stored = rows(cluster)
    assert port.dropped >= 2  # tried again...
    assert code == 0 and "Round 1" in out
    (line,) = err.strip().splitlines()  # ...then one line
    assert line.startswith("warning: not recorded, but the result above stands. Cannot reach the PostgreSQL"), line
    assert stored == []


def test_a_host_that_never_answers_gets_its_one_line_within_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A host that accepts the connection and says nothing: each attempt ends at the connect timeout, not at
    asyncpg's own 60 s, so the person at the prompt hears its one line within seconds. Shown by counting, not by
    timing: with a short connect timeout the few seconds of retries reach the host several times (asyncpg's own
    timeout would hold the first attempt past them)."""
    monkeypatch.setattr("bot.storage.db.CONNECT_TIMEOUT", 0.5)
    silent = SilentPort()
    monkeypatch.setenv("DATABASE_URL", f"postgresql+asyncpg://referee@127.0.0.1:{silent.port}/referee")
    try:
        code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
    finally:
        silent.close()
    assert code == 0 and "Round 1" in out
    (line,) = err.strip().splitlines()
    assert line.startswith("warning: not recorded, but the result above stands. Cannot reach the PostgreSQL"), line
    assert len(silent.accepted) >= 2, f"{len(silent.accepted)} attempt(s): the connect timeout did not end the first"
