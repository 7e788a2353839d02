"""/settings and /preferences through the real discord.py stack and the fake Discord: what a manager sets is
stored, audited, in the bot's cache at once and listed; a member without Manage Server changes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.data import catalogue
from bot.discord.app import RefereeBot
from bot.server_settings.model import CHANNEL, SERVER, USER, VISIBILITY, SettingRow, house_key
from bot.storage import Store
from bot.storage.models import SettingValue
from tests.e2e.conftest import running_bot
from tests.e2e.discord_view import PHONE, Browser, Shown
from tests.e2e.fake_discord import (
    GUILD_ID,
    OPPONENT_ID,
    PLAYER_ID,
    FakeDiscord,
    base_interaction,
    channel_of,
    command_interaction,
)
from tests.waits import eventually

EPHEMERAL = 64
GUILD = str(GUILD_ID)
LEAGUE_ROOM = 900000000000000077  # another channel of the server


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def room(channel_id: int = LEAGUE_ROOM, name: str = "league", kind: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """A channel option and what Discord resolves it to (``kind``: 0 text, 2 voice, 4 category, 15 forum)."""
    data = {"id": str(channel_id), "type": kind, "name": name, "guild_id": GUILD, "permissions": "2147483647"}
    return opt("channel", str(channel_id), 7), {"channels": {str(channel_id): data}}


async def settings(fake: FakeDiscord, sub: str, options: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    """One /settings subcommand's private answer (its first embed, with its flags)."""
    return await answer(fake, "settings", sub, options, **kwargs)


async def answer(
    fake: FakeDiscord, name: str, sub: str, options: list[dict[str, Any]], **kwargs: Any
) -> dict[str, Any]:
    (callback,) = await fake.ask(command_interaction(name, options, subcommand=sub, **kwargs))
    data = callback.payload["data"]
    assert data["flags"] & EPHEMERAL, data
    embed: dict[str, Any] = data["embeds"][0]
    return embed


def text(embed: dict[str, Any]) -> str:
    parts = [embed.get("description", "")] + [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts + [embed.get("footer", {}).get("text", "")])


async def test_a_manager_sets_shows_and_clears_a_house_rule_and_every_other_setting(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    done = await settings(fake, "house-rule", [opt("game", "epic"), opt("option", "result-dice"), opt("value", "sum")])
    assert done["description"] == "Epic house rule result dice: unset → sum (whole server)."
    assert bot.server_settings.effective(GUILD, "1").house_for("epic") == {"result_dice": "sum"}  # at once
    again = await settings(fake, "house-rule", [opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum")])
    assert again["description"] == "Nothing changed: Epic house rule result dice is already sum for the whole server."
    channel, resolved = room()
    wrong = await settings(fake, "house-rule", [opt("game", "40k"), opt("option", "max_rounds"), opt("value", "3"),
                                                channel], resolved=resolved)  # fmt: skip
    assert "40k has no option 'max\\_rounds'" in wrong["description"]  # Epic's, not 40K's: nothing set
    assert bot.server_settings.effective(GUILD, str(LEAGUE_ROOM)).house_for("40k") == {}
    await settings(fake, "house-rule", [opt("game", "40k"), opt("option", "morale_modifier"),
                                        opt("value", "per_wound"), channel], resolved=resolved)  # fmt: skip
    assert bot.server_settings.effective(GUILD, str(LEAGUE_ROOM)).house_for("40k") == {"morale_modifier": "per_wound"}
    assert bot.server_settings.effective(GUILD, str(channel_of(GUILD_ID))).house_for("40k") == {}
    await settings(fake, "visibility", [opt("value", "private"), channel], resolved=resolved)
    await settings(fake, "threads", [opt("value", "on")])
    results, results_resolved = room(900000000000000078, "results")
    await settings(fake, "results-channel", [results], resolved=results_resolved)
    await settings(fake, "league-channel", [channel], resolved=resolved)
    in_league = bot.server_settings.effective(GUILD, str(LEAGUE_ROOM))
    assert (in_league.private, in_league.threads, in_league.results_channel, in_league.league_channel) == (
        True, True, "900000000000000078", str(LEAGUE_ROOM),
    )  # fmt: skip
    assert not bot.server_settings.effective(GUILD, "elsewhere").private

    shown = text(await settings(fake, "show", [channel], resolved=resolved))
    for line in ("Epic house rule result dice: sum", "long results in a thread of their own: on",
                 "results channel (a copy of each public result): <#900000000000000078>",
                 f"league channel (confirmations, disputes, standings): <#{LEAGUE_ROOM}>",
                 "Overridden in #league", "40K house rule morale modifier: per wound",
                 "results: private by default"):  # fmt: skip
        assert line in shown, (line, shown)
    here = text(await settings(fake, "show", []))  # this channel: the league room's overrides are listed apart
    assert "Nothing: the server's settings apply." in here and f"<#{LEAGUE_ROOM}>" in here

    cleared = await settings(fake, "clear", [opt("setting", house_key("epic", "result_dice"))])
    assert cleared["description"] == "Epic house rule result dice: sum → unset (whole server)."
    await settings(fake, "clear", [opt("setting", "visibility"), channel], resolved=resolved)
    await settings(fake, "results-channel", [])  # no channel: unset
    nothing = await settings(fake, "clear", [opt("setting", "threads"), channel], resolved=resolved)
    assert nothing["description"] == f"Nothing to clear: threads is not set in <#{LEAGUE_ROOM}>."
    unknown = await settings(fake, "clear", [opt("setting", "loudness")])
    assert unknown["title"] == "That did not work" and "There is no setting 'loudness'" in unknown["description"]
    assert await bot.store.settings.rows_for_guild(GUILD) == [
        SettingRow(CHANNEL, str(LEAGUE_ROOM), GUILD, house_key("40k", "morale_modifier"), "per_wound"),
        SettingRow(SERVER, GUILD, GUILD, "threads", "on"),
        SettingRow(SERVER, GUILD, GUILD, "league_channel", str(LEAGUE_ROOM)),
    ]
    assert bot.server_settings.effective(GUILD, str(LEAGUE_ROOM)).results_channel is None


async def test_a_bad_house_rule_says_what_was_wrong_with_a_correct_command_to_copy(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    bad = await settings(fake, "house-rule", [opt("game", "epic"), opt("option", "result_dice"), opt("value", "max")])
    assert bad["title"] == "That did not work"
    assert "result_dice" in bad["description"] and "highest, sum" in bad["description"]
    assert bad["fields"][0]["value"] == "```\n/settings house-rule game:epic option:result_dice value:sum\n```"
    unknown = await settings(fake, "house-rule", [opt("game", "duel"), opt("option", "loud"), opt("value", "on")])
    assert "duel has no option 'loud'" in unknown["description"]
    assert unknown["fields"][0]["value"].startswith("```\n/settings house-rule game:duel option:strength_save_table")
    spec = await settings(
        fake, "house-rule", [opt("game", "epic"), opt("option", "attacker_support"), opt("value", "x")]
    )
    assert "never a house rule" in spec["description"]
    one_combat = await settings(fake, "house-rule", [opt("game", "40k"), opt("option", "round"), opt("value", "2")])
    assert one_combat["description"].startswith("The option round describes one combat (1 = the charge turn")
    assert "A house rule sets one of 40K's rules variants: cover\\_power\\_fists" in one_combat["description"]
    assert one_combat["fields"][0]["value"] == (
        "```\n/settings house-rule game:40k option:cover_power_fists value:initiative_1\n```"
    )
    assert await bot.store.settings.all_rows() == ([], 0)


async def test_a_category_or_a_voice_channel_is_refused_with_a_sentence(bot: RefereeBot, fake: FakeDiscord) -> None:
    category, in_category = room(900000000000000079, "Campaigns", kind=4)
    voice, in_voice = room(900000000000000080, "Table talk", kind=2)
    forum, in_forum = room(900000000000000081, "battle-reports", kind=15)
    refused = await settings(fake, "visibility", [opt("value", "private"), category], resolved=in_category)
    assert refused["title"] == "That did not work"
    assert "#Campaigns is a category: settings apply to text channels (and their threads)" in refused["description"]
    rule = [opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum"), voice]
    assert "#Table talk is a voice channel" in (await settings(fake, "house-rule", rule, resolved=in_voice))[
        "description"]  # fmt: skip
    results = await settings(fake, "results-channel", [category], resolved=in_category)
    assert "the results channel must be a text channel the bot can post in" in results["description"]
    league = await settings(fake, "league-channel", [forum], resolved=in_forum)
    assert "#battle-reports is a forum: the league channel must be a text channel" in league["description"]
    assert await bot.store.settings.all_rows() == ([], 0)
    await settings(fake, "threads", [opt("value", "on"), forum], resolved=in_forum)  # a forum's posts are threads
    assert bot.server_settings.effective(GUILD, "900000000000000081").threads


async def test_a_member_without_manage_server_is_refused_every_change(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Even a member a server granted the command to (Discord would show it) needs Manage Server."""
    for sub, options in (
        ("house-rule", [opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum")]),
        ("visibility", [opt("value", "private")]),
        ("threads", [opt("value", "on")]),
        ("results-channel", []),
        ("league-channel", []),
        ("web", [opt("value", "public")]),
        ("agree", [opt("value", "on")]),
        ("challenge-expiry", [opt("minutes", 30, 4)]),
        ("clear", [opt("setting", "threads")]),
        ("show", []),
        ("history", []),
    ):
        refused = await settings(fake, sub, options, user_id=OPPONENT_ID, permissions="0")
        assert refused["description"] == (
            "Only a member with Manage Server can use /settings: being allowed to use the command is not enough."
        ), sub
    assert await bot.store.settings.all_rows() == ([], 0)


async def test_history_lists_every_change_with_who_before_and_after_newest_first_and_pages(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    await settings(fake, "visibility", [opt("value", "private")])
    await settings(fake, "visibility", [opt("value", "public")], user_id=OPPONENT_ID)
    for rounds in range(1, 11):
        await settings(
            fake, "house-rule", [opt("game", "epic"), opt("option", "max_rounds"), opt("value", str(rounds))]
        )
    first = await settings(fake, "history", [])
    lines = first["description"].split("\n")
    assert len(lines) == 10 and lines[0].endswith(f"<@{PLAYER_ID}>: Epic house rule max rounds: 9 → 10 (whole server)")
    assert lines[-1].endswith(f"<@{PLAYER_ID}>: Epic house rule max rounds: unset → 1 (whole server)")
    assert first["footer"]["text"] == (
        "Page 1 of 2, newest first (12 changes) · /settings history page:2 for older changes"
    )
    second = await settings(fake, "history", [opt("page", 2, 4)])
    older = second["description"].split("\n")
    assert [line.split(" ", 2)[2] for line in older] == [
        f"<@{OPPONENT_ID}>: visibility: private → public (whole server)",
        f"<@{PLAYER_ID}>: visibility: unset → private (whole server)",
    ]
    assert all(line.startswith("• <t:") for line in older)  # a bulleted list
    assert second["footer"]["text"] == "Page 2 of 2, newest first (12 changes)"


async def test_preferences_are_set_shown_and_cleared_by_each_player_for_themselves(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    done = await answer(fake, "preferences", "private", [opt("value", "on")], user_id=OPPONENT_ID, permissions="0")
    assert done["description"] == "Private by default: unset → on (your preference)."
    await answer(fake, "preferences", "steps", [opt("value", "full")], user_id=OPPONENT_ID, permissions="0")
    mine = bot.server_settings.preferences(str(OPPONENT_ID))
    assert (mine.private, mine.full_steps) == (True, True)
    assert bot.server_settings.preferences(str(PLAYER_ID)).private is None  # another player's are their own
    shown = await answer(fake, "preferences", "show", [], user_id=OPPONENT_ID, permissions="0")
    assert shown["description"] == "• my results private by default: on\n• step list: full"
    cleared = await answer(fake, "preferences", "clear", [], user_id=OPPONENT_ID, permissions="0")
    assert cleared["description"] == "Your preferences are cleared."
    assert bot.server_settings.preferences(str(OPPONENT_ID)).private is None
    assert await bot.store.settings.rows_for_user(str(OPPONENT_ID)) == []
    audit = await bot.store.settings.changes_since(0)
    assert {(c.scope, c.scope_id, c.guild_id, c.actor) for c in audit} == {(USER, str(OPPONENT_ID), None,
                                                                            str(OPPONENT_ID))}  # fmt: skip
    assert len(audit) == 4
    empty = await answer(fake, "preferences", "show", [], user_id=OPPONENT_ID)
    assert empty["description"].startswith("None set")


async def test_settings_is_shown_to_managers_only_and_preferences_to_everyone(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    synced = {command["name"]: command for command in fake.synced[f"guild:{GUILD_ID}"]}
    assert synced["settings"]["default_member_permissions"] == 1 << 5  # "32": Manage Server
    assert synced["preferences"]["default_member_permissions"] is None
    subcommands = {option["name"] for option in synced["settings"]["options"]}
    assert subcommands == {"house-rule", "clear", "show", "visibility", "threads", "results-channel",
                           "league-channel", "history", "web", "agree", "challenge-expiry"}  # fmt: skip


async def test_the_option_and_value_autocompletes_follow_the_chosen_game(bot: RefereeBot, fake: FakeDiscord) -> None:
    async def complete(options: list[dict[str, Any]]) -> list[str]:
        data = {"id": "1", "name": "settings", "type": 1,
                "options": [{"type": 1, "name": "house-rule", "options": options}]}  # fmt: skip
        payload = base_interaction(4, data, user_id=PLAYER_ID)
        await fake.interaction(payload)
        (done,) = await fake.wait_answers(payload["token"], 1)
        return [choice["value"] for choice in done.payload["data"]["choices"]]

    options = await complete([opt("game", "epic"), {**opt("option", "dice"), "focused": True}])
    assert options == ["result_dice"]
    every = await complete([opt("game", "epic"), {**opt("option", ""), "focused": True}])
    assert "max_rounds" in every and "attacker_support" not in every  # a spec is never a house rule
    assert "attacker_blast_markers" not in every and "attacker_broken" not in every  # nor one combat's facts
    wh40k = await complete([opt("game", "40k"), {**opt("option", ""), "focused": True}])
    assert wh40k == [
        "cover_power_fists",
        "cover_later_round",
        "morale_modifier",
        "double_one_passes",
        "ws_majority",
        "weapon_traits",
        "lone_claw_bonus",
        "perils",
    ]
    values = await complete([opt("game", "epic"), opt("option", "result_dice"), {**opt("value", ""), "focused": True}])
    assert values == ["highest", "sum"]


async def test_the_bot_loads_settings_at_start_and_sees_another_processs_change_by_its_poll(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    other = await Store.open(url)  # another bot process on the same database, in effect
    try:
        await other.settings.set(SERVER, GUILD, GUILD, house_key("epic", "result_dice"), "sum", str(PLAYER_ID))
        async with running_bot(fake, url) as referee:
            assert referee.server_settings.effective(GUILD, None).house_for("epic") == {"result_dice": "sum"}
            await other.settings.set(SERVER, GUILD, GUILD, VISIBILITY, "private", str(PLAYER_ID))
            await eventually(  # the poll runs once a second; waited for, never timed
                lambda: referee.server_settings.effective(GUILD, None).private, "the poll saw the change", 10
            )
            poll = referee._settings_poll
            assert poll is not None and not poll.done()
        assert poll.cancelled()  # stopped with the bot
    finally:
        await other.close()


async def test_clear_takes_a_setting_as_show_writes_it_and_offers_managers_the_ones_set_there(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    channel, resolved = room()
    await settings(fake, "house-rule", [opt("game", "epic"), opt("option", "result_dice"), opt("value", "sum")])
    await settings(fake, "house-rule", [opt("game", "40k"), opt("option", "perils"), opt("value", "off"), channel],
                   resolved=resolved)  # fmt: skip
    again = await answer(fake, "preferences", "private", [opt("value", "on")], permissions="0")
    repeat = await answer(fake, "preferences", "private", [opt("value", "on")], permissions="0")
    assert (again["title"], repeat["title"]) == ("Your preferences", "Your preferences")
    assert repeat["description"] == "Nothing changed: private by default is already on for you."

    async def offered(options: list[dict[str, Any]], permissions: str = "2147483647") -> list[tuple[str, str]]:
        data = {"id": "1", "name": "settings", "type": 1, "options": [{"type": 1, "name": "clear",
                "options": options}], "resolved": resolved}  # fmt: skip
        payload = base_interaction(4, data, user_id=PLAYER_ID, permissions=permissions)
        await fake.interaction(payload)
        (done,) = await fake.wait_answers(payload["token"], 1)
        return [(choice["name"], choice["value"]) for choice in done.payload["data"]["choices"]]

    focused = {**opt("setting", ""), "focused": True}
    assert await offered([focused]) == [("Epic house rule result dice: sum", house_key("epic", "result_dice"))]
    assert await offered([focused, channel]) == [("40K house rule perils: off", house_key("40k", "perils"))]
    assert await offered([focused], permissions="0") == []  # a member without Manage Server: nothing
    # The line as /settings show writes it, any case, clears it; so does the name alone.
    done = await settings(fake, "clear", [opt("setting", "• epic house rule result dice: SUM")])
    assert done["description"] == "Epic house rule result dice: sum → unset (whole server)."
    by_name = await settings(fake, "clear", [opt("setting", "40K house rule perils"), channel], resolved=resolved)
    assert by_name["description"] == f"40K house rule perils: off → unset (<#{LEAGUE_ROOM}>)."
    await settings(fake, "visibility", [opt("value", "private")])
    unknown = await settings(fake, "clear", [opt("setting", "loudness")])
    assert unknown["description"].startswith("There is no setting 'loudness' for the whole server to clear. Pick one")
    assert unknown["fields"][0]["value"] == "```\n/settings clear setting:visibility\n```"  # one that is set here


async def test_show_gives_each_games_house_rules_a_field_of_their_own(bot: RefereeBot, fake: FakeDiscord) -> None:
    rows = [SettingRow(SERVER, GUILD, GUILD, VISIBILITY, "private")]
    for game in ("40k", "epic", "reikhammer"):
        for spec in catalogue().game(game).options:
            if spec.variant:
                value = spec.choices[-1] if spec.choices else (not spec.default if spec.type.name == "BOOL" else 3)
                rows.append(SettingRow(SERVER, GUILD, GUILD, house_key(game, spec.name), value))
    bot.server_settings.replace_guild(GUILD, rows)
    async with bot.store.settings.sessions.begin() as session:  # stored as /settings would have, in one go
        session.add_all([SettingValue(scope=row.scope, scope_id=row.scope_id, guild_id=row.guild_id, key=row.key,
                                      value_json=json.dumps(row.value), updated_by="1",
                                      updated_at=datetime.now(UTC)) for row in rows])  # fmt: skip
    shown = await settings(fake, "show", [])
    names = [field["name"] for field in shown["fields"]]
    assert names[:4] == ["This server", "This server · 40K house rules", "This server · Epic house rules",
                         "This server · Reikhammer house rules"]  # fmt: skip
    every = text(shown)
    assert all(f"house rule {spec.replace('_', ' ')}:" in every for spec in ("perils", "max_rounds", "save_direction"))
    assert "…" not in every and len(every) < 6000
    assert all(len(field["value"]) <= 1024 for field in shown["fields"])


async def test_the_settings_answers_as_a_phone_shows_them(
    bot: RefereeBot, fake: FakeDiscord, chromium: Browser, tmp_path: Path
) -> None:
    """/settings show with house rules of two games, the history, a refused house rule: each readable at 390 px."""
    channel, resolved = room()
    for game, name, value in (("epic", "result_dice", "sum"), ("epic", "max_rounds", "3"),
                              ("40k", "morale_modifier", "per_wound")):  # fmt: skip
        await settings(fake, "house-rule", [opt("game", game), opt("option", name), opt("value", value)])
    await settings(fake, "visibility", [opt("value", "private"), channel], resolved=resolved)
    answers = {
        "show": await settings(fake, "show", []),
        "history": await settings(fake, "history", []),
        "refused": await settings(fake, "house-rule", [opt("game", "40k"), opt("option", "round"), opt("value", "2")]),
    }
    for name, embed in answers.items():
        shown = Shown({"embeds": [embed], "flags": EPHEMERAL}, command=f"/settings {name}")
        height = chromium.photograph([shown], PHONE, tmp_path / f"settings-{name}-390.png")
        assert 100 < height < 1400, (name, height)
    assert "→" in answers["history"]["description"]


async def test_a_manager_sets_challenges_by_default_and_their_expiry_and_show_lists_them(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """``agree`` for the server and one channel (its own wins there), ``challenge-expiry`` for the server: stored,
    in the cache at once (what the challenge flow reads), listed by /settings show, refused out of range, cleared."""
    channel, resolved = room()
    done = await settings(fake, "agree", [opt("value", "on")])
    assert done["description"] == "Agree: unset → on (whole server)."
    off_here = await settings(fake, "agree", [opt("value", "off"), channel], resolved=resolved)
    assert off_here["description"] == f"Agree: unset → off (<#{LEAGUE_ROOM}>)."
    longer = await settings(fake, "challenge-expiry", [opt("minutes", 30, 4)])
    assert longer["description"] == "Challenge expiry: unset → 30 minutes (whole server)."
    same = await settings(fake, "challenge-expiry", [opt("minutes", 30, 4)])
    assert same["description"] == "Nothing changed: challenge expiry is already 30 minutes for the whole server."
    here, league = bot.server_settings.effective(GUILD, "1"), bot.server_settings.effective(GUILD, str(LEAGUE_ROOM))
    assert (here.agree, here.challenge_minutes, league.agree, league.challenge_minutes) == (True, 30, False, 30)

    shown = text(await settings(fake, "show", [channel], resolved=resolved))
    assert "This server\n• agree (a combat naming an opponent waits for them to accept it): on\n" in shown
    assert "• challenge expiry (how long a challenge stays open): 30 minutes" in shown
    assert "Overridden in #league\n• agree (a combat naming an opponent waits for them to accept it): off" in shown

    for minutes in (0, 1441):  # Discord's form keeps to 1-1440; a client that does not is told, and nothing changes
        refused = await settings(fake, "challenge-expiry", [opt("minutes", minutes, 4)])
        assert refused["title"] == "That did not work"
        assert refused["description"] == (
            f"A challenge stays open for a whole number of minutes from 1 to 1440 (a day), not {minutes}; unset, it "
            "is 15 (/settings clear setting:challenge expiry)."
        )
        assert refused["fields"][0]["value"] == "```\n/settings challenge-expiry minutes:30\n```"
    assert bot.server_settings.effective(GUILD, "1").challenge_minutes == 30
    synced = {command["name"]: command for command in fake.synced[f"guild:{GUILD_ID}"]}
    [expiry] = [sub for sub in synced["settings"]["options"] if sub["name"] == "challenge-expiry"]
    assert (expiry["options"][0]["min_value"], expiry["options"][0]["max_value"]) == (1, 1440)

    cleared = await settings(fake, "clear", [opt("setting", "challenge expiry")])
    assert cleared["description"] == "Challenge expiry: 30 minutes → unset (whole server)."
    await settings(fake, "clear", [opt("setting", "agree"), channel], resolved=resolved)
    league = bot.server_settings.effective(GUILD, str(LEAGUE_ROOM))
    assert (league.agree, league.challenge_minutes) == (True, 15)  # the server's agree, the default expiry
    assert await bot.store.settings.rows_for_guild(GUILD) == [SettingRow(SERVER, GUILD, GUILD, "agree", "on")]
    history = (await settings(fake, "history", []))["description"]
    assert history.count("\n") == 4 and "challenge expiry: unset → 30 minutes (whole server)" in history
