"""A result's "Web page" button through the real bot and the fake Discord: there when the bot knows its public address
(WEB_BASE_URL), the server publishes its pages and the result is public; on the result, its page turns and /replay;
never otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from tests.e2e.conftest import long_fight, running_bot
from tests.e2e.fake_discord import FakeDiscord, command_interaction, component_interaction
from tests.e2e.test_commands import option, result, run
from tests.e2e.test_leagues import ANN, MANAGER, ORGANISER, admin, answer, league

BASE = "https://referee.example.org"


def duel(private: bool = False) -> dict[str, Any]:
    options = [option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"), option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")]
    if private:
        options.append(option("private", True, 5))
    return command_interaction("duel", options)


def links(payload: dict[str, Any]) -> list[str]:
    return [c["url"] for row in payload.get("components", []) for c in row["components"] if c.get("url")]


async def publish(fake: FakeDiscord, value: str = "public") -> None:
    (callback,) = await fake.ask(command_interaction("settings", [option("value", value)], subcommand="web"))
    assert "Web pages" in callback.payload["data"]["embeds"][0]["description"]


async def slug(referee: RefereeBot, record_id: int) -> str:
    return (await referee.store.records.get(record_id, actor=OPERATOR)).slug


async def test_a_public_result_links_its_page_when_the_server_publishes(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}", web_base_url=BASE) as referee:
        shown = await result(fake, duel())
        assert links(shown.data) == []  # not published (yet): no link
        await publish(fake)
        shown = await result(fake, duel())
        assert links(shown.data) == [f"{BASE}/c/{await slug(referee, 2)}"]
        hidden = await result(fake, duel(private=True))
        assert links(hidden.data) == []  # a private result is never on the web
        replay = await fake.ask(command_interaction("replay", [option("record", 2, 4)]))
        assert links(replay[0].payload["data"]) == [f"{BASE}/c/{await slug(referee, 2)}"]
        attackers, defenders = long_fight()
        long = await result(fake, command_interaction("assault", [
            option("attacker", attackers), option("defender", defenders), option("charge_distance", 3.0, 10)],
            subcommand="40k"))  # fmt: skip
        page = f"{BASE}/c/{await slug(referee, 4)}"
        assert links(long.data) == [page]
        (turned,) = await run(fake, component_interaction("referee:page:4:1", long.data["components"]), 1)
        assert links(turned.payload["data"]) == [page]  # the page turn keeps it
        await publish(fake, "off")
        replay = await fake.ask(command_interaction("replay", [option("record", 2, 4)]))
        assert links(replay[0].payload["data"]) == []  # opted out: the link goes with it


async def test_no_link_without_the_bots_public_address(bot: RefereeBot, fake: FakeDiscord) -> None:
    await publish(fake)
    shown = await result(fake, duel())
    assert links(shown.data) == []
    assert "referee:verify:1" in [c.get("custom_id") for row in shown.data["components"] for c in row["components"]]


async def test_the_standings_link_the_leagues_page_when_the_server_publishes(fake: FakeDiscord, tmp_path: Path) -> None:
    """/league standings has a "Web page" button to {WEB_BASE_URL}/l/{id} (a past season's: ?season=N) once the
    server publishes its pages; none before, none after it stops (a review found league pages unreachable from
    Discord)."""
    async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}", web_base_url=BASE):
        await answer(fake, admin("create", [option("name", "Autumn"), option("game", "40k")], by=ORGANISER))
        (before,) = await answer(fake, league("standings", [], by=ANN))
        assert links(before["data"]) == []
        await publish(fake)
        (shown,) = await answer(fake, league("standings", [], by=ANN))
        assert links(shown["data"]) == [f"{BASE}/l/1"]
        await answer(fake, admin("season start", [], by=ORGANISER, permissions=MANAGER))
        (past,) = await answer(fake, league("standings", [option("season", 1, 4)], by=ANN))
        assert links(past["data"]) == [f"{BASE}/l/1?season=1"]
        await publish(fake, "off")
        (after,) = await answer(fake, league("standings", [], by=ANN))
        assert links(after["data"]) == []
