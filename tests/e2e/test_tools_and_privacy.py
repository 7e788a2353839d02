"""/help, /chart, /roll, /privacy and /server-data through the real discord.py stack."""

from __future__ import annotations

import json
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.render.embeds import EMBED_TOTAL, FIELD_VALUE, FIELDS
from rules_core import all_games, resolve
from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, FakeDiscord, command_interaction

EPHEMERAL = 64


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def ask(fake: FakeDiscord, name: str, options: list[dict[str, Any]], **kwargs: Any) -> Any:
    (callback,) = await fake.ask(command_interaction(name, options, **kwargs))
    return callback


async def test_help_overview_and_every_game(bot: RefereeBot, fake: FakeDiscord) -> None:
    overview = await ask(fake, "help", [])
    assert "/duel" in overview.payload["data"]["embeds"][0]["description"]
    for game in all_games():
        reply = await ask(fake, "help", [opt("game", game.id)])
        (embed,) = reply.payload["data"]["embeds"]
        size = len(embed["title"]) + len(embed["description"]) + sum(len(f["name"]) + len(f["value"])
                                                                      for f in embed["fields"])  # fmt: skip
        assert size <= EMBED_TOTAL and len(embed["fields"]) <= FIELDS
        assert all(len(f["value"]) <= FIELD_VALUE for f in embed["fields"])
        assert game.docs_page in embed["footer"]["text"]
        options = " ".join(f["value"] for f in embed["fields"] if f["name"].startswith("Options"))
        assert "default False" not in options and "default True" not in options and "default None" not in options
    reply = await ask(fake, "help", [opt("game", "40k")])
    options = " ".join(f["value"] for f in reply.payload["data"]["embeds"][0]["fields"] if f["name"].startswith("Opt"))
    assert "`defender_in_cover` (on or off, default off)" in options


async def test_chart_rulings(bot: RefereeBot, fake: FakeDiscord) -> None:
    wound = await ask(fake, "chart", [opt("chart", "to-wound"), opt("a", 4, 4), opt("b", 4, 4)])
    assert "wounds on **4+**" in wound.payload["data"]["embeds"][0]["description"]
    hit = await ask(fake, "chart", [opt("chart", "to-hit"), opt("a", 3, 4), opt("b", 7, 4)])
    assert "hits on **5+**" in hit.payload["data"]["embeds"][0]["description"]
    missing = await ask(fake, "chart", [opt("chart", "to-hit"), opt("a", 3, 4)])
    assert missing.payload["data"]["flags"] & EPHEMERAL


async def test_roll_keeps_every_die_and_refuses_nonsense(bot: RefereeBot, fake: FakeDiscord) -> None:
    reply = await ask(fake, "roll", [opt("expression", "2d6+1")])
    embed = reply.payload["data"]["embeds"][0]
    assert "roll #1" in embed["footer"]["text"] and "not replayable" in embed["footer"]["text"]
    exported = await bot.store.privacy.export(user=str(PLAYER_ID))
    assert exported["dice_rolls"][0]["expression"] == "2d6+1"
    for bad, fragment in (("2d6+", "Cannot read the dice"), ("500d6", "Too many dice")):
        refused = await ask(fake, "roll", [opt("expression", bad)])
        assert refused.payload["data"]["flags"] & EPHEMERAL
        assert fragment in refused.payload["data"]["embeds"][0]["description"]


async def test_privacy_info_export_and_delete(bot: RefereeBot, fake: FakeDiscord) -> None:
    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=1)
    await bot.store.records.add(report, requested_by=str(PLAYER_ID), guild_id="900000000000000003")
    info = await ask(fake, "privacy", [], subcommand="info")
    assert "no messages" in info.payload["data"]["embeds"][0]["description"]
    assert "`/server-data`" in info.payload["data"]["embeds"][0]["description"]
    export = await ask(fake, "privacy", [], subcommand="export")
    assert export.files == ["my-referee-data.json"] and export.payload["data"]["flags"] & EPHEMERAL
    unconfirmed = await ask(fake, "privacy", [], subcommand="delete-my-data")
    assert "Nothing deleted" in unconfirmed.payload["data"]["embeds"][0]["description"]
    assert await bot.store.records.history(actor=OPERATOR)
    deleted = await ask(fake, "privacy", [opt("confirm", True, 5)], subcommand="delete-my-data")
    assert "combat records 1" in deleted.payload["data"]["content"]
    assert await bot.store.records.history(actor=OPERATOR) == []


async def test_only_a_manager_deletes_the_servers_data(bot: RefereeBot, fake: FakeDiscord) -> None:
    """/server-data is a command of its own that Discord shows to Manage Server (a subcommand cannot be hidden);
    a member in a role a server's admins granted it to still needs Manage Server for the bot to delete anything."""
    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=1)
    await bot.store.records.add(report, requested_by=str(PLAYER_ID), guild_id="900000000000000003")
    refused = await ask(fake, "server-data", [opt("confirm", True, 5)], subcommand="delete", user_id=OPPONENT_ID,
                        permissions="1024")  # fmt: skip
    assert refused.payload["data"]["flags"] & EPHEMERAL
    assert refused.payload["data"]["embeds"][0]["description"].startswith("Only a member with Manage Server can")
    unconfirmed = await ask(fake, "server-data", [], subcommand="delete")
    assert "Nothing deleted" in unconfirmed.payload["data"]["embeds"][0]["description"]
    assert (
        unconfirmed.payload["data"]["embeds"][0]["fields"][0]["value"] == "```\n/server-data delete confirm:True\n```"
    )
    stale = await ask(fake, "privacy", [opt("confirm", True, 5)], subcommand="delete-server-data")  # the old name
    assert stale.payload["data"]["embeds"][0]["description"].startswith(
        "'/privacy delete-server-data' is no longer a command: it is '/server-data delete' now"
    )
    assert await bot.store.records.history(actor=OPERATOR)
    refused_export = await ask(fake, "server-data", [], subcommand="export", user_id=OPPONENT_ID, permissions="1024")
    assert refused_export.payload["data"]["embeds"][0]["description"].startswith("Only a member with Manage Server")
    exported = await ask(fake, "server-data", [], subcommand="export")
    assert exported.files == ["server-referee-data.json"] and exported.payload["data"]["flags"] & EPHEMERAL
    assert exported.payload["data"]["content"].startswith("1 public combat, 0 leagues, 0 shared rosters")
    done = await ask(fake, "server-data", [opt("confirm", True, 5)], subcommand="delete")
    assert "combat records 1" in done.payload["data"]["content"] and done.payload["data"]["flags"] & EPHEMERAL
    assert json.dumps(await bot.store.privacy.export(guild="900000000000000003")).count('"id"') == 0
