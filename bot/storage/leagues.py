"""Leagues in the store: leagues, seasons, players, organisers, match reports and their confirmation, the audit log.

Every change is one transaction that also appends its audit event (who, when, the state before and after), so
nothing changes silently. State changes of a match are conditional updates (``... WHERE status = 'pending'``):
of two clicks, two processes or a click and the auto-confirmation, exactly one takes effect, and the others are
told what already happened. Standings are never stored as running totals: they are computed from the season's
confirmed matches (bot.leagues.standings) and cached by league version, which every change moves on.

Permissions: anyone in a guild may create a league there; players join and leave themselves; only the reported
opponent confirms or disputes a report; organisers (the creator, the co-organisers they add, and members with
Manage Server, which the bot passes as ``Actor.manager``) change settings, run seasons, resolve disputes and
void, correct or enter results, except in a match they played, which needs another organiser or a server
manager.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.leagues.standings import FLIPPED, RESULTS, MatchResult, Points, Row, compute
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
from rules_core.errors import RefereeError
from rules_core.registry import get_game

NAME_MAX = 50
NOTES_MAX = 500
SCORE_MAX = 30
REASON_MAX = 300
COMBATS_MAX = 10
CONFIRM_HOURS = (1, 720)  # an hour to 30 days
POINTS_MAX = 100
AUTO = "auto"  # the actor of automatic confirmations
_NAME = re.compile(r"^[\w][\w '\-.&]*$")
Decision = Literal["win", "draw", "loss", "void"]


class LeagueError(ValueError):
    """Input or a request the league cannot take, with what to do instead."""


class LeagueNotFound(LookupError):
    pass


class MatchNotFound(LookupError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no league match #{match_id}. '/league history' lists the league's matches.")


class NotAllowed(PermissionError):
    pass


class MatchStateError(LeagueError):
    """The match is no longer in the state the action needs (already confirmed, disputed, voided...)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a Discord user id, and whether they have Manage Server in the league's guild."""

    user: str
    manager: bool = False


@dataclass(frozen=True, slots=True)
class LeagueInfo:
    id: int
    guild_id: str
    name: str
    game: str
    points: Points
    confirm_hours: int
    season: int
    season_open: bool
    version: int
    created_by: str
    created_at: datetime
    organisers: tuple[str, ...]
    players: tuple[str, ...]  # current players, in the order they (first) joined

    def settings(self) -> dict[str, Any]:
        return {"name": self.name, "points": [self.points.win, self.points.draw, self.points.loss],
                "confirm_hours": self.confirm_hours}  # fmt: skip


@dataclass(frozen=True, slots=True)
class MatchInfo:
    id: int
    league_id: int
    season: int
    reporter: str
    opponent: str
    result: str  # the reporter's
    score: str | None
    combats: tuple[int, ...]
    notes: str
    status: str
    source: str
    created_by: str
    created_at: datetime
    confirm_by: datetime | None
    decided_by: str | None
    decided_at: datetime | None

    def state(self) -> dict[str, Any]:
        """What the audit log keeps before and after a change."""
        return {"status": self.status, "reporter": self.reporter, "opponent": self.opponent, "result": self.result,
                "score": self.score, "combats": list(self.combats), "notes": self.notes,
                "decided_by": self.decided_by}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a report did: created a pending match, merged into the opponent's report, or clashed with it."""

    kind: Literal["created", "merged", "conflict"]
    match: MatchInfo


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    league_id: int
    match_id: int | None
    kind: str
    actor: str
    reason: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    at: datetime

    def changes(self) -> list[tuple[str, Any, Any]]:
        """(key, before, after) for every value the change moved; empty unless both states were kept."""
        if self.before is None or self.after is None:
            return []
        return [(key, self.before.get(key), value) for key, value in self.after.items()
                if self.before.get(key) != value]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Standings:
    league: LeagueInfo
    season: int
    rows: tuple[Row, ...]
    version: int
    cached: bool  # served from the snapshot of this version, not computed now


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _now() -> datetime:
    return datetime.now(UTC)


def pair_key(one: str, other: str) -> str:
    return "|".join(sorted((one, other)))


def check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_MAX or not _NAME.match(cleaned) or cleaned.isdigit():
        raise LeagueError(
            f"A league name has 1 to {NAME_MAX} letters, digits, spaces and - ' . & (not only digits): "
            f"{name[:60]!r} is not one. Example: /league create name:Autumn Crusade game:40k"
        )
    return cleaned


def check_result(result: str) -> str:
    if result not in RESULTS:
        raise LeagueError(f"The result is win, draw or loss (yours), not {result!r}. Example: result:win")
    return result


def _check_text(value: str | None, limit: int, what: str, example: str) -> str | None:
    if value is None:
        return None
    cleaned = value.strip()
    if len(cleaned) > limit:
        raise LeagueError(f"The {what} is {len(cleaned)} characters; at most {limit}. Example: {example}")
    return cleaned


def parse_combats(text: str | Sequence[int] | None) -> tuple[int, ...]:
    """Combat record ids from "12, 15" (or #12 #15), distinct, at most COMBATS_MAX."""
    if text is None:
        return ()
    if isinstance(text, str):
        parts = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
        ids: list[int] = []
        for part in parts:
            digits = part.lstrip("#")
            if not digits.isdigit() or int(digits) < 1:
                raise LeagueError(
                    f"Combats are record ids (in each result's footer), not {part!r}. Example: combats:12, 15"
                )
            ids.append(int(digits))
    else:
        ids = [int(value) for value in text]
    unique = tuple(dict.fromkeys(ids))
    if len(unique) > COMBATS_MAX:
        raise LeagueError(f"At most {COMBATS_MAX} combats per match, not {len(unique)}. Example: combats:12, 15")
    return unique


def check_points(points: Points) -> Points:
    values = (points.win, points.draw, points.loss)
    if not all(0 <= value <= POINTS_MAX for value in values) or not points.win >= points.draw >= points.loss:
        raise LeagueError(
            f"Points are whole numbers from 0 to {POINTS_MAX}, win >= draw >= loss; not {values}. "
            "Example: win:3 draw:1 loss:0"
        )
    return points


def check_confirm_hours(hours: int) -> int:
    low, high = CONFIRM_HOURS
    if not low <= hours <= high:
        raise LeagueError(f"Auto-confirmation comes after {low} to {high} hours, not {hours}. Example: 72")
    return hours


def _match_info(row: LeagueMatch) -> MatchInfo:
    return MatchInfo(
        id=row.id, league_id=row.league_id, season=row.season, reporter=row.reporter_id, opponent=row.opponent_id,
        result=row.result, score=row.score, combats=tuple(int(c) for c in row.combats.split(",") if c),
        notes=row.notes, status=row.status, source=row.source, created_by=row.created_by,
        created_at=_aware(row.created_at), confirm_by=None if row.confirm_by is None else _aware(row.confirm_by),
        decided_by=row.decided_by, decided_at=None if row.decided_at is None else _aware(row.decided_at),
    )  # fmt: skip


def _rowcount(result: Any) -> int:
    return int(cast(CursorResult[Any], result).rowcount)


class LeagueStore:
    """League operations, mixed into :class:`bot.storage.Store`."""

    sessions: async_sessionmaker[AsyncSession]

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
            created_at=_aware(row.created_at), organisers=tuple(organisers), players=tuple(players),
        )  # fmt: skip

    async def _league_row(self, session: AsyncSession, league_id: int) -> League:
        row = await session.get(League, league_id)
        if row is None:
            raise LeagueNotFound(f"There is no league #{league_id}. '/league list' shows this server's leagues.")
        return row

    async def get_league(self, league_id: int) -> LeagueInfo:
        async with self.sessions() as session:
            return await self._info(session, await self._league_row(session, league_id))

    async def find_league(self, guild_id: str | None, reference: str) -> LeagueInfo:
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

    async def list_leagues(self, guild_id: str | None = None) -> list[LeagueInfo]:
        query = select(League).order_by(League.id)
        if guild_id is not None:
            query = query.where(League.guild_id == guild_id)
        async with self.sessions() as session:
            return [await self._info(session, row) for row in (await session.scalars(query)).all()]

    async def get_match(self, match_id: int) -> MatchInfo:
        async with self.sessions() as session:
            row = await session.get(LeagueMatch, match_id)
            if row is None:
                raise MatchNotFound(match_id)
            return _match_info(row)

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
            return [_match_info(row) for row in (await session.scalars(query)).all()]

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
                at=_aware(row.created_at),
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

    async def _require_organiser(self, session: AsyncSession, league: League, actor: Actor, doing: str) -> None:
        if actor.manager:
            return
        found = await session.get(LeagueOrganiser, (league.id, actor.user))
        if found is None:
            raise NotAllowed(
                f"Only the organisers of {league.name} can {doing}: its creator, the co-organisers they add, and "
                "members with Manage Server."
            )

    async def _require_neutral(self, session: AsyncSession, match: LeagueMatch, actor: Actor, doing: str) -> None:
        league = await self._league_row(session, match.league_id)
        await self._require_organiser(session, league, actor, doing)
        if actor.user in (match.reporter_id, match.opponent_id) and not actor.manager:
            raise NotAllowed(
                f"You played match #{match.id}: another organiser (or a member with Manage Server) must {doing}."
            )

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

    async def _set_match(
        self, session: AsyncSession, row: LeagueMatch, *, expect: Sequence[str], values: dict[str, Any],
        kind: str, actor: str, at: datetime, reason: str = "",
    ) -> MatchInfo:  # fmt: skip
        """Change a match only if it is still in one of the ``expect`` states; log before and after."""
        before = _match_info(row)
        result = await session.execute(
            update(LeagueMatch)
            .where(LeagueMatch.id == row.id, LeagueMatch.status.in_(list(expect)))
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if _rowcount(result) != 1:
            current = await session.scalar(select(LeagueMatch.status).where(LeagueMatch.id == row.id))
            raise MatchStateError(f"Match #{row.id} is already {current}: nothing was changed.")
        await session.refresh(row)
        after = _match_info(row)
        self._event(session, row.league_id, kind, actor, at, match_id=row.id, reason=reason,
                    before=before.state(), after=after.state())  # fmt: skip
        await self._bump(session, row.league_id)
        return after

    # --- leagues, players, organisers, seasons ------------------------------------------------------------------

    async def create_league(
        self, guild_id: str, name: str, game: str, *, actor: Actor, points: Points | None = None,
        confirm_hours: int = 72, at: datetime | None = None,
    ) -> LeagueInfo:  # fmt: skip
        moment = at or _now()
        cleaned = check_name(name)
        try:
            game_id = get_game(game).id
        except RefereeError as error:
            raise LeagueError(f"{error.message} Example: /league create name:Autumn Crusade game:40k") from error
        chosen = check_points(points or Points())
        hours = check_confirm_hours(confirm_hours)
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
        moment = at or _now()
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
        moment = at or _now()
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
        moment = at or _now()
        try:
            async with self.sessions.begin() as session:
                league = await self._league_row(session, league_id)
                await self._require_organiser(session, league, actor, "change its settings")
                before = (await self._info(session, league)).settings()
                if points is not None:
                    check_points(points)
                    league.points_win, league.points_draw, league.points_loss = points.win, points.draw, points.loss
                if confirm_hours is not None:
                    league.confirm_hours = check_confirm_hours(confirm_hours)
                if name is not None:
                    league.name = check_name(name)
                    league.name_key = league.name.casefold()
                await session.flush()
                info = await self._info(session, league)
                self._event(session, league_id, "settings-changed", actor.user, moment, before=before,
                            after=info.settings())  # fmt: skip
                await self._bump(session, league_id)
        except IntegrityError as error:
            raise LeagueError(f"This server already has a league named {name!r}: pick another name.") from error
        return await self.get_league(league_id)

    async def add_organiser(self, league_id: int, user: str, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or _now()
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
        moment = at or _now()
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
            if _rowcount(changed) != 1:
                raise LeagueError("Another organiser started a season at the same moment: look again.")
            self._event(session, league_id, "season-started", actor.user, moment, after={"season": number})
            await self._bump(session, league_id)
            await session.flush()
            await session.refresh(league)
            return await self._info(session, league)

    async def end_season(self, league_id: int, *, actor: Actor, at: datetime | None = None) -> LeagueInfo:
        moment = at or _now()
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
            if _rowcount(ended) != 1:
                raise LeagueError(f"Season {league.season} has already ended; '/league season start' begins the next.")
            self._event(session, league_id, "season-ended", actor.user, moment, after={"season": league.season})
            await self._bump(session, league_id)
            return await self._info(session, league)

    # --- matches ------------------------------------------------------------------------------------------------

    async def _check_combats(self, session: AsyncSession, league_id: int, combats: tuple[int, ...]) -> None:
        if not combats:
            return
        found = set((await session.scalars(select(CombatRecord.id).where(CombatRecord.id.in_(combats)))).all())
        missing = [c for c in combats if c not in found]
        if missing:
            raise LeagueError(
                f"There is no combat record #{missing[0]}. The record id is in each result's footer. "
                "Example: combats:12, 15"
            )
        used = (
            await session.execute(
                select(LeagueMatch.id, LeagueMatch.combats).where(
                    LeagueMatch.league_id == league_id, LeagueMatch.status != "void", LeagueMatch.combats != ""
                )
            )
        ).all()
        for match_id, listed in used:
            taken = set(combats) & {int(c) for c in listed.split(",")}
            if taken:
                raise LeagueError(
                    f"Combat #{min(taken)} already counts for match #{match_id}: a combat belongs to one match."
                )

    async def report_match(
        self, league_id: int, *, actor: Actor, opponent: str, result: str, score: str | None = None,
        combats: str | Sequence[int] | None = None, notes: str = "", at: datetime | None = None,
    ) -> ReportOutcome:  # fmt: skip
        """A player reports a game; the opponent confirms or disputes it (or it confirms itself in time).

        If the opponent has already reported the same pairing and it is still pending, this report is the same
        game seen from the other side: agreeing results confirm it (merged), differing ones dispute it
        (conflict). Never two pending reports of one pair: a second game waits for the first to be settled.
        """
        check_result(result)
        cleaned_score = _check_text(score, SCORE_MAX, "score", "score:3-1")
        cleaned_notes = _check_text(notes, NOTES_MAX, "note", "notes:Played on the city board") or ""
        chosen = parse_combats(combats)
        if opponent == actor.user:
            raise LeagueError("You cannot report a game against yourself. Example: /league report opponent:@Ann")
        for attempt in (1, 2):
            try:
                return await self._report(
                    league_id, actor, opponent, result, score=cleaned_score, combats=chosen, notes=cleaned_notes,
                    moment=at or _now(),
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
            if not await self._is_player(session, league_id, actor.user):
                raise NotAllowed(f"Join {league.name} first ('/league join') to report games in it.")
            if not await self._is_player(session, league_id, opponent):
                raise LeagueError(f"<@{opponent}> is not in {league.name}: they join with '/league join'.")
            season = await session.get(LeagueSeason, (league_id, league.season))
            if season is None or season.ended_at is not None:
                raise LeagueError(
                    f"Season {league.season} of {league.name} has ended: an organiser starts the next with "
                    "'/league season start'."
                )
            waiting = await session.scalar(
                select(LeagueMatch).where(
                    LeagueMatch.league_id == league_id,
                    LeagueMatch.pair_key == pair_key(actor.user, opponent),
                    LeagueMatch.status == "pending",
                )
            )
            if waiting is not None and waiting.reporter_id == actor.user:
                raise LeagueError(
                    f"Your game against <@{opponent}> (match #{waiting.id}) is still waiting for their confirmation: "
                    "report the next once it is settled, or ask an organiser to enter it."
                )
            if waiting is not None:
                if FLIPPED[result] == waiting.result:
                    merged = await self._set_match(
                        session, waiting, expect=("pending",), kind="merged-report", actor=actor.user, at=moment,
                        values={"status": "confirmed", "decided_by": actor.user, "decided_at": moment},
                        reason=f"<@{actor.user}> reported the same game with the same result",
                    )  # fmt: skip
                    return ReportOutcome("merged", merged)
                clash = await self._set_match(
                    session, waiting, expect=("pending",), kind="conflicting-report", actor=actor.user, at=moment,
                    values={"status": "disputed"},
                    reason=f"<@{actor.user}> reported the same game as a {result} for them",
                )  # fmt: skip
                return ReportOutcome("conflict", clash)
            await self._check_combats(session, league_id, combats)
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=actor.user, opponent_id=opponent,
                result=result, score=score, combats=",".join(map(str, combats)), notes=notes, status="pending",
                source="report", pair_key=pair_key(actor.user, opponent), created_by=actor.user, created_at=moment,
                confirm_by=moment + timedelta(hours=league.confirm_hours),
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = _match_info(row)
            self._event(session, league_id, "reported", actor.user, moment, match_id=row.id, after=info.state())
            return ReportOutcome("created", info)

    async def confirm(self, match_id: int, *, actor: Actor, at: datetime | None = None) -> MatchInfo:
        moment = at or _now()
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            self._only_opponent(row, actor, "confirm")
            return await self._set_match(
                session, row, expect=("pending",), kind="confirmed", actor=actor.user, at=moment,
                values={"status": "confirmed", "decided_by": actor.user, "decided_at": moment},
            )  # fmt: skip

    async def dispute(self, match_id: int, *, actor: Actor, reason: str = "", at: datetime | None = None) -> MatchInfo:
        moment = at or _now()
        why = _check_text(reason, REASON_MAX, "reason", "reason:It was a draw") or ""
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            self._only_opponent(row, actor, "dispute")
            return await self._set_match(
                session, row, expect=("pending",), kind="disputed", actor=actor.user, at=moment,
                values={"status": "disputed"}, reason=why,
            )  # fmt: skip

    @staticmethod
    def _only_opponent(row: LeagueMatch, actor: Actor, doing: str) -> None:
        if actor.user == row.opponent_id:
            return
        if actor.user == row.reporter_id:
            raise NotAllowed(f"You reported match #{row.id}: only <@{row.opponent_id}> can {doing} it.")
        raise NotAllowed(f"Only <@{row.opponent_id}>, the reported opponent, can {doing} match #{row.id}.")

    async def resolve_dispute(
        self, match_id: int, decision: Decision, *, actor: Actor, reason: str = "", at: datetime | None = None
    ) -> MatchInfo:
        """An organiser settles a disputed match: the result (the reporter's) stands or changes, or it is void."""
        moment = at or _now()
        why = _check_text(reason, REASON_MAX, "reason", "reason:Both agreed it was a draw") or ""
        if decision != "void":
            check_result(decision)
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "resolve a dispute")
            values: dict[str, Any] = {"decided_by": actor.user, "decided_at": moment}
            values |= {"status": "void"} if decision == "void" else {"status": "confirmed", "result": decision}
            return await self._set_match(
                session, row, expect=("disputed",), kind="dispute-resolved", actor=actor.user, at=moment,
                values=values, reason=why,
            )  # fmt: skip

    async def void_match(self, match_id: int, *, actor: Actor, reason: str, at: datetime | None = None) -> MatchInfo:
        moment = at or _now()
        why = _check_text(reason, REASON_MAX, "reason", "reason:Entered twice") or ""
        if not why:
            raise LeagueError("Say why the match is voided. Example: /league void match:12 reason:Entered twice")
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "void a match")
            return await self._set_match(
                session, row, expect=("pending", "confirmed", "disputed"), kind="voided", actor=actor.user,
                at=moment, values={"status": "void", "decided_by": actor.user, "decided_at": moment}, reason=why,
            )  # fmt: skip

    async def correct_match(
        self, match_id: int, *, actor: Actor, result: str, reason: str, score: str | None = None,
        at: datetime | None = None,
    ) -> MatchInfo:  # fmt: skip
        """An organiser corrects a confirmed match's result (the reporter's) and score; the log keeps the old."""
        moment = at or _now()
        check_result(result)
        why = _check_text(reason, REASON_MAX, "reason", "reason:Scores were swapped") or ""
        if not why:
            raise LeagueError("Say why the result is corrected. Example: reason:Scores were swapped")
        cleaned_score = _check_text(score, SCORE_MAX, "score", "score:3-1")
        async with self.sessions.begin() as session:
            row = await self._match_row(session, match_id)
            await self._require_neutral(session, row, actor, "correct a result")
            values: dict[str, Any] = {"result": result, "decided_by": actor.user, "decided_at": moment}
            if cleaned_score is not None:
                values["score"] = cleaned_score
            return await self._set_match(
                session, row, expect=("confirmed",), kind="corrected", actor=actor.user, at=moment, values=values,
                reason=why,
            )  # fmt: skip

    async def enter_result(
        self, league_id: int, *, actor: Actor, player: str, opponent: str, result: str, score: str | None = None,
        combats: str | Sequence[int] | None = None, notes: str = "", at: datetime | None = None,
    ) -> MatchInfo:  # fmt: skip
        """An organiser enters a game directly: confirmed at once (``result`` is ``player``'s)."""
        moment = at or _now()
        check_result(result)
        cleaned_score = _check_text(score, SCORE_MAX, "score", "score:3-1")
        cleaned_notes = _check_text(notes, NOTES_MAX, "note", "notes:Played at the club") or ""
        chosen = parse_combats(combats)
        if player == opponent:
            raise LeagueError("A match needs two different players. Example: player:@Ann opponent:@Bob result:win")
        async with self.sessions.begin() as session:
            league = await self._league_row(session, league_id)
            await self._require_organiser(session, league, actor, "enter results")
            if actor.user in (player, opponent) and not actor.manager:
                raise NotAllowed("You played this game: another organiser (or a member with Manage Server) enters it.")
            for user in (player, opponent):
                if not await self._is_player(session, league_id, user):
                    raise LeagueError(f"<@{user}> is not in {league.name}: they join with '/league join'.")
            waiting = await session.scalar(
                select(LeagueMatch.id).where(
                    LeagueMatch.league_id == league_id,
                    LeagueMatch.pair_key == pair_key(player, opponent),
                    LeagueMatch.status == "pending",
                )
            )
            if waiting is not None:
                raise LeagueError(
                    f"Match #{waiting} between them is waiting for confirmation: settle it first (it may be this "
                    "very game), so nothing is counted twice."
                )
            await self._check_combats(session, league_id, chosen)
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=player, opponent_id=opponent, result=result,
                score=cleaned_score, combats=",".join(map(str, chosen)), notes=cleaned_notes, status="confirmed",
                source="organiser", pair_key=pair_key(player, opponent), created_by=actor.user, created_at=moment,
                confirm_by=None, decided_by=actor.user, decided_at=moment,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = _match_info(row)
            self._event(session, league_id, "entered", actor.user, moment, match_id=row.id, after=info.state())
            await self._bump(session, league_id)
            return info

    async def confirm_due(self, *, at: datetime | None = None, limit: int = 500) -> list[MatchInfo]:
        """Confirm every pending report whose window has passed (the bot runs this every minute and on start)."""
        moment = at or _now()
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
                    confirmed.append(
                        await self._set_match(
                            session,
                            row,
                            expect=("pending",),
                            kind="auto-confirmed",
                            actor=AUTO,
                            at=moment,
                            values={"status": "confirmed", "decided_by": AUTO, "decided_at": moment},
                            reason="not confirmed or disputed within the league's window",
                        )
                    )
            except MatchStateError:
                continue  # confirmed or disputed by a player in the meantime: theirs is the one effect
        return confirmed

    # --- standings ----------------------------------------------------------------------------------------------

    async def standings(self, league_id: int, *, season: int | None = None) -> Standings:
        """The season's table (default: the current season), from the snapshot if the league has not changed."""
        async with self.sessions() as session:
            league_row = await self._league_row(session, league_id)
            league = await self._info(session, league_row)
            chosen = league.season if season is None else season
            if not 1 <= chosen <= league.season:
                raise LeagueError(f"{league.name} has seasons 1 to {league.season}, not {chosen}.")
            snapshot = await session.get(LeagueSnapshot, (league_id, chosen))
            if snapshot is not None and snapshot.version == league.version:
                rows = tuple(_row_from(item) for item in json.loads(snapshot.data_json))
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
        matches = [MatchResult(i, _aware(at), player, other, result) for i, at, player, other, result in played]
        players = league.players if chosen == league.season else ()
        rows = tuple(compute(players, matches, league.points))
        await self._save_snapshot(league_id, chosen, league.version, rows)
        return Standings(league, chosen, rows, league.version, cached=False)

    async def _save_snapshot(self, league_id: int, season: int, version: int, rows: Sequence[Row]) -> None:
        data = json.dumps([row.to_dict() for row in rows], separators=(",", ":"))
        moment = _now()
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
                if _rowcount(changed) == 0:
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


# --- privacy (used by PrivacyStore) --------------------------------------------------------------------------------


async def league_export(session: AsyncSession, *, user: str | None, guild: str | None) -> dict[str, Any]:
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
        "league_matches": [match_dict(_match_info(row)) for row in matches],
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
                "at": _aware(row.created_at).isoformat(),
            }
            for row in events
        ],
    }


async def league_forget_user(session: AsyncSession, user: str) -> dict[str, int]:
    """Replace a user's id everywhere in the leagues by a pseudonym of their own.

    Their games stay in their opponents' standings (deleting them would rewrite other people's results), but
    nothing left names them. One pseudonym per deleted user, so two deleted players never merge into one row.
    """
    alias = f"deleted-{secrets.token_hex(4)}"
    changed = 0
    for column in (LeagueMatch.reporter_id, LeagueMatch.opponent_id, LeagueMatch.created_by, LeagueMatch.decided_by):
        changed += _rowcount(await session.execute(update(LeagueMatch).where(column == user).values({column: alias})))
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
    events = _rowcount(await session.execute(update(LeagueEvent).where(LeagueEvent.actor == user).values(actor=alias)))
    players = _rowcount(
        await session.execute(update(LeaguePlayer).where(LeaguePlayer.user_id == user).values(user_id=alias))
    )
    await session.execute(delete(LeagueOrganiser).where(LeagueOrganiser.user_id == user))
    await session.execute(update(League).where(League.created_by == user).values(created_by=alias))
    await session.execute(update(League).values(version=League.version + 1))  # every cached table is stale
    return {"league_matches_anonymised": changed, "league_events_anonymised": events, "league_memberships": players}


def _row_from(item: dict[str, Any]) -> Row:
    history = [(int(match), datetime.fromisoformat(when), float(rating)) for match, when, rating in item["history"]]
    return Row(
        player=item["player"], played=item["played"], won=item["won"], drawn=item["drawn"], lost=item["lost"],
        points=item["points"], rating=float(item["rating"]), rank=item["rank"], history=history,
    )  # fmt: skip


def match_dict(match: MatchInfo) -> dict[str, Any]:
    data = asdict(match)
    for key in ("created_at", "confirm_by", "decided_at"):
        data[key] = None if data[key] is None else data[key].isoformat()
    data["combats"] = list(match.combats)
    return data


__all__ = [
    "AUTO",
    "Actor",
    "AuditEntry",
    "LeagueError",
    "LeagueInfo",
    "LeagueNotFound",
    "LeagueStore",
    "MatchInfo",
    "MatchNotFound",
    "MatchStateError",
    "NotAllowed",
    "ReportOutcome",
    "Standings",
    "check_name",
    "match_dict",
    "pair_key",
    "parse_combats",
]
