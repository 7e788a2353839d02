"""Where the store lives: the database URL, the async engine, migrations (Alembic, shipped inside `bot`), the clock.

SQLite (aiosqlite) is the default: a file ``referee.db`` in the working directory, in WAL mode with foreign keys
on, upgraded to the latest schema automatically on first use. PostgreSQL (asyncpg) is used when ``DATABASE_URL``
is ``postgresql+asyncpg://...``; it is upgraded only by ``referee db upgrade``, so that several processes never
race to migrate it.

Alembic is imported only to migrate: opening a database already at the latest schema reads its revision with one
query and compares it with ``HEAD_REVISION`` (quick rulings start fast).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, CursorResult, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_URL = "sqlite+aiosqlite:///referee.db"
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
SUPPORTED = ("sqlite+aiosqlite", "postgresql+asyncpg")
HEAD_REVISION = "0005"  # the newest migration; tests/bot/test_cli_imports.py checks it is Alembic's head


class StorageError(Exception):
    """The store cannot be used as configured (a bad URL, a schema that needs upgrading, a server down)."""


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
    """``DATABASE_URL`` when set, else the SQLite file in the working directory."""
    env = os.environ if environ is None else environ
    return env.get("DATABASE_URL") or DEFAULT_URL


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def create_engine(url: str) -> AsyncEngine:
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise StorageError(f"DATABASE_URL is not a database URL: {error}. Example: {DEFAULT_URL}") from None
    if parsed.drivername not in SUPPORTED:
        raise StorageError(
            f"DATABASE_URL uses '{parsed.drivername}'; the referee supports {' and '.join(SUPPORTED)}. "
            "Example: postgresql+asyncpg://referee:secret@localhost:5432/referee"
        )
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


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
    """Migrate the database to the latest schema (creating it when empty)."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as connection:
        return await connection.run_sync(_current)


async def ensure_schema(engine: AsyncEngine, url: str) -> None:
    """SQLite is upgraded on first use; PostgreSQL must already be at the latest schema."""
    if is_sqlite(url):
        if await current_revision(engine) != head_revision():
            await upgrade(engine)
        return
    current = await current_revision(engine)
    if current != head_revision():
        state = "has no referee tables yet" if current is None else f"is at schema {current}, not {head_revision()}"
        raise StorageError(
            f"The PostgreSQL database {state}: run 'referee db upgrade' once (one process, not several)."
        )
