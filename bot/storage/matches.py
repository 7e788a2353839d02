"""League matches in the store: reported, confirmed or disputed, resolved, voided, corrected or entered.
Long because the sweep's claims (``confirm_due``, ``claim_reminders``) apply the players' compare-and-set in
batches, and belong beside it.

The league domain (``bot.leagues.transitions`` and ``permissions``) decides whether a change is allowed and what
it is; this module applies it as a conditional update (``... WHERE status IN expected``), so that of two clicks,
two processes or a click and the auto-confirmation, exactly one takes effect and the others are told what
already happened. Each change is one transaction that also appends its audit event and moves the league's
version on (its cached standings are then stale).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Actor
from bot.leagues import permissions, rules, transitions
from bot.leagues.model import AUTO, Agreement, Decision, MatchInfo, MatchPost, Reminder, ReportOutcome, pair_key
from bot.leagues.transitions import Transition
from bot.storage.db import now, rowcount
from bot.storage.league_rows import (
    add_event,
    agreements,
    bump,
    is_organiser,
    is_player,
    league_row,
    match_info,
    match_row,
    require_organiser,
)
from bot.storage.models import CombatRecord, League, LeagueMatch, LeagueSeason
from bot.storage.records import visible_combats
from rules_core.errors import Do, example

log = logging.getLogger("referee.leagues")

REMIND_BEFORE = timedelta(hours=24)  # the opponent is reminded this long before a report confirms itself
SWEEP_BATCH = 50  # due matches a sweep claims and changes in one transaction


def _chosen(
    query: Select[Any], league_id: int, season: int | None, player: str | None, statuses: Iterable[str] | None
) -> Select[Any]:
    query = query.where(LeagueMatch.league_id == league_id)
    if season is not None:
        query = query.where(LeagueMatch.season == season)
    if player is not None:
        query = query.where((LeagueMatch.reporter_id == player) | (LeagueMatch.opponent_id == player))
    if statuses is not None:
        query = query.where(LeagueMatch.status.in_(list(statuses)))
    return query


class Matches:
    """The league matches of one store (``store.matches``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def get(self, match_id: int, *, actor: Actor) -> MatchInfo:
        async with self.sessions() as session:
            return match_info(await match_row(session, match_id, actor))

    async def in_league(
        self, league_id: int, *, actor: Actor, season: int | None = None, player: str | None = None,
        limit: int | None = None, statuses: Iterable[str] | None = None, offset: int = 0,
    ) -> list[MatchInfo]:  # fmt: skip
        """The league's matches, newest first (``offset`` of them skipped: a page of a long list)."""
        query = _chosen(select(LeagueMatch), league_id, season, player, statuses)
        query = query.order_by(LeagueMatch.created_at.desc(), LeagueMatch.id.desc())
        if limit is not None:
            query = query.limit(limit)
        if offset:
            query = query.offset(offset)
        async with self.sessions() as session:
            await league_row(session, league_id, actor)
            return [match_info(row) for row in (await session.scalars(query)).all()]

    async def count_in_league(
        self, league_id: int, *, actor: Actor, season: int | None = None, player: str | None = None,
        statuses: Iterable[str] | None = None,
    ) -> int:  # fmt: skip
        """How many matches :meth:`in_league` would list without a limit (the pages of the web's list)."""
        query = _chosen(select(func.count()).select_from(LeagueMatch), league_id, season, player, statuses)
        async with self.sessions() as session:
            await league_row(session, league_id, actor)
            return int(await session.scalar(query) or 0)

    # --- helpers for changes ------------------------------------------------------------------------------------

    async def _require_neutral(self, session: AsyncSession, match: LeagueMatch, actor: Actor, doing: str) -> None:
        league = await league_row(session, match.league_id, actor)
        organiser = await is_organiser(session, league.id, actor)
        permissions.require_neutral(actor, match_info(match), organiser=organiser, league_name=league.name,
                                    doing=doing)  # fmt: skip

    async def _apply(
        self, session: AsyncSession, row: LeagueMatch, change: Transition, actor: str, at: datetime
    ) -> MatchInfo:
        """Change a match only if it is still in one of the expected states; log before and after."""
        after = await self._change(session, row, change, actor, at)
        if after is None:
            current = await session.scalar(select(LeagueMatch.status).where(LeagueMatch.id == row.id))
            raise transitions.refused(row.id, current)
        await bump(session, row.league_id)
        return after

    async def _change(
        self, session: AsyncSession, row: LeagueMatch, change: Transition, actor: str, at: datetime
    ) -> MatchInfo | None:
        """:meth:`_apply` without moving the league's version on; None (and nothing changed) when the match is no
        longer in an expected state."""
        before = match_info(row)
        result = await session.execute(
            update(LeagueMatch)
            .where(LeagueMatch.id == row.id, LeagueMatch.status.in_(list(change.expect)))
            .values(**change.values)
            .execution_options(synchronize_session=False)
        )
        if rowcount(result) != 1:
            return None
        await session.refresh(row)
        after = match_info(row)
        add_event(session, row.league_id, change.kind, actor, at, match_id=row.id, reason=change.reason,
                    before=before.state(), after=after.state())  # fmt: skip
        return after

    async def _pending_between(self, session: AsyncSession, league_id: int, one: str, other: str) -> LeagueMatch | None:
        return await session.scalar(
            select(LeagueMatch).where(
                LeagueMatch.league_id == league_id,
                LeagueMatch.pair_key == pair_key(one, other),
                LeagueMatch.status == "pending",
            )
        )

    # --- changes -------------------------------------------------------------------------------------------------

    async def _check_combats(
        self, session: AsyncSession, league: League, combats: tuple[int, ...], actor: Actor, players: tuple[str, str]
    ) -> None:
        """The combats exist, the actor may see them (else they are "not found"), no other match uses them, and, in
        a league that requires it, each was agreed between the match's two ``players`` (bot/leagues/rules.py)."""
        if not combats:
            return
        league_id = league.id
        chosen = select(CombatRecord.id).where(CombatRecord.id.in_(combats), visible_combats(actor))
        found = set((await session.scalars(chosen)).all())
        used = (
            await session.execute(
                select(LeagueMatch.id, LeagueMatch.combats).where(
                    LeagueMatch.league_id == league_id, LeagueMatch.status != "void", LeagueMatch.combats != ""
                )
            )
        ).all()
        rules.check_combats_free(combats, found, [(int(match_id), str(listed)) for match_id, listed in used])
        if league.require_agreed:
            rules.check_agreed(combats, await agreements(session, combats), players, game=league.game, required=True)

    async def agreements(self, record_ids: Iterable[int]) -> dict[int, Agreement]:
        """Which of these combat records count as agreed by both players, and by whom (the match view's mark): an
        agreement accepted on Discord whose dice hold to their commitment (:attr:`Agreement.counts`)."""
        async with self.sessions() as session:
            found = await agreements(session, record_ids)
        return {record_id: agreed for record_id, agreed in found.items() if agreed.counts}

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
        cleaned_notes = rules.check_notes(notes, example(notes="Played on the city board"))
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
            league = await league_row(session, league_id, actor)
            permissions.require_reporter_plays(league.name, playing=await is_player(session, league_id, actor.user))
            permissions.require_member(opponent, league.name, playing=await is_player(session, league_id, opponent))
            season = await session.get(LeagueSeason, (league_id, league.season))
            rules.check_open_season(league.name, league.season, is_open=season is not None and season.ended_at is None)
            waiting = await self._pending_between(session, league_id, actor.user, opponent)
            if waiting is not None:
                kind, change = transitions.answer_report(match_info(waiting), actor, result, moment)
                return ReportOutcome(kind, await self._apply(session, waiting, change, actor.user, moment))
            await self._check_combats(session, league, combats, actor, (actor.user, opponent))
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=actor.user, opponent_id=opponent,
                result=result, score=score, combats=",".join(map(str, combats)), notes=notes, status="pending",
                source="report", pair_key=pair_key(actor.user, opponent), created_by=actor.user, created_at=moment,
                confirm_by=transitions.confirm_by(moment, league.confirm_hours),
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = match_info(row)
            add_event(session, league_id, "reported", actor.user, moment, match_id=row.id, after=info.state())
            return ReportOutcome("created", info)

    async def confirm(self, match_id: int, *, actor: Actor, at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        async with self.sessions.begin() as session:
            row = await match_row(session, match_id, actor)
            return await self._apply(session, row, transitions.confirm(match_info(row), actor, moment), actor.user,
                                     moment)  # fmt: skip

    async def dispute(self, match_id: int, *, actor: Actor, reason: str = "", at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        why = rules.check_reason(reason, example(reason="It was a draw"))
        async with self.sessions.begin() as session:
            row = await match_row(session, match_id, actor)
            return await self._apply(session, row, transitions.dispute(match_info(row), actor, why), actor.user, moment)

    async def resolve(
        self, match_id: int, decision: Decision, *, actor: Actor, reason: str = "", at: datetime | None = None
    ) -> MatchInfo:
        """An organiser settles a disputed match: the result (the reporter's) stands or changes, or it is void."""
        moment = at or now()
        why = rules.check_reason(reason, example(reason="Both agreed it was a draw"))
        if decision != "void":
            rules.check_result(decision)
        async with self.sessions.begin() as session:
            row = await match_row(session, match_id, actor)
            await self._require_neutral(session, row, actor, "resolve a dispute")
            return await self._apply(
                session, row, transitions.resolve(decision, actor, why, moment), actor.user, moment
            )

    async def void(self, match_id: int, *, actor: Actor, reason: str, at: datetime | None = None) -> MatchInfo:
        moment = at or now()
        why = rules.check_reason(
            reason, example(match=12, reason="Entered twice", do=Do.VOID_MATCH),
            required="Say why the match is voided.",
        )  # fmt: skip
        async with self.sessions.begin() as session:
            row = await match_row(session, match_id, actor)
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
            reason, example(reason="Scores were swapped"),
            required="Say why the result is corrected.",
        )  # fmt: skip
        cleaned_score = rules.check_score(score)
        async with self.sessions.begin() as session:
            row = await match_row(session, match_id, actor)
            await self._require_neutral(session, row, actor, "correct a result")
            change = transitions.correct(actor, result, cleaned_score, why, moment)
            return await self._apply(session, row, change, actor.user, moment)

    async def enter(
        self, league_id: int, *, actor: Actor, player: str, opponent: str, result: str, score: str | None = None,
        combats: str | Sequence[int] | None = None, notes: str = "", at: datetime | None = None,
    ) -> MatchInfo:  # fmt: skip
        """An organiser enters a game directly: confirmed at once (``result`` is ``player``'s).

        In a league that requires agreed combats, the combats an entry lists are held to the same rule as a report's
        (agreed, between ``player`` and ``opponent``): the setting says which combats count in the league, and an
        organiser's entry must not be a way round it. An entry listing none passes, as a report does."""
        moment = at or now()
        rules.check_result(result)
        cleaned_score = rules.check_score(score)
        cleaned_notes = rules.check_notes(notes, example(notes="Played at the club"))
        chosen = rules.parse_combats(combats)
        rules.check_two_players(player, opponent)
        async with self.sessions.begin() as session:
            league = await league_row(session, league_id, actor)
            await require_organiser(session, league, actor, "enter results")
            permissions.require_not_playing(actor, player, opponent)
            for user in (player, opponent):
                permissions.require_member(user, league.name, playing=await is_player(session, league_id, user))
            waiting = await self._pending_between(session, league_id, player, opponent)
            transitions.require_nothing_pending(None if waiting is None else waiting.id)
            await self._check_combats(session, league, chosen, actor, (player, opponent))
            row = LeagueMatch(
                league_id=league_id, season=league.season, reporter_id=player, opponent_id=opponent, result=result,
                score=cleaned_score, combats=",".join(map(str, chosen)), notes=cleaned_notes, status="confirmed",
                source="organiser", pair_key=pair_key(player, opponent), created_by=actor.user, created_at=moment,
                confirm_by=None, decided_by=actor.user, decided_at=moment,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            info = match_info(row)
            add_event(session, league_id, "entered", actor.user, moment, match_id=row.id, after=info.state())
            await bump(session, league_id)
            return info

    async def confirm_due(self, *, at: datetime | None = None, limit: int = 500) -> list[MatchInfo]:
        """Confirm every pending report whose window has passed (each bot process runs this every minute and on
        start); the matches this call confirmed.

        Several processes sweep at once: each claims up to :data:`SWEEP_BATCH` due matches with ``SELECT ... FOR
        UPDATE SKIP LOCKED`` in the transaction that confirms them, so a match another sweep (or a player's click)
        holds is left to it rather than waited for, and each due match is confirmed, then announced, by exactly one
        process. The compare-and-set of :meth:`_change` still decides against a player who answered first (and is
        all there is on SQLite, which has no row locks and one writer at a time).

        Each match is changed under its own savepoint: one that fails (a bad row, a constraint) is logged and skipped,
        and the rest of its batch is still confirmed (else, first in the deadline order, it would roll its whole
        batch back every minute and stall every match behind it); later batches of this sweep pass over it.
        """
        moment = at or now()
        confirmed: list[MatchInfo] = []
        failed: set[int] = set()
        looked_at = 0
        while looked_at < limit:
            async with self.sessions.begin() as session:
                due = select(LeagueMatch).where(LeagueMatch.status == "pending", LeagueMatch.confirm_by <= moment)
                if failed:
                    due = due.where(LeagueMatch.id.not_in(failed))
                rows = (await session.scalars(_claim(due, min(SWEEP_BATCH, limit - looked_at)))).all()
                looked_at += len(rows)
                leagues: set[int] = set()
                for row in rows:
                    match_id, league_id = row.id, row.league_id
                    try:
                        async with session.begin_nested():  # its event is flushed in here too
                            done = await self._change(session, row, transitions.auto_confirm(moment), AUTO, moment)
                    except Exception:  # one bad row must not stop the others: logged, left pending
                        log.exception("league match #%s could not be confirmed automatically; skipped", match_id)
                        failed.add(match_id)
                        continue
                    if done is not None:  # else a player's confirmation or dispute came first: theirs is the effect
                        confirmed.append(done)
                        leagues.add(league_id)
                # Once a league per batch, in one order in every process: sweeps may queue there, never deadlock.
                for league_id in sorted(leagues):
                    await bump(session, league_id)
            if len(rows) < SWEEP_BATCH:
                break  # nothing more is due, or what is left is held by another sweep
        return confirmed

    # --- the report's message, and the reminder ----------------------------------------------------------------

    async def attach_post(self, match_id: int, *, channel_id: str, message_id: str) -> None:
        """Remember where a match was reported (the message with its buttons): its first message only."""
        async with self.sessions.begin() as session:
            await session.execute(
                update(LeagueMatch)
                .where(LeagueMatch.id == match_id, LeagueMatch.message_id.is_(None))
                .values(channel_id=channel_id, message_id=message_id)
                .execution_options(synchronize_session=False)
            )

    async def posts(self, match_ids: Iterable[int]) -> dict[int, MatchPost]:
        """Where each match was reported (the operator's view: for the bot's own follow-ups)."""
        chosen = list(match_ids)
        if not chosen:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(LeagueMatch.id, League.guild_id, LeagueMatch.channel_id, LeagueMatch.message_id)
                .join(League, League.id == LeagueMatch.league_id)
                .where(LeagueMatch.id.in_(chosen))
            )
            return {int(match_id): MatchPost(guild, channel, message) for match_id, guild, channel, message in rows}

    async def claim_reminders(self, *, at: datetime | None = None, limit: int = 100) -> list[Reminder]:
        """The pending reports that confirm themselves within :data:`REMIND_BEFORE` and whose opponent has not been
        reminded, each marked reminded here, before any message is sent: a reminder is sent at most once, by one
        process, even across a restart. A report whose whole window is shorter than that gets none (its report
        pinged the opponent moments before).

        Claimed like :meth:`confirm_due`'s matches (``FOR UPDATE SKIP LOCKED`` in the transaction that marks them),
        so processes sweeping at once split the reminders between them instead of waiting on each other's rows.
        """
        moment = at or now()
        claimed: list[MatchInfo] = []
        after: tuple[datetime, int] | None = None  # where the last batch ended: short windows are passed over
        while len(claimed) < limit:
            query = select(LeagueMatch).where(
                LeagueMatch.status == "pending",
                LeagueMatch.reminded_at.is_(None),
                LeagueMatch.confirm_by > moment,
                LeagueMatch.confirm_by <= moment + REMIND_BEFORE,
            )
            if after is not None:
                query = query.where(
                    (LeagueMatch.confirm_by > after[0])
                    | ((LeagueMatch.confirm_by == after[0]) & (LeagueMatch.id > after[1]))
                )
            async with self.sessions.begin() as session:
                rows = (await session.scalars(_claim(query, min(SWEEP_BATCH, limit - len(claimed))))).all()
                for row in rows:
                    match = match_info(row)
                    if match.confirm_by is None or match.confirm_by - match.created_at <= REMIND_BEFORE:
                        continue
                    result = await session.execute(
                        update(LeagueMatch)
                        .where(LeagueMatch.id == row.id, LeagueMatch.status == "pending",
                               LeagueMatch.reminded_at.is_(None))
                        .values(reminded_at=moment)
                        .execution_options(synchronize_session=False)
                    )  # fmt: skip
                    if rowcount(result) == 1:  # the compare-and-set: only SQLite can have lost the race here
                        claimed.append(match)
            if not rows:
                break
            last = rows[-1]
            after = (last.confirm_by, last.id) if last.confirm_by is not None else None
            if len(rows) < SWEEP_BATCH or after is None:
                break
        posts = await self.posts(match.id for match in claimed)
        return [Reminder(match, posts[match.id]) for match in claimed]


def _claim(query: Select[Any], batch: int) -> Select[Any]:
    """The first ``batch`` rows of ``query`` in the sweep's order (oldest deadline first), locked for this
    transaction; rows another transaction holds are skipped, not waited for (PostgreSQL; SQLite ignores it)."""
    return (
        query.order_by(LeagueMatch.confirm_by, LeagueMatch.id)
        .limit(batch)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )


__all__ = ["REMIND_BEFORE", "SWEEP_BATCH", "Matches"]
