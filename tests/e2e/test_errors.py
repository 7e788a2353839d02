"""User errors through the real discord.py stack and the fake Discord: slash commands and `option:value`, mentions
that mention; never a terminal command or a `--flag`."""

from __future__ import annotations

from typing import Any

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord, command_interaction
from tests.e2e.test_commands import MARINES, ORK_MOB, option
from tests.e2e.test_leagues import ANN, BOB, ORGANISER, admin, answer, league

EPHEMERAL = 64


def error_text(data: dict[str, Any]) -> str:
    assert data["flags"] & EPHEMERAL
    (embed,) = data["embeds"]
    assert embed["title"] == "That did not work"
    text = embed["description"] + " " + " ".join(field["value"] for field in embed.get("fields", []))
    assert "--" not in text and "referee " not in text, text
    return text


async def test_an_option_error_names_the_option_and_shows_option_value(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction(
        "assault", [option("attacker", MARINES), option("defender", ORK_MOB), option("charge_distance", 500.0, 10)],
        subcommand="40k",
    )  # fmt: skip
    [shown] = await answer(fake, payload)
    text = error_text(shown["data"])
    assert "The option `charge_distance` must be 0 to 100" in text
    assert shown["data"]["embeds"][0]["fields"][0]["value"] == "```\ncharge_distance:4.5\n```"


async def test_a_missing_roster_points_at_the_slash_command(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction("duel", [option("attacker", "@nobody"), option("defender", "@nobody")])
    [shown] = await answer(fake, payload)
    assert error_text(shown["data"]).startswith(
        "There is no duel roster named 'nobody'. '/roster list game:duel' shows yours."
    )


async def test_league_errors_mention_users_and_name_slash_commands(bot: RefereeBot, fake: FakeDiscord) -> None:
    await answer(fake, admin("create", [option("name", "Spring"), option("game", "duel")], by=ORGANISER))
    await answer(fake, league("join", [], by=ANN))
    [stranger] = await answer(fake, league("report", [option("opponent", str(BOB), 6), option("result", "win")],
                                           by=ANN, users=(BOB,)))  # fmt: skip
    assert error_text(stranger["data"]).startswith(f"<@{BOB}> is not in Spring. Players join with '/league join'.")
    [bad_name] = await answer(fake, admin("create", [option("name", "??"), option("game", "duel")], by=ANN))
    assert bad_name["data"]["embeds"][0]["fields"][0]["value"].startswith(
        "```\n/league-admin create name:Autumn Crusade"
    )


async def test_an_unknown_keyword_points_at_the_help_command(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction(
        "assault", [option("attacker", "5x M: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ chainswrd"), option("defender", ORK_MOB)],
        subcommand="40k",
    )  # fmt: skip
    [shown] = await answer(fake, payload)
    assert error_text(shown["data"]).startswith("Unknown keyword 'chainswrd' on 'M'. See '/help game:40k'.")
