"""Where the store lives: the database URL, the async engine, migrations (Alembic, shipped inside `bot`), the clock.

SQLite (aiosqlite) is the default: a file ``referee.db`` in the working directory, in WAL mode with foreign keys
on, upgraded to the latest schema automatically on first use. Processes that start together on a new file take
turns: the upgrade holds an exclusive lock on the file ``<database>.lock`` beside it, and whoever comes second
finds the schema current and changes nothing. PostgreSQL (asyncpg) is used when ``DATABASE_URL`` is
``postgresql+asyncpg://...``; it is upgraded only by ``referee db upgrade``, under a PostgreSQL advisory lock, so
two upgrades started at once run one after the other.

Alembic is imported only to migrate: opening a database already at the latest schema reads its revision with one
query and compares it with ``HEAD_REVISION`` (quick rulings start fast).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import URL, Connection, CursorResult, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.storage.failures import DEFAULT_URL, Fault, StorageError, sqlite_path, storage_error, upper_first, where

if TYPE_CHECKING:
    from alembic.config import Config

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the upgrade is retried once the schema is current instead
    fcntl = None  # type: ignore[assignment]

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
SUPPORTED = ("sqlite+aiosqlite", "postgresql+asyncpg")
HEAD_REVISION = "0013"  # the newest migration; tests/bot/test_cli_imports.py checks it is Alembic's head
UPGRADE_LOCK = 0x5245_4645_5245_4531  # pg_advisory_xact_lock's key for the schema upgrade ("REFEREE1")
LOCK_WAIT = 120.0  # seconds a process waits for another's SQLite upgrade before giving up


def now() -> datetime:
    """The moment of a change: everything stored is UTC."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored moment as UTC: SQLite hands back naive datetimes for timezone-aware columns."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rowcount(result: Any) -> int:
    """The number of rows a bulk UPDATE or DELETE touched."""
    return int(cast(CursorResult[Any], result).rowcount)


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` when set (with its driver, see :func:`with_driver`), else the SQLite file in the working
    directory."""
    env = os.environ if environ is None else environ
    return with_driver(env.get("DATABASE_URL") or DEFAULT_URL)


# A URL that names its database but no driver (SQLAlchemy's own ``sqlite:///referee.db``, or ``postgresql://...``
# as PostgreSQL's tools write it) means the referee's driver for that database.
DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
POSTGRESQL_EXAMPLE = "postgresql+asyncpg://referee:secret@localhost:5432/referee"


def with_driver(url: str) -> str:
    """``url`` with the referee's driver when it names none (``sqlite:///x.db`` -> ``sqlite+aiosqlite:///x.db``);
    any other URL as it is."""
    scheme, colon, rest = url.partition(":")
    return DRIVERS[scheme] + colon + rest if colon and scheme in DRIVERS else url


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def create_engine(url: str) -> AsyncEngine:
    url = with_driver(url)
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise StorageError(
            f"DATABASE_URL is not a database URL: {error}. Example: {DEFAULT_URL}", Fault.CONFIG
        ) from None
    if parsed.drivername not in SUPPORTED:
        backend = parsed.get_backend_name()
        examples = {"sqlite": DEFAULT_URL, "postgresql": POSTGRESQL_EXAMPLE}
        example = examples.get(backend) or f"{DEFAULT_URL} (a SQLite file) or {POSTGRESQL_EXAMPLE}"
        raise StorageError(
            f"DATABASE_URL uses '{parsed.drivername}'; the referee supports {' and '.join(SUPPORTED)}. "
            f"Example: {example}",
            Fault.CONFIG,
        )
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    from bot.storage.models import add_postgresql_options  # noqa: PLC0415 - the dialect loads with the engine

    add_postgresql_options()
    size, overflow = pool_limits()
    return create_async_engine(url, pool_pre_ping=True, pool_size=size, max_overflow=overflow,
                               connect_args={"timeout": CONNECT_TIMEOUT})  # fmt: skip


POOL_SIZE, MAX_OVERFLOW = 10, 20  # PostgreSQL connections a process keeps, and opens beyond them in a burst
# Seconds a new PostgreSQL connection may take (asyncpg waits 60 by default): a host gone silent (a dropped route, a
# firewall that swallows packets) must fail each attempt well within the time a result is held and retried
# (RECORD_RETRY_SECONDS, 60 by default) and the terminal's few seconds; a server that answers at all does in
# milliseconds. No timeout is set on statements: a long migration or report is legitimate.
CONNECT_TIMEOUT = 5.0


def pool_limits(environ: Mapping[str, str] | None = None) -> tuple[int, int]:
    """The PostgreSQL pool of one process: ``DATABASE_POOL_SIZE`` connections kept (default 10) and
    ``DATABASE_MAX_OVERFLOW`` more opened in a burst (default 20). Every process of a sharded bot has its own pool:
    their sum must stay within the server's ``max_connections`` (docs/deploy.md, "What to watch")."""
    env = os.environ if environ is None else environ
    limits = []
    for name, default, least in (("DATABASE_POOL_SIZE", POOL_SIZE, 1), ("DATABASE_MAX_OVERFLOW", MAX_OVERFLOW, 0)):
        text = env.get(name, "").strip()
        if not text:
            limits.append(default)
            continue
        if not (text.isascii() and text.isdigit()) or not least <= int(text) <= 1000:
            raise StorageError(
                f"{name} is a number of connections from {least} to 1000, not '{text}'. Example: {name}={default}",
                Fault.CONFIG,
            )
        limits.append(int(text))
    return limits[0], limits[1]


async def dispose_after_failure(engine: AsyncEngine, threads_before: set[threading.Thread]) -> None:
    """Close an engine whose use failed, and let the threads of connections that failed to open finish.

    aiosqlite runs each connection in a thread; when opening one fails, it stops that thread without waiting, and
    the thread's last act is to hand a result to the event loop. If the loop closes first (the command ends with
    the error), the thread dies with "Event loop is closed", a traceback under the one-line error. So wait here
    (briefly) for the worker threads that started since ``threads_before``.
    """
    with contextlib.suppress(Exception):  # the failure being raised already says what went wrong
        await engine.dispose()
    workers = [thread for thread in threading.enumerate()
               if thread not in threads_before and thread.name.endswith("(_connection_worker_thread)")]  # fmt: skip

    def join() -> None:
        for thread in workers:
            thread.join(2.0)

    if workers:
        await asyncio.to_thread(join)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")  # concurrent writers wait instead of failing
    cursor.close()


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config  # noqa: PLC0415 (Alembic only to migrate)

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The latest schema's revision, without reading the migration scripts."""
    return HEAD_REVISION


def scripts_head() -> str:
    """The latest revision as Alembic reads it from the migration scripts (what ``HEAD_REVISION`` must be)."""
    from alembic.script import ScriptDirectory  # noqa: PLC0415 (Alembic only to migrate)

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _upgrade(connection: Connection) -> None:
    from alembic import command  # noqa: PLC0415 (Alembic only to migrate)

    command.upgrade(alembic_config(connection), "head")


def _current(connection: Connection) -> str | None:
    """The revision Alembic stamped (its ``alembic_version`` table), None on a database it never migrated."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return cast(str | None, connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one_or_none())


async def upgrade(engine: AsyncEngine) -> None:
    """Migrate the database to the latest schema (creating it when empty), one process at a time.

    SQLite: under the file lock beside the database. PostgreSQL: in one transaction that first takes an advisory
    lock (released at its end), so a second upgrade waits, then finds the schema current and does nothing.
    """
    if engine.dialect.name == "sqlite":
        async with sqlite_upgrade_lock(engine.url):
            try:
                async with engine.begin() as connection:
                    await connection.run_sync(_upgrade)
            except Exception:
                # Without a lock (not POSIX), another process may have upgraded it first: that is success.
                if fcntl is not None or await current_revision(engine) != head_revision():
                    raise
        return
    async with engine.begin() as connection:
        await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
        await connection.run_sync(_upgrade)


@contextlib.asynccontextmanager
async def sqlite_upgrade_lock(url: URL) -> AsyncIterator[None]:
    """Hold an exclusive lock on ``<database>.lock`` (none for an in-memory database): one upgrade at a time."""
    path = sqlite_path(url.render_as_string(hide_password=False))
    if path is None or fcntl is None:
        yield
        return
    lock_file = path.with_name(path.name + ".lock")
    try:
        handle = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise storage_error(error, str(url)) from error
    try:
        waited = 0.0
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if waited >= LOCK_WAIT:
                    raise StorageError(
                        f"Another process has been upgrading {where(str(url))} for {LOCK_WAIT:.0f} seconds (it "
                        f"holds {lock_file}). Wait for it to finish, then try again.",
                        Fault.BUSY,
                    ) from None
                await asyncio.sleep(0.05)  # polled, not blocking: the event loop and cancellation carry on
                waited += 0.05
        yield
    finally:
        os.close(handle)  # releases the lock


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as connection:
        return await connection.run_sync(_current)


async def ensure_schema(engine: AsyncEngine, url: str) -> None:
    """SQLite is upgraded on first use (under its lock: see :func:`upgrade`); PostgreSQL must already be at the
    latest schema."""
    if is_sqlite(url):
        if await current_revision(engine) != head_revision():
            await upgrade(engine)  # checks again under the lock: a process that upgraded first leaves nothing to do
        return
    current = await current_revision(engine)
    if current != head_revision():
        state = "has no referee tables yet" if current is None else f"is at schema {current}, not {head_revision()}"
        raise StorageError(
            f"{upper_first(where(url))} {state}: run 'referee db upgrade' once.",
            Fault.SCHEMA,
        )


__all__ = [  # DEFAULT_URL and StorageError live in bot.storage.failures (no SQLAlchemy) and are re-exported here
    "DEFAULT_URL", "MIGRATIONS", "SUPPORTED", "StorageError", "alembic_config", "aware", "create_engine",
    "current_revision", "database_url", "dispose_after_failure", "ensure_schema", "head_revision", "is_sqlite",
    "now", "rowcount", "sqlite_upgrade_lock", "upgrade", "with_driver",
]  # fmt: skip
