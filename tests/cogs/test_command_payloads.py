"""The slash commands as Discord receives them at sync: names, descriptions, option counts, choices and order."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.discord import errors as discord_errors
from bot.discord.app import EXTENSIONS, RefereeBot
from bot.discord.settings import Settings
from rules_core import all_games
from rules_core.errors import Do
from rules_core.options import OptionType

NAME = re.compile(r"^[-_\w]{1,32}$")
STRING, INTEGER, BOOLEAN, USER, NUMBER, SUB_COMMAND = 3, 4, 5, 6, 10, 1
TYPES = {OptionType.BOOL: BOOLEAN, OptionType.INT: INTEGER, OptionType.FLOAT: NUMBER, OptionType.CHOICE: STRING,
         OptionType.TEXT: STRING}  # fmt: skip


@pytest.fixture
async def payloads(tmp_path: Any) -> dict[str, dict[str, Any]]:
    settings = Settings(discord_token=SecretStr("test"), database_url=f"sqlite+aiosqlite:///{tmp_path}/b.db",
                        _env_file=None)  # type: ignore[call-arg]  # fmt: skip
    bot = RefereeBot(settings)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return {command.name: command.to_dict(bot.tree) for command in bot.tree.get_commands()}


def check_command(payload: dict[str, Any]) -> None:
    assert NAME.match(payload["name"]) and payload["name"] == payload["name"].lower()
    assert 1 <= len(payload["description"]) <= 100
    options = payload.get("options", [])
    assert len(options) <= 25
    assert len({o["name"] for o in options}) == len(options)
    required = [o.get("required", False) for o in options]
    assert required == sorted(required, reverse=True), "required options come first"
    for option in options:
        if option["type"] == SUB_COMMAND:
            check_command(option)
            continue
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower()
        assert 1 <= len(option["description"]) <= 100
        assert len(option.get("choices", [])) <= 25


async def test_every_command_obeys_discords_rules(payloads: dict[str, dict[str, Any]]) -> None:
    assert {"assault", "duel", "closequarters"} <= set(payloads)
    for payload in payloads.values():
        check_command(payload)


def descriptions(payload: dict[str, Any], path: str = "") -> list[tuple[str, str]]:
    """Every description in a command's payload, its own and its options' and subcommands', with where it is."""
    here = f"{path} {payload['name']}".strip()
    found = [(here, payload["description"])]
    for option in payload.get("options", []):
        if option["type"] in (SUB_COMMAND, 2):
            found += descriptions(option, here)
        else:
            found.append((f"{here} {option['name']}", option["description"]))
    return found


def cut_or_empty(text: str) -> bool:
    """A description a player cannot use: empty, a placeholder, or cut mid-phrase."""
    return not text.strip(" .…") or "…" in text or text.endswith("...") or len(text) > 100


def test_the_description_check_sees_a_placeholder_and_a_cut() -> None:
    assert [cut_or_empty(t) for t in ("…", "", "The defending units were falling back (2D6 <= Ld, no mo…",
                                      "Only this game.")] == [True, True, True, False]  # fmt: skip


async def test_every_option_of_every_command_says_what_it_is_whole(payloads: dict[str, dict[str, Any]]) -> None:
    """No "…" (discord.py's placeholder for an undescribed option) and no description cut at Discord's 100
    characters: a game's option carries its own short help, whole (``OptionSpec.brief`` where ``help`` is long)."""
    bad = [(where, text) for payload in payloads.values() for where, text in descriptions(payload)
           if cut_or_empty(text)]  # fmt: skip
    assert bad == []
    for game in all_games():
        command = next(sub for sub in payloads["assault"]["options"] if sub["name"] == game.id) if (
            game.command == "assault") else payloads[game.command]  # fmt: skip
        options = {o["name"]: o["description"] for o in command["options"]}
        for spec in game.options:
            assert options[spec.name] == spec.short_help, (game.id, spec.name)  # the game's words, whole


async def test_each_game_is_a_command_with_its_declared_options(payloads: dict[str, dict[str, Any]]) -> None:
    assault = {sub["name"]: sub for sub in payloads["assault"]["options"]}
    assert "continue" in assault
    for game in all_games():
        command = assault[game.id] if game.command == "assault" else payloads[game.command]
        options = {o["name"]: o for o in command["options"]}
        assert options["attacker"]["required"] and options["defender"]["required"]
        assert options["opponent"]["type"] == USER and not options["opponent"].get("required")
        assert options["private"]["type"] == BOOLEAN
        for spec in game.options:
            option = options[spec.name]  # one name everywhere: the Python keyword is the slash option
            assert option["type"] == TYPES[spec.type]
            assert not option.get("required", False)
            if spec.type is OptionType.CHOICE:
                assert [c["value"] for c in option["choices"]] == list(spec.choices)
            if spec.minimum is not None and spec.type in (OptionType.INT, OptionType.FLOAT):
                assert option["min_value"] == spec.minimum and option["max_value"] == spec.maximum
        for side in ("attacker", "defender"):
            assert options[side].get("autocomplete") is True
            assert options[side]["max_length"] == 4000


MANAGE_GUILD = 1 << 5  # Discord's Manage Server permission bit
ADMIN_ACTIONS = {"create", "settings", "organiser", "season", "resolve", "void", "correct", "enter"}


def subcommand_names(payload: dict[str, Any]) -> set[str]:
    return {option["name"] for option in payload.get("options", []) if option["type"] in (SUB_COMMAND, 2)}


async def test_what_only_managers_and_organisers_may_do_is_a_command_discord_hides_from_the_rest(
    payloads: dict[str, dict[str, Any]],
) -> None:
    """Discord hides a command from members without its ``default_member_permissions``, and ignores the field on a
    subcommand: so organisers' and managers' actions are top-level commands of their own that carry Manage Server
    (a server's admins can grant them to a role in Integrations), and everyone's commands carry nothing."""
    for admin in ("league-admin", "server-data"):
        assert int(payloads[admin]["default_member_permissions"]) == MANAGE_GUILD, admin
        assert payloads[admin]["dm_permission"] is False and payloads[admin]["contexts"] == [0], admin  # servers only
    for everyone in ("league", "privacy"):
        assert payloads[everyone]["default_member_permissions"] is None, everyone
    assert payloads["league"]["contexts"] == [0]  # as before: a league is a server's
    assert subcommand_names(payloads["league-admin"]) == ADMIN_ACTIONS
    assert subcommand_names(payloads["league"]) == {"list", "join", "leave", "report", "standings", "history",
                                                    "audit", "export"}  # fmt: skip
    assert subcommand_names(payloads["server-data"]) == {"delete", "export"}
    assert subcommand_names(payloads["privacy"]) == {"info", "export", "delete-my-data"}
    season = next(option for option in payloads["league-admin"]["options"] if option["name"] == "season")
    assert subcommand_names(season) == {"start", "end"}


ROOT = Path(__file__).resolve().parents[2]
# In quotes or backticks (not a docstring's opening), or at a line's start (an example's).
NAMED = re.compile(r"(?:(?<=[`'\n])|(?<=(?<!\")\"))/([a-z][a-z-]*)((?: [a-z][a-z-]*\b(?![:(]))*)")


def named_commands(text: str, tops: set[str]) -> list[str]:
    """Every ``/command sub ...`` a text names in quotes or backticks (as hints and docs do) or at a line's start
    (an example), for the commands the bot has."""
    return [f"/{top}{rest}" for top, rest in NAMED.findall(text) if top in tops]


def missing(named: str, payloads: dict[str, dict[str, Any]]) -> bool:
    """A named command whose words leave the tree before reaching a command a user can run (``/league create``)."""
    top, *words = named[1:].split()
    node = payloads[top]
    for word in words:
        children = {o["name"]: o for o in node.get("options", []) if o["type"] in (SUB_COMMAND, 2)}
        if not children:
            return False  # a command that runs: what follows is prose
        if word not in children:
            return True
        node = children[word]
    return False


def test_the_command_finder_sees_a_moved_command() -> None:
    tree = {"league": {"options": [{"type": SUB_COMMAND, "name": "join"}]}, "roll": {"options": []}}
    text = '''"""/league and /roll""" '/league join' then `/league create name:X`, see docs/league/x.md, `/roll` 2d6
or /league and\n/league'''
    found = named_commands(text, set(tree))
    assert found == ["/league join", "/league create", "/roll", "/league"]
    assert [name for name in found if missing(name, tree)] == ["/league create"]


async def test_every_slash_command_the_bot_and_its_docs_name_is_one_it_has(
    payloads: dict[str, dict[str, Any]],
) -> None:
    """Hints, embeds and docs name commands that exist (moving a command to /league-admin left none behind)."""
    files = [*ROOT.glob("cogs/**/*.py"), *ROOT.glob("bot/discord/**/*.py"), *ROOT.glob("docs/*.md"),
             ROOT / "README.md"]  # fmt: skip
    stale = [f"{path.relative_to(ROOT)}: {name}" for path in files
             for name in named_commands(path.read_text(encoding="utf-8"), set(payloads))
             if missing(name, payloads)]  # fmt: skip
    assert stale == []


def runnable(path: str, payloads: dict[str, dict[str, Any]]) -> bool:
    """``league-admin season start``: a path through the tree that ends at a command (no subcommands below)."""
    top, *words = path.split()
    node: dict[str, Any] | None = payloads.get(top)
    for word in words:
        if node is None:
            return False
        node = next((o for o in node.get("options", []) if o["name"] == word and o["type"] in (SUB_COMMAND, 2)), None)
    return node is not None and all(o["type"] not in (SUB_COMMAND, 2) for o in node.get("options", []))


async def test_each_hint_names_a_command_a_user_can_run(payloads: dict[str, dict[str, Any]]) -> None:
    """The slash command behind every ``Do`` (bot/discord/errors.py) is in the tree, down to a runnable command."""
    assert set(discord_errors._COMMANDS) == set(Do)
    for do, template in discord_errors._COMMANDS.items():
        # How to fight an agreed combat, or one combat, names the game's own combat command (or its odds): every
        # game's runs.
        games = all_games() if do in (Do.FIGHT_AGREED, Do.RESOLVE, Do.ODDS) else ()
        hints = [template.format(command=discord_errors.game_command(g.id), subject=g.id) for g in games] or [template]
        for hint in hints:
            assert runnable(" ".join(word for word in hint[1:].split() if ":" not in word), payloads), hint


async def test_a_moved_command_is_gone_and_where_it_moved_to_is_there(payloads: dict[str, dict[str, Any]]) -> None:
    """What a stale client's old command is told (bot/discord/errors.py ``gone_embed``) names a command that runs."""
    assert discord_errors._MOVED
    for old, new in discord_errors._MOVED.items():
        assert not runnable(old, payloads) and runnable(new, payloads), (old, new)
    unknown = discord_errors.gone_embed(["league"], "teleport").description or ""
    assert unknown.startswith("'/league teleport' is no longer a command of the referee")
