"""Leagues in the store: leagues, players, organisers, seasons, the audit log and the standings.

The rules (who may act, what input is valid) are the league domain's (``bot.leagues``); this module looks up the
facts they need, applies what they decide, and keeps the log: every change is one transaction that also appends
its audit event (who, when, the state before and after), so nothing changes silently. Matches are
``bot.storage.matches``. Standings are never stored as running totals: they are computed from the season's
confirmed matches (bot.leagues.standings) and cached by league version, which every change moves on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Actor, sees_server_data
from bot.leagues import rules
from bot.leagues.errors import LeagueError, LeagueNotFound, NotAllowed
from bot.leagues.model import AuditEntry, KnownName, LeagueInfo, Standings
from bot.leagues.standings import MatchResult, Points, Row, compute
from bot.storage.db import aware, now, rowcount
from bot.storage.league_rows import SnapshotsRead, add_event, bump, league_info, league_row, require_organiser
from bot.storage.models import (
    NAME,
    DisplayName,
    League,
    LeagueEvent,
    LeagueMatch,
    LeagueOrganiser,
    LeaguePlayer,
    LeagueSeason,
    LeagueSnapshot,
)
from rules_core.errors import Do, Hint, Mention


def _guild_scope(actor: Actor, guild_id: str | None) -> str | None:
    """The guild a lookup is limited to: the actor's own; the operator may name one, or none for all."""
    return guild_id if actor.operator else actor.guild


class Leagues:
    """The leagues of one store (``store.leagues``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        self._read = SnapshotsRead()

    # --- reading ------------------------------------------------------------------------------------------------

    async def get(self, league_id: int, *, actor: Actor) -> LeagueInfo:
        async with self.sessions() as session:
            return await league_info(session, await league_row(session, league_id, actor))

    async def find(self, reference: str, *, actor: Actor, guild_id: str | None = None) -> LeagueInfo:
        """A league by id ("7" or "#7") or by name, among those ``actor`` sees: their server's (the operator's:
        every guild's, or ``guild_id``'s)."""
        text = reference.strip().lstrip("#")
        guild = _guild_scope(actor, guild_id)
        async with self.sessions() as session:
            if (league_id := rules.league_id(text)) is not None:
                row = await session.get(League, league_id)
                found = [] if row is None else [row]
            else:
                query = select(League).where(League.name_key == " ".join(text.split()).casefold())
                found = list((await session.scalars(query.order_by(League.id))).all())
            rows = [r for r in found if sees_server_data(actor, r.guild_id) and guild in (None, r.guild_id)]
            if len(rows) > 1:
                raise LeagueError(
                    f"Several leagues are named {reference!r} ({', '.join(f'#{r.id}' for r in rows)}): give the id."
                )
            if not rows:
                raise LeagueNotFound(f"There is no league {reference!r} here.", hint=Hint(Do.LIST_LEAGUES))
            return await league_info(session, rows[0])

    async def all(self, *, actor: Actor, guild_id: str | None = None) -> list[LeagueInfo]:
        """Every league of the actor's server (the operator's: of every guild, or ``guild_id``'s), oldest first."""
        query = select(League).order_by(League.id)
        guild = _guild_scope(actor, guild_id)
        if guild is None and not actor.operator:
            return []  # a direct message: no server, no leagues
        if guild is not None:
            query = query.where(League.guild_id == guild)
        async with self.sessions() as session:
            return [await league_info(session, row) for row in (await session.scalars(query)).all()]

    async def audit(
        self, league_id: int, *, actor: Actor, match_id: int | None = None, limit: int = 50
    ) -> list[AuditEntry]:
        """The league's audit events, newest first."""
        query = select(LeagueEvent).where(LeagueEvent.league_id == league_id)
        if match_id is not None:
            query = query.where(LeagueEvent.match_id == match_id)
        query = query.order_by(LeagueEvent.id.desc()).limit(limit)
        async with self.sessions() as session:
            await league_row(session, league_id, actor)
            rows = (await session.scalars(query)).all()
        return [
            AuditEntry(
                id=row.id,
                league_id=row.league_id,
                match_id=row.match_id,
                kind=row.kind,
                actor=row.actor,
                reason=row.reason,
                before=None if row.before_json is None else json.loads(row.before_json),
                after=None if row.after_json is None else json.loads(row.after_json),
                at=aware(row.created_at),
            )
            for row in rows
        ]

    # --- leagues, players, organisers, seasons ------------------------------------------------------------------

    async def create(
        self, guild_id: str, name: str, game: str, *, actor: Actor, points: Points | None = None,
        confirm_hours: int = 72, require_agreed: bool = False, at: datetime | None = None,
    ) -> LeagueInfo:  # fmt: skip
        moment = at or now()
        if not sees_server_data(actor, guild_id):
            raise NotAllowed("A league is created from its own server.")
        cleaned = rules.check_name(name)
        game_id = rules.check_game(game)
        chosen = rules.check_points(points or Points())
        hours = rules.check_confirm_hours(confirm_hours)
        try:
            async with self.sessions.begin() as session:
                row = League(
                    guild_id=guild_id, name=cleaned, name_key=cleaned.casefold(), game=game_id,
                    points_win=chosen.win, points_draw=chosen.draw, points_loss=chosen.loss, confirm_hours=hours,
                    require_agreed=require_agreed, season=1, version=1, created_by=actor.user, created_at=moment,
                )  # fmt: skip
                session.add(row)
                await session.flush()
                session.add(LeagueOrganiser(league_id=row.id, user_id=actor.user, added_by=actor.user, added_at=moment))
                session.add(LeagueSeason(league_id=row.id, number=1, started_by=actor.user, started_at=moment))
                await session.flush()
                info = await league_info(session, row)
                add_event(session, row.id, "league-created", actor.user, moment, after={**info.settings(),
                            "game": game_id})  # fmt: skip
        except IntegrityError as error:
            raise LeagueError(f"This server already has a league named {cleaned!r}: pick another name.") from error
        return info

    async def join(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        user = actor.user
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            row = await session.get(LeaguePlayer, (league_id, user))
            if row is not None and row.left_at is None:
                raise LeagueError(f"You are already in {league.name}.")
            if row is None:
                session.add(LeaguePlayer(league_id=league_id, user_id=user, joined_at=moment))
            else:
                row.left_at = None  # back again: your past matches are still yours
            add_event(session, league_id, "joined", user, moment)
            await bump(session, league_id)
            await session.flush()
            return await league_info(session, league)

    async def leave(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        user = actor.user
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            row = await session.get(LeaguePlayer, (league_id, user))
            if row is None or row.left_at is not None:
                raise LeagueError(f"You are not in {league.name}.")
            row.left_at = moment
            add_event(session, league_id, "left", user, moment)
            await bump(session, league_id)
            await session.flush()
            return await league_info(session, league)

    async def update_settings(
        self, league_id: int, *, actor: Actor, points: Points | None = None, confirm_hours: int | None = None,
        name: str | None = None, require_agreed: bool | None = None, at: datetime | None = None,
    ) -> LeagueInfo:  # fmt: skip
        moment = at or now()
        try:
            async with self.sessions.begin() as session:
                league = await league_row(session, league_id, actor)
                await require_organiser(session, league, actor, "change its settings")
                before = (await league_info(session, league)).settings()
                if points is not None:
                    rules.check_points(points)
                    league.points_win, league.points_draw, league.points_loss = points.win, points.draw, points.loss
                if confirm_hours is not None:
                    league.confirm_hours = rules.check_confirm_hours(confirm_hours)
                if name is not None:
                    league.name = rules.check_name(name)
                    league.name_key = league.name.casefold()
                if require_agreed is not None:
                    league.require_agreed = require_agreed
                await session.flush()
                info = await league_info(session, league)
                add_event(session, league_id, "settings-changed", actor.user, moment, before=before,
                            after=info.settings())  # fmt: skip
                await bump(session, league_id)
        except IntegrityError as error:
            raise LeagueError(f"This server already has a league named {name!r}: pick another name.") from error
        return await self.get(league_id, actor=actor)

    async def add_organiser(self, league_id: int, user: str, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            await require_organiser(session, league, actor, "add organisers")
            if await session.get(LeagueOrganiser, (league_id, user)) is not None:
                raise LeagueError([Mention(user), f" already organises {league.name}."])
            session.add(LeagueOrganiser(league_id=league_id, user_id=user, added_by=actor.user, added_at=moment))
            add_event(session, league_id, "organiser-added", actor.user, moment, after={"organiser": user})
            await session.flush()
            return await league_info(session, league)

    async def start_season(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        """End the current season (if still open) and start the next: same players, fresh standings."""
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            await require_organiser(session, league, actor, "start a season")
            current = await session.get(LeagueSeason, (league_id, league.season))
            if current is not None and current.ended_at is None:
                current.ended_at, current.ended_by = moment, actor.user
            number = league.season + 1
            session.add(LeagueSeason(league_id=league_id, number=number, started_by=actor.user, started_at=moment))
            changed = await session.execute(
                update(League).where(League.id == league_id, League.season == league.season).values(season=number)
            )
            if rowcount(changed) != 1:
                raise LeagueError("Another organiser started a season at the same moment: look again.")
            add_event(session, league_id, "season-started", actor.user, moment, after={"season": number})
            await bump(session, league_id)
            await session.flush()
            await session.refresh(league)
            return await league_info(session, league)

    async def end_season(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            await require_organiser(session, league, actor, "end a season")
            ended = await session.execute(
                update(LeagueSeason)
                .where(
                    LeagueSeason.league_id == league_id,
                    LeagueSeason.number == league.season,
                    LeagueSeason.ended_at.is_(None),
                )
                .values(ended_at=moment, ended_by=actor.user)
            )
            if rowcount(ended) != 1:
                raise LeagueError(f"Season {league.season} has already ended.", hint=Hint(Do.START_SEASON))
            add_event(session, league_id, "season-ended", actor.user, moment, after={"season": league.season})
            await bump(session, league_id)
            return await league_info(session, league)

    # --- standings ----------------------------------------------------------------------------------------------

    async def standings(self, league_id: int, *, actor: Actor, season: int | None = None) -> Standings:
        """The season's table (default: the current season), from the snapshot if the league has not changed."""
        async with self.sessions() as session:
            league = await league_info(session, await league_row(session, league_id, actor))
            chosen = rules.check_season(league.season if season is None else season, league.season, league.name)
            rows = await self._read.rows(session, league_id, chosen, league.version)
            if rows is not None:
                return Standings(league, chosen, rows, league.version, cached=True)
            played = (
                await session.execute(
                    select(
                        LeagueMatch.id,
                        LeagueMatch.created_at,
                        LeagueMatch.reporter_id,
                        LeagueMatch.opponent_id,
                        LeagueMatch.result,
                    ).where(
                        LeagueMatch.league_id == league_id,
                        LeagueMatch.season == chosen,
                        LeagueMatch.status == "confirmed",
                    )
                )
            ).all()
        matches = [MatchResult(i, aware(at), player, other, result) for i, at, player, other, result in played]
        players = league.players if chosen == league.season else ()
        rows = tuple(compute(players, matches, league.points))
        await self._save_snapshot(league_id, chosen, league.version, rows)
        return Standings(league, chosen, rows, league.version, cached=False)

    async def _save_snapshot(self, league_id: int, season: int, version: int, rows: Sequence[Row]) -> None:
        data = json.dumps([row.to_dict() for row in rows], separators=(",", ":"))
        moment = now()
        try:
            async with self.sessions.begin() as session:
                # Only while the league is still at the version the table was computed from (held, on PostgreSQL,
                # until this commits): a change or a user's deletion since then must not find an old table saved.
                current = await session.scalar(
                    select(League.version).where(League.id == league_id).with_for_update(read=True)
                )
                if current != version:
                    return
                changed = await session.execute(
                    update(LeagueSnapshot)
                    .where(
                        LeagueSnapshot.league_id == league_id,
                        LeagueSnapshot.season == season,
                        LeagueSnapshot.version < version,
                    )
                    .values(version=version, data_json=data, computed_at=moment)
                )
                if rowcount(changed) == 0:
                    exists = await session.scalar(
                        select(func.count())
                        .select_from(LeagueSnapshot)
                        .where(LeagueSnapshot.league_id == league_id, LeagueSnapshot.season == season)
                    )
                    if not exists:
                        await session.execute(
                            insert(LeagueSnapshot).values(
                                league_id=league_id,
                                season=season,
                                version=version,
                                data_json=data,
                                computed_at=moment,
                            )
                        )
        except IntegrityError:
            return  # another process saved the same snapshot first: either is right

    # --- players' names (personal data: exported and deleted with the user, bot/storage/privacy.py) ------------

    async def names(self, guild_id: str, users: Iterable[str]) -> dict[str, KnownName]:
        """The cached display names of these users in this server (those it has)."""
        chosen = sorted(set(users))
        if not chosen:
            return {}
        async with self.sessions() as session:
            rows = (
                await session.scalars(
                    select(DisplayName).where(DisplayName.guild_id == guild_id, DisplayName.user_id.in_(chosen))
                )
            ).all()
        return {row.user_id: KnownName(row.name, aware(row.fetched_at)) for row in rows}

    async def remember_names(
        self, guild_id: str, names: Mapping[str, str], *, at: datetime | None = None, players_only: bool = False
    ) -> set[str]:
        """Cache display names (user id -> name) as seen or fetched now: the newest wins. With ``players_only``,
        only those of people who play or played in a league of the server (nobody else's name is kept); the
        users whose names were cached."""
        moment = at or now()
        chosen = dict(names)
        if players_only and chosen:
            async with self.sessions() as session:
                playing = set(
                    (
                        await session.scalars(
                            select(LeaguePlayer.user_id)
                            .join(League, League.id == LeaguePlayer.league_id)
                            .where(League.guild_id == guild_id, LeaguePlayer.user_id.in_(list(chosen)))
                        )
                    ).all()
                )
            chosen = {user: name for user, name in chosen.items() if user in playing}
        for user, name in chosen.items():
            shown = " ".join(name.split())[:NAME] or user
            for _attempt in (1, 2):
                try:
                    async with self.sessions.begin() as session:
                        changed = await session.execute(
                            update(DisplayName)
                            .where(DisplayName.guild_id == guild_id, DisplayName.user_id == user)
                            .values(name=shown, fetched_at=moment)
                        )
                        if rowcount(changed) == 0:
                            session.add(DisplayName(guild_id=guild_id, user_id=user, name=shown, fetched_at=moment))
                    break
                except IntegrityError:
                    continue  # another process cached the same user at the same moment: update theirs
        return set(chosen)


__all__ = ["Leagues"]
