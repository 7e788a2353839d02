"""Storage: one async store on SQLite (default) or PostgreSQL, one module per aggregate.

``db`` (URL, engine, migrations), ``models`` (the tables), ``records``, ``rosters``, ``leagues`` and ``matches``
(the league domain's queries, sharing ``league_rows``), ``privacy`` (export and deletion across all of them) and
``store`` (the :class:`Store` that composes them).
"""

from bot.storage.db import StorageError
from bot.storage.store import LOCAL_USER, Store

__all__ = ["LOCAL_USER", "StorageError", "Store"]
