"""The terminal through a PostgreSQL restart (issue 34): a combat shown while the server is away is tried again for
a few seconds at most, then either recorded once or answered with its one "not recorded" line.

A real server of the test's own (tests/e2e/own_postgresql.py). Its port is first held by the test: each connection
the referee makes there is accepted and dropped at once (as a server going down drops it), so the test knows the
referee's attempts without timing them.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import text

from bot.storage.db import create_engine, upgrade
from tests.bot.test_cli import referee
from tests.bot.test_cli_records import DUEL
from tests.e2e.own_postgresql import Cluster, own_cluster


@contextmanager
def migrated_then_stopped(monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    with own_cluster() as cluster:

        async def migrate() -> None:
            engine = create_engine(cluster.url)
            try:
                await upgrade(engine)
            finally:
                await engine.dispose()

        asyncio.run(migrate())
        cluster.stop()
        monkeypatch.setenv("DATABASE_URL", cluster.url)
        yield cluster


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


class DroppingPort:
    """The server's port, held by the test: every connection is accepted and dropped, and counted."""

    def __init__(self, port: int, *, then_start: Cluster | None = None) -> None:
        self.listener = socket.create_server(("127.0.0.1", port))
        self.listener.settimeout(0.2)
        self.dropped = 0
        self.then_start = then_start  # after the first dropped connection, the port is given back to the server
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        try:
            while not self.done.is_set():
                try:
                    connection, _ = self.listener.accept()
                except TimeoutError:
                    continue
                connection.close()
                self.dropped += 1
                if self.then_start is not None:
                    self.listener.close()
                    self.then_start.start()
                    return
        finally:
            self.listener.close()

    def close(self) -> None:
        self.done.set()
        self.thread.join(30)


def test_a_combat_shown_while_the_server_restarts_is_recorded_once_when_it_is_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with migrated_then_stopped(monkeypatch) as cluster:
        port = DroppingPort(cluster.port, then_start=cluster)
        try:
            code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
        finally:
            port.close()
        stored = rows(cluster)
    assert port.dropped == 1  # the first attempt met a server going away
    assert code == 0 and "Round 1" in out
    assert err.strip().startswith("Recorded as #1:"), err
    assert len(stored) == 1 and stored[0][0] == 1 and stored[0][1], stored


def test_a_server_away_longer_than_a_few_seconds_gets_its_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with migrated_then_stopped(monkeypatch) as cluster:
        port = DroppingPort(cluster.port)
        try:
            code, out, err = referee(*DUEL, "--seed", "1", capsys=capsys)
        finally:
            port.close()
        cluster.start()
        stored = rows(cluster)
    assert port.dropped >= 2  # tried again...
    assert code == 0 and "Round 1" in out
    (line,) = err.strip().splitlines()  # ...then one line
    assert line.startswith("warning: not recorded, but the result above stands. Cannot reach the PostgreSQL"), line
    assert stored == []
