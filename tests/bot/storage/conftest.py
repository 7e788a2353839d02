"""The storage tests run on both backends: a SQLite file, and the real PostgreSQL server of TEST_DATABASE_URL.

Without TEST_DATABASE_URL the PostgreSQL half is skipped with its reason (README: "Running the PostgreSQL tests");
.ci/run starts a server and sets it, so CI always runs both.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage import Store
from bot.storage.db import create_engine, upgrade
from bot.storage.models import Base

BACKENDS = ("sqlite", "postgresql")
NO_SERVER = "TEST_DATABASE_URL is not set: the PostgreSQL storage tests need a server (see the README)"


async def reset_postgresql(url: str) -> None:
    """An empty database: every referee table and the migration marker dropped."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(Base.metadata.drop_all)
            await connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        await engine.dispose()


async def empty_and_migrate(url: str) -> None:
    """The PostgreSQL database at ``url`` emptied, then migrated to the head as production is (`referee db upgrade`):
    the tests' and the benches' (bench/bench_scale.py, bench/bench_challenges.py)."""
    await reset_postgresql(url)
    engine = create_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


async def migrated_postgresql() -> str:
    """TEST_DATABASE_URL emptied and migrated to the head, as production runs it (`referee db upgrade` first); the
    test is skipped, with the reason, when it is unset."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.skip(NO_SERVER)
    await empty_and_migrate(url)
    return url


@pytest.fixture(params=BACKENDS)
async def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(NO_SERVER)
    await reset_postgresql(url)
    return url


@pytest.fixture
async def store_url(empty_url: str) -> str:
    """A database at the latest schema on each backend (PostgreSQL is upgraded explicitly, as in production)."""
    engine = create_engine(empty_url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()
    return empty_url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(store_url)
    try:
        yield opened
    finally:
        await opened.close()
