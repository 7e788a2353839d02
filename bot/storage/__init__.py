"""Storage: combat records and rosters on SQLite (default) or PostgreSQL, behind one async store."""

from bot.storage.db import DEFAULT_URL, StorageError, database_url, upgrade
from bot.storage.store import (
    LOCAL_USER,
    AlreadyContinued,
    RecordNote,
    RecordNotFound,
    RecordSummary,
    Store,
    StoredCombat,
)

__all__ = [
    "DEFAULT_URL",
    "LOCAL_USER",
    "AlreadyContinued",
    "RecordNotFound",
    "RecordNote",
    "RecordSummary",
    "StorageError",
    "Store",
    "StoredCombat",
    "database_url",
    "upgrade",
]
