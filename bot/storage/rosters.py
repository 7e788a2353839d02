"""Saved rosters: one per owner, game and name, private or shared with a guild."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.storage.db import aware, now
from bot.storage.models import Roster
from rules_core.errors import Do, Hint, RefereeError
from rules_core.spec import closest


class RosterNotFound(RefereeError, LookupError):
    pass


class RosterExists(RefereeError, ValueError):
    pass


@dataclass(frozen=True, slots=True)
class RosterInput:
    """A roster to save: already checked by its game's parser (bot.rosters does that)."""

    game: str
    name: str
    spec: str
    description: str = ""
    unit_names: tuple[str, ...] = ()  # the units' own names, in order (an imported list's), or none


@dataclass(frozen=True, slots=True)
class SavedRoster:
    owner: str
    game: str
    name: str
    spec: str
    description: str
    guild_id: str | None
    created_at: datetime
    updated_at: datetime
    unit_names: tuple[str, ...] = ()


def _saved(row: Roster) -> SavedRoster:
    return SavedRoster(
        row.owner,
        row.game,
        row.name,
        row.spec,
        row.description,
        row.guild_id,
        aware(row.created_at),
        aware(row.updated_at),
        tuple(row.unit_names.split()),
    )


def _visible(owner: str, guild_id: str | None) -> ColumnElement[bool]:
    """The rosters ``owner`` may use: their own, and those shared with ``guild_id``."""
    return Roster.owner == owner if guild_id is None else (Roster.owner == owner) | (Roster.guild_id == guild_id)


async def _near(session: AsyncSession, visible: ColumnElement[bool], game: str, name: str) -> str:
    """`` Did you mean @marines?`` for ``marine``: the one roster of ``game`` whose name is surely meant, or ''."""
    names = await session.scalars(select(Roster.name).where(visible, Roster.game == game).distinct())
    found = closest(name, names.all())
    return "" if found is None else f" Did you mean @{found}?"


async def _save_in(
    session: AsyncSession, owner: str, roster: RosterInput, *, guild_id: str | None, at: datetime, replace: bool
) -> Roster:
    existing = await session.scalar(
        select(Roster).where(Roster.owner == owner, Roster.game == roster.game, Roster.name == roster.name)
    )
    if existing is not None:
        if not replace:
            raise RosterExists(f"You already have a {roster.game} roster named '{roster.name}'.")
        existing.spec, existing.description, existing.guild_id, existing.updated_at = (
            roster.spec,
            roster.description,
            guild_id,
            at,
        )
        existing.unit_names = " ".join(roster.unit_names)
        return existing
    row = Roster(
        owner=owner,
        game=roster.game,
        name=roster.name,
        spec=roster.spec,
        description=roster.description,
        unit_names=" ".join(roster.unit_names),
        guild_id=guild_id,
        created_at=at,
        updated_at=at,
    )
    session.add(row)
    return row


class Rosters:
    """The saved rosters of one store (``store.rosters``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def save(
        self,
        owner: str,
        roster: RosterInput,
        *,
        guild_id: str | None = None,
        replace: bool = True,
        at: datetime | None = None,
    ) -> SavedRoster:
        """Save (or, with ``replace``, overwrite) one roster; ``guild_id`` shares it with that guild."""
        async with self.sessions.begin() as session:
            row = await _save_in(session, owner, roster, guild_id=guild_id, at=at or now(), replace=replace)
            await session.flush()
            return _saved(row)

    async def save_many(
        self, owner: str, rosters: Sequence[RosterInput], *, replace: bool = False, at: datetime | None = None
    ) -> list[SavedRoster]:
        """Save several rosters (an import) in one transaction: all of them, or (on any failure) none."""
        moment = at or now()
        async with self.sessions.begin() as session:
            rows = [
                await _save_in(session, owner, roster, guild_id=None, at=moment, replace=replace) for roster in rosters
            ]
            await session.flush()
            return [_saved(row) for row in rows]

    async def get(self, owner: str, game: str, name: str, *, guild_id: str | None = None) -> SavedRoster:
        """The owner's roster of that name, else one shared with ``guild_id``."""
        async with self.sessions() as session:
            row = await session.scalar(
                select(Roster).where(Roster.owner == owner, Roster.game == game, Roster.name == name)
            )
            if row is None and guild_id is not None:
                row = await session.scalar(
                    select(Roster)
                    .where(Roster.guild_id == guild_id, Roster.game == game, Roster.name == name)
                    .order_by(Roster.id)
                    .limit(1)
                )
            near = "" if row is not None else await _near(session, _visible(owner, guild_id), game, name)
        if row is None:
            raise RosterNotFound(f"There is no {game} roster named '{name}'.{near}", hint=Hint(Do.LIST_ROSTERS, game))
        return _saved(row)

    async def visible_to(
        self, owner: str, *, game: str | None = None, guild_id: str | None = None
    ) -> list[SavedRoster]:
        """The owner's rosters, and those shared with ``guild_id``, by game then name."""
        query = select(Roster).where(_visible(owner, guild_id))
        if game is not None:
            query = query.where(Roster.game == game)
        async with self.sessions() as session:
            rows = (await session.scalars(query.order_by(Roster.game, Roster.name, Roster.id))).all()
        return [_saved(row) for row in rows]

    async def delete(self, owner: str, game: str, name: str) -> None:
        async with self.sessions.begin() as session:
            row = await session.scalar(
                select(Roster).where(Roster.owner == owner, Roster.game == game, Roster.name == name)
            )
            if row is None:
                near = await _near(session, Roster.owner == owner, game, name)
                raise RosterNotFound(
                    f"You have no {game} roster named '{name}'.{near}", hint=Hint(Do.LIST_ROSTERS, game)
                )
            await session.delete(row)


__all__ = ["RosterExists", "RosterInput", "RosterNotFound", "Rosters", "SavedRoster"]
