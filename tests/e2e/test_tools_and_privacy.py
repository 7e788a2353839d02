"""/help, /chart, /roll, /privacy and /server-data through the real discord.py stack."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.render.embeds import EMBED_TOTAL, FIELD_VALUE, FIELDS
from rules_core import all_games, resolve
from rules_core.registry import command_path
from tests.e2e.conftest import running_bot
from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, FakeDiscord, command_interaction, component_interaction

EPHEMERAL = 64


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def ask(fake: FakeDiscord, name: str, options: list[dict[str, Any]], **kwargs: Any) -> Any:
    (callback,) = await fake.ask(command_interaction(name, options, **kwargs))
    return callback


def pick(section: str, message: dict[str, Any]) -> dict[str, Any]:
    """A choice in the help menu of a message the bot sent, as Discord sends it."""
    (row,) = message["components"]
    (menu,) = row["components"]
    payload = component_interaction(menu["custom_id"], message["components"], message_flags=EPHEMERAL)
    payload["data"] |= {"component_type": 3, "values": [section]}
    return payload


async def help_sections(fake: FakeDiscord, game: str) -> dict[str, dict[str, Any]]:
    """Every section of a game's /help, as the player sees them: the first answer, then each menu choice."""
    first = (await ask(fake, "help", [opt("game", game)])).payload
    assert first["type"] == 4 and first["data"]["flags"] & EPHEMERAL
    sections = {"overview": first["data"]}
    for section in ("tokens", "options", "choices", "overview"):
        (answer,) = await fake.ask(pick(section, first["data"]))
        assert answer.payload["type"] == 7  # the private help message itself turns to that section
        sections[section] = answer.payload["data"]
    assert sections["overview"]["embeds"] == first["data"]["embeds"]
    return sections


def embed_text(embed: dict[str, Any]) -> str:
    fields = "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))
    return "\n".join((embed["title"], embed.get("description", ""), fields, embed["footer"]["text"]))


async def test_help_overview_and_every_game(bot: RefereeBot, fake: FakeDiscord) -> None:
    overview = await ask(fake, "help", [])
    assert "/duel" in overview.payload["data"]["embeds"][0]["description"]
    assert "`opponent:@them agree:True`" in overview.payload["data"]["embeds"][0]["description"]
    assert "docs/" not in overview.payload["data"]["embeds"][0]["description"]
    for game in all_games():
        first = (await ask(fake, "help", [opt("game", game.id)])).payload["data"]["embeds"][0]
        assert "docs/" not in embed_text(first), game.id  # was 'Every rule decision: docs/games/<id>.md'
        sections = await help_sections(fake, game.id)
        texts = {}
        for section, data in sections.items():
            (embed,) = data["embeds"]
            size = len(embed["title"]) + len(embed.get("description", "")) + len(embed["footer"]["text"]) + sum(
                len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))  # fmt: skip
            assert size <= EMBED_TOTAL and len(embed.get("fields", [])) <= FIELDS
            assert all(len(f["value"]) <= FIELD_VALUE for f in embed.get("fields", []))
            texts[section] = embed_text(embed)
            # No path inside the repository without a docs URL, and no Python value for a default.
            assert "docs/" not in texts[section] and game.docs_page not in texts[section], (game.id, section)
            assert not re.search(r"default (None|True|False)|not given", texts[section]), (game.id, section)
        assert all(f"`{token.token}`" in texts["tokens"] for token in game.tokens), game.id
        assert all(f"`{option.name}` (" in texts["options"] for option in game.options), game.id
        assert f"/{command_path(game)} attacker:" in texts["overview"]
        assert "`opponent:@them agree:True`" in texts["overview"]  # how to play a remote opponent fairly
        terminal = re.compile(r"\breferee (help|games|samples|assault|duel|closequarters|odds|roster|history|replay)\b")
        assert not terminal.search("".join(texts.values())) and "--" not in texts["options"]  # Discord's words
    options = (await help_sections(fake, "40k"))["options"]["embeds"][0]
    assert "`defender_in_cover` (on or off, default off)" in embed_text(options)
    assert "`charge_distance` (0 to 100): Inches" in embed_text(options)  # no default: nothing said of one
    assert "`round` (1 to 50, default 1)" in embed_text(options)


async def test_help_for_40k_says_how_the_referee_chooses_which_models_die(bot: RefereeBot, fake: FakeDiscord) -> None:
    """The casualty-order paragraph a result keeps behind its Why? button is in /help's choices, once for good."""
    (embed,) = (await help_sections(fake, "40k"))["choices"]["embeds"]
    chooses = [f["value"] for f in embed["fields"] if f["name"] == "How the referee chooses for you"]
    assert chooses and chooses[0].startswith("Which models die")


async def test_help_links_the_rules_page_only_where_docs_are_published(fake: FakeDiscord, tmp_path: Any) -> None:
    async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'd.db'}", docs_url="https://example.org/ref/docs/"):
        sections = await help_sections(fake, "duel")
        links = [f["value"] for data in sections.values() for f in data["embeds"][0].get("fields", [])
                 if f["name"] == "Every rule decision, written down"]  # fmt: skip
        assert set(links) == {"https://example.org/ref/docs/games/duel.md"}
        overview = await ask(fake, "help", [])
        assert "https://example.org/ref/docs" in overview.payload["data"]["embeds"][0]["description"]


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
