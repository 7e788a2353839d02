"""Every server is its own world, through the real bot and the fake Discord, on SQLite and on PostgreSQL.

A manager of a second server tries every command that takes an id on the first server's combats, leagues,
matches, seasons and rosters, and gets "not found" each time, worded exactly as for an id that does not exist,
with every row of every table unchanged. A member of the first server who did not play a private combat sees it
nowhere. Page buttons turn the shared message only for the requester. A mention in a league refusal arrives as a
mention.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlalchemy import select, text

from bot.access import OPERATOR, Actor
from bot.discord.app import RefereeBot
from bot.storage.models import Base
from bot.storage.rosters import RosterInput
from rules_core import resolve
from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e.conftest import long_fight, running_bot
from tests.e2e.fake_discord import (
    GUILD_ID,
    OTHER_GUILD_ID,
    FakeDiscord,
    command_interaction,
    component_interaction,
    user,
)

EPHEMERAL = 64
MANAGER = "2147483647"  # every permission, Manage Server included
MEMBER = "1024"  # Send Messages only
G1, G2 = GUILD_ID, OTHER_GUILD_ID
G1_TEXT = str(G1)
ANN, BOB, CID, MAX = 900000000000000201, 900000000000000202, 900000000000000203, 900000000000000299
A, B, C = str(ANN), str(BOB), str(CID)
DUEL = ("A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-")
MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORKS = "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


@pytest.fixture(params=["sqlite", "postgresql"])
async def bot(request: pytest.FixtureRequest, fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[RefereeBot]:
    """The real bot on each backend (the PostgreSQL one migrated first, as in production)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}"
    else:
        url = await migrated_postgresql()
    async with running_bot(fake, url) as referee:
        yield referee


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def group(name: str, sub: str, options: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return command_interaction(name, [{"type": 1, "name": sub, "options": options}], **extra)


def season(sub: str, options: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    nested = [{"type": 2, "name": "season", "options": [{"type": 1, "name": sub, "options": options}]}]
    return command_interaction("league-admin", nested, **extra)


async def one(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    (call,) = await fake.ask(payload)
    return call.payload  # type: ignore[no-any-return]


async def rows(bot: RefereeBot) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a fixed order: what "nothing changed" is checked against."""
    found = {}
    async with bot.store.sessions() as session:
        for table in Base.metadata.sorted_tables:
            result = await session.execute(select(table).order_by(*table.primary_key.columns))
            found[table.name] = [tuple(row) for row in result.all()]
    return found


async def first_server(bot: RefereeBot) -> dict[str, int]:
    """Server 1's world: public and private combats, a league with a disputed and a confirmed match, a second
    season, and rosters (one shared with the server)."""
    store = bot.store
    duel = resolve("duel", *DUEL, seed=1)
    drawn = next(r for seed in range(200) if (r := resolve("40k", MARINES, ORKS, seed=seed)).result.outcome == "drawn")
    ids = {
        "public": await store.records.add(duel, requested_by=A, opponent=B, guild_id=G1_TEXT),
        "private": await store.records.add(duel, requested_by=A, opponent=B, guild_id=G1_TEXT, private=True),
        "goes_on": await store.records.add(drawn, requested_by=A, opponent=B, guild_id=G1_TEXT),
    }
    organiser = Actor(A, guild=G1_TEXT, manager=True)
    league = await store.leagues.create(G1_TEXT, "Autumn Crusade", "duel", actor=organiser)
    for player in (A, B, C):
        await store.leagues.join(league.id, actor=Actor(player, guild=G1_TEXT))
    disputed = (await store.matches.report(league.id, actor=Actor(B, guild=G1_TEXT), opponent=C, result="win")).match
    await store.matches.dispute(disputed.id, actor=Actor(C, guild=G1_TEXT), reason="it was a draw")
    confirmed = await store.matches.enter(league.id, actor=organiser, player=B, opponent=C, result="draw")
    await store.leagues.standings(league.id, actor=organiser)  # a snapshot row exists too
    roster = RosterInput("duel", "champion", DUEL[0])
    await store.rosters.save(A, roster, guild_id=G1_TEXT)
    await store.rosters.save(B, RosterInput("duel", "secret", DUEL[1]))
    return {**ids, "league": league.id, "disputed": disputed.id, "confirmed": confirmed.id}


def not_found(reply: dict[str, Any]) -> str:
    data = reply["data"]
    assert data["flags"] & EPHEMERAL, data
    text: str = data["embeds"][0]["description"]
    assert re.search(r"There is no|You have no", text), text
    return text


async def test_a_manager_of_another_server_finds_nothing_and_changes_nothing(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    ids = await first_server(bot)
    before = await rows(bot)
    there = {"user_id": MAX, "permissions": MANAGER, "guild_id": G2}
    league = option("league", f"#{ids['league']}")
    users = {"users": {str(u): user(u, f"user{u % 1000}") for u in (BOB, CID)}}
    attempts = {
        "void": command_interaction(
            "void", [option("record", ids["public"], 4), option("reason", "mine now")], **there
        ),
        "note": command_interaction("note", [option("record", ids["public"], 4), option("text", "mine")], **there),
        "note private": command_interaction(
            "note", [option("record", ids["private"], 4), option("text", "mine")], **there
        ),
        "replay": command_interaction("replay", [option("record", ids["public"], 4)], **there),
        "replay private": command_interaction("replay", [option("record", ids["private"], 4)], **there),
        "verify": command_interaction("verify", [option("record", ids["public"], 4)], **there),
        "continue": group("assault", "continue", [option("record", ids["goes_on"], 4)], **there),
        "league-admin resolve": group(
            "league-admin",
            "resolve",
            [option("match", ids["disputed"], 4), option("decision", "win"), option("reason", "I say so")],
            **there,
        ),
        "league-admin void": group(
            "league-admin", "void", [option("match", ids["confirmed"], 4), option("reason", "no")], **there
        ),
        "league-admin correct": group(
            "league-admin",
            "correct",
            [option("match", ids["confirmed"], 4), option("result", "win"), option("reason", "no")],
            **there,
        ),
        "league-admin enter": group(
            "league-admin",
            "enter",
            [option("player", str(BOB), 6), option("opponent", str(CID), 6), option("result", "win"), league],
            resolved=users,
            **there,
        ),
        "league standings": group("league", "standings", [league], **there),
        "league standings by name": group("league", "standings", [option("league", "Autumn Crusade")], **there),
        "league history": group("league", "history", [league], **there),
        "league audit": group("league", "audit", [league], **there),
        "league export": group("league", "export", [league], **there),
        "league join": group("league", "join", [league], **there),
        "league-admin settings": group("league-admin", "settings", [league, option("confirm_hours", 1, 4)], **there),
        "season start": season("start", [league], **there),
        "season end": season("end", [league], **there),
        "roster show": group("roster", "show", [option("name", "champion"), option("game", "duel")], **there),
        "roster show theirs": group("roster", "show", [option("name", "secret"), option("game", "duel")], **there),
        "roster delete": group("roster", "delete", [option("name", "champion"), option("game", "duel")], **there),
    }
    for what, payload in attempts.items():
        text = not_found(await one(fake, payload))
        assert "Autumn" not in text or "by name" in what, (what, text)
    # Not found reads exactly as for an id that never existed.
    missing = not_found(await one(fake, command_interaction("replay", [option("record", 9999, 4)], **there)))
    hidden = not_found(await one(fake, attempts["replay"] | {"id": "1", "token": "token-again"}))
    assert hidden.replace(str(ids["public"]), "N") == missing.replace("9999", "N")
    listed = await one(fake, command_interaction("history", [], **there))
    assert "No combats recorded here yet." in listed["data"]["embeds"][0]["description"]
    assert await rows(bot) == before


async def test_a_private_combat_is_seen_by_its_two_players_only(bot: RefereeBot, fake: FakeDiscord) -> None:
    ids = await first_server(bot)
    here_member = {"user_id": CID, "permissions": MANAGER}  # even a manager of the same server
    for payload in (
        command_interaction("replay", [option("record", ids["private"], 4)], **here_member),
        command_interaction("verify", [option("record", ids["private"], 4)], **here_member),
        command_interaction("void", [option("record", ids["private"], 4), option("reason", "no")], **here_member),
    ):
        not_found(await one(fake, payload))
    listing = (await one(fake, command_interaction("history", [], **here_member)))["data"]["embeds"][0]
    assert f"`#{ids['public']}`" in listing["description"] and f"`#{ids['private']}`" not in listing["description"]
    # Its opponent sees it from another server, privately even when asking for a public answer.
    options = [option("record", ids["private"], 4), option("private", False, 5)]
    seen = await one(fake, command_interaction("replay", options, user_id=BOB, guild_id=G2))
    assert (
        seen["data"]["flags"] & EPHEMERAL and f"record #{ids['private']}" in seen["data"]["embeds"][0]["footer"]["text"]
    )
    mine = await one(fake, command_interaction("history", [option("mine", True, 5)], user_id=BOB, guild_id=G2))
    assert f"`#{ids['private']}`" in mine["data"]["embeds"][0]["description"]


async def test_a_combat_resolved_privately_is_stored_private(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction(
        "duel", [option("attacker", DUEL[0]), option("defender", DUEL[1]), option("private", True, 5)], user_id=ANN
    )
    await fake.ask(payload, 2)
    (row,) = await bot.store.records.history(actor=Actor(A))
    assert row.private
    assert await bot.store.records.history(actor=Actor(C, guild=G1_TEXT)) == []


async def test_only_the_requester_turns_the_pages_of_a_shared_result(bot: RefereeBot, fake: FakeDiscord) -> None:
    attackers, defenders = long_fight()  # long enough to page
    report = resolve("40k", attackers, defenders, seed=1, charge_distance=3.0)  # long enough for several pages
    record = await bot.store.records.add(report, requested_by=A, guild_id=G1_TEXT)
    shown = await one(fake, command_interaction("replay", [option("record", record, 4)], user_id=ANN))
    components = shown["data"]["components"]
    buttons = [c["custom_id"] for row in components for c in row["components"]]
    following = next(b for b in buttons if b.startswith("referee:page:") and not b.endswith(":0"))

    others = await one(fake, component_interaction(following, components, user_id=BOB))
    assert others["type"] == 4 and others["data"]["flags"] & EPHEMERAL  # a page of their own, privately
    assert "page 2/" in others["data"]["embeds"][0]["footer"]["text"]
    own_copy = await one(fake, component_interaction(following, components, user_id=BOB, message_flags=EPHEMERAL))
    assert own_copy["type"] == 7  # on their private copy, their press turns its page
    requester = await one(fake, component_interaction(following, components, user_id=ANN))
    assert requester["type"] == 7  # the requester turns the shared message's page
    assert requester["data"]["embeds"] == others["data"]["embeds"]


async def test_a_mention_in_a_league_refusal_arrives_as_a_mention(bot: RefereeBot, fake: FakeDiscord) -> None:
    ids = await first_server(bot)
    pending = (
        await bot.store.matches.report(ids["league"], actor=Actor(A, guild=G1_TEXT), opponent=C, result="win")
    ).match
    components = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 3, "label": "Confirm", "custom_id": f"referee:league:confirm:{pending.id}"}
            ],
        }
    ]
    refused = await one(fake, component_interaction(f"referee:league:confirm:{pending.id}", components, user_id=ANN))
    text = refused["data"]["embeds"][0]["description"]
    assert f"only <@{CID}> can confirm it" in text, text
    assert "\\>" not in text and "\\<" not in text
    assert discord.utils.escape_markdown(f"<@{CID}>") == f"<@{CID}>"  # nothing in a mention needs escaping


def drawn_40k() -> Any:
    return next(r for seed in range(200) if (r := resolve("40k", MARINES, ORKS, seed=seed)).result.outcome == "drawn")


async def test_a_continuation_they_may_not_see_is_not_named(bot: RefereeBot, fake: FakeDiscord) -> None:
    public = await bot.store.records.add(drawn_40k(), requested_by=A, guild_id=G1_TEXT)
    hidden = await bot.store.records.add(drawn_40k(), requested_by=A, guild_id=G1_TEXT, continues=public, private=True)
    said = await one(fake, group("assault", "continue", [option("record", public, 4)], user_id=CID))
    text = said["data"]["embeds"][0]["description"]
    assert "has already been continued." in text and f"#{hidden}" not in text
    mine = await one(fake, group("assault", "continue", [option("record", public, 4)], user_id=ANN))
    assert f"continued as #{hidden}" in mine["data"]["embeds"][0]["description"]  # its player is told where


async def test_a_combat_from_direct_messages_stays_its_players(bot: RefereeBot, fake: FakeDiscord) -> None:
    dm = await bot.store.records.add(drawn_40k(), requested_by=A, opponent=B)  # as before: not marked private
    shown = await one(fake, command_interaction("replay", [option("record", dm, 4)], user_id=BOB))
    assert shown["data"]["flags"] & EPHEMERAL  # never posted in a server's channel
    await fake.ask(group("assault", "continue", [option("record", dm, 4)], user_id=BOB), 2)
    following = await bot.store.records.continued_by(dm, actor=Actor(A))
    assert following and (await bot.store.records.get(following, actor=Actor(A))).private
    assert await bot.store.records.history(actor=Actor(C, guild=G1_TEXT)) == []


async def test_buttons_on_a_record_they_may_not_see_answer_not_found(bot: RefereeBot, fake: FakeDiscord) -> None:
    private = await bot.store.records.add(resolve("duel", *DUEL, seed=1), requested_by=A, guild_id=G1_TEXT,
                                          private=True)  # fmt: skip
    for custom_id in (f"referee:verify:{private}", f"referee:page:{private}:1"):
        components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]
        not_found(await one(fake, component_interaction(custom_id, components, user_id=CID)))


async def test_voiding_a_private_combat_is_said_privately(bot: RefereeBot, fake: FakeDiscord) -> None:
    private = await bot.store.records.add(resolve("duel", *DUEL, seed=1), requested_by=A, opponent=B,
                                          guild_id=G1_TEXT, private=True)  # fmt: skip
    options = [option("record", private, 4), option("reason", "Bob cheated at dice")]
    said = await one(fake, command_interaction("void", options, user_id=ANN, guild_id=G2))
    assert said["data"]["flags"] & EPHEMERAL and said["data"]["embeds"][0]["title"] == f"Record #{private} is void"


async def test_a_private_roll_is_its_rollers_not_the_servers(bot: RefereeBot, fake: FakeDiscord) -> None:
    await fake.ask(command_interaction("roll", [option("expression", "2d6+1"), option("private", True, 5)],
                                       user_id=ANN))  # fmt: skip
    assert (await bot.store.privacy.export(guild=G1_TEXT))["dice_rolls"] == []
    assert [r["expression"] for r in (await bot.store.privacy.export(user=A))["dice_rolls"]] == ["2d6+1"]


async def test_only_its_players_continue_a_combat_privately(bot: RefereeBot, fake: FakeDiscord) -> None:
    public = await bot.store.records.add(drawn_40k(), requested_by=A, guild_id=G1_TEXT)
    options = [option("record", public, 4), option("private", True, 5)]
    refused = await one(fake, group("assault", "continue", options, user_id=CID))
    assert "Only the players of combat" in refused["data"]["embeds"][0]["description"]
    assert await bot.store.records.continued_by(public, actor=OPERATOR) is None


async def test_whoever_asked_for_a_replay_turns_its_pages(bot: RefereeBot, fake: FakeDiscord) -> None:
    attackers, defenders = long_fight()  # long enough to page
    record = await bot.store.records.add(resolve("40k", attackers, defenders, seed=1, charge_distance=3.0),
                                         requested_by=A, guild_id=G1_TEXT)  # fmt: skip
    shown = await one(fake, command_interaction("replay", [option("record", record, 4)], user_id=CID))
    components = shown["data"]["components"]
    following = f"referee:page:{record}:1"
    replayer = await one(fake, component_interaction(following, components, user_id=CID, asked_by=CID))
    assert replayer["type"] == 7  # Cid asked for this replay: his press turns it
    requester = await one(fake, component_interaction(following, components, user_id=ANN, asked_by=CID))
    assert requester["type"] == 4 and requester["data"]["flags"] & EPHEMERAL  # Ann's own copy, privately


async def test_buttons_answer_in_one_sentence_when_the_database_fails(bot: RefereeBot, fake: FakeDiscord) -> None:
    """A real fault (the table a record is read from is gone): the press gets one private sentence, not silence."""
    record = await bot.store.records.add(resolve("duel", *DUEL, seed=1), requested_by=A, guild_id=G1_TEXT)
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("DROP TABLE record_events"))
    for custom_id in (f"referee:verify:{record}", f"referee:page:{record}:1"):
        components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]
        said = (await one(fake, component_interaction(custom_id, components, user_id=ANN)))["data"]
        assert said["flags"] & EPHEMERAL
        assert said["embeds"][0]["description"].startswith("The referee cannot use its database right now")
