"""Issue 34, found by rendering the screens: ``/league export`` counts its matches in plain English ("1 match", not
"1 matches")."""

from __future__ import annotations

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_leagues import ANN, BOB, MANAGER, ORGANISER, admin, answer, league, option, report


async def test_the_export_answer_counts_its_matches_in_the_right_number(bot: RefereeBot, fake: FakeDiscord) -> None:
    await answer(fake, admin("create", [option("name", "Autumn Crusade"), option("game", "40k")], by=ORGANISER,
                             permissions=MANAGER))  # fmt: skip
    for player in (ANN, BOB):
        await answer(fake, league("join", [], by=player))
    [none] = await answer(fake, league("export", [], by=ANN))
    assert "**Autumn Crusade**: 0 matches," in none["data"]["content"], none["data"]["content"]
    await report(fake, ANN, BOB, "win")
    [one] = await answer(fake, league("export", [], by=ANN))
    assert "**Autumn Crusade**: 1 match," in one["data"]["content"], one["data"]["content"]
