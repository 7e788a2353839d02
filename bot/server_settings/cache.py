"""Every server's settings and every player's preferences in the bot's memory, so a combat's first answer never
waits on a settings query.

The cache is filled once when the bot starts (``load``: one query for all settings) and kept correct by
``refresh``: the process that changes a setting updates its own cache at once; every process polls the highest id
of the settings' audit (``settings_changes``), one indexed query a second in the background, and reloads the
servers and users whose rows changed. Several processes serving one database therefore agree within a second.
(Chosen over PostgreSQL's LISTEN/NOTIFY: it works the same on SQLite and PostgreSQL, needs no connection held
open, and a missed notification cannot leave a cache wrong for ever.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.server_settings.model import (
    ERASED,
    NOTHING,
    USER,
    Change,
    Effective,
    Preferences,
    SettingRow,
    effective,
    preferences,
)

if TYPE_CHECKING:
    from bot.storage import Store

log = logging.getLogger("referee.settings")
POLL_SECONDS = 1.0  # how often a process looks for other processes' changes
GAP_SECONDS = 30.0  # how long an audit id seen missing is looked for (a transaction that committed after a later one)
LOAD_GAPS = 100  # at a load, the ids this far below the version that are missing are looked for as gaps


class SettingsCache:
    def __init__(self) -> None:
        self.guilds: dict[str, list[SettingRow]] = {}  # a server's rows (its own and its channels')
        self.users: dict[str, Preferences] = {}
        self.version = 0  # the highest settings_changes id seen
        self._effective: dict[tuple[str, str | None], Effective] = {}
        self._user_rows: dict[str, list[SettingRow]] = {}
        # Audit ids below ``version`` not seen yet, with when they were first missed: on PostgreSQL a transaction
        # can take its id before another and commit after it; a rolled-back one leaves its id unused for ever.
        self._gaps: dict[int, float] = {}
        self._failing = False

    def effective(self, guild_id: str | None, channel_id: str | None) -> Effective:
        """What applies to a command in ``channel_id`` of ``guild_id`` (None: a direct message, nothing)."""
        if guild_id is None:
            return NOTHING
        rows = self.guilds.get(guild_id)
        if not rows:
            return NOTHING
        key = (guild_id, channel_id)
        found = self._effective.get(key)
        if found is None:
            found = self._effective[key] = effective(rows, channel_id)
        return found

    def preferences(self, user_id: str) -> Preferences:
        return self.users.get(user_id) or Preferences()

    def replace_guild(self, guild_id: str, rows: Iterable[SettingRow]) -> None:
        """A server's rows as now stored (all of them: its own and its channels')."""
        kept = list(rows)
        if kept:
            self.guilds[guild_id] = kept
        else:
            self.guilds.pop(guild_id, None)
        for key in [key for key in self._effective if key[0] == guild_id]:
            del self._effective[key]

    def replace_user(self, user_id: str, rows: Iterable[SettingRow]) -> None:
        """A user's preference rows as now stored (none: forgotten)."""
        kept = [row for row in rows if row.scope == USER]
        if kept:
            self.users[user_id] = preferences(kept)
            self._user_rows[user_id] = kept
        else:
            self.users.pop(user_id, None)
            self._user_rows.pop(user_id, None)

    def replace_all(self, rows: Iterable[SettingRow], version: int) -> None:
        """Everything, as loaded at start."""
        guilds: dict[str, list[SettingRow]] = {}
        users: dict[str, list[SettingRow]] = {}
        for row in rows:
            if row.scope == USER:
                users.setdefault(row.scope_id, []).append(row)
            elif row.guild_id is not None:
                guilds.setdefault(row.guild_id, []).append(row)
        self.guilds = guilds
        self.users = {user: preferences(kept) for user, kept in users.items()}
        self._user_rows = users
        self._effective.clear()
        self._gaps.clear()
        self.version = version

    def apply(self, change: Change) -> None:
        """One change this process just made, applied at once (no query): the next poll reloads its server or user
        from the database all the same, which makes the two agree whatever else happened meanwhile."""
        row = None if change.after is None else SettingRow(change.scope, change.scope_id, change.guild_id,
                                                           change.key, change.after)  # fmt: skip
        same = (change.scope, change.scope_id, change.key)
        if change.scope == USER:
            kept = [r for r in self._user_rows.get(change.scope_id, []) if (r.scope, r.scope_id, r.key) != same]
            self.replace_user(change.scope_id, [*kept, *([row] if row else [])])
        elif change.guild_id is not None:
            kept = [r for r in self.guilds.get(change.guild_id, []) if (r.scope, r.scope_id, r.key) != same]
            self.replace_guild(change.guild_id, [*kept, *([row] if row else [])])

    async def load(self, store: Store) -> None:
        """Everything, from the database (at start: one query for the rows, one for the version)."""
        rows, version = await store.settings.all_rows()
        self.replace_all(rows, version)
        await self._note_gaps(store, version)

    async def _note_gaps(self, store: Store, version: int) -> None:
        """The ids just below a loaded version that are missing: on PostgreSQL a write that took a lower id may
        commit just after the load; each is looked for by the refreshes (for ``GAP_SECONDS``) like a poll's gap."""
        low = max(0, version - LOAD_GAPS)
        present = await store.settings.ids_between(low, version)
        now = time.monotonic()
        for missing in range(low + 1, version):
            if missing not in present:
                self._gaps.setdefault(missing, now)

    async def refresh(self, store: Store) -> int:
        """Reload the servers and users whose settings changed since the last look; the number of changes found.

        With nothing new this is one query (the audit's ids above ``version``: a range of its primary key)."""
        now = time.monotonic()
        self._gaps = {gap: since for gap, since in self._gaps.items() if now - since < GAP_SECONDS}
        changes = await store.settings.changes_since(self.version, also=self._gaps)
        if not changes:
            return 0
        if any(change.key == ERASED for change in changes):  # a deletion: what went is not in the audit
            rows, version = await store.settings.all_rows()
            self.replace_all(rows, max(version, self.version))
            await self._note_gaps(store, self.version)
            return len(changes)
        guilds = {change.guild_id for change in changes if change.scope != USER and change.guild_id is not None}
        users = {change.scope_id for change in changes if change.scope == USER}
        for guild_id in sorted(guilds):
            self.replace_guild(guild_id, await store.settings.rows_for_guild(guild_id))
        for user_id in sorted(users):
            self.replace_user(user_id, await store.settings.rows_for_user(user_id))
        seen = {change.id for change in changes}
        for found in seen:
            self._gaps.pop(found, None)
        highest = max(seen)
        for missing in range(self.version + 1, highest):
            if missing not in seen:
                self._gaps[missing] = now
        self.version = max(self.version, highest)
        return len(changes)

    async def poll(self, store: Store, every: float = POLL_SECONDS) -> None:
        """Refresh for ever, every ``every`` seconds (the bot's background task). A failing refresh is logged once
        (and its recovery once) and tried again: the cache keeps what it had, never stops the bot."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.refresh(store)
            except Exception as error:
                if not self._failing:
                    # The database restarting is known and passes (the store's StorageError says so): one line;
                    # anything else keeps its traceback.
                    log.warning("the settings could not be refreshed (%s): kept as they were, tried again every %gs",
                                " ".join(str(error).split())[:300], every,
                                exc_info=None if getattr(error, "transient", False) else error)  # fmt: skip
                self._failing = True
            else:
                if self._failing:
                    log.info("the settings are refreshed again")
                self._failing = False


__all__ = ["GAP_SECONDS", "LOAD_GAPS", "POLL_SECONDS", "SettingsCache"]
