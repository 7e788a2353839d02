"""/verify on Discord for a challenge's record (issue 24's review), through the real bot and the fake Discord on both
backends: the reviewer's consistent rewrite of the record and its agreement (a new seed, its report re-run, a new
salt and commitment in both) is named against the challenge as it was made; a commitment set to NULL is named as
missing. The challenge helpers are tests/e2e/test_challenges.py's."""

from __future__ import annotations

import json

from sqlalchemy import text

from bot.access import OPERATOR
from bot.challenges.commitment import commitment, draw_salt
from bot.challenges.service import resolution
from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import OPPONENT_ID, FakeDiscord
from tests.e2e.test_challenges import accepted, bot, challenge, url, verify_answer

__all__ = ["bot", "url"]  # the fixtures, shared with the challenges' own e2e tests


async def rewrite(bot: RefereeBot, record_id: int, *, keep_commitment: bool) -> str:
    """The reviewer's probe: a new seed, the report re-run from it, a new salt and its commitment in the record's
    column (or NULL) and its agreement alike. The new commitment."""
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    agreed = json.loads(stored.agreed_json or "{}")
    seed = (stored.report.seed + 1) % 2**53
    report = resolution(stored.report.game, agreed["inputs"], seed)
    salt = draw_salt()
    agreed["commitment"] = committed = commitment(seed, salt)
    async with bot.store.engine.begin() as connection:
        await connection.execute(
            text("UPDATE combat_records SET report_json = :r, seed = :s, salt = :salt, commitment = :c, "
                 "agreed_json = :a WHERE id = :id"),
            {"r": report.to_json(indent=None), "s": seed, "salt": salt, "c": committed if keep_commitment else None,
             "a": json.dumps(agreed), "id": record_id},
        )  # fmt: skip
    return committed


async def test_verify_names_a_consistent_rewrite_against_the_challenge(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    good = await verify_answer(fake, record_id)
    assert "verified" in good["title"] and f"challenge #{posted.id} holds the same seed" in good["description"]
    forged = await rewrite(bot, record_id, keep_commitment=True)
    answer = await verify_answer(fake, record_id)
    assert "does NOT verify" in answer["title"]
    assert "does NOT match the dice committed before they were rolled" in answer["description"]
    differs = answer["fields"][0]["value"]
    assert f"the commitment: the record's {forged} is not the {posted.challenge.commitment} challenge #{posted.id}" \
        in differs  # fmt: skip
    assert f"is not the seed drawn for challenge #{posted.id}" in differs


async def test_verify_names_a_missing_commitment(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    await rewrite(bot, record_id, keep_commitment=False)
    answer = await verify_answer(fake, record_id)
    assert "does NOT verify" in answer["title"]
    assert "does NOT verify: agreed, but its commitment is missing" in answer["description"]
    assert "/verify" not in answer["description"] and "referee " not in answer["description"]
