"""Combat records for the agreed-combats tests (issue 24), made through the real store: one both players agreed to
(a challenge with its dice committed, resolved once both accepted, as `referee accept` and the Discord challenge
do), and one a player resolved alone (no agreement)."""

from __future__ import annotations

from datetime import timedelta

from bot.challenges.commitment import commitment, draw_salt, draw_seed
from bot.data import catalogue
from bot.storage import Store
from bot.storage.db import now
from rules_core import all_games, resolve

GAME = all_games()[0]


async def agreed_combat(store: Store, challenger: str, opponent: str, guild: str) -> int:
    """The record of a combat ``challenger`` proposed and ``opponent`` accepted, in ``guild``; its id."""
    seed, salt = draw_seed(), draw_salt()
    inputs = {"attacker": GAME.example_attacker, "defender": GAME.example_defender, "options": {}}
    challenge = await store.challenges.create(
        game=GAME.id, kind=GAME.command, inputs=inputs, seed=seed, salt=salt, commitment=commitment(seed, salt),
        challenger_id=challenger, opponent_id=opponent, guild_id=guild, expires_at=now() + timedelta(minutes=15),
    )  # fmt: skip
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=seed)
    agreed = {
        "challenge_id": challenge.id, "commitment": challenge.commitment, "inputs": inputs, "inputs_version": 1,
        "challenger": challenger, "challenger_ok_at": challenge.created_at.isoformat(), "opponent": opponent,
        "opponent_ok_at": now().isoformat(), "by": "discord",
    }  # fmt: skip
    return await store.challenges.resolve(challenge, report, agreed=agreed, requested_by=challenger,
                                          opponent=opponent)  # fmt: skip


async def lone_combat(store: Store, by: str, guild: str) -> int:
    """The record of a combat ``by`` resolved alone (public in ``guild``, not agreed); its id."""
    report = resolve(catalogue().game(GAME), GAME.example_attacker, GAME.example_defender, seed=7)
    return await store.records.add(report, requested_by=by, guild_id=guild, private=False)
