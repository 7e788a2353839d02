"""Everything stored about one user or one guild, across records, rosters, dice rolls and leagues: exported, or
deleted, in one go."""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from bot.leagues.model import match_dict, pair_key
from bot.storage.db import aware, now, rowcount
from bot.storage.league_rows import match_info
from bot.storage.models import (
    CombatRecord,
    DiceRoll,
    League,
    LeagueEvent,
    LeagueMatch,
    LeagueOrganiser,
    LeaguePlayer,
    RecordEvent,
    Roster,
)

DELETED_USER = "deleted-user"


async def _change(session: AsyncSession, statement: Any) -> int:
    """Run a bulk DELETE or UPDATE; the number of rows it touched."""
    return rowcount(await session.execute(statement))


def _record_dict(row: CombatRecord) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "created_at": aware(row.created_at).isoformat(),
        "requested_by": row.requested_by,
        "opponent": row.opponent,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "report": json.loads(row.report_json),
        "history": [
            {"kind": e.kind, "actor": e.actor, "reason": e.reason, "at": aware(e.created_at).isoformat()}
            for e in row.events
        ],
    }


def _roster_dict(row: Roster) -> dict[str, Any]:
    return {
        "owner": row.owner,
        "game": row.game,
        "name": row.name,
        "description": row.description,
        "spec": row.spec,
        "shared_with_guild": row.guild_id,
        "created_at": aware(row.created_at).isoformat(),
        "updated_at": aware(row.updated_at).isoformat(),
    }


def _scope(user: str | None, guild: str | None) -> tuple[Any, Any]:
    if (user is None) == (guild is None):
        raise ValueError("give exactly one of a user or a guild")
    if user is not None:
        records = or_(CombatRecord.requested_by == user, CombatRecord.opponent == user)
        return records, Roster.owner == user
    return CombatRecord.guild_id == guild, Roster.guild_id == guild


class Privacy:
    """Exports and deletions of one store (``store.privacy``), each across every aggregate in one go."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def export(self, *, user: str | None = None, guild: str | None = None) -> dict[str, Any]:
        """Every record and roster of the user (records they asked for or were named in) or of the guild."""
        records_filter, rosters_filter = _scope(user, guild)
        async with self.sessions() as session:
            records = (
                await session.scalars(
                    select(CombatRecord)
                    .where(records_filter)
                    .options(selectinload(CombatRecord.events))
                    .order_by(CombatRecord.id)
                )
            ).all()
            rosters = (await session.scalars(select(Roster).where(rosters_filter).order_by(Roster.id))).all()
            rolls_filter = DiceRoll.requested_by == user if user is not None else DiceRoll.guild_id == guild
            rolls = (await session.scalars(select(DiceRoll).where(rolls_filter).order_by(DiceRoll.id))).all()
            leagues = await _league_export(session, user=user, guild=guild)
        return {
            "schema": "referee-data-export/1",
            "subject": {"user": user} if user is not None else {"guild": guild},
            "exported_at": now().isoformat(),
            "combat_records": [_record_dict(row) for row in records],
            "rosters": [_roster_dict(row) for row in rosters],
            "dice_rolls": [
                {
                    "id": r.id,
                    "expression": r.expression,
                    "result": r.result,
                    "total": r.total,
                    "guild_id": r.guild_id,
                    "created_at": aware(r.created_at).isoformat(),
                }
                for r in rolls
            ],
            **leagues,
        }

    async def delete(self, *, user: str | None = None, guild: str | None = None) -> dict[str, int]:
        """Delete a user's or a guild's data in one transaction; returns what was deleted or anonymised.

        A user: the records they asked for (with their history) and their rosters are deleted; where they were
        only the named opponent, or wrote a note, their id is replaced by ``deleted-user``. A guild: its records
        are deleted and rosters shared with it become private again (the rosters belong to their owners).
        """
        _scope(user, guild)
        async with self.sessions.begin() as session:
            if user is not None:
                mine = select(CombatRecord.id).where(CombatRecord.requested_by == user)
                events = await _change(session, delete(RecordEvent).where(RecordEvent.record_id.in_(mine)))
                records = await _change(session, delete(CombatRecord).where(CombatRecord.requested_by == user))
                named = await _change(
                    session, update(CombatRecord).where(CombatRecord.opponent == user).values(opponent=DELETED_USER)
                )
                notes = await _change(
                    session, update(RecordEvent).where(RecordEvent.actor == user).values(actor=DELETED_USER)
                )
                rosters = await _change(session, delete(Roster).where(Roster.owner == user))
                rolls = await _change(session, delete(DiceRoll).where(DiceRoll.requested_by == user))
                return {
                    "combat_records": records,
                    "record_notes": events,
                    "records_anonymised": named,
                    "notes_anonymised": notes,
                    "rosters": rosters,
                    "dice_rolls": rolls,
                    **await _league_forget_user(session, user),
                }
            theirs = select(CombatRecord.id).where(CombatRecord.guild_id == guild)
            events = await _change(session, delete(RecordEvent).where(RecordEvent.record_id.in_(theirs)))
            records = await _change(session, delete(CombatRecord).where(CombatRecord.guild_id == guild))
            unshared = await _change(session, update(Roster).where(Roster.guild_id == guild).values(guild_id=None))
            rolls = await _change(session, delete(DiceRoll).where(DiceRoll.guild_id == guild))
            leagues = await _change(session, delete(League).where(League.guild_id == guild))
            return {
                "combat_records": records,
                "record_notes": events,
                "rosters_unshared": unshared,
                "dice_rolls": rolls,
                "leagues": leagues,
            }


async def _league_export(session: AsyncSession, *, user: str | None, guild: str | None) -> dict[str, Any]:
    """A user's memberships, matches and audit events, or a guild's leagues with all of theirs."""
    if user is not None:
        match_filter: Any = (LeagueMatch.reporter_id == user) | (LeagueMatch.opponent_id == user)
        event_filter: Any = LeagueEvent.actor == user
        league_filter: Any = League.id.in_(select(LeaguePlayer.league_id).where(LeaguePlayer.user_id == user))
    else:
        league_filter = League.guild_id == guild
        ids = select(League.id).where(League.guild_id == guild)
        match_filter = LeagueMatch.league_id.in_(ids)
        event_filter = LeagueEvent.league_id.in_(ids)
    leagues = (await session.scalars(select(League).where(league_filter).order_by(League.id))).all()
    matches = (await session.scalars(select(LeagueMatch).where(match_filter).order_by(LeagueMatch.id))).all()
    events = (await session.scalars(select(LeagueEvent).where(event_filter).order_by(LeagueEvent.id))).all()
    return {
        "leagues": [
            {"id": row.id, "guild_id": row.guild_id, "name": row.name, "game": row.game, "season": row.season}
            for row in leagues
        ],
        "league_matches": [match_dict(match_info(row)) for row in matches],
        "league_events": [
            {
                "id": row.id,
                "league_id": row.league_id,
                "match_id": row.match_id,
                "kind": row.kind,
                "actor": row.actor,
                "reason": row.reason,
                "before": row.before_json,
                "after": row.after_json,
                "at": aware(row.created_at).isoformat(),
            }
            for row in events
        ],
    }


async def _league_forget_user(session: AsyncSession, user: str) -> dict[str, int]:
    """Replace a user's id everywhere in the leagues by a pseudonym of their own.

    Their games stay in their opponents' standings (deleting them would rewrite other people's results), but
    nothing left names them. One pseudonym per deleted user, so two deleted players never merge into one row.
    """
    alias = f"deleted-{secrets.token_hex(4)}"
    changed = 0
    for column in (LeagueMatch.reporter_id, LeagueMatch.opponent_id, LeagueMatch.created_by, LeagueMatch.decided_by):
        changed += rowcount(await session.execute(update(LeagueMatch).where(column == user).values({column: alias})))
    renamed = await session.execute(
        select(LeagueMatch.id, LeagueMatch.reporter_id, LeagueMatch.opponent_id).where(
            (LeagueMatch.reporter_id == alias) | (LeagueMatch.opponent_id == alias)
        )
    )
    for match_id, reporter, opponent in renamed.all():
        await session.execute(
            update(LeagueMatch).where(LeagueMatch.id == match_id).values(pair_key=pair_key(reporter, opponent))
        )
    for column in (LeagueEvent.before_json, LeagueEvent.after_json):
        await session.execute(
            update(LeagueEvent)
            .where(column.contains(f'"{user}"'))
            .values({column: func.replace(column, f'"{user}"', f'"{alias}"')})
        )
    await session.execute(
        update(LeagueEvent)
        .where(LeagueEvent.reason.contains(f"<@{user}>"))
        .values(reason=func.replace(LeagueEvent.reason, f"<@{user}>", alias))
    )
    events = rowcount(await session.execute(update(LeagueEvent).where(LeagueEvent.actor == user).values(actor=alias)))
    players = rowcount(
        await session.execute(update(LeaguePlayer).where(LeaguePlayer.user_id == user).values(user_id=alias))
    )
    await session.execute(delete(LeagueOrganiser).where(LeagueOrganiser.user_id == user))
    await session.execute(update(League).where(League.created_by == user).values(created_by=alias))
    await session.execute(update(League).values(version=League.version + 1))  # every cached table is stale
    return {"league_matches_anonymised": changed, "league_events_anonymised": events, "league_memberships": players}


__all__ = ["DELETED_USER", "Privacy"]
