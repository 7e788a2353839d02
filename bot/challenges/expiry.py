"""The expiry sweep: every open challenge past its time marked expired, and its message edited to say so.

Each bot process runs it every 30 seconds; they share the work (``Challenges.claim_expired`` claims batches with
``FOR UPDATE SKIP LOCKED``), and each challenge is claimed, so edited, by exactly one of them. A challenge is marked
before its message is edited: the message is only a view of it. An edit that fails (the message deleted, the
channel gone) is logged with the challenge's id and the sweep goes on; the challenge stays expired. Accepting one
past its time fails whether or not the sweep has come by (``Challenges.resolve`` compares the deadline).

No Discord here: the caller hands in ``edit`` (the bot's: render the expired challenge, edit its message).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING

from bot.storage.db import now

if TYPE_CHECKING:
    from bot.storage import Store
    from bot.storage.challenges import StoredChallenge

log = logging.getLogger("referee.challenges")
BATCH = 50  # challenges claimed a transaction


async def sweep_expired(
    store: Store, edit: Callable[[StoredChallenge], Awaitable[object]], *, at: datetime | None = None,
    batch: int = BATCH,
) -> int:  # fmt: skip
    """Claim every open challenge past its time by ``at`` (default now), batch after batch until none is left that
    another sweep does not hold, and await ``edit`` for each; how many this call claimed."""
    moment = at or now()
    swept = 0
    while True:
        claimed = await store.challenges.claim_expired(at=moment, limit=batch)
        for challenge in claimed:
            try:
                await edit(challenge)
            except Exception:  # one message that cannot be edited must not stop the others
                log.exception("challenge #%d expired, but its message could not be edited", challenge.id)
        swept += len(claimed)
        if len(claimed) < batch:  # nothing more is due, or what is left another sweep holds
            return swept


__all__ = ["BATCH", "sweep_expired"]
