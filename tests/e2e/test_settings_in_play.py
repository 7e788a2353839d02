"""Issue 21's acceptance, through the commands alone: what a manager sets with /settings and a player with
/preferences changes the next results (no test here touches the settings cache or the store directly, so the
whole path is proven: the command, its write and audit, the cache, and the combat that reads it)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from tests.e2e.conftest import long_fight
from tests.e2e.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    OPPONENT_ID,
    PLAYER_ID,
    RESULTS_CHANNEL_ID,
    Answer,
    FakeDiscord,
    command_interaction,
    final_answer,
)
from tests.waits import scaled

EPHEMERAL = 64
TACTICAL = "20x Tactical: CC6+ FF6+ Sv2+ INF"  # no side wiped out before the result roll: the result dice count
BOYZ = "20x Ork Boyz: CC6+ FF6+ Sv2+ INF"
THIRD_ID = 900000000000000009  # another member of the server


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def manage(fake: FakeDiscord, sub: str, *options: dict[str, Any], user_id: int = PLAYER_ID,
                 permissions: str = "2147483647", resolved: dict[str, Any] | None = None) -> str:  # fmt: skip
    """A /settings subcommand: its private answer's text."""
    payload = command_interaction("settings", list(options), subcommand=sub, user_id=user_id,
                                  permissions=permissions, resolved=resolved)  # fmt: skip
    (callback,) = await fake.ask(payload)
    data = callback.payload["data"]
    assert data["flags"] & EPHEMERAL
    embed = data["embeds"][0]
    return "\n".join([embed.get("title", ""), embed.get("description", "")])


async def fight(fake: FakeDiscord, payload: dict[str, Any]) -> Answer:
    await fake.interaction(payload)
    return await final_answer(fake, payload["token"])


def epic(*more: dict[str, Any], user_id: int = PLAYER_ID) -> dict[str, Any]:
    return command_interaction("assault", [opt("attacker", TACTICAL), opt("defender", BOYZ), *more],
                               subcommand="epic", user_id=user_id)  # fmt: skip


def record_of(answer: Answer) -> int:
    return int(answer.data["embeds"][0]["footer"]["text"].split("record #")[1].split()[0])


def house_lines(answer: Answer) -> list[str]:
    return [line for line in answer.data["embeds"][0]["description"].splitlines() if "House rules" in line]


async def test_what_managers_and_players_set_changes_the_next_results(bot: RefereeBot, fake: FakeDiscord) -> None:
    # Before any setting: Epic's result dice are the highest die, the result public, nothing said of house rules.
    plain = await fight(fake, epic())
    assert house_lines(plain) == [] and not (plain.first.get("flags") or 0) & EPHEMERAL

    # A member without Manage Server is refused, and nothing changes.
    refused = await manage(fake, "house-rule", opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum"),
                           user_id=OPPONENT_ID, permissions="0")  # fmt: skip
    assert "Only a member with Manage Server" in refused
    assert house_lines(await fight(fake, epic())) == []

    # A manager's house rule changes the next combat, and its summary says so; the record row keeps its origin.
    await manage(fake, "house-rule", opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum"))
    ruled = await fight(fake, epic())
    assert house_lines(ruled) == ["*House rules: result dice: sum*"]
    stored = await bot.store.records.get(record_of(ruled), actor=OPERATOR)
    assert stored.report.inputs.options["result_dice"] == "sum" and stored.house_rules == ("result_dice",)

    # A player's explicit option wins over it: nothing from house rules.
    explicit = await fight(fake, epic(opt("result_dice", "highest")))
    assert house_lines(explicit) == []
    mine = await bot.store.records.get(record_of(explicit), actor=OPERATOR)
    assert mine.report.inputs.options["result_dice"] == "highest" and mine.house_rules == ()

    # Long results go to a thread of their own; public results are copied to the results channel.
    await manage(fake, "threads", opt("value", "on"))
    results = {
        "channels": {
            str(RESULTS_CHANNEL_ID): {
                "id": str(RESULTS_CHANNEL_ID),
                "type": 0,
                "name": "results",
                "guild_id": str(GUILD_ID),
                "permissions": "2147483647",
            }
        }
    }
    await manage(fake, "results-channel", opt("channel", str(RESULTS_CHANNEL_ID), 7), resolved=results)
    attackers, defenders = long_fight()
    long_one = command_interaction("assault", [opt("attacker", attackers), opt("defender", defenders),
                                               opt("charge_distance", 3.0, 10)], subcommand="40k")  # fmt: skip
    await fight(fake, long_one)
    message_id = fake.responses[long_one["token"]]
    await _settled(bot)
    assert message_id in fake.threads and fake.threads[message_id]["parent_id"] == str(CHANNEL_ID)
    copies = fake.in_channel(RESULTS_CHANNEL_ID)
    assert len(copies) == 1 and message_id in str(copies[0]["components"])  # the link back to the result

    # Preferences are per player: the opponent's results are private by their preference, the player's are not.
    await manage_preferences(fake, "private", opt("value", "on"), user_id=OPPONENT_ID)
    theirs = await fight(fake, epic(user_id=OPPONENT_ID))
    assert theirs.first["flags"] & EPHEMERAL
    ours = await fight(fake, epic(user_id=THIRD_ID))  # a third member: the rate limit counts per player
    assert not (ours.first.get("flags") or 0) & EPHEMERAL

    # Replay and verify of the combat resolved under the house rule are the same after the rule is cleared.
    replayed = await _replay(fake, record_of(ruled))
    await manage(fake, "clear", opt("setting", "house:epic:result_dice"))
    assert house_lines(await fight(fake, epic(user_id=THIRD_ID))) == []  # the next combat is back to the game's default
    assert await _replay(fake, record_of(ruled)) == replayed
    assert "*House rules: result dice: sum*" in replayed["description"]
    (verified,) = await fake.ask(command_interaction("verify", [opt("record", record_of(ruled), 4)]))
    assert "identical" in verified.payload["data"]["embeds"][0]["description"]

    # /settings history shows every change: the house rule, threads, the results channel, the rule cleared.
    history = await manage(fake, "history")
    lines = [line for line in history.splitlines() if "<@" in line]
    assert len(lines) == 4, history
    assert "house rule result dice: sum → unset" in lines[0] and "unset → sum" in lines[-1]
    assert all(f"<@{PLAYER_ID}>" in line for line in lines)  # who


async def manage_preferences(fake: FakeDiscord, sub: str, *options: dict[str, Any], user_id: int) -> None:
    payload = command_interaction("preferences", list(options), subcommand=sub, user_id=user_id, permissions="0")
    (callback,) = await fake.ask(payload)
    assert callback.payload["data"]["flags"] & EPHEMERAL


async def _replay(fake: FakeDiscord, record: int) -> dict[str, Any]:
    (callback,) = await fake.ask(command_interaction("replay", [opt("record", record, 4)]))
    embed: dict[str, Any] = callback.payload["data"]["embeds"][0]
    return {key: embed.get(key) for key in ("title", "description", "fields")}


async def _settled(bot: RefereeBot) -> None:
    """Every result still being placed (its thread, its copy) is done."""
    if bot.in_flight:
        await asyncio.wait(set(bot.in_flight), timeout=scaled(20))
