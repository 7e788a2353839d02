"""Leagues at the table (issue 20): what the bot does after the players acted, through the fake Discord.

An auto-confirmed report's message says so and loses its buttons (it used to read "pending" with live buttons);
the opponent is reminded once, a day before the auto-confirmation, in the channel (mentioning only them) or by
direct message when the channel refuses, never for a match already answered, never twice, not after a restart
either; the rating chart and the CSV export name players (display names, fetched and cached without privileged
intents) instead of showing raw ids. The clock is driven the way test_leagues.py does: ``sweep_once(at=...)``.
"""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import CHANNEL_ID, GUILD_ID, Call, FakeDiscord
from tests.e2e.test_leagues import ANN, BOB, CID, ORGANISER, admin, answer, click, league, option, report
from tests.waits import scaled

EPHEMERAL = 64


def channel_posts(fake: FakeDiscord, channel: int = CHANNEL_ID) -> list[Call]:
    return [c for c in fake.calls if c.method == "POST" and c.path == f"/channels/{channel}/messages"]


def edits(fake: FakeDiscord) -> list[Call]:
    return [c for c in fake.calls if c.method == "PATCH" and c.path.startswith(f"/channels/{CHANNEL_ID}/messages/")]


def report_message_id(fake: FakeDiscord, opponent: int) -> str:
    """The id of the message that reported a game against ``opponent`` (the one with the buttons)."""
    [found] = [i for i, body in fake.messages.items()
               if str(body.get("content", "")).startswith(f"<@{opponent}>: ")]  # fmt: skip
    return found


async def open_league(fake: FakeDiscord, name: str, confirm_hours: int, players: tuple[int, ...]) -> None:
    await answer(fake, admin("create", [option("name", name), option("game", "40k"),
                                        option("confirm_hours", confirm_hours, 4)], by=ORGANISER))  # fmt: skip
    for player in players:
        await answer(fake, league("join", [], by=player))


def sweeper(bot: RefereeBot) -> Any:
    cog: Any = bot.get_cog("LeagueCog")  # discord.py loads each bot's extensions afresh: not this module's class
    assert cog is not None
    return cog


async def test_an_auto_confirmed_report_edits_its_own_message_to_say_so_without_buttons(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await open_league(fake, "Quick", 1, (ANN, BOB))
    shown = await report(fake, ANN, BOB, "win", score="2-0")
    assert shown["data"]["embeds"][0]["title"] == "Match #1: pending" and shown["data"]["components"]
    message_id = report_message_id(fake, BOB)
    assert await sweeper(bot).sweep_once(at=datetime.now(UTC) + timedelta(minutes=59)) == 0
    assert edits(fake) == []
    assert await sweeper(bot).sweep_once(at=datetime.now(UTC) + timedelta(hours=1, seconds=1)) == 1

    [edit] = edits(fake)
    assert edit.path == f"/channels/{CHANNEL_ID}/messages/{message_id}"  # the report itself, in its channel
    embed = edit.payload["embeds"][0]
    assert embed["title"] == "Match #1: confirmed" and embed["description"] == f"<@{ANN}> beat <@{BOB}> (2-0)"
    assert {"name": "Decided by", "value": "automatically (nobody answered in time)", "inline": False} in embed[
        "fields"
    ]
    assert edit.payload["components"] == []  # no buttons left to press
    assert channel_posts(fake) == []  # a one-hour window gets no reminder: the report pinged Bob an hour ago


async def test_a_report_answered_by_a_second_report_edits_the_first_ones_message(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """Bob reports the same game instead of pressing Confirm: confirmed, and Ann's report no longer offers him
    buttons that can only say "already confirmed"."""
    await open_league(fake, "Weekly", 72, (ANN, BOB))
    await report(fake, ANN, BOB, "win")
    message_id = report_message_id(fake, BOB)
    merged = (await report(fake, BOB, ANN, "loss"))["data"]
    assert merged["embeds"][0]["title"] == "Match #1: confirmed"
    [edit] = await fake.wait_calls(lambda c: c in edits(fake))
    assert edit.path.endswith(f"/{message_id}") and edit.payload["components"] == []
    assert edit.payload["embeds"][0]["title"] == "Match #1: confirmed"


async def test_the_opponent_is_reminded_once_a_day_before_and_never_again_not_even_after_a_restart(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await open_league(fake, "Weekly", 48, (ANN, BOB, CID))
    start = datetime.now(UTC)
    await report(fake, ANN, BOB, "win", score="3-1")  # Bob never answers: reminded
    answered = (await report(fake, ANN, CID, "draw"))["data"]  # Cid confirms at once: never reminded
    await click(fake, "referee:league:confirm:2", answered, CID)
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{report_message_id(fake, BOB)}"

    assert await sweeper(bot).sweep_once(at=start + timedelta(hours=23, minutes=59)) == 0
    assert channel_posts(fake) == []  # more than a day to go
    await sweeper(bot).sweep_once(at=start + timedelta(hours=24, minutes=1))
    [reminder] = channel_posts(fake)
    text = reminder.payload["content"]
    assert text.startswith(f"<@{BOB}>: player101 reported a win over you (3-1) in **Weekly** (match #1).")
    assert f"<@{ANN}>" not in text and f"<@{CID}>" not in text and f"[the report]({link})" in text
    assert [str(u) for u in reminder.payload["allowed_mentions"]["users"]] == [str(BOB)]  # it pings Bob alone
    assert not reminder.payload["allowed_mentions"].get("parse")

    await sweeper(bot).sweep_once(at=start + timedelta(hours=25))
    assert len(channel_posts(fake)) == 1  # never twice

    await bot.close()  # a restart: the new process sweeps at start and every minute
    again = RefereeBot(bot.settings)
    task = asyncio.create_task(again.start("fake-token"))
    try:
        await asyncio.wait_for(again.wait_until_ready(), scaled(15))
        await sweeper(again).sweep_once(at=start + timedelta(hours=30))
        assert len(channel_posts(fake)) == 1  # not after a restart either
        assert await sweeper(again).sweep_once(at=start + timedelta(hours=48, seconds=1)) == 1
        assert len(channel_posts(fake)) == 1
        [edit] = edits(fake)
        assert edit.payload["embeds"][0]["title"] == "Match #1: confirmed" and edit.payload["components"] == []
    finally:
        await again.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_no_reminder_for_a_report_disputed_or_voided_meanwhile(bot: RefereeBot, fake: FakeDiscord) -> None:
    await open_league(fake, "Weekly", 72, (ANN, BOB, CID))
    start = datetime.now(UTC)
    disputed = (await report(fake, ANN, BOB, "win"))["data"]
    await click(fake, "referee:league:dispute:1", disputed, BOB)
    await report(fake, CID, ANN, "loss")
    [voided] = await answer(fake, admin("void", [option("match", 2, 4), option("reason", "never played")],
                                        by=ORGANISER))  # fmt: skip
    assert voided["data"]["embeds"][0]["title"] == "Match #2: void"
    [edit] = await fake.wait_calls(lambda c: c in edits(fake))  # the organiser's decision shows on the report too
    assert edit.path.endswith(f"/{report_message_id(fake, ANN)}") and edit.payload["components"] == []
    for hours in (48, 49, 60, 71):
        await sweeper(bot).sweep_once(at=start + timedelta(hours=hours, minutes=1))
    assert channel_posts(fake) == []


async def test_a_channel_that_refuses_the_reminder_sends_it_by_direct_message(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await open_league(fake, "Weekly", 36, (ANN, BOB))
    start = datetime.now(UTC)
    await report(fake, ANN, BOB, "loss")
    fake.closed_channels.add(CHANNEL_ID)  # the bot lost the right to post there
    await sweeper(bot).sweep_once(at=start + timedelta(hours=12, minutes=1))
    [refused] = channel_posts(fake)
    [opened] = [c for c in fake.calls if c.path == "/users/@me/channels"]
    assert opened.payload == {"recipient_id": BOB}
    [direct] = channel_posts(fake, BOB + 7)  # the fake's direct-message channel with Bob
    assert direct.payload["content"].startswith("player101 reported a loss to you in **Weekly** (match #1).")
    assert refused.payload["content"].startswith(f"<@{BOB}>: ")
    await sweeper(bot).sweep_once(at=start + timedelta(hours=13))
    assert len(channel_posts(fake, BOB + 7)) == 1


async def test_the_chart_and_the_csv_name_the_players_with_their_ids_beside(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Ann and Bob are named as Discord showed them in their own commands (``player101``...). Bob's cached name is
    two days old: it is fetched again (a member by id: no privileged intent), and his nickname shows; Cid, gone
    from the server, is named by his account's name. Nobody is a raw id any more."""
    await open_league(fake, "Named", 72, (ANN, BOB, CID))
    shown = (await report(fake, ANN, BOB, "win"))["data"]
    await click(fake, "referee:league:confirm:1", shown, BOB)
    shown = (await report(fake, BOB, CID, "win"))["data"]
    await click(fake, "referee:league:confirm:2", shown, CID)
    stale = datetime.now(UTC) - timedelta(days=2)
    await bot.store.leagues.remember_names(str(GUILD_ID), {str(BOB): "old Bob", str(CID): "old Cid"}, at=stale)
    fake.nicknames[(GUILD_ID, BOB)] = "Bob the Brave"
    fake.not_members.add(CID)
    fake.user_names[CID] = "Cid Global"

    _table, chart = await answer(fake, league("standings", [], by=ANN), 2)
    [attachment] = chart["attachments"]
    assert attachment["filename"] == "ratings.png"
    assert attachment["description"] == "Ratings over time: 1. player101, 2. Bob the Brave, 3. Cid Global"
    fetched = {c.path for c in fake.calls if c.method == "GET" and ("/members/" in c.path or "/users/9" in c.path)}
    assert fetched == {f"/guilds/{GUILD_ID}/members/{BOB}", f"/guilds/{GUILD_ID}/members/{CID}", f"/users/{CID}"}

    [export] = await answer(fake, league("export", [], by=ANN))
    assert export["data"]["flags"] & EPHEMERAL
    [sent] = [c for c in fake.calls if c.files and c.files[0].endswith("-matches.csv")]
    files = {
        name.rsplit("-", 1)[-1]: csv_rows(content.decode("utf-8"))
        for name, content in zip(sent.files, sent.contents, strict=True)
    }
    matches, standings = files["matches.csv"], files["standings.csv"]
    assert [(m["player"], m["player_name"], m["opponent"], m["opponent_name"]) for m in matches] == [
        (str(ANN), "player101", str(BOB), "Bob the Brave"), (str(BOB), "Bob the Brave", str(CID), "Cid Global"),
    ]  # fmt: skip
    assert [(row["rank"], row["player"], row["name"]) for row in standings] == [
        ("1", str(ANN), "player101"), ("2", str(BOB), "Bob the Brave"), ("3", str(CID), "Cid Global"),
    ]  # fmt: skip
    assert len([c for c in fake.calls if c.method == "GET" and "/members/" in c.path]) == 2  # fresh now: no refetch
    # Only league players' names are kept: the organiser, who plays in no league, used commands and is not named.
    assert set(await bot.store.leagues.names(str(GUILD_ID), [str(ORGANISER), str(ANN)])) == {str(ANN)}


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))
