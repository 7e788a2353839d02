"""Every test gets its own SQLite store: nothing a test records lands in a referee.db of the working directory.

The suite runs on every core (pytest-xdist, `-n auto` in pyproject.toml's addopts). TEST_DATABASE_URL names the one
PostgreSQL database a test may use (it empties it at will), so each xdist worker gets a database of its own: at the
worker's start its TEST_DATABASE_URL is rewritten from ``.../referee_test`` to ``.../referee_test_gw0`` (and so on),
and that database is created when missing (the role needs CREATEDB, which `.ci/run` grants). Everything that reads
the variable at test time, subprocesses included, sees the worker's database. `-n 0` runs in one process on the
database named, as before.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import waits


def worker_database_url(url: str, worker: str) -> str:
    """``url`` with the worker's id appended to its database name (``referee_test`` -> ``referee_test_gw0``)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{worker}").render_as_string(hide_password=False)


async def create_database_if_missing(base_url: str, url: str) -> None:
    """Creates the database of ``url`` (owned by its role) through a connection to the database of ``base_url``."""
    import asyncpg
    from sqlalchemy.engine import make_url

    base, wanted = make_url(base_url), make_url(url)
    connection = await asyncpg.connect(user=base.username, password=base.password, host=base.host,
                                       port=base.port or 5432, database=base.database)  # fmt: skip
    try:
        if await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", wanted.database):
            return
        try:
            await connection.execute(f'CREATE DATABASE "{wanted.database}"')
        except asyncpg.DuplicateDatabaseError:  # created meanwhile: as good
            return
        except asyncpg.InsufficientPrivilegeError as error:
            raise pytest.UsageError(
                f"pytest-xdist worker needs the PostgreSQL database {wanted.database!r} and the role "
                f"{base.username!r} may not create it ({error}): grant it CREATEDB (`ALTER ROLE {base.username} "
                f"CREATEDB`, as .ci/run does), create the database yourself, or run in one process with `-n 0`"
            ) from error
    finally:
        await connection.close()


@pytest.hookimpl(tryfirst=True)  # before pytest-timeout reads its setting
def pytest_configure(config: pytest.Config) -> None:
    try:  # a TEST_TIME_FACTOR that is not a number is said once, before any test waits on it
        factor = waits.factor()
    except waits.BadFactor as error:
        raise pytest.UsageError(str(error)) from None
    # The hang guard of every test (pyproject.toml's `timeout`) is a wait too: scaled as the run starts, unless
    # --timeout or PYTEST_TIMEOUT says otherwise.
    try:
        hang_guard = config.getini("timeout")
    except ValueError:  # pytest-timeout is not installed
        hang_guard = None
    if hang_guard and config.getoption("timeout", None) is None and not os.environ.get("PYTEST_TIMEOUT"):
        config.option.timeout = float(hang_guard) * factor
    # A worker is known by the input xdist gives it, never by PYTEST_XDIST_WORKER alone: a pytest that a test starts
    # in a subprocess inherits that variable (and the worker's database already).
    worker = getattr(config, "workerinput", {}).get("workerid")
    url = os.environ.get("TEST_DATABASE_URL")
    if not worker or not url or not url.startswith("postgresql"):
        return
    own = worker_database_url(url, worker)
    asyncio.run(create_database_if_missing(url, own))
    os.environ["TEST_DATABASE_URL"] = own


def pytest_report_header() -> str:
    return waits.describe()


@pytest.fixture(autouse=True)
def private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'referee.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    return url


def sqlite_threads() -> set[threading.Thread]:
    """The threads of open SQLite connections (aiosqlite runs each connection in one)."""
    return {thread for thread in threading.enumerate() if thread.name.endswith("(_connection_worker_thread)")}


@pytest.fixture(autouse=True)
def no_connection_outlives_its_test() -> Iterator[None]:
    """A SQLite connection a test opened is closed when the test ends (torn down after its event loop closed). One
    left open, or used by a task still running, outlives the loop: when its thread next hands the loop a result it
    dies with "Event loop is closed", reported under whichever test runs then. Here it fails the test that left it."""
    before = sqlite_threads()
    yield
    left = sqlite_threads() - before
    for thread in left:  # a connection being closed ends its thread at once
        thread.join(waits.scaled(2))
    assert not [thread for thread in left if thread.is_alive()], (
        "a SQLite connection opened by this test is still open after it: close every store the test opens (and "
        "stop every task using one) before the test ends"
    )
