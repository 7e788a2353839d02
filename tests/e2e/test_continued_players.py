"""Issue 34, found by attacking: a continued record keeps who played which side, whoever of its players asked
(plain or an agreed next round), on SQLite and PostgreSQL, in the store, in /replay and on its web page."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from rules_core import resolve
from tests.e2e.fake_discord import GUILD_ID, OPPONENT_ID, PLAYER_ID, FakeDiscord, command_interaction, final_answer
from tests.e2e.test_challenge_flow import (
    ORK_MOB,
    accepted,
    agreed_combat_that_goes_on,
    continue_command,
    goes_on,
    next_round_challenge,
)
from tests.e2e.test_challenge_limits import open_challenges
from tests.e2e.test_challenges import MARINES, Posted, bot, option, press, private_text, status_of, url

__all__ = ["bot", "url"]  # the fixtures (both backends)


async def wait_for_message_id(bot: RefereeBot, posted: Posted) -> None:
    """The challenge's message id is stored just after its answer goes out."""
    for _ in range(400):
        if (await status_of(bot, posted)).message_id is not None:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"challenge #{posted.id}'s message id was never stored")


async def replay_description(fake: FakeDiscord, record_id: int) -> str:
    payload = command_interaction("replay", [option("record", record_id, 4)], user_id=PLAYER_ID)
    (answer,) = await fake.ask(payload)
    embed: dict[str, Any] = answer.payload["data"]["embeds"][0]
    return str(embed.get("description", ""))


def sides_as_named(description: str) -> tuple[int, int]:
    """Where the attacker's player and the defender's player are first named in a result's headline."""
    return description.index(f"<@{PLAYER_ID}>"), description.index(f"<@{OPPONENT_ID}>")


async def test_the_defenders_player_continuing_keeps_the_sides_players(bot: RefereeBot, fake: FakeDiscord) -> None:
    seed = next(s for s in range(500) if goes_on(resolve("40k", MARINES, ORK_MOB, seed=s, charge_distance=4.0)))
    first = await bot.store.records.add(resolve("40k", MARINES, ORK_MOB, seed=seed, charge_distance=4.0),
                                        requested_by=str(PLAYER_ID), opponent=str(OPPONENT_ID),
                                        guild_id=str(GUILD_ID), private=False)  # fmt: skip
    payload = continue_command(first, OPPONENT_ID)  # the defender's player asks
    await fake.interaction(payload)
    live = await final_answer(fake, payload["token"])
    record_id = int(live.data["embeds"][0]["footer"]["text"].split("record #")[1].split()[0])
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert (stored.requested_by, stored.opponent) == (str(PLAYER_ID), str(OPPONENT_ID))
    attacker_at, defender_at = sides_as_named(live.data["embeds"][0]["description"])
    replay_attacker_at, replay_defender_at = sides_as_named(await replay_description(fake, record_id))
    assert (attacker_at < defender_at) == (replay_attacker_at < replay_defender_at)  # /replay names them as live


async def test_an_agreed_next_round_asked_by_the_defender_keeps_the_sides_players(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    first = await agreed_combat_that_goes_on(bot, fake)
    posted = await next_round_challenge(bot, fake, continue_command(first, OPPONENT_ID))
    _, record_id = await accepted(bot, fake, posted, PLAYER_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert (stored.requested_by, stored.opponent) == (str(PLAYER_ID), str(OPPONENT_ID))


async def test_an_agreed_combat_whose_opponent_erased_their_data_is_not_continued(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    first = await agreed_combat_that_goes_on(bot, fake)
    await bot.store.privacy.delete(user=str(OPPONENT_ID))
    before = await open_challenges(bot)
    (call,) = await fake.ask(continue_command(first, PLAYER_ID))
    data = call.payload["data"]
    assert data["flags"] & 64, data  # refused privately
    words = data["embeds"][0]["description"]
    assert "erased their data" in words and "<@deleted" not in json.dumps(data), words
    assert await open_challenges(bot) == before
    assert not any("deleted-" in json.dumps(c.payload) for c in fake.calls if c.method in ("POST", "PATCH"))


async def test_a_second_next_round_challenge_closes_the_first(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Each player asked for the next round: the second challenge replaces the first, whose message says so (no
    buttons left); the first pressed is refused privately, the second accepted is the continuation."""
    first = await agreed_combat_that_goes_on(bot, fake)
    mine = await next_round_challenge(bot, fake, continue_command(first, PLAYER_ID))
    await wait_for_message_id(bot, mine)
    theirs = await next_round_challenge(bot, fake, continue_command(first, OPPONENT_ID))
    (edited,) = await fake.wait_calls(lambda c: c.method == "PATCH" and c.path.endswith(f"/{mine.message_id}"))
    assert (await status_of(bot, mine)).status == "replaced" and (await status_of(bot, theirs)).status == "open"
    assert f"challenge #{theirs.id}" in edited.payload["embeds"][0]["description"]
    assert not edited.payload.get("components")
    late = await press(fake, mine, "accept", OPPONENT_ID)
    assert f"replaced by challenge #{theirs.id}" in private_text(late[1])
    _, record_id = await accepted(bot, fake, theirs, PLAYER_ID)
    assert (await bot.store.records.get(record_id, actor=OPERATOR)).continues_id == first
    assert len(await bot.store.records.history(actor=OPERATOR)) == 2


async def test_a_press_on_a_replaced_next_round_says_who_answers_the_newer_one(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """Ann asked for the next round, then Bo did (his replaces hers): a press on hers tells Bo that his own waits for
    Ann, and tells Ann to answer his; neither is told to answer a challenge only the other can."""
    first = await agreed_combat_that_goes_on(bot, fake)
    mine = await next_round_challenge(bot, fake, continue_command(first, PLAYER_ID))
    await wait_for_message_id(bot, mine)
    theirs = await next_round_challenge(bot, fake, continue_command(first, OPPONENT_ID))
    await fake.wait_calls(lambda c: c.method == "PATCH" and c.path.endswith(f"/{mine.message_id}"))
    asker = private_text((await press(fake, mine, "accept", OPPONENT_ID))[1])
    assert f"challenge #{theirs.id}" in asker and "answer that one" not in asker, asker
    assert f"waits for <@{PLAYER_ID}>" in asker, asker
    other = private_text((await press(fake, mine, "cancel", PLAYER_ID))[1])
    assert f"challenge #{theirs.id}" in other and f"<@{OPPONENT_ID}> asked" in other, other
    assert "answer it" in other, other
