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

from collections.abc import Iterable

from bot.server_settings.model import (
    NOTHING,
    USER,
    Effective,
    Preferences,
    SettingRow,
    effective,
    preferences,
)


class SettingsCache:
    def __init__(self) -> None:
        self.guilds: dict[str, list[SettingRow]] = {}  # a server's rows (its own and its channels')
        self.users: dict[str, Preferences] = {}
        self.version = 0  # the highest settings_changes id seen
        self._effective: dict[tuple[str, str | None], Effective] = {}

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
        else:
            self.users.pop(user_id, None)

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
        self._effective.clear()
        self.version = version


__all__ = ["SettingsCache"]
