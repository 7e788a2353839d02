"""Server settings and players' preferences (``store.settings``): the rows, and their audit.

Every write is one transaction that changes the row and appends its ``settings_changes`` row (who, when, the value
before and after as JSON; None: unset), so the audit never misses a change and never holds one that did not happen.
Setting a value a row already holds, or clearing one that is not set, changes nothing and records nothing (None is
returned). The audit's highest id is the settings' version: bot processes poll it to keep their caches correct
(bot/server_settings/cache.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.server_settings.model import ERASED, SCOPES, SERVER, USER, Change, SettingRow
from bot.storage.db import aware, now
from bot.storage.models import SettingChange, SettingValue

HISTORY_LIMIT = 100  # changes at most in one page of the history


def dumped(value: Any) -> str:
    """A value as stored: JSON, keys sorted, so the same value is always the same text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _loaded(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _row(row: SettingValue) -> SettingRow:
    return SettingRow(row.scope, row.scope_id, row.guild_id, row.key, json.loads(row.value_json))


def change_of(row: SettingChange) -> Change:
    return Change(
        id=row.id,
        scope=row.scope,
        scope_id=row.scope_id,
        guild_id=row.guild_id,
        key=row.key,
        before=_loaded(row.before_json),
        after=_loaded(row.after_json),
        actor=row.actor,
        at=aware(row.created_at),
    )


def _checked(scope: str, scope_id: str, guild_id: str | None) -> None:
    if scope not in SCOPES:
        raise ValueError(f"a setting's scope is one of {', '.join(SCOPES)}, not {scope!r}")
    if (scope == USER) != (guild_id is None):
        raise ValueError("a user's preference belongs to no server; every other setting belongs to one")
    if not scope_id:
        raise ValueError("a setting belongs to a server, a channel or a user: its id is missing")


def erased_marker() -> SettingChange:
    """The audit row a privacy deletion adds: it names nobody and no server; the version moves, and every process's
    cache reloads everything (it cannot tell what went)."""
    return SettingChange(scope=SERVER, scope_id=ERASED, guild_id=None, key=ERASED, before_json=None,
                         after_json=None, actor=ERASED, created_at=now())  # fmt: skip


def _change_dict(change: Change) -> dict[str, Any]:
    return {"id": change.id, "scope": change.scope, "scope_id": change.scope_id, "guild_id": change.guild_id,
            "key": change.key, "before": change.before, "after": change.after, "actor": change.actor,
            "at": change.at.isoformat()}  # fmt: skip


def change_from_dict(entry: dict[str, Any]) -> Change:
    """A change as an export holds it, read back."""
    return Change(entry["id"], entry["scope"], entry["scope_id"], entry["guild_id"], entry["key"], entry["before"],
                  entry["after"], entry["actor"], datetime.fromisoformat(entry["at"]))  # fmt: skip


async def settings_export(session: AsyncSession, *, user: str | None, guild: str | None) -> dict[str, Any]:
    """For a privacy export: a user's preferences and every settings change they made (their preferences' and any
    server's); or a server's settings and their whole audit."""
    if user is not None:
        rows = select(SettingValue).where(SettingValue.scope == USER, SettingValue.scope_id == user)
        changes = select(SettingChange).where(SettingChange.actor == user)
        name = "preferences"
    else:
        rows = select(SettingValue).where(SettingValue.guild_id == guild)
        changes = select(SettingChange).where(SettingChange.guild_id == guild)
        name = "settings"
    found = (await session.scalars(rows.order_by(SettingValue.id))).all()
    audit = (await session.scalars(changes.order_by(SettingChange.id))).all()
    listed = [
        {"scope": row.scope, "scope_id": row.scope_id, "guild_id": row.guild_id, "key": row.key,
         "value": json.loads(row.value_json), "updated_by": row.updated_by,
         "updated_at": aware(row.updated_at).isoformat()}
        for row in found
    ]  # fmt: skip
    return {
        name: listed,
        "settings_changes": [_change_dict(change_of(row)) for row in audit],
    }


class Settings:
    """The settings of one store (``store.settings``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def version(self) -> int:
        """The highest id of the audit (0: no change ever): one look-up of the primary key's index."""
        async with self.sessions() as session:
            return int(await session.scalar(select(func.max(SettingChange.id))) or 0)

    async def all_rows(self) -> tuple[list[SettingRow], int]:
        """Every setting and preference, and the version they are at (read in one transaction)."""
        async with self.sessions.begin() as session:
            version = int(await session.scalar(select(func.max(SettingChange.id))) or 0)
            rows = (await session.scalars(select(SettingValue).order_by(SettingValue.id))).all()
            return [_row(row) for row in rows], version

    async def rows_for_guild(self, guild_id: str) -> list[SettingRow]:
        """A server's settings: its own and its channels'."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(SettingValue).where(SettingValue.guild_id == guild_id).order_by(SettingValue.id)
            )
            return [_row(row) for row in rows.all()]

    async def rows_for_user(self, user_id: str) -> list[SettingRow]:
        """A player's preferences."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(SettingValue)
                .where(SettingValue.scope == USER, SettingValue.scope_id == user_id)
                .order_by(SettingValue.id)
            )
            return [_row(row) for row in rows.all()]

    async def set(  # noqa: PLR0917 (a setting is named by these five, in this order, everywhere)
        self, scope: str, scope_id: str, guild_id: str | None, key: str, value: Any, actor: str,
        *, at: datetime | None = None,
    ) -> Change | None:  # fmt: skip
        """Set one setting; the change as audited, or None when it already had that value."""
        if value is None:
            raise ValueError("a setting is cleared with clear(), never set to None")
        return await self._write(scope, scope_id, guild_id, key, value, actor, at)

    async def clear(
        self, scope: str, scope_id: str, guild_id: str | None, key: str, actor: str, *, at: datetime | None = None
    ) -> Change | None:
        """Unset one setting; the change as audited, or None when it was not set."""
        return await self._write(scope, scope_id, guild_id, key, None, actor, at)

    async def clear_all(self, scope: str, scope_id: str, guild_id: str | None, actor: str) -> list[Change]:
        """Unset every setting of one scope (a player's preferences, say), each change audited, in one transaction."""
        _checked(scope, scope_id, guild_id)
        moment = now()
        async with self.sessions.begin() as session:
            rows = (
                await session.scalars(
                    select(SettingValue)
                    .where(SettingValue.scope == scope, SettingValue.scope_id == scope_id)
                    .order_by(SettingValue.id)
                )
            ).all()
            audit = []
            for row in rows:
                audit.append(self._audit(row.scope, row.scope_id, row.guild_id, row.key, row.value_json, None,
                                         actor, moment))  # fmt: skip
                await session.delete(row)
            session.add_all(audit)
            await session.flush()
            return [change_of(row) for row in audit]

    async def _write(  # noqa: PLR0917
        self, scope: str, scope_id: str, guild_id: str | None, key: str, value: Any, actor: str, at: datetime | None
    ) -> Change | None:
        _checked(scope, scope_id, guild_id)
        try:
            return await self._write_once(scope, scope_id, guild_id, key, value, actor, at)
        except IntegrityError:
            # Another process inserted the same new setting between this one's read and its insert (the unique
            # constraint): read again, now an update (or no change), once.
            return await self._write_once(scope, scope_id, guild_id, key, value, actor, at)

    async def _write_once(  # noqa: PLR0917
        self, scope: str, scope_id: str, guild_id: str | None, key: str, value: Any, actor: str, at: datetime | None
    ) -> Change | None:
        moment = at or now()
        after = None if value is None else dumped(value)
        async with self.sessions.begin() as session:
            row = await session.scalar(
                select(SettingValue).where(
                    SettingValue.scope == scope, SettingValue.scope_id == scope_id, SettingValue.key == key
                )
            )
            before = None if row is None else row.value_json
            if before == after:
                return None
            if row is None:
                session.add(SettingValue(scope=scope, scope_id=scope_id, guild_id=guild_id, key=key,
                                         value_json=after, updated_by=actor, updated_at=moment))  # fmt: skip
            elif after is None:
                await session.delete(row)
            else:
                row.value_json, row.updated_by, row.updated_at = after, actor, moment
            audit = self._audit(scope, scope_id, guild_id, key, before, after, actor, moment)
            session.add(audit)
            await session.flush()
            return change_of(audit)

    @staticmethod
    def _audit(  # noqa: PLR0917
        scope: str, scope_id: str, guild_id: str | None, key: str, before: str | None, after: str | None, actor: str,
        at: datetime,
    ) -> SettingChange:  # fmt: skip
        return SettingChange(scope=scope, scope_id=scope_id, guild_id=guild_id, key=key, before_json=before,
                             after_json=after, actor=actor, created_at=at)  # fmt: skip

    async def history(
        self, guild_id: str, *, limit: int = 20, before_id: int | None = None, offset: int = 0
    ) -> list[Change]:
        """A server's changes (its own settings and its channels'), newest first; ``before_id`` (the last id of the
        page before) or ``offset`` (a page's number times its size) pages on."""
        query = select(SettingChange).where(SettingChange.guild_id == guild_id)
        if before_id is not None:
            query = query.where(SettingChange.id < before_id)
        async with self.sessions() as session:
            rows = await session.scalars(
                query.order_by(SettingChange.id.desc()).offset(offset).limit(min(limit, HISTORY_LIMIT))
            )
            return [change_of(row) for row in rows.all()]

    async def all_history(self, guild_id: str) -> list[Change]:
        """A server's whole audit, oldest first (the CLI's export)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(SettingChange).where(SettingChange.guild_id == guild_id).order_by(SettingChange.id)
            )
            return [change_of(row) for row in rows.all()]

    async def export(self, guild_id: str) -> dict[str, Any]:
        """A server's settings and its whole audit, oldest first, as plain JSON values (the CLI's export)."""
        async with self.sessions() as session:
            return await settings_export(session, user=None, guild=guild_id)

    async def count_history(self, guild_id: str) -> int:
        async with self.sessions() as session:
            found = await session.scalar(select(func.count()).where(SettingChange.guild_id == guild_id))
            return int(found or 0)

    async def ids_between(self, low: int, high: int) -> frozenset[int]:
        """The audit ids in ``low < id <= high`` (a range of the primary key): those missing may still commit."""
        async with self.sessions() as session:
            found = await session.scalars(select(SettingChange.id).where(SettingChange.id > low,
                                                                         SettingChange.id <= high))  # fmt: skip
            return frozenset(found.all())

    async def changes_since(self, version: int, *, also: Iterable[int] = ()) -> list[Change]:
        """The changes after ``version`` (and those of the ids in ``also``: changes a poll saw missing, which a
        transaction that began earlier may commit late), oldest first. With nothing new this is one range look-up
        of the primary key that finds no row."""
        missing: Sequence[int] = sorted(set(also))
        condition = SettingChange.id > version
        if missing:
            condition = or_(condition, SettingChange.id.in_(missing))
        async with self.sessions() as session:
            rows = await session.scalars(select(SettingChange).where(condition).order_by(SettingChange.id))
            return [change_of(row) for row in rows.all()]


__all__ = ["HISTORY_LIMIT", "Settings", "change_from_dict", "change_of", "dumped", "erased_marker", "settings_export"]
