"""Challenges (issue 24): a combat proposed by one player to another, with its seed drawn and committed to at
creation, resolved exactly once when both players have accepted the same inputs.

The resolution is one transaction: a compare-and-set UPDATE (open -> resolved, only while open, unexpired and
accepted by the other player at the current inputs' version) and the record's INSERT, so a challenge resolves once
across processes and never without its record. Whichever player accepts second resolves it (``resolve(..., by=)``):
the first acceptance (:meth:`Challenges.accept`) is refused once the other player has accepted the same version, so
two acceptances racing each other cannot both stop short of the resolution.

Every other change is one compare-and-set UPDATE too: the opponent's change of side (only at the version it was
made from: two changes, or a change and an acceptance, cannot both win), a decline, a cancel, the message id set
once, an expiry. Reads return plain frozen records; the seed is in them (the caller keeps it secret until the
reveal).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.storage.db import aware, now, rowcount
from bot.storage.models import Challenge, CombatRecord
from bot.storage.records import AlreadyContinued, _record_row
from rules_core.report import Report

STATUSES = ("open", "resolved", "declined", "cancelled", "expired")
SIDES = ("challenger", "opponent")  # who accepts: each player's acceptance has its own columns


@dataclass(frozen=True, slots=True)
class StoredChallenge:
    id: int
    game: str
    kind: str
    inputs: dict[str, Any]  # attacker, defender, options, house rules: exactly as read
    inputs_version: int
    seed: int  # secret until resolved
    salt: str
    commitment: str
    status: str
    challenger_id: str
    opponent_id: str | None
    guild_id: str | None
    channel_id: str | None
    message_id: str | None
    challenger_ok_version: int | None
    challenger_ok_at: datetime | None
    opponent_ok_version: int | None
    opponent_ok_at: datetime | None
    expires_at: datetime
    record_id: int | None
    created_at: datetime

    def expired(self, at: datetime | None = None) -> bool:
        return self.status == "expired" or (self.status == "open" and (at or now()) >= self.expires_at)

    def accepted_by(self, side: str) -> bool:
        """Whether ``side`` (challenger or opponent) has accepted the current inputs."""
        version = self.challenger_ok_version if side == "challenger" else self.opponent_ok_version
        return version == self.inputs_version


def _stored(row: Challenge) -> StoredChallenge:
    def when(moment: datetime | None) -> datetime | None:
        return None if moment is None else aware(moment)

    return StoredChallenge(
        id=row.id, game=row.game, kind=row.kind, inputs=json.loads(row.inputs_json),
        inputs_version=row.inputs_version, seed=row.seed, salt=row.salt, commitment=row.commitment,
        status=row.status, challenger_id=row.challenger_id, opponent_id=row.opponent_id, guild_id=row.guild_id,
        channel_id=row.channel_id, message_id=row.message_id, challenger_ok_version=row.challenger_ok_version,
        challenger_ok_at=when(row.challenger_ok_at), opponent_ok_version=row.opponent_ok_version,
        opponent_ok_at=when(row.opponent_ok_at), expires_at=aware(row.expires_at), record_id=row.record_id,
        created_at=aware(row.created_at),
    )  # fmt: skip


def _other(side: str) -> str:
    return "opponent" if side == "challenger" else "challenger"


def _ok_version(side: str) -> Any:
    """The column holding the version ``side`` accepted."""
    return Challenge.challenger_ok_version if side == "challenger" else Challenge.opponent_ok_version


def _acceptance(side: str, version: int | None, moment: datetime | None) -> dict[str, Any]:
    """The values of ``side``'s acceptance of ``version`` at ``moment``."""
    return {f"{side}_ok_version": version, f"{side}_ok_at": moment}


class ChallengeClosed(Exception):
    """The challenge is no longer open (resolved, declined, cancelled, expired) or not agreed at its version."""

    def __init__(self, challenge: StoredChallenge | None) -> None:
        super().__init__(f"challenge {challenge.id if challenge else '?'} is not open")
        self.challenge = challenge


def _still_at(challenge: StoredChallenge, moment: datetime) -> tuple[ColumnElement[bool], ...]:
    """The compare-and-set's conditions: ``challenge`` is still open at ``moment`` and at the version read."""
    return (Challenge.id == challenge.id, Challenge.status == "open", Challenge.expires_at > moment,
            Challenge.inputs_version == challenge.inputs_version)  # fmt: skip


class Challenges:
    """The challenges of one store (``store.challenges``)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def create(
        self, *, game: str, kind: str, inputs: dict[str, Any], seed: int, salt: str, commitment: str,
        challenger_id: str, expires_at: datetime, opponent_id: str | None = None, guild_id: str | None = None,
        channel_id: str | None = None, at: datetime | None = None,
    ) -> StoredChallenge:  # fmt: skip
        """A new open challenge at inputs version 1, accepted by its challenger (who made it)."""
        moment = at or now()
        row = Challenge(
            game=game, kind=kind, inputs_json=json.dumps(inputs, sort_keys=True), inputs_version=1, seed=seed,
            salt=salt, commitment=commitment, status="open", challenger_id=challenger_id, opponent_id=opponent_id,
            guild_id=guild_id, channel_id=channel_id, challenger_ok_version=1, challenger_ok_at=moment,
            expires_at=expires_at, created_at=moment,
        )  # fmt: skip
        async with self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            return _stored(row)

    async def get(self, challenge_id: int) -> StoredChallenge | None:
        async with self.sessions() as session:
            row = await session.get(Challenge, challenge_id)
            return None if row is None else _stored(row)

    async def expire(self, challenge_id: int, *, at: datetime | None = None) -> bool:
        """Mark an open challenge past its time expired; whether this call did."""
        moment = at or now()
        async with self.sessions.begin() as session:
            result = await session.execute(
                update(Challenge)
                .where(Challenge.id == challenge_id, Challenge.status == "open", Challenge.expires_at <= moment)
                .values(status="expired")
            )
            return rowcount(result) == 1

    async def resolve(
        self, challenge: StoredChallenge, report: Report, *, agreed: dict[str, Any],
        requested_by: str, opponent: str | None = None, house_rules: Sequence[str] = (), at: datetime | None = None,
        by: str = "opponent", slug: str | None = None, continues: int | None = None, write_key: str | None = None,
    ) -> int:  # fmt: skip
        """Accept ``challenge`` for ``by`` (the player accepting last: the opponent, or the challenger after the
        opponent changed their side) and resolve it into ``report`` (rolled with its seed), exactly once: the record
        id, or :class:`ChallengeClosed` when it was no longer open, unexpired, at the same inputs' version and
        accepted there by the other player (another process resolved it first, it was declined, cancelled or
        changed). ``continues``: the record whose combat this next round's challenge carries on; when another
        record continued it first, :class:`AlreadyContinued` and the challenge stays as it was. ``write_key``: the
        record's, made before a first attempt (a retry finds the record by it: Records.find_written)."""
        if report.seed != challenge.seed:
            raise ValueError("a challenge resolves with its committed seed only")
        if by not in SIDES:
            raise ValueError(f"a challenge is accepted by its challenger or its opponent, not {by!r}")
        moment = at or now()
        row = _record_row(report, requested_by=requested_by, opponent=opponent, guild_id=challenge.guild_id,
                          channel_id=challenge.channel_id, at=moment, continues=continues, private=False,
                          house_rules=house_rules, slug=slug, write_key=write_key)  # fmt: skip
        row |= {"commitment": challenge.commitment, "salt": challenge.salt, "agreed_json": json.dumps(agreed)}
        try:
            return await self._resolve(challenge, row, by=by, moment=moment)
        except IntegrityError:
            if continues is None:
                raise
            async with self.sessions() as session:
                first = await session.scalar(select(CombatRecord.id).where(CombatRecord.continues_id == continues))
            raise AlreadyContinued(continues, first) from None

    async def _resolve(self, challenge: StoredChallenge, row: dict[str, Any], *, by: str, moment: datetime) -> int:
        async with self.sessions.begin() as session:
            claimed = await session.execute(
                update(Challenge)
                .where(
                    *_still_at(challenge, moment),
                    _ok_version(_other(by)) == challenge.inputs_version,
                )
                .values(status="resolved", **_acceptance(by, challenge.inputs_version, moment))
            )
            if rowcount(claimed) != 1:
                raise ChallengeClosed(challenge)
            record_id = int(
                (await session.execute(insert(CombatRecord).values(**row).returning(CombatRecord.id))).scalar_one()
            )
            await session.execute(update(Challenge).where(Challenge.id == challenge.id).values(record_id=record_id))
        return record_id

    async def accept(self, challenge: StoredChallenge, by: str, *, at: datetime | None = None) -> StoredChallenge:
        """``by`` (challenger or opponent) accepts the current inputs, the other player not having accepted them yet
        (when they have, this acceptance is the last: :meth:`resolve`). The challenge as it now stands, or
        :class:`ChallengeClosed` when it is no longer open and unexpired at that version, or the other player
        accepted it meanwhile (read it again: this acceptance now resolves it)."""
        if by not in SIDES:
            raise ValueError(f"a challenge is accepted by its challenger or its opponent, not {by!r}")
        moment = at or now()
        other = _ok_version(_other(by))
        async with self.sessions.begin() as session:
            result = await session.execute(
                update(Challenge)
                .where(
                    *_still_at(challenge, moment),
                    or_(other.is_(None), other != challenge.inputs_version),
                )
                .values(**_acceptance(by, challenge.inputs_version, moment))
            )
            if rowcount(result) != 1:
                raise ChallengeClosed(challenge)
            row = await session.get(Challenge, challenge.id, populate_existing=True)
            assert row is not None
            return _stored(row)

    async def change(
        self, challenge: StoredChallenge, inputs: dict[str, Any], *, at: datetime | None = None
    ) -> StoredChallenge:
        """The opponent's change of side: ``inputs`` replace the challenge's at the next version, accepted by the
        opponent (who gave them) and no longer by the challenger. Only from the version ``challenge`` holds, while
        open and unexpired: of two changes (or a change and an acceptance) made from one version, one wins and the
        other gets :class:`ChallengeClosed`."""
        moment = at or now()
        version = challenge.inputs_version + 1
        changed = {"inputs_json": json.dumps(inputs, sort_keys=True), "inputs_version": version,
                   **_acceptance("opponent", version, moment), **_acceptance("challenger", None, None)}  # fmt: skip
        async with self.sessions.begin() as session:
            result = await session.execute(update(Challenge).where(*_still_at(challenge, moment)).values(changed))
            if rowcount(result) != 1:
                raise ChallengeClosed(challenge)
            row = await session.get(Challenge, challenge.id, populate_existing=True)
            assert row is not None
            return _stored(row)

    async def decline(self, challenge_id: int, *, at: datetime | None = None) -> bool:
        """The opponent declines an open, unexpired challenge; whether this call did."""
        return await self._close(challenge_id, "declined", at or now())

    async def cancel(self, challenge_id: int, *, at: datetime | None = None) -> bool:
        """The challenger cancels an open, unexpired challenge; whether this call did."""
        return await self._close(challenge_id, "cancelled", at or now())

    async def _close(self, challenge_id: int, status: str, moment: datetime) -> bool:
        async with self.sessions.begin() as session:
            result = await session.execute(
                update(Challenge)
                .where(Challenge.id == challenge_id, Challenge.status == "open", Challenge.expires_at > moment)
                .values(status=status)
            )
            return rowcount(result) == 1

    async def replace_next_rounds(self, newest: StoredChallenge) -> list[StoredChallenge]:
        """Close, as ``replaced``, every other open challenge of the next round of the record ``newest`` continues
        (one record, one next-round challenge open: the newest); those closed by this call, as they now stand."""
        record = newest.inputs.get("continues")
        async with self.sessions.begin() as session:
            query = select(Challenge).where(Challenge.status == "open", Challenge.id != newest.id,
                                            Challenge.guild_id == newest.guild_id)  # fmt: skip
            older = [row for row in (await session.scalars(query)).all()
                     if json.loads(row.inputs_json).get("continues") == record]  # fmt: skip
            closed = []
            for row in older:
                result = await session.execute(
                    update(Challenge)
                    .where(Challenge.id == row.id, Challenge.status == "open")
                    .values(status="replaced")
                )
                if rowcount(result) == 1:
                    await session.refresh(row)
                    closed.append(_stored(row))
            return closed

    async def replaced_by(self, challenge: StoredChallenge) -> int | None:
        """The challenge that replaced ``challenge`` (a newer one of the same record's next round), if any."""
        record = challenge.inputs.get("continues")
        async with self.sessions() as session:
            query = select(Challenge).where(Challenge.id > challenge.id, Challenge.guild_id == challenge.guild_id)
            newer = [row.id for row in (await session.scalars(query.order_by(Challenge.id))).all()
                     if json.loads(row.inputs_json).get("continues") == record]  # fmt: skip
            return newer[0] if newer and record is not None else None

    async def discard(self, challenge_id: int) -> bool:
        """Remove an open challenge whose message never reached anyone (Discord refused it): a challenge nobody can
        see is not kept, to expire unseen. Whether this call removed it."""
        async with self.sessions.begin() as session:
            result = await session.execute(
                delete(Challenge).where(Challenge.id == challenge_id, Challenge.status == "open")
            )
            return rowcount(result) == 1

    async def set_message(self, challenge_id: int, message_id: str) -> bool:
        """The id of the message showing the challenge, set once (when it is posted); whether this call set it."""
        async with self.sessions.begin() as session:
            result = await session.execute(
                update(Challenge)
                .where(Challenge.id == challenge_id, Challenge.message_id.is_(None))
                .values(message_id=message_id)
            )
            return rowcount(result) == 1

    async def record_of(self, challenge_id: int) -> int | None:
        async with self.sessions() as session:
            return await session.scalar(select(Challenge.record_id).where(Challenge.id == challenge_id))

    async def claim_expired(self, *, at: datetime | None = None, limit: int = 50) -> list[StoredChallenge]:
        """Up to ``limit`` open challenges whose time has passed by ``at`` (default now), oldest deadline first,
        marked expired in one transaction and returned as they are now (expired): each by exactly one caller.

        Several bot processes sweep at once: the rows are claimed with ``SELECT ... FOR UPDATE SKIP LOCKED``, so a
        challenge another sweep (or a player's press) holds is left to it, never waited for. The UPDATE keeps
        ``status = 'open'`` as a compare-and-set and returns the rows it changed: on SQLite (no row locks, one
        writer) two sweeps may select the same rows, and only the first to write claims them."""
        moment = at or now()
        async with self.sessions.begin() as session:
            rows = (
                await session.scalars(
                    select(Challenge)
                    .where(Challenge.status == "open", Challenge.expires_at <= moment)
                    .order_by(Challenge.expires_at, Challenge.id)
                    .limit(limit)
                    .with_for_update(skip_locked=True)
                    .execution_options(populate_existing=True)
                )
            ).all()
            if not rows:
                return []
            marked = await session.scalars(
                update(Challenge)
                .where(Challenge.id.in_([row.id for row in rows]), Challenge.status == "open")
                .values(status="expired")
                .returning(Challenge),
                execution_options={"populate_existing": True},
            )
            claimed = {row.id: _stored(row) for row in marked.all()}
            return [claimed[row.id] for row in rows if row.id in claimed]  # in the order of their deadlines
