"""Migrations: an empty database goes to head on both backends, and the models match the migrations exactly."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex

from bot.storage import StorageError, Store
from bot.storage.db import create_engine, current_revision, head_revision, is_sqlite, upgrade
from bot.storage.models import Base


async def test_an_empty_database_migrates_to_head_with_no_pending_model_changes(empty_url: str) -> None:
    engine = create_engine(empty_url)
    try:
        assert await current_revision(engine) is None
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
        async with engine.connect() as connection:
            diff = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
            tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
        assert diff == [], f"the models differ from the migrations: {diff}"
        assert {"combat_records", "record_events", "rosters", "alembic_version"} <= tables
        await upgrade(engine)  # upgrading again is a no-op
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_sqlite_upgrades_itself_and_postgresql_asks_for_the_command(empty_url: str) -> None:
    if is_sqlite(empty_url):
        store = await Store.open(empty_url)
        await store.close()
        engine = create_engine(empty_url)
        assert await current_revision(engine) == head_revision()
        await engine.dispose()
    else:
        with pytest.raises(StorageError, match="referee db upgrade"):
            await Store.open(empty_url)


def test_a_bad_url_is_a_clear_error() -> None:
    with pytest.raises(StorageError, match="supports"):
        create_engine("mysql+pymysql://x@y/z")
    with pytest.raises(StorageError, match="not a database URL"):
        create_engine("not a url")


def test_a_postgresql_engine_gives_the_models_their_partial_index() -> None:
    """The one-pending-match index is partial on both backends: PostgreSQL's option is added with its engine (so
    that SQLite never loads that dialect) and the table's DDL then says WHERE, as migration 0004 does."""
    index = next(
        i for i in Base.metadata.tables["league_matches"].indexes if i.name == "uq_league_matches_one_pending_per_pair"
    )
    engine = create_engine("postgresql+asyncpg://referee:secret@127.0.0.1:1/referee")  # never connects
    sql = str(CreateIndex(index).compile(dialect=postgresql.dialect()))
    assert sql.endswith("WHERE status = 'pending'"), sql
    assert engine.dialect.name == "postgresql"
