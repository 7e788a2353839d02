"""Leagues in the store: the queries behind leagues, seasons, players, organisers, matches and the audit log.

The rules (who may act, what a change does to a match, what input is valid) are the league domain's
(``bot.leagues``); this module looks up the facts they need, applies what they decide, and keeps the log. Every
change is one transaction that also appends its audit event (who, when, the state before and after), so nothing
changes silently. State changes of a match are conditional updates (``... WHERE status = 'pending'``): of two
clicks, two processes or a click and the auto-confirmation, exactly one takes effect, and the others are told what
already happened. Standings are never stored as running totals: they are computed from the season's confirmed
matches (bot.leagues.standings) and cached by league version, which every change moves on.

Longer than most modules (about 480 lines): one method per league action, each a short transaction, and they
share the helpers at the top; splitting them would scatter one aggregate's queries over several files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.leagues import permissions, rules, transitions
from bot.leagues.errors import LeagueError, LeagueNotFound, MatchNotFound, MatchStateError
from bot.leagues.model import (
    AUTO,
    Actor,
    AuditEntry,
    Decision,
    LeagueInfo,
    MatchInfo,
    ReportOutcome,
    Standings,
    pair_key,
)
from bot.leagues.standings import MatchResult, Points, Row, compute
from bot.leagues.transitions import Transition
from bot.storage.db import aware, now, rowcount
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


def match_info(row: LeagueMatch) -> MatchInfo:
    """A stored match as the domain's plain value."""
    return MatchInfo(
        id=row.id, league_id=row.league_id, season=row.season, reporter=row.reporter_id, opponent=row.opponent_id,
        result=row.result, score=row.score, combats=tuple(int(c) for c in row.combats.split(",") if c),
        notes=row.notes, status=row.status, source=row.source, created_by=row.created_by,
        created_at=aware(row.created_at), confirm_by=None if row.confirm_by is None else aware(row.confirm_by),
        decided_by=row.decided_by, decided_at=None if row.decided_at is None else aware(row.decided_at),
    )  # fmt: skip


class Leagues:
    """The leagues of one store (``store.leagues``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    # --- reading ------------------------------------------------------------------------------------------------

    async def _info(self, session: AsyncSession, row: League) -> LeagueInfo:
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
        )  # fmt: skip

    async def _league_row(self, session: AsyncSession, league_id: int) -> League:
        row = await session.get(League, league_id)
        if row is None:
            raise LeagueNotFound(f"There is no league #{league_id}. '/league list' shows this server's leagues.")
        return row

    async def get(self, league_id: int) -> LeagueInfo:
        async with self.sessions() as session:
            return await self._info(session, await self._league_row(session, league_id))

    async def find(self, guild_id: str | None, reference: str) -> LeagueInfo:
        """A league by id ("7" or "#7") or by name (in ``guild_id``; offline, ``None`` searches every guild)."""
        text = reference.strip().lstrip("#")
        async with self.sessions() as session:
            if text.isdigit():
                row = await session.get(League, int(text))
                rows = [] if row is None or (guild_id is not None and row.guild_id != guild_id) else [row]
            else:
                query = select(League).where(League.name_key == " ".join(text.split()).casefold())
                if guild_id is not None:
                    query = query.where(League.guild_id == guild_id)
                rows = list((await session.scalars(query.order_by(League.id))).all())
            if len(rows) > 1:
                raise LeagueError(
                    f"Several leagues are named {reference!r} ({', '.join(f'#{r.id}' for r in rows)}): give the id."
                )
            if not rows:
                raise LeagueNotFound(
                    f"There is no league {reference!r} here. '/league list' shows this server's leagues; "
                    "'/league create' starts one."
                )
            return await self._info(session, rows[0])

    async def all(self, guild_id: str | None = None) -> list[LeagueInfo]:
        """Every league of ``guild_id`` (offline, ``None``: of every guild), oldest first."""
        query = select(League).order_by(League.id)
        if guild_id is not None:
            query = query.where(League.guild_id == guild_id)
        async with self.sessions() as session:
            return [await self._info(session, row) for row in (await session.scalars(query)).all()]

    async def match(self, match_id: int) -> MatchInfo:
        async with self.sessions() as session:
            return match_info(await self._match_row(session, match_id))

    async def matches(
        self, league_id: int, *, season: int | None = None, player: str | None = None, limit: int | None = None,
        statuses: Iterable[str] | None = None,
    ) -> list[MatchInfo]:  # fmt: skip
        """The league's matches, newest first."""
        query = select(LeagueMatch).where(LeagueMatch.league_id == league_id)
        if season is not None:
            query = query.where(LeagueMatch.season == season)
        if player is not None:
            query = query.where((LeagueMatch.reporter_id == player) | (LeagueMatch.opponent_id == player))
        if statuses is not None:
            query = query.where(LeagueMatch.status.in_(list(statuses)))
        query = query.order_by(LeagueMatch.created_at.desc(), LeagueMatch.id.desc())
        if limit is not None:
            query = query.limit(limit)
        async with self.sessions() as session:
            return [match_info(row) for row in (await session.scalars(query)).all()]

    async def audit(self, league_id: int, *, match_id: int | None = None, limit: int = 50) -> list[AuditEntry]:
        """The league's audit events, newest first."""
        query = select(LeagueEvent).where(LeagueEvent.league_id == league_id)
        if match_id is not None:
            query = query.where(LeagueEvent.match_id == match_id)
        query = query.order_by(LeagueEvent.id.desc()).limit(limit)
        async with self.sessions() as session:
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

    # --- helpers for changes ------------------------------------------------------------------------------------

    @staticmethod
    def _event(
        session: AsyncSession, league_id: int, kind: str, actor: str, at: datetime, *, match_id: int | None = None,
        reason: str = "", before: dict[str, Any] | None = None, after: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
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

    @staticmethod
    async def _bump(session: AsyncSession, league_id: int) -> None:
        await session.execute(update(League).where(League.id == league_id).values(version=League.version + 1))

    @staticmethod
    async def _organiser(session: AsyncSession, league_id: int, actor: Actor) -> bool:
        """Whether the actor may organise: a server manager, or on the league's list (looked up only then)."""
        return actor.manager or await session.get(LeagueOrganiser, (league_id, actor.user)) is not None

    async def _require_organiser(self, session: AsyncSession, league: League, actor: Actor, doing: str) -> None:
        organiser = await self._organiser(session, league.id, actor)
        permissions.require_organiser(actor, organiser=organiser, league_name=league.name, doing=doing)

    async def _require_neutral(self, session: AsyncSession, match: LeagueMatch, actor: Actor, doing: str) -> None:
        league = await self._league_row(session, match.league_id)
        organiser = await self._organiser(session, league.id, actor)
        permissions.require_neutral(actor, match_info(match), organiser=organiser, league_name=league.name,
                                    doing=doing)  # fmt: skip

    @staticmethod
    async def _is_player(session: AsyncSession, league_id: int, user: str) -> bool:
        row = await session.get(LeaguePlayer, (league_id, user))
        return row is not None and row.left_at is None

    @staticmethod
    async def _match_row(session: AsyncSession, match_id: int) -> LeagueMatch:
        row = await session.get(LeagueMatch, match_id)
        if row is None:
            raise MatchNotFound(match_id)
        return row

    async def _apply(
        self, session: AsyncSession, row: LeagueMatch, change: Transition, actor: str, at: datetime
    ) -> MatchInfo:
        """Change a match only if it is still in one of the expected states; log before and after."""
        before = match_info(row)
        result = await session.execute(
            update(LeagueMatch)
            .where(LeagueMatch.id == row.id, LeagueMatch.status.in_(list(change.expect)))
            .values(**change.values)
            .execution_options(synchronize_session=False)
        )
        if rowcount(result) != 1:
            current = await session.scalar(select(LeagueMatch.status).where(LeagueMatch.id == row.id))
            raise transitions.refused(row.id, current)
        await session.refresh(row)
        after = match_info(row)
        self._event(session, row.league_id, change.kind, actor, at, match_id=row.id, reason=change.reason,
                    before=before.state(), after=after.state())  # fmt: skip
        await self._bump(session, row.league_id)
        return after

    async def _pending_between(self, session: AsyncSession, league_id: int, one: str, other: str) -> LeagueMatch | None:
        return await session.scalar(
            select(LeagueMatch).where(
                LeagueMatch.league_id == league_id,
                LeagueMatch.pair_key == pair_key(one, other),
                LeagueMatch.status == "pending",
            )
        )

    # --- leagues, players, organisers, seasons ------------------------------------------------------------------

    async def create(
        self, guild_id: str, name: str, game: str, *, actor: Actor, points: Points | None = None,
        confirm_hours: int = 72, at: datetime | None = None,
    ) -> LeagueInfo:  # fmt: skip
        moment = at or now()
        cleaned = rules.check_name(name)
        game_id = rules.check_game(game)
        chosen = rules.check_points(points or Points())
        hours = rules.check_confirm_hours(confirm_hours)
        try:
            async with self.sessions.begin() as session:
                row = League(
                    guild_id=guild_id, name=cleaned, name_key=cleaned.casefold(), game=game_id,
                    points_win=chosen.win, points_draw=chosen.draw, points_loss=chosen.loss, confirm_hours=hours,
                    season=1, version=1, created_by=actor.user, created_at=moment,
                )  # fmt: skip
                session.add(row)
                await session.flush()
                session.add(LeagueOrganiser(league_id=row.id, user_id=actor.user, added_by=actor.user, added_at=moment))
                session.add(LeagueSeason(league_id=row.id, number=1, started_by=actor.user, started_at=moment))
                await session.flush()
                info = await self._info(session, row)
                self._event(session, row.id, "league-created", actor.user, moment, after={**info.settings(),
                            "game": game_id})  # fmt: skip
        except IntegrityError as error:
            raise LeagueError(f"This server already has a league named {cleaned!r}: pick another name.") from error
        return info

    async def join(self, league_id: int, user: str, *, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            row = await session.get(LeaguePlayer, (league_id, user))
            if row is not None and row.left_at is None:
                raise LeagueError(f"You are already in {league.name}.")
            if row is None:
                session.add(LeaguePlayer(league_id=league_id, user_id=user, joined_at=moment))
            else:
                row.left_at = None  # back again: your past matches are still yours
            self._event(session, league_id, "joined", user, moment)
            await self._bump(session, league_id)
            await session.flush()
            return await self._info(session, league)

    async def leave(self, league_id: int, user: str, *, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            row = await session.get(LeaguePlayer, (league_id, user))
            if row is None or row.left_at is not None:
                raise LeagueError(f"You are not in {league.name}.")
            row.left_at = moment
            self._event(session, league_id, "left", user, moment)
            await self._bump(session, league_id)
            await session.flush()
            return await self._info(session, league)

    async def update_settings(
        self, league_id: int, *, actor: Actor, points: Points | None = None, confirm_hours: int | None = None,
        name: str | None = None, at: datetime | None = None,
    ) -> LeagueInfo:  # fmt: skip
        moment = at or now()
        try:
            async with self.sessions.begin() as session:
                league = await self._league_row(session, league_id)
                await self._require_organiser(session, league, actor, "change its settings")
                before = (await self._info(session, league)).settings()
                if points is not None:
                    rules.check_points(points)
                    league.points_win, league.points_draw, league.points_loss = points.win, points.draw, points.loss
                if confirm_hours is not None:
                    league.confirm_hours = rules.check_confirm_hours(confirm_hours)
                if name is not None:
                    league.name = rules.check_name(name)
                    league.name_key = league.name.casefold()
                await session.flush()
                info = await self._info(session, league)
                self._event(session, league_id, "settings-changed", actor.user, moment, before=before,
                            after=info.settings())  # fmt: skip
                await self._bump(session, league_id)
        except IntegrityError as error:
            raise LeagueError(f"This server already has a league named {name!r}: pick another name.") from error
        return await self.get(league_id)

    async def add_organiser(self, league_id: int, user: str, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            await self._require_organiser(session, league, actor, "add organisers")
            if await session.get(LeagueOrganiser, (league_id, user)) is not None:
                raise LeagueError(f"<@{user}> already organises {league.name}.")
            session.add(LeagueOrganiser(league_id=league_id, user_id=user, added_by=actor.user, added_at=moment))
            self._event(session, league_id, "organiser-added", actor.user, moment, after={"organiser": user})
            await session.flush()
            return await self._info(session, league)

    async def start_season(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        """End the current season (if still open) and start the next: same players, fresh standings."""
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            await self._require_organiser(session, league, actor, "start a season")
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
            self._event(session, league_id, "season-started", actor.user, moment, after={"season": number})
            await self._bump(session, league_id)
            await session.flush()
            await session.refresh(league)
            return await self._info(session, league)

    async def end_season(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            await self._require_organiser(session, league, actor, "end a season")
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
                raise LeagueError(f"Season {league.season} has already ended; '/league season start' begins the next.")
            self._event(session, league_id, "season-ended", actor.user, moment, after={"season": league.season})
            await self._bump(session, league_id)
            return await self._info(session, league)

    # --- matches ------------------------------------------------------------------------------------------------

    async def _check_combats(self, session: AsyncSession, league_id: int, combats: tuple[int, ...]) -> None:
        if not combats:
            return
        found = set((await session.scalars(select(CombatRecord.id).where(CombatRecord.id.in_(combats)))).all())
        used = (
            await session.execute(
                select(LeagueMatch.id, LeagueMatch.combats).where(
                    LeagueMatch.league_id == league_id, LeagueMatch.status != "void", LeagueMatch.combats != ""
                )
            )
        ).all()
        rules.check_combats_free(combats, found, [(int(match_id), str(listed)) for match_id, listed in used])

    async def report(
        self, league_id: int, *, actor: Actor, opponent: str, result: str, score: str | None = None,
        combats: str | Sequence[int] | None = None, notes: str = "", at: datetime | None = None,
    ) -> ReportOutcome:  # fmt: skip
        """A player reports a game; the opponent confirms or disputes it (or it confirms itself in time).

        If the opponent has already reported the same pairing and it is still pending, this report is the same
        game seen from the other side: agreeing results confirm it (merged), differing ones dispute it
        (conflict). Never two pending reports of one pair: a second game waits for the first to be settled.
        """
        rules.check_result(result)
        cleaned_score = rules.check_score(score)
        cleaned_notes = rules.check_notes(notes, "notes:Played on the city board")
        chosen = rules.parse_combats(combats)
        rules.check_opponent(actor.user, opponent)
        for attempt in (1, 2):
            try:
                return await self._report(
                    league_id, actor, opponent, result, score=cleaned_score, combats=chosen, notes=cleaned_notes,
                    moment=at or now(),
                )  # fmt: skip
            except IntegrityError:
                # The opponent reported the same pairing at the same moment: look again, and merge or clash.
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _report(
        self, league_id: int, actor: Actor, opponent: str, result: str, *, score: str | None,
        combats: tuple[int, ...], notes: str, moment: datetime,
    ) -> ReportOutcome:  # fmt: skip
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            permissions.require_reporter_plays(
                league.name, playing=await self._is_player(session, league_id, actor.user)
            )
            permissions.require_member(
                opponent, league.name, playing=await self._is_player(session, league_id, opponent)
            )
            season = await session.get(LeagueSeason, (league_id, league.season))
            rules.check_open_season(league.name, league.season, is_open=season is not None and season.ended_at is None)
            waiting = await self._pending_between(session, league_id, actor.user, opponent)
            if waiting is not None:
                kind, change = transitions.answer_report(match_info(waiting), actor, result, moment)
                return ReportOutcome(kind, await self._apply(session, waiting, change, actor.user, moment))
            await self._check_combats(session, league_id, combats)
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=actor.user, opponent_id=opponent,
                result=result, score=score, combats=",".join(map(str, combats)), notes=notes, status="pending",
                source="report", pair_key=pair_key(actor.user, opponent), created_by=actor.user, created_at=moment,
                confirm_by=transitions.confirm_by(moment, league.confirm_hours),
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = match_info(row)
            self._event(session, league_id, "reported", actor.user, moment, match_id=row.id, after=info.state())
            return ReportOutcome("created", info)

    async def confirm(self, match_id: int, *, actor: Actor, at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            return await self._apply(session, row, transitions.confirm(match_info(row), actor, moment), actor.user,
                                     moment)  # fmt: skip

    async def dispute(self, match_id: int, *, actor: Actor, reason: str = "", at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        why = rules.check_reason(reason, "reason:It was a draw")
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            return await self._apply(session, row, transitions.dispute(match_info(row), actor, why), actor.user, moment)

    async def resolve_dispute(
        self, match_id: int, decision: Decision, *, actor: Actor, reason: str = "", at: datetime | None = None
    ) -> MatchInfo:
        """An organiser settles a disputed match: the result (the reporter's) stands or changes, or it is void."""
        moment = at or now()
        why = rules.check_reason(reason, "reason:Both agreed it was a draw")
        if decision != "void":
            rules.check_result(decision)
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "resolve a dispute")
            return await self._apply(
                session, row, transitions.resolve(decision, actor, why, moment), actor.user, moment
            )

    async def void(self, match_id: int, *, actor: Actor, reason: str, at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        why = rules.check_reason(
            reason, "reason:Entered twice",
            required="Say why the match is voided. Example: /league void match:12 reason:Entered twice",
        )  # fmt: skip
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "void a match")
            return await self._apply(session, row, transitions.void(actor, why, moment), actor.user, moment)

    async def correct(
        self, match_id: int, *, actor: Actor, result: str, reason: str, score: str | None = None,
        at: datetime | None = None,
    ) -> MatchInfo:  # fmt: skip
        """An organiser corrects a confirmed match's result (the reporter's) and score; the log keeps the old."""
        moment = at or now()
        rules.check_result(result)
        why = rules.check_reason(
            reason, "reason:Scores were swapped",
            required="Say why the result is corrected. Example: reason:Scores were swapped",
        )  # fmt: skip
        cleaned_score = rules.check_score(score)
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "correct a result")
            change = transitions.correct(actor, result, cleaned_score, why, moment)
            return await self._apply(session, row, change, actor.user, moment)

    async def enter_result(
        self, league_id: int, *, actor: Actor, player: str, opponent: str, result: str, score: str | None = None,
        combats: str | Sequence[int] | None = None, notes: str = "", at: datetime | None = None,
    ) -> MatchInfo:  # fmt: skip
        """An organiser enters a game directly: confirmed at once (``result`` is ``player``'s)."""
        moment = at or now()
        rules.check_result(result)
        cleaned_score = rules.check_score(score)
        cleaned_notes = rules.check_notes(notes, "notes:Played at the club")
        chosen = rules.parse_combats(combats)
        rules.check_two_players(player, opponent)
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            await self._require_organiser(session, league, actor, "enter results")
            permissions.require_not_playing(actor, player, opponent)
            for user in (player, opponent):
                permissions.require_member(user, league.name, playing=await self._is_player(session, league_id, user))
            waiting = await self._pending_between(session, league_id, player, opponent)
            transitions.require_nothing_pending(None if waiting is None else waiting.id)
            await self._check_combats(session, league_id, chosen)
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=player, opponent_id=opponent, result=result,
                score=cleaned_score, combats=",".join(map(str, chosen)), notes=cleaned_notes, status="confirmed",
                source="organiser", pair_key=pair_key(player, opponent), created_by=actor.user, created_at=moment,
                confirm_by=None, decided_by=actor.user, decided_at=moment,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = match_info(row)
            self._event(session, league_id, "entered", actor.user, moment, match_id=row.id, after=info.state())
            await self._bump(session, league_id)
            return info

    async def confirm_due(self, *, at: datetime | None = None, limit: int = 500) -> list[MatchInfo]:
        """Confirm every pending report whose window has passed (the bot runs this every minute and on start)."""
        moment = at or now()
        async with self.sessions() as session:
            due = (
                await session.scalars(
                    select(LeagueMatch.id)
                    .where(LeagueMatch.status == "pending", LeagueMatch.confirm_by <= moment)
                    .order_by(LeagueMatch.confirm_by, LeagueMatch.id)
                    .limit(limit)
                )
            ).all()
        confirmed: list[MatchInfo] = []
        for match_id in due:
            try:
                async with self.sessions.begin() as session:
                    row = await self._match_row(session, match_id)
                    confirmed.append(await self._apply(session, row, transitions.auto_confirm(moment), AUTO,
                                                       moment))  # fmt: skip
            except MatchStateError:
                continue  # confirmed or disputed by a player in the meantime: theirs is the one effect
        return confirmed

    # --- standings ----------------------------------------------------------------------------------------------

    async def standings(self, league_id: int, *, season: int | None = None) -> Standings:
        """The season's table (default: the current season), from the snapshot if the league has not changed."""
        async with self.sessions() as session:
            league_row = await self._league_row(session, league_id)
            league = await self._info(session, league_row)
            chosen = rules.check_season(league.season if season is None else season, league.season, league.name)
            snapshot = await session.get(LeagueSnapshot, (league_id, chosen))
            if snapshot is not None and snapshot.version == league.version:
                rows = tuple(Row.from_dict(item) for item in json.loads(snapshot.data_json))
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


__all__ = ["Leagues", "match_info"]
