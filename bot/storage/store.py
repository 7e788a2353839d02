"""The store: one database, opened once, composed of its aggregates (records, rosters, leagues
and their matches, privacy).

Everything is async: one engine and one ``async_sessionmaker`` (``expire_on_commit=False``) per store, shared by
the aggregates. They return plain frozen values, never ORM objects, and each write is one transaction, so a
failure leaves nothing half-written. The leagues' aggregates (``leagues``, ``matches``, ``privacy``) and the league
domain they use are imported on first use: recording a combat from the terminal does not pay for them.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.access import LOCAL_USER
from bot.storage.db import create_engine, database_url, ensure_schema
from bot.storage.records import Records
from bot.storage.rosters import Rosters

if TYPE_CHECKING:
    from bot.storage.leagues import Leagues
    from bot.storage.matches import Matches
    from bot.storage.privacy import Privacy


class Store:
    """One database. Open it with :meth:`open` (which checks or upgrades the schema) and :meth:`close` it.

    ``store.records``, ``store.rosters``, ``store.leagues``, ``store.matches`` and ``store.privacy`` hold the
    operations.
    """

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.records = Records(engine, self.sessions)
        self.rosters = Rosters(self.sessions)

    @cached_property
    def leagues(self) -> Leagues:
        from bot.storage.leagues import Leagues  # noqa: PLC0415 (on first use: see the module's docstring)

        return Leagues(self.sessions)

    @cached_property
    def matches(self) -> Matches:
        from bot.storage.matches import Matches  # noqa: PLC0415

        return Matches(self.sessions)

    @cached_property
    def privacy(self) -> Privacy:
        from bot.storage.privacy import Privacy  # noqa: PLC0415

        return Privacy(self.sessions)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        chosen = url or database_url()
        engine = create_engine(chosen)
        try:
            await ensure_schema(engine, chosen)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine, chosen)

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


__all__ = ["LOCAL_USER", "Store"]
