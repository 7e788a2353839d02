"""The store: combat records (append-only, with void and note events) and rosters, on SQLite or PostgreSQL.

Everything here is async (one ``async_sessionmaker`` per store, ``expire_on_commit=False``) and returns plain
frozen records, never ORM objects. Writes are one transaction each, so a failure leaves nothing half-written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import delete, exists, insert, or_, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from bot.storage.db import create_engine, database_url, ensure_schema
from bot.storage.leagues import LeagueStore, league_export, league_forget_user
from bot.storage.models import CombatRecord, DiceRoll, League, RecordEvent, Roster
from rules_core.errors import RefereeError
from rules_core.report import Report, thaw
from rules_core.spec import group_head

LOCAL_USER = "local"  # the owner and requester for everything done through the offline `referee` command
EVENT_KINDS = ("void", "note")


class AlreadyContinued(ValueError):
    def __init__(self, record_id: int, by: int | None) -> None:
        then = f" as #{by}: continue #{by} instead" if by is not None else ""
        super().__init__(f"Record #{record_id}'s combat has already been continued{then}.")
        self.record_id, self.by = record_id, by


class RecordNotFound(LookupError):
    def __init__(self, record_id: int) -> None:
        super().__init__(f"There is no combat record #{record_id}. 'referee history' lists the recent ones.")
        self.record_id = record_id


def now() -> datetime:
    return datetime.now(UTC)


def side_name(spec: str) -> str:
    """The first group's name of a canonical spec, for short listings (``10x Tactical Marine: ...``)."""
    try:
        return group_head(spec)[1]
    except RefereeError:
        return spec[:30]


@dataclass(frozen=True, slots=True)
class RecordNote:
    kind: str  # "void" or "note"
    actor: str
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredCombat:
    id: int
    game: str
    report: Report
    report_json: str
    requested_by: str
    opponent: str | None
    guild_id: str | None
    channel_id: str | None
    created_at: datetime
    history: tuple[RecordNote, ...]
    continues_id: int | None = None  # the record whose combat this one continues

    @property
    def voided(self) -> bool:
        return any(note.kind == "void" for note in self.history)


@dataclass(frozen=True, slots=True)
class RecordSummary:
    id: int
    game: str
    attacker: str
    defender: str
    outcome: str
    winner: str
    requested_by: str
    opponent: str | None
    guild_id: str | None
    created_at: datetime
    voided: bool


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for timezone-aware columns; everything stored is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# --- rosters --------------------------------------------------------------------------------------------------


class RosterNotFound(LookupError):
    pass


class RosterExists(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class RosterInput:
    """A roster to save: already checked by its game's parser (bot.rosters does that)."""

    game: str
    name: str
    spec: str
    description: str = ""


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


def _saved(row: Roster) -> SavedRoster:
    return SavedRoster(
        row.owner,
        row.game,
        row.name,
        row.spec,
        row.description,
        row.guild_id,
        _aware(row.created_at),
        _aware(row.updated_at),
    )


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
        return existing
    row = Roster(
        owner=owner,
        game=roster.game,
        name=roster.name,
        spec=roster.spec,
        description=roster.description,
        guild_id=guild_id,
        created_at=at,
        updated_at=at,
    )
    session.add(row)
    return row


class RosterStore:
    """Roster operations, mixed into :class:`Store`."""

    sessions: async_sessionmaker[AsyncSession]

    async def save_roster(
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

    async def import_rosters(
        self, owner: str, rosters: Sequence[RosterInput], *, replace: bool = False, at: datetime | None = None
    ) -> list[SavedRoster]:
        """Save several rosters in one transaction: all of them, or (on any failure) none."""
        moment = at or now()
        async with self.sessions.begin() as session:
            rows = [
                await _save_in(session, owner, roster, guild_id=None, at=moment, replace=replace) for roster in rosters
            ]
            await session.flush()
            return [_saved(row) for row in rows]

    async def get_roster(self, owner: str, game: str, name: str, *, guild_id: str | None = None) -> SavedRoster:
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
        if row is None:
            raise RosterNotFound(
                f"There is no {game} roster named '{name}'. 'referee roster list --game {game}' shows yours."
            )
        return _saved(row)

    async def list_rosters(
        self, owner: str, *, game: str | None = None, guild_id: str | None = None
    ) -> list[SavedRoster]:
        """The owner's rosters, and those shared with ``guild_id``, by game then name."""
        query = select(Roster)
        visible = Roster.owner == owner if guild_id is None else (Roster.owner == owner) | (Roster.guild_id == guild_id)
        query = query.where(visible)
        if game is not None:
            query = query.where(Roster.game == game)
        async with self.sessions() as session:
            rows = (await session.scalars(query.order_by(Roster.game, Roster.name, Roster.id))).all()
        return [_saved(row) for row in rows]

    async def delete_roster(self, owner: str, game: str, name: str) -> None:
        async with self.sessions.begin() as session:
            row = await session.scalar(
                select(Roster).where(Roster.owner == owner, Roster.game == game, Roster.name == name)
            )
            if row is None:
                raise RosterNotFound(f"You have no {game} roster named '{name}'.")
            await session.delete(row)


# --- privacy ----------------------------------------------------------------------------------------------------

DELETED_USER = "deleted-user"


async def _change(session: AsyncSession, statement: Any) -> int:
    """Run a bulk DELETE or UPDATE; the number of rows it touched."""
    result = cast(CursorResult[Any], await session.execute(statement))
    return int(result.rowcount)


def _record_dict(row: CombatRecord) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "created_at": _aware(row.created_at).isoformat(),
        "requested_by": row.requested_by,
        "opponent": row.opponent,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "report": json.loads(row.report_json),
        "history": [
            {"kind": e.kind, "actor": e.actor, "reason": e.reason, "at": _aware(e.created_at).isoformat()}
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
        "created_at": _aware(row.created_at).isoformat(),
        "updated_at": _aware(row.updated_at).isoformat(),
    }


class PrivacyStore:
    """Everything stored about one user or one guild: exported, or deleted, in one go. Mixed into Store."""

    sessions: async_sessionmaker[AsyncSession]

    @staticmethod
    def _scope(user: str | None, guild: str | None) -> tuple[Any, Any]:
        if (user is None) == (guild is None):
            raise ValueError("give exactly one of a user or a guild")
        if user is not None:
            records = or_(CombatRecord.requested_by == user, CombatRecord.opponent == user)
            return records, Roster.owner == user
        return CombatRecord.guild_id == guild, Roster.guild_id == guild

    async def export_data(self, *, user: str | None = None, guild: str | None = None) -> dict[str, Any]:
        """Every record and roster of the user (records they asked for or were named in) or of the guild."""
        records_filter, rosters_filter = self._scope(user, guild)
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
            leagues = await league_export(session, user=user, guild=guild)
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
                    "created_at": _aware(r.created_at).isoformat(),
                }
                for r in rolls
            ],
            **leagues,
        }

    async def delete_data(self, *, user: str | None = None, guild: str | None = None) -> dict[str, int]:
        """Delete a user's or a guild's data in one transaction; returns what was deleted or anonymised.

        A user: the records they asked for (with their history) and their rosters are deleted; where they were
        only the named opponent, or wrote a note, their id is replaced by ``deleted-user``. A guild: its records
        are deleted and rosters shared with it become private again (the rosters belong to their owners).
        """
        self._scope(user, guild)
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
                    **await league_forget_user(session, user),
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


@dataclass(frozen=True, slots=True)
class RecordRequest:
    """One resolution to store, with who asked and where (for :meth:`Store.record_many`)."""

    report: Report
    requested_by: str
    opponent: str | None = None
    guild_id: str | None = None
    channel_id: str | None = None
    at: datetime | None = None
    continues: int | None = None


def _record_row(
    report: Report, *, requested_by: str, opponent: str | None, guild_id: str | None, channel_id: str | None,
    at: datetime | None, continues: int | None,
) -> dict[str, Any]:  # fmt: skip
    return {
        "game": report.game,
        "attacker_spec": report.inputs.attacker,
        "defender_spec": report.inputs.defender,
        "options_json": json.dumps(thaw(report.inputs.options), sort_keys=True),
        "seed": report.seed,
        "engine_version": report.engine_version,
        "report_json": report.to_json(indent=None),
        "outcome": report.result.outcome,
        "winner": report.result.winner.value,
        "requested_by": requested_by,
        "opponent": opponent,
        "guild_id": guild_id,
        "channel_id": channel_id,
        "created_at": at or now(),
        "continues_id": continues,
    }


class Store(RosterStore, PrivacyStore, LeagueStore):
    """One database. Open it with :meth:`open` (which checks or upgrades the schema) and :meth:`close` it."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        chosen = url or database_url()
        engine = create_engine(chosen)
        try:
            await ensure_schema(engine, chosen)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine, chosen)

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # --- combat records -------------------------------------------------------------------------------------

    async def record(
        self,
        report: Report,
        *,
        requested_by: str,
        opponent: str | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        at: datetime | None = None,
        continues: int | None = None,
    ) -> int:
        """Store one resolution; returns its record id. ``continues``: the record whose combat it carries on."""
        # One Core INSERT ... RETURNING in its own transaction: the hot path of every combat, kept lean.
        row = _record_row(report, requested_by=requested_by, opponent=opponent, guild_id=guild_id,
                          channel_id=channel_id, at=at, continues=continues)  # fmt: skip
        try:
            async with self.engine.begin() as connection:
                result = await connection.execute(insert(CombatRecord).values(**row).returning(CombatRecord.id))
                return int(result.scalar_one())
        except IntegrityError:
            if continues is None:
                raise
            raise AlreadyContinued(continues, await self.continued_by(continues)) from None

    async def record_many(self, requests: Sequence[RecordRequest]) -> list[int]:
        """Store several resolutions in one transaction (all or none); their ids, in order."""
        rows = [_record_row(r.report, requested_by=r.requested_by, opponent=r.opponent, guild_id=r.guild_id,
                            channel_id=r.channel_id, at=r.at, continues=r.continues) for r in requests]  # fmt: skip
        statement = insert(CombatRecord).returning(CombatRecord.id, sort_by_parameter_order=True)
        async with self.engine.begin() as connection:
            result = await connection.execute(statement, rows)
            return [int(row[0]) for row in result.all()]

    async def record_roll(
        self, expression: str, result: str, total: int, *, requested_by: str, guild_id: str | None = None,
        channel_id: str | None = None, at: datetime | None = None,
    ) -> int:  # fmt: skip
        """Keep a generic dice roll with every die (it is not replayable from a seed)."""
        row = DiceRoll(expression=expression, result=result, total=total, requested_by=requested_by,
                       guild_id=guild_id, channel_id=channel_id, created_at=at or now())  # fmt: skip
        async with self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            return row.id

    async def continued_by(self, record_id: int) -> int | None:
        """The record that continues this one's combat, if any."""
        async with self.sessions() as session:
            found = await session.scalar(select(CombatRecord.id).where(CombatRecord.continues_id == record_id))
        return None if found is None else int(found)

    async def get(self, record_id: int) -> StoredCombat:
        async with self.sessions() as session:
            row = await session.get(CombatRecord, record_id)
            if row is None:
                raise RecordNotFound(record_id)
            notes = (
                await session.scalars(
                    select(RecordEvent).where(RecordEvent.record_id == record_id).order_by(RecordEvent.id)
                )
            ).all()
        return StoredCombat(
            id=row.id,
            game=row.game,
            report=Report.from_json(row.report_json),
            report_json=row.report_json,
            requested_by=row.requested_by,
            opponent=row.opponent,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            created_at=_aware(row.created_at),
            history=tuple(RecordNote(n.kind, n.actor, n.reason, _aware(n.created_at)) for n in notes),
            continues_id=row.continues_id,
        )

    async def add_note(self, record_id: int, kind: str, *, actor: str, reason: str, at: datetime | None = None) -> None:
        """Void or annotate a record: the record itself never changes; the note joins its history."""
        if kind not in EVENT_KINDS:
            raise ValueError(f"a record note is one of {EVENT_KINDS}, not {kind!r}")
        async with self.sessions.begin() as session:
            if await session.get(CombatRecord, record_id) is None:
                raise RecordNotFound(record_id)
            session.add(RecordEvent(record_id=record_id, kind=kind, actor=actor, reason=reason, created_at=at or now()))

    async def history(
        self,
        *,
        game: str | None = None,
        requested_by: str | None = None,
        guild_id: str | None = None,
        include_voided: bool = True,
        before_id: int | None = None,
        limit: int = 20,
    ) -> list[RecordSummary]:
        """The most recent records first, filtered; ``before_id`` pages back."""
        voided = exists().where(RecordEvent.record_id == CombatRecord.id, RecordEvent.kind == "void")
        query = select(
            CombatRecord.id,
            CombatRecord.game,
            CombatRecord.attacker_spec,
            CombatRecord.defender_spec,
            CombatRecord.outcome,
            CombatRecord.winner,
            CombatRecord.requested_by,
            CombatRecord.opponent,
            CombatRecord.guild_id,
            CombatRecord.created_at,
            voided.label("voided"),
        )
        if game is not None:
            query = query.where(CombatRecord.game == game)
        if requested_by is not None:
            query = query.where(CombatRecord.requested_by == requested_by)
        if guild_id is not None:
            query = query.where(CombatRecord.guild_id == guild_id)
        if before_id is not None:
            query = query.where(CombatRecord.id < before_id)
        if not include_voided:
            query = query.where(~voided)
        query = query.order_by(CombatRecord.id.desc()).limit(max(1, min(limit, 200)))
        async with self.sessions() as session:
            rows: Sequence[Any] = (await session.execute(query)).all()
        return [
            RecordSummary(
                id=int(str(r[0])),
                game=str(r[1]),
                attacker=side_name(str(r[2])),
                defender=side_name(str(r[3])),
                outcome=str(r[4]),
                winner=str(r[5]),
                requested_by=str(r[6]),
                opponent=None if r[7] is None else str(r[7]),
                guild_id=None if r[8] is None else str(r[8]),
                created_at=_aware(r[9]),
                voided=bool(r[10]),
            )
            for r in rows
        ]
