"""The league tables' shared reads and writes, used by both league aggregates (leagues, matches): lookups that
raise the domain's not-found errors, a league or a match as the domain's value, the audit event every change
appends, and the version bump that makes cached standings stale."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Actor, sees_server_data
from bot.leagues import permissions
from bot.leagues.errors import LeagueNotFound, MatchNotFound
from bot.leagues.model import Agreement, LeagueInfo, MatchInfo
from bot.leagues.standings import Points, Row
from bot.seals import agreed_of, named_challenge, seal
from bot.storage.db import aware
from bot.storage.models import (
    CombatRecord,
    League,
    LeagueEvent,
    LeagueMatch,
    LeagueOrganiser,
    LeaguePlayer,
    LeagueSeason,
    LeagueSnapshot,
)
from bot.storage.seals import made_challenges
from rules_core.errors import Do, Hint


def match_info(row: LeagueMatch) -> MatchInfo:
    """A stored match as the domain's plain value."""
    return MatchInfo(
        id=row.id, league_id=row.league_id, season=row.season, reporter=row.reporter_id, opponent=row.opponent_id,
        result=row.result, score=row.score, combats=tuple(int(c) for c in row.combats.split(",") if c),
        notes=row.notes, status=row.status, source=row.source, created_by=row.created_by,
        created_at=aware(row.created_at), confirm_by=None if row.confirm_by is None else aware(row.confirm_by),
        decided_by=row.decided_by, decided_at=None if row.decided_at is None else aware(row.decided_at),
    )  # fmt: skip


def agreement(record_id: int, agreed_json: str, *, holds: bool = False) -> Agreement:
    """A record's ``agreed_json`` (bot/cli/challenges.py and the Discord challenges write it) as the domain's value;
    a value missing or of another type reads as None (an erased user's pseudonym is a string like any id).
    ``holds``: whether its dice hold to their commitment (:func:`agreements` checks it)."""
    data = agreed_of(agreed_json) or {}

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value else None

    return Agreement(
        record_id=record_id, challenge_id=named_challenge(agreed_json), challenger=text("challenger"),
        opponent=text("opponent"), challenger_ok_at=text("challenger_ok_at"), opponent_ok_at=text("opponent_ok_at"),
        by=text("by"), holds=holds,
    )  # fmt: skip


async def agreements(session: AsyncSession, record_ids: Iterable[int]) -> dict[int, Agreement]:
    """The agreements of those of ``record_ids`` that carry one (``agreed_json`` not null), by record id, each with
    whether its dice hold to the commitment made before they were rolled: the row's seed and salt hash to its
    commitment, its agreement keeps the same one, and the challenge it was resolved from holds the same seed, salt
    and commitment (bot/seals.py; a record whose commitment was removed or whose seed was changed does not hold).
    Which of them a league counts is :attr:`Agreement.counts`. The caller has checked that the records may be seen
    (or shows only the mark, never their contents)."""
    chosen = sorted(set(record_ids))
    if not chosen:
        return {}
    rows = (
        await session.execute(
            select(CombatRecord.id, CombatRecord.agreed_json, CombatRecord.seed, CombatRecord.salt,
                   CombatRecord.commitment).where(CombatRecord.id.in_(chosen), CombatRecord.agreed_json.is_not(None))
        )
    ).all()  # fmt: skip
    made = await made_challenges(session, {int(row.id): str(row.agreed_json) for row in rows})
    found: dict[int, Agreement] = {}
    for row in rows:
        record_id, agreed = int(row.id), str(row.agreed_json)
        sealed = seal(record_id=record_id, seed=int(row.seed), salt=row.salt, commitment=row.commitment,
                      agreed_json=agreed, made=made.get(record_id))  # fmt: skip
        found[record_id] = agreement(record_id, agreed, holds=sealed.holds)
    return found


async def league_info(session: AsyncSession, row: League) -> LeagueInfo:
    """A stored league as the domain's plain value, with its organisers, current players and season state."""
    organisers = (
        await session.scalars(
            select(LeagueOrganiser.user_id)
            .where(LeagueOrganiser.league_id == row.id)
            .order_by(LeagueOrganiser.added_at, LeagueOrganiser.user_id)
        )
    ).all()
    players = (
        await session.scalars(
            select(LeaguePlayer.user_id)
            .where(LeaguePlayer.league_id == row.id, LeaguePlayer.left_at.is_(None))
            .order_by(LeaguePlayer.joined_at, LeaguePlayer.user_id)
        )
    ).all()
    ended = await session.scalar(
        select(LeagueSeason.ended_at).where(LeagueSeason.league_id == row.id, LeagueSeason.number == row.season)
    )
    return LeagueInfo(
        id=row.id, guild_id=row.guild_id, name=row.name, game=row.game,
        points=Points(row.points_win, row.points_draw, row.points_loss), confirm_hours=row.confirm_hours,
        season=row.season, season_open=ended is None, version=row.version, created_by=row.created_by,
        created_at=aware(row.created_at), organisers=tuple(organisers), players=tuple(players),
        require_agreed=bool(row.require_agreed),
    )  # fmt: skip


async def league_row(session: AsyncSession, league_id: int, actor: Actor) -> League:
    """The league, if ``actor`` acts from its server (bot/access.py); else not found, as if there were none."""
    row = await session.get(League, league_id)
    if row is None or not sees_server_data(actor, row.guild_id):
        raise LeagueNotFound(f"There is no league #{league_id}.", hint=Hint(Do.LIST_LEAGUES))
    return row


async def match_row(session: AsyncSession, match_id: int, actor: Actor) -> LeagueMatch:
    """The match, if ``actor`` acts from its league's server; else not found, as if there were none."""
    row = await session.get(LeagueMatch, match_id)
    guild = None if row is None else await session.scalar(select(League.guild_id).where(League.id == row.league_id))
    if row is None or not sees_server_data(actor, guild):
        raise MatchNotFound(match_id)
    return row


def add_event(
    session: AsyncSession, league_id: int, kind: str, actor: str, at: datetime, *, match_id: int | None = None,
    reason: str = "", before: dict[str, Any] | None = None, after: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """Append a change to the league's audit log (in the change's own transaction)."""
    session.add(
        LeagueEvent(
            league_id=league_id,
            match_id=match_id,
            kind=kind,
            actor=actor,
            reason=reason,
            before_json=None if before is None else json.dumps(before, sort_keys=True),
            after_json=None if after is None else json.dumps(after, sort_keys=True),
            created_at=at,
        )
    )


async def bump(session: AsyncSession, league_id: int) -> None:
    """Move the league's version on: every cached table of it is stale."""
    await session.execute(update(League).where(League.id == league_id).values(version=League.version + 1))


async def is_organiser(session: AsyncSession, league_id: int, actor: Actor) -> bool:
    """Whether the actor may organise: a server manager, or on the league's list (looked up only then)."""
    return actor.manager or await session.get(LeagueOrganiser, (league_id, actor.user)) is not None


async def require_organiser(session: AsyncSession, league: League, actor: Actor, doing: str) -> None:
    organiser = await is_organiser(session, league.id, actor)
    permissions.require_organiser(actor, organiser=organiser, league_name=league.name, doing=doing)


class SnapshotsRead:
    """Standings snapshots already read in this process (a big league's table is a megabyte of JSON), the oldest
    dropped past ``size``. Keyed by (league, season, version, when saved): every change moves the version on (a
    user's deletion too), so an entry is never stale, only unused; the save time keeps a league id SQLite reuses
    after a deletion from ever reading as the deleted league's table. The rows are shared: read them, never change.
    """

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._rows: dict[tuple[int, int, int, datetime], tuple[Row, ...]] = {}

    async def rows(self, session: AsyncSession, league_id: int, season: int, version: int) -> tuple[Row, ...] | None:
        """The season's snapshot if it is of ``version``, else None."""
        where = (LeagueSnapshot.league_id == league_id, LeagueSnapshot.season == season)
        saved = (
            await session.execute(select(LeagueSnapshot.version, LeagueSnapshot.computed_at).where(*where))
        ).first()
        if saved is None or saved.version != version:
            return None
        key = (league_id, season, version, saved.computed_at)
        rows = self._rows.get(key)
        if rows is None:
            data = await session.scalar(select(LeagueSnapshot.data_json).where(*where))
            rows = tuple(Row.from_dict(item) for item in json.loads(data or "[]"))
            self._rows[key] = rows
            while len(self._rows) > self.size:
                self._rows.pop(next(iter(self._rows)))
        return rows


async def is_player(session: AsyncSession, league_id: int, user: str) -> bool:
    """Whether the user is in the league now (joined, and not left)."""
    row = await session.get(LeaguePlayer, (league_id, user))
    return row is not None and row.left_at is None


__all__ = [
    "SnapshotsRead",
    "add_event",
    "agreement",
    "agreements",
    "bump",
    "is_organiser",
    "is_player",
    "league_info",
    "league_row",
    "match_info",
    "match_row",
    "require_organiser",
]
