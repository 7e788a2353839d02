"""The challenges records were resolved from, as their rows stand (bot/seals.py checks a record against its own):
for `verify` (read with the record, bot/storage/records.py) and for the leagues' agreed mark
(bot/storage/league_rows.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.seals import MadeChallenge, named_challenge
from bot.storage.models import Challenge


async def made_challenges(session: AsyncSession, records: Mapping[int, str | None]) -> dict[int, MadeChallenge]:
    """For each record (its id and its ``agreed_json``): the challenge its agreement names, or, when it names none
    that is stored, the challenge resolved into it; records with neither are left out. One query."""
    if not records:
        return {}
    named = {record_id: named_challenge(agreed) for record_id, agreed in records.items()}
    wanted = sorted({challenge for challenge in named.values() if challenge is not None})
    # A record stripped of its agreement is still found by the challenge that names it as its record.
    columns = (Challenge.id, Challenge.seed, Challenge.salt, Challenge.commitment, Challenge.inputs_json,
               Challenge.record_id)  # fmt: skip
    where = or_(Challenge.id.in_(wanted), Challenge.record_id.in_(sorted(records)))
    rows = (await session.execute(select(*columns).where(where).order_by(Challenge.id))).all()
    made = [MadeChallenge(id=int(row.id), seed=int(row.seed), salt=str(row.salt), commitment=str(row.commitment),
                          inputs=_inputs(row.inputs_json), record_id=row.record_id) for row in rows]  # fmt: skip
    by_id = {challenge.id: challenge for challenge in made}
    by_record = {challenge.record_id: challenge for challenge in made if challenge.record_id is not None}
    found: dict[int, MadeChallenge] = {}
    for record_id, challenge_id in named.items():
        chosen = by_id.get(challenge_id) if challenge_id is not None else None
        chosen = chosen or by_record.get(record_id)
        if chosen is not None:
            found[record_id] = chosen
    return found


def _inputs(stored: str) -> object:
    try:
        return json.loads(stored)
    except ValueError:
        return None


__all__ = ["made_challenges"]
