"""Issue 34, found by attacking: a long agreed fight's next-round challenge keeps every Discord limit (the fake
Discord refusing an oversized embed as Discord does), with its full text one tap away in an attached file; and a
challenge whose message could not be sent is not left stored and open, on SQLite and PostgreSQL."""

from __future__ import annotations

import re

from sqlalchemy import text

from bot.discord.app import RefereeBot
from tests.e2e.conftest import long_fight, within_limits
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_challenges import bot, challenge_command, url

__all__ = ["bot", "url"]  # the fixtures (both backends)


async def open_challenges(bot: RefereeBot) -> int:
    async with bot.store.engine.begin() as connection:
        found = await connection.execute(text("SELECT count(*) FROM challenges WHERE status = 'open'"))
        return int(found.scalar_one())


async def test_a_challenge_cut_to_discords_limits_attaches_the_whole(bot: RefereeBot, fake: FakeDiscord) -> None:
    """50 units a side, with Discord refusing any embed over its limits: the challenge is posted, cut, with the
    whole sides in its attached file (the long next round's own cut: tests/bot/challenges/test_render_limits.py)."""
    fake.strict_embeds = True
    attackers, defenders = long_fight()
    payload = challenge_command()
    payload["data"]["options"][0]["options"][0]["value"] = attackers
    payload["data"]["options"][0]["options"][1]["value"] = defenders
    (call,) = await fake.ask(payload)
    data = call.payload["data"]
    assert call.payload["type"] == 4 and not (data.get("flags") or 0) & 64, data  # the challenge, in the channel
    within_limits(data["embeds"][0])
    assert "attached file" in data["embeds"][0]["fields"][0]["value"]  # the cut says where the rest is
    number = int(re.search(r"Challenge #(\d+)", data["embeds"][0]["title"])[1])  # type: ignore[index]
    assert call.files == [f"challenge-{number}.md"]
    whole = call.contents[0].decode("utf-8")
    stored = await bot.store.challenges.get(number)
    assert stored is not None and stored.inputs["attacker"] in whole and stored.inputs["defender"] in whole


async def test_a_challenge_whose_message_is_refused_is_not_left_open(bot: RefereeBot, fake: FakeDiscord) -> None:
    fake.fail_next.append((400, 0))  # Discord refuses the challenge's message
    await fake.interaction(challenge_command())
    await fake.wait_calls(lambda c: c.path.endswith("/callback"), 2)  # the refused message, then the error said
    assert await open_challenges(bot) == 0
