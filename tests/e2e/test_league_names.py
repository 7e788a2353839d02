"""Issue 34, found by attacking: a league's name is shown as typed, never as Markdown (``__Big__ _tilt_ League``
underlined and italic), in every plain answer and title that names it, as player-written text is everywhere."""

from __future__ import annotations

import json

from bot.discord.app import RefereeBot
from bot.render.markdown import escape
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_leagues import ANN, MANAGER, ORGANISER, admin, answer, league, option

NAME = "__Big__ _tilt_ League"


async def test_a_league_name_is_shown_as_typed(bot: RefereeBot, fake: FakeDiscord) -> None:
    shown = escape(NAME)
    assert shown != NAME
    said = []
    [created] = await answer(fake, admin("create", [option("name", NAME), option("game", "40k")], by=ORGANISER,
                                         permissions=MANAGER))  # fmt: skip
    said.append(created)
    said += await answer(fake, league("join", [], by=ANN))
    said += await answer(fake, league("list", [], by=ANN))
    said += await answer(fake, admin("settings", [option("confirm_hours", 24, 4)], by=ORGANISER, permissions=MANAGER))
    said += await answer(fake, admin("season start", [], by=ORGANISER, permissions=MANAGER))
    said += await answer(fake, league("history", [], by=ANN))
    said += await answer(fake, league("leave", [], by=ANN))
    for reply in said:
        data = reply["data"]
        words = json.dumps([data.get("content"), *(e.get("title") for e in data.get("embeds", [])),
                            *(e.get("description") for e in data.get("embeds", []))])  # fmt: skip
        assert json.dumps(shown)[1:-1] in words, words  # named, escaped
        assert f"**{NAME}**" not in words and f" {NAME}" not in words.replace(json.dumps(shown)[1:-1], ""), words
