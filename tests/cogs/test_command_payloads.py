"""The slash commands as Discord receives them at sync: names, descriptions, option counts, choices and order."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import SecretStr

from bot.discord.app import EXTENSIONS, RefereeBot
from bot.discord.settings import Settings
from rules_core import all_games
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
