"""Storage: one async store on SQLite (default) or PostgreSQL, one module per aggregate.

``db`` (URL, engine, migrations), ``models`` (the tables), ``records``, ``rosters``, ``leagues`` and ``matches``
(the league domain's queries, sharing ``league_rows``), ``privacy`` (export and deletion across all of them),
``store`` (the :class:`Store` that composes them) and ``failures`` (any storage failure as one sentence).

Importing the package is light: :class:`StorageError` comes from ``failures`` (no SQLAlchemy), and ``Store`` is
imported only when first asked for, so a command that never opens the database never loads SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bot.access import LOCAL_USER
from bot.storage.failures import StorageError

if TYPE_CHECKING:
    from bot.storage.store import Store


def __getattr__(name: str) -> Any:
    if name == "Store":
        return importlib.import_module("bot.storage.store").Store
    raise AttributeError(f"module 'bot.storage' has no attribute {name!r}")


__all__ = ["LOCAL_USER", "StorageError", "Store"]
