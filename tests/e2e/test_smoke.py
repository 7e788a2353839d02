"""The bot starts against the fake Discord, syncs its commands to the development guild, and answers a /duel."""

from __future__ import annotations

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, command_interaction, final_answer


async def test_the_bot_syncs_and_answers_a_duel(bot: RefereeBot, fake: FakeDiscord) -> None:
    names = {command["name"] for command in fake.synced[f"guild:{GUILD_ID}"]}
    assert {"assault", "duel", "closequarters"} <= names
    payload = command_interaction("duel", [
        {"type": 3, "name": "attacker", "value": "A: WS4 S4 T4 W1 I4 A1 Sv3+ weapon=sword/S=user/parry/cc"},
        {"type": 3, "name": "defender", "value": "B: WS3 S3 T3 W1 I3 A1 Sv-"},
    ])  # fmt: skip
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    assert answer.calls[0].payload["type"] == 4  # the result is shown at once...
    assert "Recording this combat" in answer.first["embeds"][0]["description"]
    assert answer.calls[1].method == "PATCH"  # ...and its record id and buttons are edited in once stored
    embeds = answer.data["embeds"]
    assert embeds[0]["title"].startswith("40K 2nd edition duel: ")  # the short title: one line on a phone
    assert "record #1" in embeds[0]["footer"]["text"]
