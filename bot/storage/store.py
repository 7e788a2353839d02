"""The store: one database, opened once, composed of its aggregates (records, rosters, leagues
and their matches, privacy).

Everything is async: one engine and one ``async_sessionmaker`` (``expire_on_commit=False``) per store, shared by
the aggregates. They return plain frozen values, never ORM objects, and each write is one transaction, so a
failure leaves nothing half-written. Whatever fails under them (the database, its driver, the disk, the network)
comes out of the store as one :class:`~bot.storage.failures.StorageError`, a sentence saying what failed and what
to do; only a unique-constraint conflict (``IntegrityError``, which callers resolve themselves) and the project's
own errors pass through as they are.
The leagues' aggregates (``leagues``, ``matches``, ``privacy``) and the league domain they use are imported
on first use: recording a combat from the terminal does not pay for them.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.access import LOCAL_USER
from bot.storage.db import create_engine, database_url, dispose_after_failure, ensure_schema, with_driver
from bot.storage.failures import is_storage_failure, storage_error
from bot.storage.records import Records
from bot.storage.rosters import Rosters

if TYPE_CHECKING:
    from bot.storage.challenges import Challenges
    from bot.storage.leagues import Leagues
    from bot.storage.matches import Matches
    from bot.storage.privacy import Privacy
    from bot.storage.settings import Settings

A = TypeVar("A")


class Store:
    """One database. Open it with :meth:`open` (which checks or upgrades the schema) and :meth:`close` it.

    ``store.records``, ``store.rosters``, ``store.leagues``, ``store.matches``, ``store.privacy`` and
    ``store.settings`` and ``store.challenges`` hold the operations.
    """

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.records = guarded(Records(engine, self.sessions), url)
        self.rosters = guarded(Rosters(self.sessions), url)

    @cached_property
    def leagues(self) -> Leagues:
        from bot.storage.leagues import Leagues  # noqa: PLC0415 (on first use: see the module's docstring)

        return guarded(Leagues(self.sessions), self.url)

    @cached_property
    def matches(self) -> Matches:
        from bot.storage.matches import Matches  # noqa: PLC0415

        return guarded(Matches(self.sessions), self.url)

    @cached_property
    def privacy(self) -> Privacy:
        from bot.storage.privacy import Privacy  # noqa: PLC0415

        return guarded(Privacy(self.sessions), self.url)

    @cached_property
    def challenges(self) -> Challenges:
        from bot.storage.challenges import Challenges  # noqa: PLC0415

        return guarded(Challenges(self.sessions), self.url)

    @cached_property
    def settings(self) -> Settings:
        from bot.storage.settings import Settings  # noqa: PLC0415

        return guarded(Settings(self.sessions), self.url)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        chosen = with_driver(url) if url else database_url()
        threads = set(threading.enumerate())
        engine = create_engine(chosen)
        try:
            await ensure_schema(engine, chosen)
        except BaseException as error:
            await dispose_after_failure(engine, threads)
            if isinstance(error, Exception) and is_storage_failure(error):
                raise storage_error(error, chosen) from error
            raise
        return cls(engine, chosen)

    async def close(self) -> None:
        try:
            await self.engine.dispose()
        except Exception as error:
            if is_storage_failure(error):
                raise storage_error(error, self.url) from error
            raise

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


class _Guarded:
    """An aggregate whose async operations raise :class:`StorageError` for any failure of the storage under them."""

    def __init__(self, inner: object, url: str) -> None:
        self._inner = inner
        self._url = url

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if not inspect.iscoroutinefunction(value):
            return value
        operation: Callable[..., Any] = value
        url = self._url

        @functools.wraps(operation)
        async def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return await operation(*args, **kwargs)
            except IntegrityError:
                raise  # a conflict the caller resolves (a name taken, a continuation already made)
            except Exception as error:
                if is_storage_failure(error):
                    raise storage_error(error, url) from error
                raise

        setattr(self, name, run)  # made once per operation
        return run


def guarded(aggregate: A, url: str) -> A:
    """``aggregate`` with every failure of the storage under it turned into one :class:`StorageError`."""
    return cast(A, _Guarded(aggregate, url))


__all__ = ["LOCAL_USER", "Store", "guarded"]
