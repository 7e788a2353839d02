"""The terminal through a PostgreSQL restart (issue 34): a combat shown while the server is away is tried again for
a few seconds at most, then either recorded once or answered with its one "not recorded" line.

A real server of the test's own (tests/e2e/own_postgresql.py), reached through a port the test holds: the
connections the referee makes there are accepted and dropped at once (as a server going down drops them), or
carried to the server, so the test counts the referee's attempts and decides which fail without timing anything.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from sqlalchemy import text

from bot.storage.db import create_engine, upgrade
from tests.bot.test_cli import referee
from tests.bot.test_cli_records import DUEL
from tests.e2e.own_postgresql import Cluster, own_cluster


@contextmanager
def migrated(monkeypatch: pytest.MonkeyPatch, *, forward_after: int | None) -> Iterator[tuple[Cluster, DroppingPort]]:
    """A migrated server of the test's own, reached by the referee only through a :class:`DroppingPort`."""
    with own_cluster() as cluster:

        async def migrate() -> None:
            engine = create_engine(cluster.url)
            try:
                await upgrade(engine)
            finally:
                await engine.dispose()

        asyncio.run(migrate())
        port = DroppingPort(cluster.port, forward_after=forward_after)
        monkeypatch.setenv("DATABASE_URL", cluster.url.replace(f":{cluster.port}/", f":{port.port}/"))
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


class DroppingPort:
    """A port in front of the server: its first ``forward_after`` connections are accepted and dropped at once (as
    a server going down drops them), the later ones carried to the server; None drops every one. Counted."""

    def __init__(self, server_port: int, *, forward_after: int | None) -> None:
        self.server_port, self.forward_after = server_port, forward_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self.dropped = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        with self.listener:
            while not self.done.is_set():
                try:
                    connection, _ = self.listener.accept()
                except TimeoutError:
                    continue
                if self.forward_after is None or self.dropped < self.forward_after:
                    connection.close()
                    self.dropped += 1
                    continue
                server = socket.create_connection(("127.0.0.1", self.server_port))
                for source, sink in ((connection, server), (server, connection)):
                    threading.Thread(target=carry, args=(source, sink), daemon=True).start()

    def close(self) -> None:
        self.done.set()
        self.thread.join(30)


def carry(source: socket.socket, sink: socket.socket) -> None:
    """Bytes from one end to the other until either closes."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


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
