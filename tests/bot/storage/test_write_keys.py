"""Each result's write key (issue 34), on both backends: made before its first attempt, unique, and what lets the
record writer retry a write whose acknowledgement was lost without storing the result twice. And which failures
pass (``is_transient``): the one place that decides what is held and tried again."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError

from bot.discord.record_writer import RecordWriter
from bot.storage import StorageError, Store
from bot.storage.db import create_engine
from bot.storage.failures import Fault, is_storage_failure, is_transient, never_sent, storage_error
from bot.storage.records import RecordRequest
from rules_core import RefereeError
from tests.bot.storage.test_records import a_report
from tests.e2e.db_ports import SilentPort
from tests.waits import scaled


async def keyed_rows(store: Store) -> list[tuple[int, str | None]]:
    async with store.records.engine.connect() as connection:
        found = await connection.execute(text("SELECT id, write_key FROM combat_records ORDER BY id"))
        return [(int(record_id), key) for record_id, key in found]


def committed_then_dropped(real: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``real`` (a store write) that commits once and then loses its acknowledgement, as a connection dropped
    between the server's commit and the client's reading of it does; later calls are left alone."""
    calls = 0

    async def write(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        result = await real(*args, **kwargs)
        if calls == 1:
            raise ConnectionResetError(104, "Connection reset by peer")
        return result

    return write


@pytest.mark.parametrize("count", [1, 5])
async def test_a_write_whose_acknowledgement_was_lost_is_found_by_its_key_not_written_twice(
    store: Store, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """One result (written alone) or a burst (one transaction): the first attempt commits, its answer is lost; the
    retry finds every row by its key and hands back its id. Before write keys the retry stored each a second time."""
    monkeypatch.setattr(store.records, "add", committed_then_dropped(store.records.add))
    monkeypatch.setattr(store.records, "add_many", committed_then_dropped(store.records.add_many))
    writer = RecordWriter(store, retry_seconds=30)
    requests = [RecordRequest(a_report(seed), requested_by="u1") for seed in range(count)]
    ids = await asyncio.wait_for(asyncio.gather(*(writer.record(request) for request in requests)), scaled(30))
    await writer.close()
    stored = await keyed_rows(store)
    assert stored == sorted(zip(ids, (r.write_key for r in requests), strict=True)), stored
    assert len({r.write_key for r in requests}) == count and all(len(r.write_key) == 22 for r in requests)


async def test_a_write_key_is_unique(store: Store) -> None:
    await store.records.add(a_report(1), requested_by="u1", write_key="the-same-key")
    with pytest.raises(IntegrityError):
        await store.records.add(a_report(2), requested_by="u1", write_key="the-same-key")
    await store.records.add(a_report(3), requested_by="u1")  # records with no key (the terminal's old ones) coexist
    await store.records.add(a_report(4), requested_by="u1")
    assert await store.records.find_written(["the-same-key", "another"]) == {"the-same-key": 1}


async def test_a_result_held_past_its_time_fails_once_and_is_never_written_after(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses every attempt for longer than the bound: the answer hears the failure, and the writer
    forgets the result (the database coming back writes nothing of it)."""
    real_add, tries = store.records.add, []

    async def refused(*_args: Any, **_kwargs: Any) -> int:
        tries.append(1)
        raise ConnectionRefusedError(111, "Connect call failed")

    monkeypatch.setattr(store.records, "add", refused)
    writer = RecordWriter(store, retry_seconds=0.5)
    with pytest.raises(ConnectionRefusedError):
        await asyncio.wait_for(writer.record(RecordRequest(a_report(1), requested_by="u1")), scaled(10))
    assert len(tries) >= 2 and writer.holding == 0  # tried again, then let go
    monkeypatch.setattr(store.records, "add", real_add)  # the database is back
    await asyncio.sleep(0.5)
    await writer.close()
    assert await keyed_rows(store) == []


async def test_a_failure_that_does_not_pass_is_not_held(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    async def locked(*_args: Any, **_kwargs: Any) -> int:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(store.records, "add", locked)
    writer = RecordWriter(store, retry_seconds=60)
    with pytest.raises(OperationalError):
        await asyncio.wait_for(writer.record(RecordRequest(a_report(1), requested_by="u1")), scaled(5))
    assert writer.holding == 0
    await writer.close()


class _PostgresError(Exception):
    """Stands for asyncpg's errors, which carry their SQLSTATE."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


class AdminShutdownError(Exception):
    """Named as asyncpg's (57P01: the server shutting down)."""


def wrapped(cause: BaseException) -> OperationalError:
    """As SQLAlchemy hands a driver's error on."""
    error = OperationalError("INSERT", {}, cause)
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("error", "passes"),
    [
        (ConnectionRefusedError(111, "Connect call failed"), True),
        (wrapped(ConnectionResetError(104, "Connection reset by peer")), True),
        (wrapped(AdminShutdownError("terminating connection due to administrator command")), True),
        (wrapped(_PostgresError("40001")), True),  # serialization failure
        (wrapped(_PostgresError("40P01")), True),  # deadlock detected
        (wrapped(_PostgresError("57P03")), True),  # the database system is starting up
        (wrapped(socket.gaierror(-3, "Temporary failure in name resolution")), True),  # a container restarting
        (OSError(113, "No route to host"), True),
        (wrapped(_PostgresError("23505")), False),  # a unique violation is no passing failure
        (wrapped(Exception("database is locked")), False),  # SQLite waited its busy timeout already
        (StorageError("Cannot write to the SQLite file x: it is read-only", Fault.READ_ONLY), False),
        (OSError(28, "No space left on device"), False),
        (RefereeError("There is no record #9."), False),
    ],
)
def test_which_failures_pass(error: BaseException, passes: bool) -> None:
    assert is_transient(error) is passes


@pytest.mark.parametrize(
    ("error", "unsent"),
    [
        (ConnectionRefusedError(111, "Connect call failed"), True),
        (wrapped(socket.gaierror(-3, "Temporary failure in name resolution")), True),
        (wrapped(_PostgresError("57P03")), True),  # starting up: no session was opened
        (wrapped(ConnectionResetError(104, "Connection reset by peer")), False),  # dropped: it may have committed
        (wrapped(AdminShutdownError("terminating connection due to administrator command")), False),
        (TimeoutError(), False),
    ],
)
def test_which_failures_certainly_wrote_nothing(error: BaseException, unsent: bool) -> None:
    """Only a write that certainly never reached the server is not looked for after its player is told."""
    assert never_sent(error) is unsent


async def test_a_result_whose_last_attempt_may_have_committed_is_found_after_it_was_told(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The only attempt commits and loses its acknowledgement: the answer is told (the time is up), then the writer
    finds the row by its key and hands its id to whoever waits for it; a refused attempt is never looked for."""
    monkeypatch.setattr(store.records, "add", committed_then_dropped(store.records.add))
    writer = RecordWriter(store, retry_seconds=0)
    request = RecordRequest(a_report(1), requested_by="u1")
    with pytest.raises(ConnectionResetError):
        await asyncio.wait_for(writer.record(request), scaled(10))
    late = writer.late(request.write_key)
    assert late is not None
    assert await asyncio.wait_for(late, scaled(30)) == 1
    assert writer.late(request.write_key) is None and writer.found_late == 1

    async def refused(*_args: Any, **_kwargs: Any) -> int:
        raise ConnectionRefusedError(111, "Connect call failed")

    monkeypatch.setattr(store.records, "add", refused)
    other = RecordRequest(a_report(2), requested_by="u1")
    with pytest.raises(ConnectionRefusedError):
        await asyncio.wait_for(writer.record(other), scaled(10))
    assert writer.late(other.write_key) is None
    await writer.close()


async def test_a_clean_stop_that_cancels_a_write_in_flight_answers_it_with_its_record_if_it_committed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops while a write is in flight (committed, its acknowledgement not back): the stop cancels it,
    looks its key up, and its answer gets the record id, never silence nor a wrong "not recorded"."""
    real_add, stuck = store.records.add, asyncio.Event()

    async def committed_then_stuck(*args: Any, **kwargs: Any) -> int:
        await real_add(*args, **kwargs)
        stuck.set()
        await asyncio.Event().wait()  # the acknowledgement never comes
        raise AssertionError("never reached")

    monkeypatch.setattr(store.records, "add", committed_then_stuck)
    writer = RecordWriter(store, retry_seconds=60)
    answer = asyncio.ensure_future(writer.record(RecordRequest(a_report(1), requested_by="u1")))
    await asyncio.wait_for(stuck.wait(), scaled(10))
    await writer.close(timeout=0.2)
    assert await asyncio.wait_for(answer, scaled(5)) == 1


async def test_an_attempt_against_a_host_that_never_answers_is_given_up_within_the_bound() -> None:
    """A host that accepts the connection and then says nothing (silently unreachable): asyncpg would wait its own
    60 s for each attempt, well past RECORD_RETRY_SECONDS; the connect timeout ends each attempt first."""
    silent = SilentPort()
    url = f"postgresql+asyncpg://referee@127.0.0.1:{silent.port}/referee"
    store = Store(create_engine(url), url)
    writer = RecordWriter(store, retry_seconds=3)
    try:
        answer = asyncio.ensure_future(writer.record(RecordRequest(a_report(1), requested_by="u1")))
        await asyncio.wait({answer}, timeout=30)  # half of asyncpg's own connect timeout
        assert answer.done(), "still trying after 30 s, against a bound of 3"
        error = answer.exception()
        assert error is not None and is_storage_failure(error) and is_transient(error), repr(error)
        said = str(storage_error(error, url))
        assert said.startswith("Cannot reach the PostgreSQL database"), said
    finally:
        await writer.close()
        await store.close()
        silent.close()
