"""Leagues through the fake Discord: two players report and confirm, one disputes, an organiser resolves, and the
standings and the audit log show exactly that. Organisers' actions are /league-admin; a member who can run it (a
server's admins granted it to a role) but does not organise the league is refused."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, command_interaction, component_interaction, user
from tests.waits import scaled

EPHEMERAL = 64
ORGANISER, ANN, BOB, CID = 900000000000000100, 900000000000000101, 900000000000000102, 900000000000000103
PLAYER = "1024"  # Send Messages only: no Manage Server
MANAGER = "2147483647"


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def league(
    subcommand: str, options: list[dict[str, Any]], *, by: int, permissions: str = PLAYER, users: tuple[int, ...] = ()
) -> dict[str, Any]:
    resolved = {"users": {str(u): user(u, f"user{u % 1000}") for u in users}} if users else None
    return command_interaction("league", [{"type": 1, "name": subcommand, "options": options}], user_id=by,
                               permissions=permissions, resolved=resolved)  # fmt: skip


def admin(
    subcommand: str, options: list[dict[str, Any]], *, by: int, permissions: str = PLAYER, users: tuple[int, ...] = ()
) -> dict[str, Any]:
    """/league-admin SUBCOMMAND, or ``season start`` / ``season end``. The fake Discord, like Discord for a member in
    a role granted the command, delivers it whatever the member's permissions: the bot decides."""
    resolved = {"users": {str(u): user(u, f"user{u % 1000}") for u in users}} if users else None
    group, _, name = subcommand.rpartition(" ")
    chosen: list[dict[str, Any]] = [{"type": 1, "name": name, "options": options}]
    if group:
        chosen = [{"type": 2, "name": group, "options": chosen}]
    return command_interaction("league-admin", chosen, user_id=by, permissions=permissions,
                               resolved=resolved)  # fmt: skip


async def answer(fake: FakeDiscord, payload: dict[str, Any], count: int = 1) -> list[Any]:
    return [call.payload for call in await fake.ask(payload, count)]


def custom_ids(data: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in data.get("components", []) for c in row["components"]]


async def report(fake: FakeDiscord, by: int, opponent: int, result: str, **extra: str) -> dict[str, Any]:
    options = [option("opponent", str(opponent), 6), option("result", result)]
    options += [option(name, value) for name, value in extra.items()]
    [shown] = await answer(fake, league("report", options, by=by, users=(opponent,)))
    return shown


async def click(fake: FakeDiscord, custom_id: str, data: dict[str, Any], by: int) -> dict[str, Any]:
    [shown] = await answer(fake, component_interaction(custom_id, data.get("components", []), user_id=by))
    return shown


async def test_report_confirm_dispute_resolve_then_standings_and_audit(bot: RefereeBot, fake: FakeDiscord) -> None:
    [created] = await answer(fake, admin("create", [option("name", "Autumn Crusade"), option("game", "40k")],
                                          by=ORGANISER))  # fmt: skip
    assert "League **Autumn Crusade** (40k) is open" in created["data"]["content"]
    for player in (ANN, BOB, CID):
        [joined] = await answer(fake, league("join", [], by=player))
        assert "joined **Autumn Crusade**" in joined["data"]["content"]

    # Ann reports a win over Bob: Bob is pinged, and gets the buttons.
    shown = await report(fake, ANN, BOB, "win", score="3-1")
    data = shown["data"]
    assert data["content"].startswith(f"<@{BOB}>") and [str(u) for u in data["allowed_mentions"]["users"]] == [str(BOB)]
    assert data["embeds"][0]["title"] == "Match #1: pending"
    assert f"<@{ANN}> beat <@{BOB}> (3-1)" == data["embeds"][0]["description"]
    assert custom_ids(data) == ["referee:league:confirm:1", "referee:league:dispute:1"]

    refused = await click(fake, "referee:league:confirm:1", data, ANN)  # the reporter cannot confirm
    assert (
        refused["data"]["flags"] & EPHEMERAL and "You reported match #1" in refused["data"]["embeds"][0]["description"]
    )
    confirmed = await click(fake, "referee:league:confirm:1", data, BOB)
    assert confirmed["type"] == 7  # the report message itself now says so, without buttons
    assert confirmed["data"]["embeds"][0]["title"] == "Match #1: confirmed" and confirmed["data"]["components"] == []
    again = await click(fake, "referee:league:confirm:1", data, BOB)  # a double click: one effect
    assert again["data"]["flags"] & EPHEMERAL and "already confirmed" in again["data"]["embeds"][0]["description"]

    # Cid reports a win over Ann; Ann disputes it; only a neutral organiser settles it.
    disputed_report = (await report(fake, CID, ANN, "win"))["data"]
    disputed = await click(fake, "referee:league:dispute:2", disputed_report, ANN)
    assert disputed["data"]["embeds"][0]["title"] == "Match #2: disputed"
    [not_allowed] = await answer(fake, admin("resolve", [option("match", 2, 4), option("decision", "draw"),
                                                          option("reason", "I say so")], by=ANN))  # fmt: skip
    assert not_allowed["data"]["flags"] & EPHEMERAL and "organisers" in not_allowed["data"]["embeds"][0]["description"]
    [resolved] = await answer(fake, admin("resolve", [option("match", 2, 4), option("decision", "draw"),
                                                       option("reason", "Both agreed on a draw")],
                                           by=ORGANISER, permissions=MANAGER))  # fmt: skip
    assert resolved["data"]["embeds"][0]["title"] == "Match #2: confirmed"
    assert resolved["data"]["embeds"][0]["description"] == f"<@{CID}> drew with <@{ANN}>"

    # Standings: Ann 3 + 1, Cid 1, Bob 0; then the rating chart is added to the same message.
    first, chart = await answer(fake, league("standings", [], by=BOB), 2)
    lines = first["data"]["embeds"][0]["description"].splitlines()
    assert [line.split(" · ")[0:2] for line in lines] == [
        [f"**1.** <@{ANN}>", "**4** pts"], [f"**2.** <@{CID}>", "**1** pts"], [f"**3.** <@{BOB}>", "**0** pts"],
    ]  # fmt: skip
    assert "(1-1-0)" in lines[0] and "(0-0-1)" in lines[2]
    assert chart["attachments"][0]["filename"] == "ratings.png"
    png = next(call for call in fake.calls if call.files == ["ratings.png"])
    assert png.method == "PATCH"

    # The audit log, newest first: exactly what happened to the two matches.
    [audit] = await answer(fake, league("audit", [], by=BOB))
    text = audit["data"]["embeds"][0]["description"]
    kinds = [line.split("**")[1] for line in text.splitlines()]
    assert kinds[:6] == ["dispute-resolved", "disputed", "reported", "confirmed", "reported", "joined"]
    newest = text.splitlines()[0]
    assert "status: disputed → confirmed" in newest and "result: win → draw" in newest
    assert f"decided_by: — → <@{ORGANISER}>" in newest
    assert "Both agreed on a draw" in text.splitlines()[0]


async def test_bad_input_and_the_wrong_people_get_clear_private_answers(bot: RefereeBot, fake: FakeDiscord) -> None:
    [none_yet] = await answer(fake, league("standings", [], by=ANN))
    assert none_yet["data"]["flags"] & EPHEMERAL and "no league yet" in none_yet["data"]["embeds"][0]["description"]
    await answer(fake, admin("create", [option("name", "Spring"), option("game", "duel")], by=ORGANISER))
    [settings] = await answer(fake, admin("settings", [option("win", 5, 4)], by=ANN))
    assert (
        settings["data"]["flags"] & EPHEMERAL and "Only the organisers" in settings["data"]["embeds"][0]["description"]
    )
    [duplicate] = await answer(fake, admin("create", [option("name", "spring"), option("game", "40k")], by=ANN))
    assert "already has a league named" in duplicate["data"]["embeds"][0]["description"]
    [stranger] = await answer(fake, league("report", [option("opponent", str(BOB), 6), option("result", "win")],
                                           by=CID, users=(BOB,)))  # fmt: skip
    assert "Join Spring first" in stranger["data"]["embeds"][0]["description"]
    await answer(fake, admin("create", [option("name", "Winter"), option("game", "epic")], by=ORGANISER))
    [which] = await answer(fake, league("join", [], by=ANN))
    assert "several leagues" in which["data"]["embeds"][0]["description"]
    [joined] = await answer(fake, league("join", [option("league", "winter")], by=ANN))
    assert "joined **Winter**" in joined["data"]["content"]


async def test_an_unanswered_report_confirms_itself_and_its_buttons_then_say_so(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await answer(fake, admin("create", [option("name", "Quick"), option("game", "40k"), option("confirm_hours", 1, 4)],
                              by=ORGANISER))  # fmt: skip
    for player in (ANN, BOB):
        await answer(fake, league("join", [], by=player))
    data = (await report(fake, ANN, BOB, "draw"))["data"]
    cog: Any = bot.get_cog("LeagueCog")  # discord.py loads each bot's extensions afresh: not this module's class
    assert cog is not None
    assert await cog.sweep_once() == 0  # not yet due
    assert await cog.sweep_once(at=datetime.now(UTC) + timedelta(hours=1, seconds=1)) == 1
    late = await click(fake, "referee:league:confirm:1", data, BOB)
    assert "already confirmed" in late["data"]["embeds"][0]["description"]
    [audit] = await answer(fake, league("audit", [option("match", 1, 4)], by=BOB))
    assert "**auto-confirmed** match #1 by the bot (time ran out)" in audit["data"]["embeds"][0]["description"]


async def test_the_buttons_still_work_after_the_bot_restarts(bot: RefereeBot, fake: FakeDiscord) -> None:
    await answer(fake, admin("create", [option("name", "Lasting"), option("game", "40k")], by=ORGANISER))
    for player in (ANN, BOB):
        await answer(fake, league("join", [], by=player))
    data = (await report(fake, ANN, BOB, "loss"))["data"]
    await bot.close()  # the message with its buttons stays in Discord; the process that sent it is gone
    again = RefereeBot(bot.settings)
    task = asyncio.create_task(again.start("fake-token"))
    try:
        await asyncio.wait_for(again.wait_until_ready(), scaled(15))
        confirmed = await click(fake, "referee:league:confirm:1", data, BOB)
        assert confirmed["type"] == 7 and confirmed["data"]["embeds"][0]["title"] == "Match #1: confirmed"
    finally:
        await again.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_member_who_may_run_league_admin_but_organises_nothing_is_refused_every_action(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """Discord hides /league-admin from members without Manage Server until a server's admins grant it to a role;
    the grant only shows the command. Cid, in such a role but no organiser of the league, is refused each action
    privately, and nothing changes; once an organiser adds him, the same command works."""
    await answer(fake, admin("create", [option("name", "Autumn"), option("game", "40k")], by=ORGANISER))
    for player in (ANN, BOB):
        await answer(fake, league("join", [], by=player))
    reported = (await report(fake, ANN, BOB, "win"))["data"]
    disputed = await click(fake, "referee:league:dispute:1", reported, BOB)
    assert "`/league-admin resolve match:1`" in disputed["data"]["embeds"][0]["fields"][-1]["value"]
    [before] = await answer(fake, league("audit", [], by=ANN))
    attempts = [
        ("settings", [option("win", 5, 4)], "change its settings"),
        ("organiser", [option("user", str(CID), 6)], "add organisers"),
        ("season start", [], "start a season"),
        ("season end", [], "end a season"),
        ("resolve", [option("match", 1, 4), option("decision", "void"), option("reason", "mine now")],
         "resolve a dispute"),
        ("void", [option("match", 1, 4), option("reason", "mine now")], "void a match"),
        ("correct", [option("match", 1, 4), option("result", "loss"), option("reason", "mine now")],
         "correct a result"),
        ("enter", [option("player", str(ANN), 6), option("opponent", str(BOB), 6), option("result", "draw")],
         "enter results"),
    ]  # fmt: skip
    for subcommand, options, doing in attempts:
        [refused] = await answer(fake, admin(subcommand, options, by=CID, users=(ANN, BOB, CID)))
        text = refused["data"]["embeds"][0]["description"]
        assert refused["data"]["flags"] & EPHEMERAL, subcommand
        assert text.startswith(f"Only the organisers of Autumn can {doing}:"), (subcommand, text)
    [after] = await answer(fake, league("audit", [], by=ANN))
    assert after["data"]["embeds"][0]["description"] == before["data"]["embeds"][0]["description"]
    [table, *_] = await answer(fake, league("standings", [], by=ANN))
    assert table["data"]["embeds"][0]["title"] == "Autumn: season 1 (open)"

    [added] = await answer(fake, admin("organiser", [option("user", str(CID), 6)], by=ORGANISER, users=(CID,)))
    assert f"<@{CID}> now organises **Autumn**" in added["data"]["content"]
    [resolved] = await answer(fake, admin("resolve", [option("match", 1, 4), option("decision", "win"),
                                                      option("reason", "Bob conceded")], by=CID))  # fmt: skip
    assert resolved["data"]["embeds"][0]["title"] == "Match #1: confirmed"
    [started] = await answer(fake, admin("season start", [], by=CID))
    assert "season 2 has begun" in started["data"]["content"]


async def test_the_organisers_actions_are_not_under_league_any_more(bot: RefereeBot, fake: FakeDiscord) -> None:
    """A client still showing the old /league create (Discord refreshes its list a little later) is told so
    privately, and nothing is created."""
    [stale] = await answer(fake, league("create", [option("name", "Old"), option("game", "40k")], by=ORGANISER))
    assert stale["data"]["flags"] & EPHEMERAL
    assert stale["data"]["embeds"][0]["description"].startswith(
        "'/league create' is no longer a command: it is '/league-admin create' now"
    )
    [listed] = await answer(fake, league("list", [], by=ORGANISER))
    assert listed["data"]["content"].startswith("No leagues yet")


async def test_discord_receives_the_admin_commands_with_manage_server_and_everyones_without(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """What the bot sent to Discord at sync (the JSON body): Discord hides a top-level command from members who
    lack its default_member_permissions (here Manage Server, 1 << 5) until the server's admins allow it to a role."""
    synced = {command["name"]: command for command in fake.synced[f"guild:{GUILD_ID}"]}
    assert {name: synced[name]["default_member_permissions"] for name in ("league-admin", "server-data")} == {
        "league-admin": 1 << 5, "server-data": 1 << 5,
    }  # fmt: skip
    assert (
        synced["league"]["default_member_permissions"] is None
        and synced["privacy"]["default_member_permissions"] is None
    )
