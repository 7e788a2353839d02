"""Combat records: append-only resolutions (with void and note events), how one continues another, dice rolls.
Long because the aggregate's reads (by id, by web slug, listed), writes and refusals stay together, so its access
rule (bot/access.py) is applied in this one module.

Every write is one transaction; reads return plain frozen records, never ORM objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, DateTime, String, Text, and_, exists, insert, literal, or_, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.access import Actor, may_void_combat, sees_combat
from bot.seals import MadeChallenge
from bot.storage.db import aware, now, rowcount
from bot.storage.models import CombatRecord, DiceRoll, RecordEvent, new_slug
from bot.storage.seals import made_challenges
from rules_core.errors import Do, Hint, LimitError, Mention, RefereeError
from rules_core.report import Report, thaw
from rules_core.spec import group_head

EVENT_KINDS = ("void", "note")
MAX_NOTE_CHARS = 1_000  # a note added to a record's history
MAX_VOID_REASON_CHARS = 500  # why a record is void (Discord's /void takes as much)


class AlreadyContinued(RefereeError, ValueError):
    def __init__(self, record_id: int, by: int | None) -> None:
        then = f" as #{by}: continue #{by} instead" if by is not None else ""
        super().__init__(f"Record #{record_id}'s combat has already been continued{then}.")
        self.record_id, self.by = record_id, by


class RecordNotFound(RefereeError, LookupError):
    """No such record, or none the actor may see: the two answer alike, so ids cannot be probed."""

    def __init__(self, record_id: int) -> None:
        super().__init__(f"There is no combat record #{record_id}.", hint=Hint(Do.LIST_RECORDS))
        self.record_id = record_id


class AlreadyVoid(RefereeError, ValueError):
    """A record is void once: a second void adds nothing."""

    def __init__(self, record_id: int, *, by: str, reason: str) -> None:
        shown = reason if len(reason) <= 80 else reason[:79] + "…"
        super().__init__([f"Record #{record_id} is already void (voided by ", Mention(by), f": '{shown}')."],
                         token=str(record_id))  # fmt: skip
        self.record_id = record_id


class VoidNotAllowed(RefereeError, PermissionError):
    def __init__(self, record_id: int, *, private: bool) -> None:
        who = "" if private else ", or a manager of the server it was resolved in,"
        super().__init__(f"Only the player who asked for combat #{record_id}{who} can void it.", token=str(record_id))
        self.record_id = record_id


def visible_combats(actor: Actor) -> ColumnElement[bool]:
    """The records ``actor`` may see, as a WHERE clause: bot/access.py ``sees_combat`` in SQL."""
    if actor.operator:
        return true()
    party = or_(CombatRecord.requested_by == actor.user, CombatRecord.opponent == actor.user)
    personal = and_(or_(CombatRecord.private.is_(True), CombatRecord.guild_id.is_(None)), party)
    if actor.guild is None:
        return personal
    public_here = and_(CombatRecord.private.is_(False), CombatRecord.guild_id == actor.guild)
    return or_(personal, public_here)


def _sees(actor: Actor, row: CombatRecord) -> bool:
    return sees_combat(actor, private=row.private, guild_id=row.guild_id, requested_by=row.requested_by,
                       opponent=row.opponent)  # fmt: skip


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
    private: bool = False  # only its requester and named opponent see it
    house_rules: tuple[str, ...] = ()  # which of the report's options came from its server's house rules
    slug: str = ""  # its web page's unguessable address (``/c/{slug}``)
    # Resolved from a challenge (bot/challenges): the commitment to its seed shown beforehand, the salt revealed
    # with it, what was agreed (JSON), and the seed column of its row (the report's own seed is in ``report``).
    commitment: str | None = None
    salt: str | None = None
    agreed_json: str | None = None
    row_seed: int | None = None
    # The challenge it was resolved from, as its row stands now (None: none is stored): verify compares them.
    challenge: MadeChallenge | None = None

    @property
    def voided(self) -> bool:
        return any(note.kind == "void" for note in self.history)

    @property
    def personal(self) -> bool:
        """Its two players' only (bot/access.py): private, or resolved in direct messages (no server's)."""
        return self.private or self.guild_id is None


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
    private: bool


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
    private: bool = False
    house_rules: tuple[str, ...] = ()  # the options that came from house rules (the report keeps their values)
    slug: str = field(default_factory=new_slug)  # its web page's address, known before it is written
    # Its own key, made before its first write: a retry finds the row an unacknowledged attempt wrote (find_written)
    write_key: str = field(default_factory=new_slug)


def _record_row(
    report: Report, *, requested_by: str, opponent: str | None, guild_id: str | None, channel_id: str | None,
    at: datetime | None, continues: int | None, private: bool, house_rules: Sequence[str] = (), slug: str | None = None,
    write_key: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    return {
        "slug": slug or new_slug(),
        "write_key": write_key,
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
        "private": private,
        "created_at": at or now(),
        "continues_id": continues,
        "house_rules": json.dumps(list(house_rules)) if house_rules else None,
    }


def house_rules_of(stored: str | None) -> tuple[str, ...]:
    """A record row's house-rule option names (NULL or "[]": none)."""
    return tuple(str(name) for name in json.loads(stored)) if stored else ()


def _check_reason(kind: str, reason: str) -> None:
    """A void's reason or a note: some text, within its limit (refused whole, never cut)."""
    if not reason.strip():
        raise RefereeError("Give a reason: what was wrong, or what the note says.", token=kind)
    limit = MAX_VOID_REASON_CHARS if kind == "void" else MAX_NOTE_CHARS
    if len(reason) > limit:
        what = "A void's reason" if kind == "void" else "A note"
        raise LimitError(f"{what} is {len(reason):,} characters long; the limit is {limit:,}.", token=kind)


async def _stored(session: AsyncSession, row: CombatRecord) -> StoredCombat:
    """A record's row, its history and the challenge it was resolved from as a plain frozen record."""
    notes = (
        await session.scalars(select(RecordEvent).where(RecordEvent.record_id == row.id).order_by(RecordEvent.id))
    ).all()
    made = await made_challenges(session, {row.id: row.agreed_json})
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
        private=row.private,
        house_rules=house_rules_of(row.house_rules),
        slug=row.slug,
        commitment=row.commitment,
        salt=row.salt,
        agreed_json=row.agreed_json,
        row_seed=row.seed,
        challenge=made.get(row.id),
    )


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
        private: bool = False,
        house_rules: Sequence[str] = (),
        slug: str | None = None,
        write_key: str | None = None,
    ) -> int:
        """Store one resolution; returns its record id. ``continues``: the record whose combat it carries on;
        ``private``: only its requester and named opponent see it; ``house_rules``: options from house rules;
        ``slug``: its web page's address (a new random one when not given); ``write_key``: its unique key, made
        before its first attempt (see :meth:`find_written`)."""
        # One Core INSERT ... RETURNING in its own transaction: the hot path of every combat, kept lean.
        row = _record_row(report, requested_by=requested_by, opponent=opponent, guild_id=guild_id,
                          channel_id=channel_id, at=at, continues=continues, private=private,
                          house_rules=house_rules, slug=slug, write_key=write_key)  # fmt: skip
        try:
            async with self.engine.begin() as connection:
                result = await connection.execute(insert(CombatRecord).values(**row).returning(CombatRecord.id))
                return int(result.scalar_one())
        except IntegrityError:
            if continues is None:
                raise
            who = Actor(requested_by, guild=guild_id)
            raise AlreadyContinued(continues, await self.continued_by(continues, actor=who) or None) from None

    async def add_many(self, requests: Sequence[RecordRequest]) -> list[int]:
        """Store several resolutions in one transaction (all or none); their ids, in order."""
        rows = [_record_row(r.report, requested_by=r.requested_by, opponent=r.opponent, guild_id=r.guild_id,
                            channel_id=r.channel_id, at=r.at, continues=r.continues, private=r.private,
                            house_rules=r.house_rules, slug=r.slug, write_key=r.write_key)
                for r in requests]  # fmt: skip
        statement = insert(CombatRecord).returning(CombatRecord.id, sort_by_parameter_order=True)
        async with self.engine.begin() as connection:
            result = await connection.execute(statement, rows)
            return [int(row[0]) for row in result.all()]

    async def find_written(self, write_keys: Iterable[str]) -> dict[str, int]:
        """The records already stored under these write keys (key -> record id): what an attempt whose
        acknowledgement was lost (the connection dropped as it committed) wrote after all. One indexed query."""
        keys = list(write_keys)
        if not keys:
            return {}
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                select(CombatRecord.write_key, CombatRecord.id).where(CombatRecord.write_key.in_(keys))
            )
            return {str(key): int(record_id) for key, record_id in rows}

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

    async def continued_by(self, record_id: int, *, actor: Actor) -> int | None:
        """The record that continues this one's combat, if any: its id if ``actor`` may see it, else 0 (continued,
        by a record they may not see, whose id is not theirs to learn)."""
        async with self.sessions() as session:
            row = await session.scalar(select(CombatRecord).where(CombatRecord.continues_id == record_id))
        if row is None:
            return None
        return row.id if _sees(actor, row) else 0

    async def get(self, record_id: int, *, actor: Actor) -> StoredCombat:
        """The record, if ``actor`` may see it; else RecordNotFound, exactly as if there were none."""
        async with self.sessions() as session:
            row = await session.get(CombatRecord, record_id)
            if row is None or not _sees(actor, row):
                raise RecordNotFound(record_id)
            return await _stored(session, row)

    async def by_slug(
        self, slug: str, *, shown: Callable[[bool, str | None], bool] | None = None
    ) -> StoredCombat | None:
        """The record with this web slug, whoever may see it: the web pages decide what is public
        (bot/web/combats.py), through ``shown(private, guild_id)``, asked of the row's visibility alone before its
        report and history are read (a hidden record costs what an unknown slug does). None when there is none, or
        ``shown`` says no."""
        if not slug or len(slug) > 32:
            return None
        async with self.sessions() as session:
            head = (
                await session.execute(
                    select(CombatRecord.id, CombatRecord.private, CombatRecord.guild_id).where(
                        CombatRecord.slug == slug
                    )
                )
            ).first()
            if head is None or (shown is not None and not shown(bool(head.private), head.guild_id)):
                return None
            row = await session.get(CombatRecord, head.id)
            return None if row is None else await _stored(session, row)

    async def public_slugs(self, record_ids: Iterable[int], guild_id: str) -> dict[int, str]:
        """The web slugs of those records that are public combats of ``guild_id`` (never a private one, nor another
        server's), by record id: a league page links a match's combats only through these."""
        wanted = sorted(set(record_ids))
        if not wanted:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(CombatRecord.id, CombatRecord.slug).where(
                    CombatRecord.id.in_(wanted), CombatRecord.guild_id == guild_id, CombatRecord.private.is_(False)
                )
            )
            return {int(record_id): str(slug) for record_id, slug in rows}

    async def add_note(
        self, record_id: int, kind: str, *, actor: Actor, reason: str, at: datetime | None = None
    ) -> None:
        """Void or annotate a record: the record itself never changes; the note joins its history.

        Whoever may see the record may annotate it; voiding is its requester's, or (for a public combat) a
        manager's of its server (bot/access.py). A record is void once (a second void raises AlreadyVoid); the
        reason is some text within MAX_VOID_REASON_CHARS or MAX_NOTE_CHARS, refused whole, never cut.
        """
        if kind not in EVENT_KINDS:
            raise ValueError(f"a record note is one of {EVENT_KINDS}, not {kind!r}")
        _check_reason(kind, reason)
        async with self.sessions.begin() as session:
            # The record's row locked (PostgreSQL; SQLite writes one at a time): two voids at once leave one.
            row = await session.get(CombatRecord, record_id, with_for_update=True)
            if row is None or not _sees(actor, row):
                raise RecordNotFound(record_id)
            if kind == "void" and not may_void_combat(
                actor, private=row.private, guild_id=row.guild_id, requested_by=row.requested_by
            ):
                raise VoidNotAllowed(record_id, private=row.private)
            moment = at or now()
            if kind == "note":
                session.add(RecordEvent(record_id=record_id, kind=kind, actor=actor.user, reason=reason,
                                        created_at=moment))  # fmt: skip
                return
            # Void once: one statement adds the void only where there is none yet (atomic on SQLite, whose reads
            # before a write take no lock; the row lock above serialises PostgreSQL's).
            voided = exists().where(RecordEvent.record_id == record_id, RecordEvent.kind == "void")
            values = select(
                literal(record_id), literal("void"), literal(actor.user, String), literal(reason, Text),
                literal(moment, DateTime(timezone=True)),
            ).where(~voided)  # fmt: skip
            columns = ["record_id", "kind", "actor", "reason", "created_at"]
            if rowcount(await session.execute(insert(RecordEvent).from_select(columns, values))) == 0:
                earlier = (
                    await session.scalars(
                        select(RecordEvent)
                        .where(RecordEvent.record_id == record_id, RecordEvent.kind == "void")
                        .order_by(RecordEvent.id)
                        .limit(1)
                    )
                ).one()
                raise AlreadyVoid(record_id, by=earlier.actor, reason=earlier.reason)

    async def history(
        self,
        *,
        actor: Actor,
        game: str | None = None,
        requested_by: str | None = None,
        party: str | None = None,
        guild_id: str | None = None,
        include_voided: bool = True,
        before_id: int | None = None,
        limit: int = 20,
    ) -> list[RecordSummary]:
        """The most recent records ``actor`` may see first, filtered; ``before_id`` pages back.

        ``requested_by``: asked for by this user; ``party``: asked for by, or naming as opponent, this user.
        """
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
            CombatRecord.private,
        ).where(visible_combats(actor))
        if game is not None:
            query = query.where(CombatRecord.game == game)
        if requested_by is not None:
            query = query.where(CombatRecord.requested_by == requested_by)
        if party is not None:
            query = query.where(or_(CombatRecord.requested_by == party, CombatRecord.opponent == party))
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
                private=bool(r[11]),
            )
            for r in rows
        ]


__all__ = [
    "EVENT_KINDS", "MAX_NOTE_CHARS", "MAX_VOID_REASON_CHARS", "AlreadyContinued", "AlreadyVoid", "RecordNotFound",
    "RecordNote", "RecordRequest", "RecordSummary", "Records", "StoredCombat", "VoidNotAllowed", "house_rules_of",
    "new_slug", "side_name", "visible_combats"
]  # fmt: skip
