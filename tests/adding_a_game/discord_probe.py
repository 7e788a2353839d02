"""The Discord side of the walk-through (tests/test_adding_a_game.py copies this file into the copy's tests/e2e/ and
runs it there, with the e2e fixtures: the real bot, discord.py and the fake Discord on loopback).

The example game, added by the guide's files and its one registration line, must be a slash command whose options
are generated from its declaration, answer with its outcome words, and be offered by /odds and /help."""

from __future__ import annotations

from typing import Any

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import PLAYER_ID, FakeDiscord, command_interaction, final_answer

STRING, INTEGER, BOOLEAN, SUB_COMMAND = 3, 4, 5, 1
STRONG, WEAK = "Champion: S6 southpaw", "Weakling: S1"  # 7+1+1..6 always beats 1+1..6: the outcome is certain


def option(name: str, value: Any, kind: int = STRING) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def test_the_example_game_is_served_on_discord(bot: RefereeBot, fake: FakeDiscord) -> None:
    """One bot for every check (each start takes a few seconds)."""
    # The slash command and its /odds subcommand, with the options generated from the declaration.
    commands = {command.name: command.to_dict(bot.tree) for command in bot.tree.get_commands()}
    options = {o["name"]: o for o in commands["armwrestle"]["options"]}
    assert options["attacker"]["required"] and options["defender"]["required"]
    assert (options["bouts"]["type"], options["bouts"]["min_value"], options["bouts"]["max_value"]) == (INTEGER, 1, 20)
    assert options["home_bench"]["type"] == BOOLEAN
    assert [choice["value"] for choice in options["ties"]["choices"]] == ["replay", "both_out"]
    odds = {o["name"]: o for o in commands["odds"]["options"] if o["type"] == SUB_COMMAND}
    assert {"bouts", "home_bench", "ties", "method"} <= {o["name"] for o in odds["armwrestle"]["options"]}

    # A fight, answered with the game's own outcome words.
    payload = command_interaction("armwrestle", [option("attacker", STRONG), option("defender", WEAK),
                                                 option("bouts", 3, INTEGER)])  # fmt: skip
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    description = answer.data["embeds"][0]["description"]
    assert f"Champion (<@{PLAYER_ID}>) beats Weakling; Weakling was pinned to the table" in description
    assert "Weakling: remove 1 Weakling; wiped out" in description  # the default table summary, with no hook

    # /odds by Monte Carlo through the referee.
    payload = command_interaction("odds", [option("attacker", STRONG), option("defender", WEAK),
                                           option("method", "monte-carlo")], subcommand="armwrestle")  # fmt: skip
    _, edit = await fake.ask(payload, 2)
    embed = edit.payload["embeds"][0]
    assert embed["title"].startswith("Tavern arm-wrestle: odds (Monte Carlo")
    assert "Attacker wins 100.0%" in embed["description"]

    # /help, by an alias, shows the game's overview with a command to copy (its docs page is linked only where
    # DOCS_URL says docs/ is published).
    (reply,) = await fake.ask(command_interaction("help", [option("game", "arm-wrestle")]))
    assert reply.payload["data"]["embeds"][0]["title"].startswith("Tavern arm-wrestle")
    assert " attacker:" in reply.payload["data"]["embeds"][0]["description"]
