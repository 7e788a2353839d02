"""Combat records: append-only resolutions (with void and note events), how one continues another, dice rolls.

Every write is one transaction; reads return plain frozen records, never ORM objects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import exists, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.storage.db import aware, now
from bot.storage.models import CombatRecord, DiceRoll, RecordEvent
from rules_core.errors import Do, Hint, RefereeError
from rules_core.report import Report, thaw
from rules_core.spec import group_head

EVENT_KINDS = ("void", "note")


class AlreadyContinued(RefereeError, ValueError):
    def __init__(self, record_id: int, by: int | None) -> None:
        then = f" as #{by}: continue #{by} instead" if by is not None else ""
        super().__init__(f"Record #{record_id}'s combat has already been continued{then}.")
        self.record_id, self.by = record_id, by


class RecordNotFound(RefereeError, LookupError):
    def __init__(self, record_id: int) -> None:
        super().__init__(f"There is no combat record #{record_id}.", hint=Hint(Do.LIST_RECORDS))
        self.record_id = record_id


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


@dataclass(frozen=True, slots=True)
class RecordRequest:
    """One resolution to store, with who asked and where (for :meth:`Records.add_many`)."""

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


class Records:
    """The combat records of one store (``store.records``)."""

    def __init__(self, engine: AsyncEngine, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.engine = engine
        self.sessions = sessions

    async def add(
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

    async def add_many(self, requests: Sequence[RecordRequest]) -> list[int]:
        """Store several resolutions in one transaction (all or none); their ids, in order."""
        rows = [_record_row(r.report, requested_by=r.requested_by, opponent=r.opponent, guild_id=r.guild_id,
                            channel_id=r.channel_id, at=r.at, continues=r.continues) for r in requests]  # fmt: skip
        statement = insert(CombatRecord).returning(CombatRecord.id, sort_by_parameter_order=True)
        async with self.engine.begin() as connection:
            result = await connection.execute(statement, rows)
            return [int(row[0]) for row in result.all()]

    async def add_roll(
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
            created_at=aware(row.created_at),
            history=tuple(RecordNote(n.kind, n.actor, n.reason, aware(n.created_at)) for n in notes),
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
                created_at=aware(r[9]),
                voided=bool(r[10]),
            )
            for r in rows
        ]


__all__ = [
    "EVENT_KINDS",
    "AlreadyContinued",
    "RecordNotFound",
    "RecordNote",
    "RecordRequest",
    "RecordSummary",
    "Records",
    "StoredCombat",
    "side_name",
]
