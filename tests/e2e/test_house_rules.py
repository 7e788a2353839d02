"""House rules through the real bot and the fake Discord (issue 21): a server's house rule changes the next combat's
result and is said in its summary; a player's explicit option wins; a channel's house rule overrides the server's
there only; direct messages and other servers get none; /odds works them out under the house rules; a continued
combat keeps its record's options and house-rule names; page buttons and /replay say them again; and replay and
verify (the button, /verify and `referee verify`) never depend on today's settings.

The settings commands are another part's: these tests fill the bot's settings cache directly, as the settings'
loader does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.render.embeds import odds_embed
from bot.server_settings.model import CHANNEL, SERVER, SettingRow, house_key
from bot.storage.records import StoredCombat
from cogs.odds._cog import BOT_TIME_LIMIT
from rules_core import resolve
from rules_core.odds import odds
from rules_core.report import Report
from tests.e2e.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    OTHER_GUILD_ID,
    PLAYER_ID,
    FakeDiscord,
    command_interaction,
    component_interaction,
    final_answer,
    user,
)
from tests.waits import scaled

EPHEMERAL = 64
# Twenty stands a side that hit on 6s and save on 2+: no side is ever wiped out before the result roll, so the result
# dice always count (and the result dice of a pair summed always beat their highest, by the lower die).
TACTICAL = "20x Tactical: CC6+ FF6+ Sv2+ INF"
BOYZ = "20x Ork Boyz: CC6+ FF6+ Sv2+ INF"
# Neither side can wound the other (S1 against T6): the combat is drawn and always goes on.
GROTS = "5x Grot: WS2 S1 T6 W1 I2 A1 Ld5 Sv-"
GRETCHIN = "5x Gretchin: WS2 S1 T6 W1 I2 A1 Ld5 Sv-"
LEAGUE_CHANNEL = 900000000000000777  # another channel of GUILD_ID, with a house rule of its own
SUM_LINE = "*House rules: result dice: sum*"


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def server_rule(game: str, name: str, value: Any, guild: int = GUILD_ID) -> SettingRow:
    return SettingRow(SERVER, str(guild), str(guild), house_key(game, name), value)


def channel_rule(channel: int, game: str, name: str, value: Any) -> SettingRow:
    return SettingRow(CHANNEL, str(channel), str(GUILD_ID), house_key(game, name), value)


def in_channel(payload: dict[str, Any], channel: int) -> dict[str, Any]:
    """The interaction as sent from another channel of the same server (one the bot has no cache of: Discord then
    sends the channel whole, as discord.py builds it from the interaction)."""
    payload["channel_id"] = str(channel)
    payload["channel"] = {"id": str(channel), "type": 0, "name": "league", "guild_id": str(GUILD_ID), "position": 1,
                          "permission_overwrites": [], "nsfw": False, "parent_id": None}  # fmt: skip
    return payload


def in_thread(fake: FakeDiscord, payload: dict[str, Any], thread: int, parent: int) -> dict[str, Any]:
    """The interaction as sent from a thread of ``parent`` (Discord sends the thread's channel object, type 11)."""
    payload["channel_id"] = str(thread)
    payload["channel"] = fake.thread(str(parent), str(thread), {"name": "a fight"})
    return payload


def epic(*more: dict[str, Any]) -> dict[str, Any]:
    return command_interaction("assault", [option("attacker", TACTICAL), option("defender", BOYZ), *more],
                               subcommand="epic")  # fmt: skip


async def fought(bot: RefereeBot, fake: FakeDiscord, payload: dict[str, Any]) -> tuple[dict[str, Any], StoredCombat]:
    """The result as shown after its edit (the embed), and its stored record."""
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    embed = answer.data["embeds"][0]
    assert house_line(answer.first["embeds"][0]) == house_line(embed)  # the first answer says it already
    record = int(embed["footer"]["text"].split("record #")[1].split()[0])
    return embed, await bot.store.records.get(record, actor=OPERATOR)


def house_line(embed: dict[str, Any]) -> list[str]:
    return [line for line in embed["description"].splitlines() if line.startswith("*House rules")]


def first_score(report: Report) -> tuple[int, tuple[int, ...]]:
    """The attacker's first result score and the dice of its first result roll."""
    dice = next(roll.dice for step in report.steps for roll in step.rolls if roll.purpose == "result roll: attacker")
    score = next(ev.get("score") for step in report.steps for ev in step.events
                 if ev.kind == "modifiers" and ev.get("side") == "attacker")  # fmt: skip
    return int(score), tuple(dice)


async def test_a_house_rule_changes_the_next_combat_and_shows_in_its_summary(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("epic", "result_dice", "sum")])
    await fake.interaction(payload := epic())
    answer = await final_answer(fake, payload["token"])
    assert SUM_LINE in answer.first["embeds"][0]["description"]  # the first answer already says it
    embed = answer.data["embeds"][0]
    assert SUM_LINE in embed["description"]
    stored = await bot.store.records.get(1, actor=OPERATOR)
    report = stored.report
    assert report.inputs.options["result_dice"] == "sum"
    assert stored.house_rules == ("result_dice",)
    # The very same inputs and seed without the house rule: the result dice are the same, read as their highest.
    plain = resolve("epic", report.inputs.attacker, report.inputs.defender, seed=report.seed)
    assert resolve("epic", report.inputs.attacker, report.inputs.defender, seed=report.seed,
                   result_dice="sum").to_dict() == report.to_dict()  # fmt: skip
    (summed, dice), (highest, same_dice) = first_score(report), first_score(plain)
    assert dice == same_dice and summed - highest == sum(dice) - max(dice) > 0


async def test_an_explicit_option_wins_over_the_house_rule(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("epic", "result_dice", "sum"),
                                                      server_rule("epic", "max_rounds", 3)])  # fmt: skip
    embed, stored = await fought(bot, fake, epic(option("result_dice", "highest")))
    assert stored.report.inputs.options["result_dice"] == "highest"
    assert stored.report.inputs.options["max_rounds"] == 3
    assert stored.house_rules == ("max_rounds",)
    assert "*House rules: max rounds: 3*" in embed["description"] and "result dice" not in embed["description"]


async def test_a_channels_house_rules_and_visibility_apply_in_its_threads(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [
        server_rule("epic", "result_dice", "sum"),
        channel_rule(LEAGUE_CHANNEL, "epic", "result_dice", "highest"),
        SettingRow(CHANNEL, str(LEAGUE_CHANNEL), str(GUILD_ID), "visibility", "private"),
    ])  # fmt: skip
    payload = in_thread(fake, epic(), 900000000000000778, LEAGUE_CHANNEL)
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    assert answer.first["flags"] & EPHEMERAL  # the channel's visibility
    assert "*House rules: result dice: highest*" in answer.data["embeds"][0]["description"]  # the channel's rule


async def test_a_channels_house_rule_overrides_the_servers_in_that_channel_only(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [
        server_rule("epic", "result_dice", "sum"), server_rule("epic", "max_rounds", 3),
        channel_rule(LEAGUE_CHANNEL, "epic", "result_dice", "highest"),
    ])  # fmt: skip
    bot.server_settings.replace_guild(str(OTHER_GUILD_ID), [server_rule("duel", "strength_save_table", "none",
                                                                        guild=OTHER_GUILD_ID)])  # fmt: skip
    league_embed, league = await fought(bot, fake, in_channel(epic(), LEAGUE_CHANNEL))
    assert league.channel_id == str(LEAGUE_CHANNEL)
    assert (league.report.inputs.options["result_dice"], league.report.inputs.options["max_rounds"]) == ("highest", 3)
    assert league.house_rules == ("result_dice", "max_rounds")
    assert "*House rules: result dice: highest; max rounds: 3*" in league_embed["description"]
    main_embed, main = await fought(bot, fake, epic())
    assert main.channel_id == str(CHANNEL_ID)
    assert (main.report.inputs.options["result_dice"], main.report.inputs.options["max_rounds"]) == ("sum", 3)
    assert "*House rules: result dice: sum; max rounds: 3*" in main_embed["description"]
    # Another server's house rules are its own: none for Epic there, and nothing said.
    elsewhere = command_interaction("assault", [option("attacker", TACTICAL), option("defender", BOYZ)],
                                    subcommand="epic", guild_id=OTHER_GUILD_ID)  # fmt: skip
    other_embed, other = await fought(bot, fake, elsewhere)
    assert other.report.inputs.options["result_dice"] == "highest" and other.house_rules == ()
    assert "House rules" not in other_embed["description"]
    # ... and its duel house rule applies there.
    duel = command_interaction("duel", [option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"),
                                        option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv4+")],
                               guild_id=OTHER_GUILD_ID)  # fmt: skip
    duel_embed, duelled = await fought(bot, fake, duel)
    assert duelled.report.inputs.options["strength_save_table"] == "none"
    assert "*House rules: strength save table: none*" in duel_embed["description"]


async def test_direct_messages_apply_no_house_rules(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("epic", "result_dice", "sum")])
    payload = epic()  # as Discord sends it from a direct message: no server, no member, the user alone
    for key in ("guild_id", "member"):
        del payload[key]
    payload.update(user=user(PLAYER_ID, "player"), context=1, channel={"id": payload["channel_id"], "type": 1},
                   authorizing_integration_owners={"1": str(PLAYER_ID)})  # fmt: skip
    embed, stored = await fought(bot, fake, payload)
    assert stored.guild_id is None and stored.house_rules == ()
    assert stored.report.inputs.options["result_dice"] == "highest" and "House rules" not in embed["description"]


async def test_odds_are_worked_out_under_the_house_rules(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("epic", "result_dice", "sum")])
    attacker, defender = "2x Tactical: CC4+ FF4+ Sv4+ INF", "2x Ork Boyz: CC4+ FF5+ Sv6+ INF"
    payload = command_interaction("odds", [option("attacker", attacker), option("defender", defender)],
                                  subcommand="epic")  # fmt: skip
    _deferred, edit = await fake.ask(payload, 2)
    embed = edit.payload["embeds"][0]
    assert embed["description"].startswith(SUM_LINE)
    title = "Epic: Armageddon assault"
    summed = odds("epic", attacker, defender, time_limit=BOT_TIME_LIMIT, result_dice="sum")
    highest = odds("epic", attacker, defender, time_limit=BOT_TIME_LIMIT)
    assert summed.method == "exact"
    wanted = odds_embed(summed, embed["title"].split(": odds")[0], house_rules=SUM_LINE.strip("*")).description
    assert embed["description"] == wanted
    assert odds_embed(highest, title).description not in embed["description"]


async def test_a_continued_combat_keeps_its_records_options_and_house_rules(bot: RefereeBot, fake: FakeDiscord) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("40k", "morale_modifier", "per_wound"),
                                                      server_rule("40k", "ws_majority", "over_half")])  # fmt: skip
    first = command_interaction("assault", [option("attacker", GROTS), option("defender", GRETCHIN),
                                            option("charge_distance", 3.0, 10)], subcommand="40k")  # fmt: skip
    _embed, stored = await fought(bot, fake, first)
    assert stored.report.result.outcome == "drawn" and stored.house_rules == ("morale_modifier", "ws_majority")
    # The server's house rules change before the next round: the record's options carry on, not today's.
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("40k", "double_one_passes", True)])
    again = command_interaction("assault", [option("record", stored.id, 4)], subcommand="continue")
    embed, continued = await fought(bot, fake, again)
    assert continued.continues_id == stored.id
    options = continued.report.inputs.options
    assert (options["morale_modifier"], options["ws_majority"], options["double_one_passes"]) == (
        "per_wound", "over_half", False)  # fmt: skip
    assert continued.house_rules == ("morale_modifier", "ws_majority")
    assert "*House rules: morale modifier: per wound; ws majority: over half*" in embed["description"]


async def test_page_buttons_and_replay_say_the_house_rules_again(bot: RefereeBot, fake: FakeDiscord) -> None:
    from tests.e2e.conftest import long_fight

    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("40k", "ws_majority", "over_half")])
    attackers, defenders = long_fight()  # long enough to page
    payload = command_interaction("assault", [option("attacker", attackers), option("defender", defenders),
                                              option("charge_distance", 3.0, 10)], subcommand="40k")  # fmt: skip
    await fake.interaction(payload)
    answer = await final_answer(fake, payload["token"])
    line = "*House rules: ws majority: over half*"
    assert line in answer.data["embeds"][0]["description"]
    bot.server_settings.replace_guild(str(GUILD_ID), [])  # cleared since: page 1 still says what applied then
    turned = await fake.ask(component_interaction("referee:page:1:1", answer.data["components"]), 1)
    back = await fake.ask(component_interaction("referee:page:1:0", turned[0].payload["data"]["components"]), 1)
    assert line in back[0].payload["data"]["embeds"][0]["description"]
    [replayed] = await fake.ask(command_interaction("replay", [option("record", 1, 4)]), 1)
    assert line in replayed.payload["data"]["embeds"][0]["description"]


async def test_replay_and_verify_do_not_depend_on_todays_settings(
    bot: RefereeBot, fake: FakeDiscord, tmp_path: Path
) -> None:
    bot.server_settings.replace_guild(str(GUILD_ID), [server_rule("epic", "result_dice", "sum")])
    shown, stored = await fought(bot, fake, epic())
    for changed in ([server_rule("epic", "result_dice", "highest"), server_rule("epic", "max_rounds", 2)], []):
        bot.server_settings.replace_guild(str(GUILD_ID), changed)
        [replayed] = await fake.ask(command_interaction("replay", [option("record", stored.id, 4)]), 1)
        again = replayed.payload["data"]["embeds"][0]
        assert (again["title"], again["description"], again["fields"]) == (
            shown["title"], shown["description"], shown["fields"])  # fmt: skip
        [verified] = await fake.ask(command_interaction("verify", [option("record", stored.id, 4)]), 1)
        assert verified.payload["data"]["embeds"][0]["title"] == f"Record #{stored.id} verified"
        press = component_interaction(f"referee:verify:{stored.id}", replayed.payload["data"]["components"])
        [button] = await fake.ask(press, 1)
        assert button.payload["data"]["embeds"][0]["title"] == f"Record #{stored.id} verified"
    # The terminal, on the same database: verifies, and says which options came from the server's house rules.
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}"}
    for command, wanted in (("verify", "identical"), ("replay", "House rules: result dice: sum (its server's")):
        done = subprocess.run([sys.executable, "-m", "bot.cli", command, str(stored.id)], capture_output=True,
                              text=True, env=env, check=False, timeout=scaled(120))  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert wanted in done.stdout, done.stdout
        assert "/settings" not in done.stdout and "/replay" not in done.stdout  # terminal words
