"""A league that requires agreed combats (issue 24) through the fake Discord: the organiser sets it at creation and
in the settings; a report listing a combat the players did not agree to is refused privately, naming it, with how
to fight one agreed (a slash command, never a terminal one), and nothing is stored; a report listing an agreed combat
(a real challenge resolved into a record, as `referee accept` makes it) is taken, and its message marks the combat
"✔ agreed" when reported and when confirmed. The match message is photographed at phone and desktop widths."""

from __future__ import annotations

from pathlib import Path

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.storage import Store
from tests.bot.leagues import agreed_records
from tests.e2e.discord_view import DESKTOP, PHONE, Browser, Shown
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord
from tests.e2e.test_leagues import ANN, BOB, CID, EPHEMERAL, MANAGER, ORGANISER, admin, answer, click, league, option
from tests.e2e.test_leagues import report as report_match

GAME = agreed_records.GAME
BOOLEAN = 5


async def agreed_combat(store: Store, challenger: int, opponent: int) -> int:
    return await agreed_records.agreed_combat(store, str(challenger), str(opponent), str(GUILD_ID))


async def lone_combat(store: Store, by: int) -> int:
    return await agreed_records.lone_combat(store, str(by), str(GUILD_ID))


async def strict_league(fake: FakeDiscord) -> str:
    options = [option("name", "Remote Crusade"), option("game", GAME.id), option("require_agreed", True, BOOLEAN)]
    [created] = await answer(fake, admin("create", options, by=ORGANISER))
    for player in (ANN, BOB, CID):
        await answer(fake, league("join", [], by=player))
    return str(created["data"]["content"])


async def test_a_league_requiring_agreement_refuses_a_lone_combat_and_marks_an_agreed_one(
    bot: RefereeBot, fake: FakeDiscord, chromium: Browser, tmp_path: Path
) -> None:
    created = await strict_league(fake)
    assert "Reports count only combats both players agreed to" in created
    [listed] = await answer(fake, league("list", [], by=BOB))
    assert "**Remote Crusade** · 40k · season 1 · 3 players · agreed combats only" in listed["data"]["content"]
    lone = await lone_combat(bot.store, ANN)
    agreed = await agreed_combat(bot.store, BOB, ANN)  # Bob challenged, Ann accepted: either way round counts

    refused = await report_match(fake, ANN, BOB, "win", combats=f"{agreed}, {lone}")
    assert refused["data"]["flags"] & EPHEMERAL
    text = refused["data"]["embeds"][0]["description"]
    assert f"#{lone} was not agreed" in text and f"#{agreed}" not in text
    assert f"/assault {GAME.id} attacker:... defender:... opponent:@Bob agree:true" in text
    assert "referee " not in text and "--" not in text
    leagues = await bot.store.leagues.all(actor=OPERATOR)
    assert await bot.store.matches.in_league(leagues[0].id, actor=OPERATOR) == []  # nothing stored

    theirs = await agreed_combat(bot.store, ANN, CID)  # agreed, but with another player
    elsewhere = await report_match(fake, ANN, BOB, "win", combats=str(theirs))
    assert f"#{theirs} was agreed between <@{ANN}> and <@{CID}>" in elsewhere["data"]["embeds"][0]["description"]

    shown = await report_match(fake, ANN, BOB, "win", score="2-0", combats=f"#{agreed}")
    data = shown["data"]
    assert data["embeds"][0]["title"] == "Match #1: pending"
    [combats] = [f for f in data["embeds"][0]["fields"] if f["name"] == "Combats"]
    assert combats["value"] == f"#{agreed} ✔ agreed"
    confirmed = await click(fake, "referee:league:confirm:1", data, BOB)
    assert confirmed["data"]["embeds"][0]["title"] == "Match #1: confirmed"
    assert f"#{agreed} ✔ agreed" in [f["value"] for f in confirmed["data"]["embeds"][0]["fields"]]

    names = {str(ANN): "Ann", str(BOB): "Bob", str(CID): "Cid"}
    message = Shown(data, command="/league report", names=names)
    for width in (PHONE, DESKTOP):
        messages = [Shown(refused["data"], command="/league report", names=names), message,
                    Shown(confirmed["data"], command="", names=names)]  # fmt: skip
        chromium.photograph(messages, width,
                            tmp_path / f"league-agreed-match-{width}.png")  # fmt: skip
        assert "✔ agreed" in chromium.driver.find_element("css selector", "body").text


async def test_the_setting_changes_and_a_plain_league_takes_any_combat(bot: RefereeBot, fake: FakeDiscord) -> None:
    await strict_league(fake)
    lone = await lone_combat(bot.store, ANN)
    [changed] = await answer(fake, admin("settings", [option("require_agreed", False, BOOLEAN)], by=ORGANISER,
                                         permissions=MANAGER))  # fmt: skip
    assert "agreed" not in changed["data"]["content"]
    [audit] = await answer(fake, league("audit", [], by=BOB))
    assert "require_agreed: True → False" in audit["data"]["embeds"][0]["description"]
    shown = await report_match(fake, ANN, BOB, "win", combats=str(lone))
    [combats] = [f for f in shown["data"]["embeds"][0]["fields"] if f["name"] == "Combats"]
    assert combats["value"] == f"#{lone}"  # taken, and not marked
    [again] = await answer(fake, admin("settings", [option("require_agreed", True, BOOLEAN)], by=ORGANISER,
                                       permissions=MANAGER))  # fmt: skip
    assert "Reports count only combats both players agreed to" in again["data"]["content"]
