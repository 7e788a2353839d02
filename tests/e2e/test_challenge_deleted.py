"""Issue 34, found by attacking: a challenge's message deleted in Discord, then Decline or Cancel pressed on it or
its form sent: what was stored is answered in a follow-up (the message edited if it can be, else shown below), on
SQLite and PostgreSQL. Every edit of a challenge's message goes through one helper (``show_challenge``)."""

from __future__ import annotations

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, Call, FakeDiscord, modal_submit_interaction
from tests.e2e.test_challenges import NEW_ORKS, bot, challenge, press, status_of, told, url

__all__ = ["bot", "url"]  # the fixtures (both backends)


def shown_below(calls: list[Call]) -> dict:  # type: ignore[type-arg]
    """The follow-up that shows the challenge after the edit of its deleted message was refused."""
    refused, below = calls[1], calls[2]
    assert refused.method == "PATCH" and refused.path.endswith("/messages/@original")
    assert below.method == "POST" and below.path.startswith("/webhooks/"), below
    assert not (below.payload.get("flags") or 0) & 64  # in the channel, for both players
    return below.payload  # type: ignore[no-any-return]


async def test_decline_on_a_deleted_challenge_message_is_answered_below(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    fake.delete_message(posted.message_id)
    calls = await press(fake, posted, "decline", OPPONENT_ID, 3)
    assert "declined" in shown_below(calls)["embeds"][0]["title"]
    assert (await status_of(bot, posted)).status == "declined"


async def test_cancel_on_a_deleted_challenge_message_is_answered_below(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    fake.delete_message(posted.message_id)
    calls = await press(fake, posted, "cancel", PLAYER_ID, 3)
    assert "cancelled" in shown_below(calls)["embeds"][0]["title"]


async def test_a_form_sent_from_a_deleted_challenge_message_is_answered_below(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    posted = await challenge(bot, fake)
    opened = await told(fake, posted, "change", OPPONENT_ID)
    fake.delete_message(posted.message_id)
    form = opened.payload["data"]
    submit = modal_submit_interaction(form["custom_id"], {"side": NEW_ORKS}, user_id=OPPONENT_ID,
                                      message_id=posted.message_id)  # fmt: skip
    calls = await fake.ask(submit, 4)
    below = shown_below(calls)
    assert "changed" in below["embeds"][0]["title"]
    assert any(c["custom_id"].endswith(":accept") for row in below["components"] for c in row["components"])
    assert calls[3].payload["content"].startswith(f"<@{PLAYER_ID}>")  # the challenger is still told
    assert (await status_of(bot, posted)).inputs_version == 2
