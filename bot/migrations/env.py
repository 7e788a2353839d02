"""Alembic's environment: migrations run on the connection the store hands in (bot.storage.db.upgrade)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.storage.db import create_engine, database_url
from bot.storage.models import Base

target_metadata = Base.metadata


def run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_with_own_engine() -> None:
    # Only when the alembic command line runs this file directly: the referee always passes its connection.
    engine = create_engine(database_url())
    async with engine.begin() as connection:
        await connection.run_sync(run_on)
    await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_on(connection)
else:
    asyncio.run(run_with_own_engine())
