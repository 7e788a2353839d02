"""Where results go and how loud the bot is, through the real bot and the fake Discord (issue 21): the server's
settings (threads for long results, a results channel, a league channel, private by default) and each player's
preferences (private by default, every step in full), filled straight into the bot's settings cache as the
settings commands would."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.server_settings.model import SettingRow
from rules_core import resolve
from tests.e2e import test_leagues as leagues
from tests.e2e.conftest import long_fight, within_limits
from tests.e2e.discord_view import PHONE, Browser, Shown
from tests.e2e.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    LEAGUE_CHANNEL_ID,
    OPPONENT_ID,
    PLAYER_ID,
    RESULTS_CHANNEL_ID,
    Answer,
    Call,
    FakeDiscord,
    command_interaction,
    component_interaction,
    final_answer,
)
from tests.e2e.test_commands import MARINES, ORK_MOB
from tests.waits import scaled

EPHEMERAL = 64
GUILD = str(GUILD_ID)
SHORT = ("A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-")  # a duel: one page


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def server(bot: RefereeBot, **values: Any) -> None:
    """The server's settings, as /settings would store them."""
    bot.server_settings.replace_guild(GUILD, [SettingRow("server", GUILD, GUILD, key, value)
                                              for key, value in values.items()])  # fmt: skip


def prefer(bot: RefereeBot, user_id: int, **values: Any) -> None:
    """A player's preferences, as /preferences would store them."""
    who = str(user_id)
    bot.server_settings.replace_user(who, [SettingRow("user", who, None, key, value) for key, value in values.items()])


def long_assault(**extra: Any) -> dict[str, Any]:
    attackers, defenders = long_fight()  # long enough to page
    options = [option("attacker", attackers), option("defender", defenders), option("charge_distance", 3.0, 10)]
    options += [option(name, value, 5) for name, value in extra.items()]
    return command_interaction("assault", options, subcommand="40k")


def duel(*, user_id: int = PLAYER_ID, **extra: Any) -> dict[str, Any]:
    options = [option("attacker", SHORT[0]), option("defender", SHORT[1])]
    options += [option(name, value, 5) for name, value in extra.items()]
    return command_interaction("duel", options, user_id=user_id)


def in_channel(payload: dict[str, Any], channel_id: int) -> dict[str, Any]:
    """The same interaction, used in another channel of the server."""
    payload["channel_id"] = str(channel_id)
    payload["channel"] = payload["channel"] | {"id": str(channel_id)}
    return payload


async def result(fake: FakeDiscord, payload: dict[str, Any]) -> Answer:
    await fake.interaction(payload)
    return await final_answer(fake, payload["token"])


def posts_to(channel_id: int | str) -> Any:
    path = f"/channels/{channel_id}/messages"
    return lambda call: call.method == "POST" and call.path == path


def pages_of(embed: dict[str, Any]) -> int:
    footer = embed["footer"]["text"]
    return int(footer.rsplit("/", 1)[1]) if " · page " in footer else 1


def custom_ids(data: dict[str, Any]) -> list[str]:
    return [c.get("custom_id", "") for row in data.get("components", []) for c in row["components"]]


def links(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in data.get("components", []) for c in row["components"] if c.get("style") == 5]


async def settle(bot: RefereeBot) -> None:
    """Wait for every result still being placed (its thread, its copy) to finish: the answer's own task."""
    if bot.in_flight:
        await asyncio.wait(set(bot.in_flight), timeout=scaled(20))


# --- threads -------------------------------------------------------------------------------------------------------


async def test_a_long_public_result_keeps_its_summary_in_the_channel_and_its_pages_in_a_thread(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    server(bot, threads="on")
    payload = long_assault()
    answer = await result(fake, payload)
    (summary,) = answer.data["embeds"]
    pages = pages_of(summary)
    assert pages > 1
    assert answer.files == []  # the log goes to the thread with the pages
    assert "referee:page:1:1" in custom_ids(answer.data)  # page 1 keeps its buttons in the channel

    message_id = fake.responses[payload["token"]]
    assert list(fake.threads) == [message_id]  # Start Thread from Message: the thread's id is the message's
    thread = fake.threads[message_id]
    assert thread["type"] == 11 and thread["parent_id"] == str(CHANNEL_ID)
    assert thread["name"].startswith("40K assault: ") and thread["name"].endswith("#1")
    assert len(thread["name"]) <= 100

    await fake.wait_calls(posts_to(message_id), pages)
    posted = fake.in_channel(message_id)
    assert len(posted) == pages
    for number, message in enumerate(posted, start=1):
        (embed,) = message["embeds"]
        within_limits(embed)
        assert embed["footer"]["text"].endswith(f"record #1 · page {number}/{pages}")
        assert message["allowed_mentions"]["parse"] == []
    assert [m["files"] for m in posted][-1] == ["combat-1.md"] and not any(m["files"] for m in posted[:-1])
    stored = await bot.store.records.get(1, actor=OPERATOR)
    assert stored.report.seed == int(summary["footer"]["text"].split("seed ")[1].split(" ")[0])


async def test_a_short_result_or_a_private_one_gets_no_thread(bot: RefereeBot, fake: FakeDiscord) -> None:
    server(bot, threads="on")
    short = await result(fake, duel())
    assert pages_of(short.data["embeds"][0]) == 1
    private = await result(fake, long_assault(private=True))
    assert private.first["flags"] & EPHEMERAL
    assert pages_of(private.data["embeds"][0]) > 1 and private.files == ["combat-2.md"]  # as without threads
    await settle(bot)
    assert fake.threads == {}
    assert not [c for c in fake.calls if c.path.endswith("/threads")]


async def test_without_threads_a_long_result_stays_whole_in_the_channel(bot: RefereeBot, fake: FakeDiscord) -> None:
    answer = await result(fake, long_assault())
    await settle(bot)
    assert answer.files == ["combat-1.md"] and fake.threads == {}


async def test_a_thread_discord_refuses_leaves_the_result_in_the_channel_as_without_threads(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="referee.bot")
    server(bot, threads="on")
    fake.no_threads.add(CHANNEL_ID)  # no Create Public Threads permission: 403
    answer = await result(fake, long_assault())
    await settle(bot)
    assert [c.path for c in fake.calls if c.path.endswith("/threads")]  # it was tried
    assert answer.files == ["combat-1.md"]  # the log stays with the result, as without threads
    assert "record #1" in answer.data["embeds"][0]["footer"]["text"]  # recorded
    await bot.store.records.get(1, actor=OPERATOR)
    refused = [r for r in caplog.records if "no thread for the result" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING and not refused[0].exc_info


async def test_a_thread_that_refuses_its_pages_leaves_the_log_with_the_result(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="referee.bot")
    server(bot, threads="on")
    fake.closed_threads.add(CHANNEL_ID)  # the thread is made, but refuses messages (no Send Messages in Threads)
    payload = long_assault()
    answer = await result(fake, payload)
    await settle(bot)
    message_id = fake.responses[payload["token"]]
    assert list(fake.threads) == [message_id]  # the thread was started
    assert fake.in_channel(message_id) == []  # and took nothing
    assert answer.files == ["combat-1.md"]  # the full log stays with the result, as without threads
    assert "referee:page:1:1" in custom_ids(answer.data)
    refused = [r for r in caplog.records if "refused its pages" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING


# --- the results channel -------------------------------------------------------------------------------------------


async def test_the_results_channel_gets_a_copy_with_a_link_back_once_recorded(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    server(bot, results_channel=str(RESULTS_CHANNEL_ID))
    payload = duel()
    answer = await result(fake, payload)
    (copy_call,) = await fake.wait_calls(posts_to(RESULTS_CHANNEL_ID))
    copy = copy_call.payload
    (embed,) = copy["embeds"]
    within_limits(embed)
    shown = answer.data["embeds"][0]
    assert embed["title"] == shown["title"] and embed["footer"]["text"] == shown["footer"]["text"]
    assert "record #1" in embed["footer"]["text"]  # posted once recorded
    assert not embed.get("fields")  # the summary: the steps stay with the result
    assert embed["description"].split("\n\n")[1] == shown["description"].split("\n\n")[1]  # the same headline
    (link,) = links(copy)
    message_id = fake.responses[payload["token"]]
    assert link["url"] == f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{message_id}"
    assert copy["allowed_mentions"]["parse"] == [] and not copy.get("content")  # nobody is pinged


async def test_no_copy_of_a_private_result_nor_of_one_asked_in_the_results_channel(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    server(bot, results_channel=str(RESULTS_CHANNEL_ID))
    await result(fake, duel(private=True))
    await result(fake, in_channel(duel(), RESULTS_CHANNEL_ID))
    await settle(bot)
    assert fake.in_channel(RESULTS_CHANNEL_ID) == []
    await result(fake, duel())  # a public one from the battles channel: copied
    await fake.wait_calls(posts_to(RESULTS_CHANNEL_ID))


async def test_a_results_channel_that_refuses_costs_the_player_nothing(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="referee.bot")
    server(bot, results_channel=str(RESULTS_CHANNEL_ID))
    fake.closed_channels.add(RESULTS_CHANNEL_ID)  # deleted, or the bot may no longer post there: 403
    answer = await result(fake, duel())
    await settle(bot)
    assert "record #1" in answer.data["embeds"][0]["footer"]["text"]
    assert custom_ids(answer.data)  # its buttons
    refused = [r for r in caplog.records if "results channel" in r.getMessage()]
    assert len(refused) == 1 and not refused[0].exc_info
    again = await result(fake, duel())  # and the next result is answered as ever
    assert "record #2" in again.data["embeds"][0]["footer"]["text"]


# --- visibility and preferences ------------------------------------------------------------------------------------


async def test_preferences_apply_to_whoever_asks(bot: RefereeBot, fake: FakeDiscord) -> None:
    prefer(bot, PLAYER_ID, private=True)
    prefer(bot, OPPONENT_ID, steps="full")
    hers = await result(fake, duel())
    assert hers.first["flags"] & EPHEMERAL  # private by her preference
    his = await result(fake, duel(user_id=OPPONENT_ID))
    assert not (his.first.get("flags") or 0) & EPHEMERAL  # his results are public
    compact = [f["name"] for f in hers.data["embeds"][0]["fields"]]
    full = his.data["embeds"][0]["fields"]
    assert compact == ["Steps"]  # one line a step
    assert len(full) > 1 and all(f["name"] != "Steps" for f in full)  # every step, titled, with its dice
    assert any("✔" in f["value"] or "✘" in f["value"] for f in full)
    explicit = await result(fake, duel(private=False))  # an explicit private:false wins over her preference
    assert not (explicit.first.get("flags") or 0) & EPHEMERAL


async def test_a_server_that_keeps_results_private_and_a_player_who_says_otherwise(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    server(bot, visibility="private")
    quiet = await result(fake, duel())
    assert quiet.first["flags"] & EPHEMERAL
    stored = await bot.store.records.get(1, actor=OPERATOR)
    assert stored.private  # recorded as private: it stays its players'
    said = await result(fake, duel(private=False))
    assert not (said.first.get("flags") or 0) & EPHEMERAL
    prefer(bot, PLAYER_ID, private=False)  # a player's own preference comes before the server's default
    preferred = await result(fake, duel())
    assert not (preferred.first.get("flags") or 0) & EPHEMERAL


async def test_a_channel_can_be_private_in_a_public_server(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(GUILD, [SettingRow("channel", str(CHANNEL_ID), GUILD, "visibility", "private")])
    assert (await result(fake, duel())).first["flags"] & EPHEMERAL
    elsewhere = await result(fake, in_channel(duel(), RESULTS_CHANNEL_ID))
    assert not (elsewhere.first.get("flags") or 0) & EPHEMERAL


async def test_odds_follow_the_same_visibility(bot: RefereeBot, fake: FakeDiscord) -> None:
    server(bot, visibility="private")
    spec = [option("attacker", "8x Grenadiers: veteran smg=2 nco"), option("defender", "10x Rifles: regular nco"),
            option("reaction_shots", 10, 4), option("distance", 9.0, 10)]  # fmt: skip
    deferred, _ = await fake.ask(command_interaction("odds", spec, subcommand="boltaction"), 2)
    assert deferred.payload["data"]["flags"] & EPHEMERAL  # deferred privately: the answer is private
    said = command_interaction("odds", [*spec, option("private", False, 5)], subcommand="boltaction")
    deferred, _ = await fake.ask(said, 2)
    assert not (deferred.payload.get("data") or {}).get("flags", 0) & EPHEMERAL


async def test_a_roll_follows_the_same_visibility(bot: RefereeBot, fake: FakeDiscord) -> None:
    prefer(bot, PLAYER_ID, private=True)
    (call,) = await fake.ask(command_interaction("roll", [option("expression", "2d6+1")]))
    assert call.payload["data"]["flags"] & EPHEMERAL
    (said,) = await fake.ask(command_interaction("roll", [option("expression", "2d6+1"), option("private", False, 5)]))
    assert not said.payload["data"].get("flags", 0) & EPHEMERAL


async def test_a_continued_round_follows_its_players_visibility(bot: RefereeBot, fake: FakeDiscord) -> None:
    first = resolve("40k", MARINES, ORK_MOB, seed=0, charge_distance=3)  # a combat that goes on
    for _ in range(2):
        await bot.store.records.add(first, requested_by=str(PLAYER_ID), guild_id=GUILD)  # public, #1 and #2
    prefer(bot, PLAYER_ID, private=True)
    mine = command_interaction("assault", [option("record", 1, 4)], subcommand="continue")
    assert (await result(fake, mine)).first["flags"] & EPHEMERAL  # her preference: her next round is private
    stranger = OPPONENT_ID + 9  # not a player of combat #2: their preference cannot hide it from its players
    prefer(bot, stranger, private=True)
    theirs = command_interaction("assault", [option("record", 2, 4)], subcommand="continue", user_id=stranger)
    assert not ((await result(fake, theirs)).first.get("flags") or 0) & EPHEMERAL


async def test_replay_and_the_page_buttons_follow_the_pressers_preference(bot: RefereeBot, fake: FakeDiscord) -> None:
    answer = await result(fake, long_assault())
    compact_pages = pages_of(answer.data["embeds"][0])
    prefer(bot, OPPONENT_ID, steps="full")
    press = component_interaction("referee:page:1:1", answer.data["components"], user_id=OPPONENT_ID,
                                  asked_by=PLAYER_ID)  # fmt: skip
    (call,) = await fake.ask(press)
    page = call.payload["data"]["embeds"][0]
    assert call.payload["data"]["flags"] & EPHEMERAL  # someone else's result: a page of their own
    assert pages_of(page) > compact_pages  # every step in full takes more pages
    assert page["fields"][0]["name"] != "Steps"
    replay = command_interaction("replay", [option("record", 1, 4)], user_id=OPPONENT_ID)
    (shown,) = await fake.ask(replay)
    replayed = shown.payload["data"]["embeds"][0]
    assert pages_of(replayed) == pages_of(page) and not shown.payload["data"].get("flags", 0) & EPHEMERAL
    prefer(bot, OPPONENT_ID, private=True)
    (hidden,) = await fake.ask(command_interaction("replay", [option("record", 1, 4)], user_id=OPPONENT_ID))
    assert hidden.payload["data"]["flags"] & EPHEMERAL


# --- the league channel --------------------------------------------------------------------------------------------


ANN, BOB, ORGANISER = leagues.ANN, leagues.BOB, leagues.ORGANISER


async def a_league_of_two(bot: RefereeBot, fake: FakeDiscord, *extra: dict[str, Any]) -> None:
    """The server's league channel set, and a league that Ann and Bob have joined."""
    server(bot, league_channel=str(LEAGUE_CHANNEL_ID))
    created = [option("name", "Autumn Crusade"), option("game", "40k"), *extra]
    await leagues.answer(fake, leagues.admin("create", created, by=ORGANISER))
    for player in (ANN, BOB):
        await leagues.answer(fake, leagues.league("join", [], by=player))


async def test_the_league_channel_hears_of_a_confirmation_without_pinging_anyone(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await a_league_of_two(bot, fake)
    shown = await leagues.report(fake, ANN, BOB, "win", score="3-1")
    assert fake.in_channel(LEAGUE_CHANNEL_ID) == []  # a report is not news until it is confirmed
    await leagues.click(fake, "referee:league:confirm:1", shown["data"], BOB)
    (news_call,) = await fake.wait_calls(posts_to(LEAGUE_CHANNEL_ID))
    news = news_call.payload
    (embed,) = news["embeds"]
    assert embed["title"] == "Match #1 confirmed"
    assert embed["description"] == f"<@{ANN}> beat <@{BOB}> (3-1)\nConfirmed by <@{BOB}>."
    assert "Autumn Crusade" in embed["footer"]["text"]
    assert news["allowed_mentions"] == {"parse": []}


async def test_a_button_pressed_in_the_league_channel_is_not_told_there_twice(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await a_league_of_two(bot, fake)
    server(bot, league_channel=str(CHANNEL_ID))  # the league is played in its own channel
    shown = await leagues.report(fake, ANN, BOB, "win")
    await leagues.click(fake, "referee:league:confirm:1", shown["data"], BOB)  # the answer is the news, there
    later = await leagues.report(fake, ANN, BOB, "draw")
    pressed = component_interaction("referee:league:confirm:2", later["data"].get("components", []), user_id=BOB)
    await fake.ask(in_channel(pressed, RESULTS_CHANNEL_ID))  # pressed elsewhere: the league channel hears of it
    (news,) = await fake.wait_calls(posts_to(CHANNEL_ID))
    assert [m["embeds"][0]["title"] for m in fake.in_channel(CHANNEL_ID)] == ["Match #2 confirmed"]
    assert news.payload["embeds"][0]["title"] == "Match #2 confirmed"


async def test_the_league_channel_hears_of_disputes_and_an_organisers_decision(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await a_league_of_two(bot, fake)
    shown = await leagues.report(fake, ANN, BOB, "win")
    await leagues.click(fake, "referee:league:dispute:1", shown["data"], BOB)
    decision = [option("match", 1, 4), option("decision", "win"), option("reason", "photos")]
    await leagues.answer(fake, leagues.admin("resolve", decision, by=ORGANISER, permissions=leagues.MANAGER))
    calls: list[Call] = await fake.wait_calls(posts_to(LEAGUE_CHANNEL_ID), 2)
    titles = [call.payload["embeds"][0]["title"] for call in calls]
    assert titles == ["Match #1 disputed", "Match #1 resolved"]
    assert calls[1].payload["embeds"][0]["description"].endswith(f"Resolved by <@{ORGANISER}>.")


async def test_the_league_channel_hears_of_an_automatic_confirmation(bot: RefereeBot, fake: FakeDiscord) -> None:
    await a_league_of_two(bot, fake, option("confirm_hours", 1, 4))
    await leagues.report(fake, ANN, BOB, "draw")
    cog = bot.get_cog("LeagueCog")
    assert await cog.sweep_once(at=datetime.now(UTC) + timedelta(hours=2)) == 1  # type: ignore[union-attr]
    (news,) = await fake.wait_calls(posts_to(LEAGUE_CHANNEL_ID))
    assert news.payload["embeds"][0]["description"].endswith("Confirmed automatically: nobody answered in time.")


# --- as a phone shows them -----------------------------------------------------------------------------------------


async def test_a_threads_pages_and_the_results_copy_as_a_phone_shows_them(
    bot: RefereeBot, fake: FakeDiscord, chromium: Browser, tmp_path: Path
) -> None:
    server(bot, threads="on", results_channel=str(RESULTS_CHANNEL_ID))
    payload = long_assault()
    answer = await result(fake, payload)
    thread_id = fake.responses[payload["token"]]
    pages = pages_of(answer.data["embeds"][0])
    await fake.wait_calls(posts_to(thread_id), pages)
    (copy,) = await fake.wait_calls(posts_to(RESULTS_CHANNEL_ID))
    in_thread = [Shown(message, command="") for message in fake.in_channel(thread_id)[:2]]
    channel_height = chromium.measure(Shown(answer.data, command="/assault 40k"), PHONE)
    thread_height = chromium.photograph(in_thread, PHONE, tmp_path / "thread-pages-390.png")
    copy_height = chromium.photograph([Shown(copy.payload, command="")], PHONE, tmp_path / "results-copy-390.png")
    assert chromium.driver.find_elements("css selector", ".button")  # the link back is drawn
    assert thread_height > channel_height  # page 1 and page 2, one message each
    assert 150 < copy_height < channel_height  # the summary alone, without the page's step lines
