"""A league played through the fake Discord, then its web page served from the bot's own store and settings cache:
the page's standings rows are the rows of the bot's /league standings embed (same players, in the same order,
with the same points, games, W-D-L and rating), once the server opted in with /settings web."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient, TestServer

from bot.discord.app import RefereeBot
from bot.web.app import make_app
from bot.web.config import WebConfig
from tests.bot.web.league_data import table_rows
from tests.e2e.fake_discord import FakeDiscord, command_interaction
from tests.e2e.test_leagues import ANN, BOB, CID, MANAGER, ORGANISER, admin, answer, league, option

EMBED_ROW = re.compile(r"\*\*(\d+)\.\*\* <@(\d+)> · \*\*(\d+)\*\* pts · (\d+) played \((\d+-\d+-\d+)\) · (\d+)")
PAGE_PLAYER = re.compile(r'<th scope="row"><a href="/l/\d+/players/(\d+)">')


async def test_the_pages_standings_are_the_bots_standings_embed(bot: RefereeBot, fake: FakeDiscord) -> None:
    await answer(fake, admin("create", [option("name", "Autumn"), option("game", "40k")], by=ORGANISER))
    for player in (ANN, BOB, CID):
        await answer(fake, league("join", [], by=player))
    games = [(ANN, BOB, "win"), (CID, ANN, "draw"), (BOB, CID, "win"), (ANN, CID, "win")]
    for player, opponent, result in games:
        options = [option("player", str(player), 6), option("opponent", str(opponent), 6), option("result", result)]
        await answer(fake, admin("enter", options, by=ORGANISER, permissions=MANAGER, users=(player, opponent)))
    await fake.ask(command_interaction("settings", [option("value", "public")], subcommand="web"))
    embed, *_ = await answer(fake, league("standings", [], by=BOB), 2)
    shown = [EMBED_ROW.fullmatch(line) for line in embed["data"]["embeds"][0]["description"].splitlines()]
    bot_rows = [list(m.groups()) for m in shown if m is not None]
    assert len(bot_rows) == 3

    client = TestClient(TestServer(make_app(bot.store, bot.server_settings, WebConfig(_env_file=None))))  # type: ignore[call-arg]
    await client.start_server()
    try:
        page = await (await client.get("/l/1")).text()
    finally:
        await client.close()
    players = PAGE_PLAYER.findall(page)
    page_rows = [[rank, player, points, played, record, rating]
                 for (rank, _name, points, played, record, rating), player
                 in zip(table_rows(page, "standings"), players, strict=True)]  # fmt: skip
    assert page_rows == bot_rows
    names = [row[1] for row in table_rows(page, "standings")]
    assert all(re.fullmatch(r"(user|player)10[123]", name) for name in names), names  # the names Discord sent
