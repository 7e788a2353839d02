"""A resolved challenge's reveal, shown in place of the challenge once per process (issue 34).

The last Accept resolves a challenge and shows its result with the reveal (seed, salt, commitment) in place of the
challenge's message. If that press's commit landed but its acknowledgement was lost (the database restarting), the
presser heard that the database failed and the challenge stayed on screen with its buttons: the next press on it
finds it resolved, and shows the reveal the first would have shown. A press that merely lost a race to the
resolving one (both pressed at once) is told what became of it instead: this process remembers which challenges it
is revealing or has revealed (a challenge's presses all reach the process of its server's shard).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.interactions import actor_of
from bot.discord.results import player_mentions, show_recorded
from bot.render.challenges import players_of, reveal_text
from bot.storage.challenges import StoredChallenge

REMEMBERED = 10_000  # challenges remembered as revealed by this process (the oldest forgotten first)
# Challenges being revealed or revealed here, oldest first, by their commitment (unique to each challenge, whatever
# database it is in: a process may serve more than one, as the tests do).
_revealed: dict[str, None] = {}


def claim(challenge: StoredChallenge) -> bool:
    """Whether this press may resolve or show ``challenge``'s reveal: no other press of this process is doing so or
    has done it. Claimed, it stays claimed unless :func:`release`d."""
    if challenge.commitment in _revealed:
        return False
    _revealed[challenge.commitment] = None
    while len(_revealed) > REMEMBERED:
        del _revealed[next(iter(_revealed))]
    return True


def release(challenge: StoredChallenge) -> None:
    """The claiming press did not show the reveal (nothing resolved, or the database failed): a later may."""
    _revealed.pop(challenge.commitment, None)


async def reveal_again(interaction: discord.Interaction[Any], challenge: StoredChallenge) -> bool:
    """A press (deferred) on a challenge found resolved whose reveal no press of this process has shown: the
    message becomes its result and reveal, as the resolving press would have made it. Whether it was shown."""
    record_id = challenge.record_id
    if record_id is None or not claim(challenge):
        return False
    try:
        stored = await interaction.client.store.records.get(record_id, actor=actor_of(interaction))
        message = interaction.message
        await show_recorded(
            interaction, stored.report, record_id=record_id, problem=None, house_rules=stored.house_rules,
            private=False, slug=stored.slug, players=player_mentions(*players_of(challenge)),
            message_id=None if message is None else message.id, content=reveal_text(challenge, record_id),
        )  # fmt: skip
    except BaseException:
        release(challenge)
        raise
    return True


__all__ = ["claim", "release", "reveal_again"]
