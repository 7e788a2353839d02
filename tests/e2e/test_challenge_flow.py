"""The review of issue 24's challenge flow, through the real bot and the fake Discord on SQLite and PostgreSQL: an
Accept binds to the sides version its presser read (a stale one refused, nothing changed); an agreed combat's next
round is a challenge between its two players; a closed challenge's commitment promises no reveal; every press but
Change my side and every form is deferred first; a challenge's message deleted before the last Accept gets its
result, buttons and reveal in a follow-up."""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial
from typing import Any

import discord
import pytest
from sqlalchemy import text

from bot.access import OPERATOR
from bot.challenges.commitment import commitment, matches
from bot.challenges.expiry import sweep_expired
from bot.discord.app import RefereeBot
from bot.discord.challenges import show_expired
from bot.storage.db import now
from bot.verification import Verdict, verify
from rules_core import resolve
from rules_core.report import Report
from tests.e2e.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    OPPONENT_ID,
    PLAYER_ID,
    Call,
    FakeDiscord,
    command_interaction,
    component_interaction,
)
from tests.e2e.test_challenges import (
    MARINES,
    NEW_ORKS,
    THIRD_ID,
    Posted,
    accepted,
    bot,
    challenge,
    change_side,
    option,
    press,
    private_text,
    status_of,
    url,
)

__all__ = ["bot", "url"]  # the fixtures (both backends), shared with the challenges' own e2e tests


GROT = "1x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv6+"
ORK_MOB = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"


def ids_of(data: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in data.get("components") or [] for c in row["components"] if "custom_id" in c]


def buttons(*custom_ids: str) -> list[dict[str, Any]]:
    """A message's row of buttons with these custom ids (Discord sends the pressed message's components)."""
    return [{"type": 1, "components": [{"type": 2, "style": 1, "label": i, "custom_id": i} for i in custom_ids]}]


def field(data: dict[str, Any], name: str) -> str:
    return str(next(f["value"] for f in data["embeds"][0]["fields"] if f["name"].startswith(name)))


# --- 1. an Accept binds to the sides its presser read -------------------------------------------------------------


async def test_an_accept_on_sides_changed_since_is_refused_and_the_current_ones_resolve(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """The reviewer's scenario: the challenger reads version 2, the opponent makes version 3 a moment before the
    challenger presses Accept on version 2: refused privately, nothing changed; Accept on version 3 resolves it."""
    posted = await challenge(bot, fake)
    await change_side(fake, posted, NEW_ORKS)
    read = Posted(dict(posted.data), posted.message_id, posted.challenge)  # version 2, as the challenger read it
    assert ids_of(read.data)[0] == f"referee:ch:{posted.id}:2:accept"
    await change_side(fake, posted, GROT)
    assert ids_of(posted.data)[0] == f"referee:ch:{posted.id}:3:accept"
    calls = await press(fake, read, "accept", PLAYER_ID, 3)
    refresh, said = calls[1], calls[2]
    assert refresh.method == "PATCH" and ids_of(refresh.payload)[0] == f"referee:ch:{posted.id}:3:accept"
    words = private_text(said)
    assert "The sides changed since you read them: version 3 is on challenge" in words and "version 2" in words
    still = await status_of(bot, posted)
    assert still.status == "open" and still.inputs_version == 3 and not still.accepted_by("challenger")
    assert await bot.store.records.history(actor=OPERATOR) == []
    _, record_id = await accepted(bot, fake, posted, PLAYER_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert stored.report.inputs.defender.startswith("1x Grot")
    assert json.loads(stored.agreed_json or "{}")["inputs_version"] == 3


async def test_an_accept_from_a_message_posted_before_versions_is_refused_and_its_buttons_renewed(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    posted = await challenge(bot, fake)
    legacy = buttons(*(f"referee:ch:{posted.id}:{action}" for action in ("accept", "change", "decline", "cancel")))
    old = component_interaction(f"referee:ch:{posted.id}:accept", legacy, user_id=OPPONENT_ID,
                                message_id=posted.message_id)  # fmt: skip
    calls = await fake.ask(old, 3)
    assert ids_of(calls[1].payload)[0] == f"referee:ch:{posted.id}:1:accept"
    assert "an older message" in private_text(calls[2])
    assert (await status_of(bot, posted)).status == "open"
    # Decline needs no version: from such a message it still declines.
    decline = component_interaction(f"referee:ch:{posted.id}:decline", legacy, user_id=OPPONENT_ID,
                                    message_id=posted.message_id)  # fmt: skip
    calls = await fake.ask(decline, 2)
    assert "declined" in calls[1].payload["embeds"][0]["title"]
    assert (await status_of(bot, posted)).status == "declined"


# --- 2. an agreed combat's next round is a challenge ----------------------------------------------------------------


def goes_on(report: Report) -> bool:
    return any(event.kind == "continues" for step in report.steps for event in step.events)


async def agreed_combat_that_goes_on(bot: RefereeBot, fake: FakeDiscord) -> int:
    """An agreed combat whose fight goes on: a challenge accepted through the bot, its committed dice chosen (before
    anyone accepts) so that the combat is not over."""
    seed = next(s for s in range(500) if goes_on(resolve("40k", MARINES, ORK_MOB, seed=s, charge_distance=4.0)))
    posted = await challenge(bot, fake, defender=ORK_MOB)
    async with bot.store.engine.begin() as connection:
        committed = commitment(seed, posted.challenge.salt)
        await connection.execute(text("UPDATE challenges SET seed = :s, commitment = :c WHERE id = :id"),
                                 {"s": seed, "c": committed, "id": posted.id})  # fmt: skip
    posted.challenge = await status_of(bot, posted)
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    return record_id


def continue_command(record_id: int, user_id: int, *more: dict[str, Any]) -> dict[str, Any]:
    return command_interaction("assault", [option("record", record_id, 4), *more], subcommand="continue",
                               user_id=user_id)  # fmt: skip


async def next_round_challenge(bot: RefereeBot, fake: FakeDiscord, payload: dict[str, Any]) -> Posted:
    (call,) = await fake.ask(payload)
    data = call.payload["data"]
    assert call.payload["type"] == 4 and not (data.get("flags") or 0) & 64, data
    number = int(data["embeds"][0]["title"].split("#")[1].split(":")[0])
    stored = await bot.store.challenges.get(number)
    assert stored is not None
    return Posted(data, fake.responses[payload["token"]], stored)


async def test_an_agreed_combats_next_round_is_a_challenge_accepted_by_the_other_player(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    first = await agreed_combat_that_goes_on(bot, fake)
    # The defender's player asks, with positions: the attacker's player is challenged.
    ask = continue_command(first, OPPONENT_ID, option("defender_positions", "Ork Boy=2:3"))
    posted = await next_round_challenge(bot, fake, ask)
    data = posted.data
    assert data["content"].startswith(f"<@{PLAYER_ID}>: <@{OPPONENT_ID}> asks you to fight the next round")
    assert [str(u) for u in data["allowed_mentions"]["users"]] == [str(PLAYER_ID)]
    assert f"next round of combat #{first}" in data["embeds"][0]["title"]
    assert 'Ork Boy: 2 in base contact, 3 within 2"' in data["embeds"][0]["description"]
    # The record's options carry on; only those away from the rules' defaults are said (the round, at least).
    options = next(f["value"] for f in data["embeds"][0]["fields"] if f["name"] == "Options")
    assert options.startswith("Carried on (the rest at the rules' defaults): ") and "`round:2`" in options
    assert "shot_this_turn" not in options and "defender_falling_back" not in options, options
    assert ids_of(data) == [f"referee:ch:{posted.id}:1:{a}" for a in ("accept", "decline", "cancel")]  # no change
    made = posted.challenge
    assert made.challenger_id == str(OPPONENT_ID) and made.opponent_id == str(PLAYER_ID)
    assert made.inputs["continues"] == first and len(await bot.store.records.history(actor=OPERATOR)) == 1
    # Nothing rolled yet; a crafted Change my side is refused (the survivors are the record's).
    crafted = f"referee:ch:{posted.id}:1:change"
    (refused,) = await fake.ask(component_interaction(crafted, buttons(crafted), user_id=PLAYER_ID,
                                                      message_id=posted.message_id))  # fmt: skip
    assert "no side to change" in private_text(refused) and "/assault continue" in private_text(refused)
    calls, record_id = await accepted(bot, fake, posted, PLAYER_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert stored.continues_id == first
    assert stored.commitment == made.commitment and matches(stored.report.seed, made.salt, made.commitment)
    assert stored.report.seed == made.seed and f"seed `{made.seed}`" in calls[1].payload["content"]
    agreed = json.loads(stored.agreed_json or "{}")
    assert agreed["challenge_id"] == posted.id and agreed["inputs"]["continues"] == first
    assert agreed["challenger"] == str(OPPONENT_ID) and agreed["opponent"] == str(PLAYER_ID)
    assert verify(stored).verdict is Verdict.IDENTICAL
    # Continuing the first record again: refused, as for any record continued once.
    (again,) = await fake.ask(continue_command(first, PLAYER_ID))
    assert f"already been continued as #{record_id}" in json.dumps(again.payload["data"]["embeds"][0])


async def test_a_third_member_cannot_continue_an_agreed_combat(bot: RefereeBot, fake: FakeDiscord) -> None:
    first = await agreed_combat_that_goes_on(bot, fake)
    (call,) = await fake.ask(continue_command(first, THIRD_ID))
    data = call.payload["data"]
    assert data["flags"] & 64
    words = data["embeds"][0]["description"]
    assert f"<@{PLAYER_ID}>" in words and f"<@{OPPONENT_ID}>" in words and "only they can continue it" in words
    assert len(await bot.store.records.history(actor=OPERATOR)) == 1
    async with bot.store.engine.begin() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM challenges"))).scalar_one() == 1


async def test_a_combat_not_agreed_still_continues_at_once(bot: RefereeBot, fake: FakeDiscord) -> None:
    seed = next(s for s in range(500) if goes_on(resolve("40k", MARINES, ORK_MOB, seed=s, charge_distance=4.0)))
    first = await bot.store.records.add(resolve("40k", MARINES, ORK_MOB, seed=seed, charge_distance=4.0),
                                        requested_by=str(PLAYER_ID), guild_id=str(GUILD_ID))  # fmt: skip
    calls = await fake.ask(continue_command(first, THIRD_ID), 2)
    assert "record #" in calls[1].payload["embeds"][0]["footer"]["text"]
    async with bot.store.engine.begin() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM challenges"))).scalar_one() == 0


# --- 3. a closed challenge promises no reveal -----------------------------------------------------------------------


async def test_a_closed_challenges_commitment_promises_no_reveal(bot: RefereeBot, fake: FakeDiscord) -> None:
    promise = "the result reveals it with its salt"
    declined = await challenge(bot, fake)
    assert promise in field(declined.data, "Dice committed")
    edit = (await press(fake, declined, "decline", OPPONENT_ID))[1].payload
    assert "No result: this seed is never revealed or used." in field(edit, "Dice committed")
    assert promise not in field(edit, "Dice committed")
    cancelled = await challenge(bot, fake)
    edit = (await press(fake, cancelled, "cancel", PLAYER_ID))[1].payload
    assert "never revealed" in field(edit, "Dice committed")
    expired = await challenge(bot, fake)
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("UPDATE challenges SET expires_at = :t WHERE id = :id"),
                                 {"t": now() - timedelta(minutes=1), "id": expired.id})  # fmt: skip
    await sweep_expired(bot.store, partial(show_expired, bot))
    (shown,) = [c for c in fake.calls if c.method == "PATCH" and c.path.endswith(f"/{expired.message_id}")]
    assert "never revealed" in field(shown.payload, "Dice committed")


# --- 4. deferred first ---------------------------------------------------------------------------------------------


async def test_presses_and_the_form_are_deferred_before_the_database(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Decline, Cancel, a refused press and the form: a deferral (type 6) first, then the edit or the follow-up
    (change_side and press check the deferral of every other answer in these tests)."""
    posted = await challenge(bot, fake)
    calls = await change_side(fake, posted, NEW_ORKS)  # the form: deferred, the message edited, the ping
    assert calls[0].method == "PATCH" and calls[1].method == "POST"
    refused = await press(fake, posted, "decline", PLAYER_ID)
    assert refused[1].method == "POST" and refused[1].path.startswith("/webhooks/")
    closed = await press(fake, posted, "cancel", PLAYER_ID)
    assert closed[1].method == "PATCH" and "cancelled" in closed[1].payload["embeds"][0]["title"]


# --- 5. the message deleted before the last Accept ----------------------------------------------------------------


async def test_a_deleted_challenge_message_gets_its_result_in_a_follow_up(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    fake.delete_message(posted.message_id)
    calls: list[Call] = await press(fake, posted, "accept", OPPONENT_ID, 3)
    failed, shown = calls[1], calls[2]
    assert failed.method == "PATCH" and failed.path.endswith("/messages/@original")  # Discord: Unknown Message
    assert shown.method == "POST" and shown.path.startswith("/webhooks/")
    assert not (shown.payload.get("flags") or 0) & 64  # in the channel, for both players
    done = await status_of(bot, posted)
    assert done.status == "resolved" and done.record_id is not None
    assert f"record #{done.record_id}" in shown.payload["embeds"][0]["footer"]["text"]
    assert f"seed `{posted.challenge.seed}`" in shown.payload["content"]
    assert f"salt `{posted.challenge.salt}`" in shown.payload["content"]
    assert f"referee:verify:{done.record_id}" in ids_of(shown.payload)


async def test_the_fake_refuses_an_edit_of_a_deleted_message(bot: RefereeBot, fake: FakeDiscord) -> None:
    """The fake Discord's delete: a later edit of the message is Discord's 404 Unknown Message (code 10008)."""
    posted = await challenge(bot, fake)
    channel = bot.get_partial_messageable(CHANNEL_ID)
    await channel.get_partial_message(int(posted.message_id)).delete()
    assert posted.message_id in fake.deleted
    with pytest.raises(discord.NotFound) as refused:
        await channel.get_partial_message(int(posted.message_id)).edit(content="x")
    assert refused.value.code == 10008
