"""Issue 34, found by attacking: numbers typed as text (``league:``, ``combats:``) in Unicode digits, with a sign, or
too large for any id are answered privately with what to type and an example, never "something went wrong", on
SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord, user
from tests.e2e.test_servers import ANN, BOB, EPHEMERAL, G1, bot, first_server, group, one, option

__all__ = ["bot"]  # the fixture (both backends)

TYPED = ("²", "#²", "٣", "-3", "+3", "99999999999999999999", "#99999999999999999999")


def words(reply: dict[str, Any]) -> str:
    data = reply["data"]
    assert data["flags"] & EPHEMERAL, data
    embed = data["embeds"][0]
    return " ".join([embed["description"], *(f["value"] for f in embed.get("fields", []))])


async def test_a_league_typed_oddly_is_answered_with_what_to_type(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    await first_server(bot)
    for typed in TYPED:
        said = words(await one(fake, group("league", "standings", [option("league", typed)], user_id=ANN,
                                           guild_id=G1)))  # fmt: skip
        assert "went wrong" not in said, (typed, said)
        if typed.lstrip("#").isascii() and typed.lstrip("#").isdigit():  # an id no league has: as any unknown id
            assert f"There is no league '{typed}' here." in said and "/league list" in said, (typed, said)
        else:  # what to type, and where to look
            assert "such as 1 or #1" in said and "/league list" in said, (typed, said)
    longest = "9" * 5000  # more digits than Python reads as a number
    said = words(await one(fake, group("league", "standings", [option("league", longest)], user_id=ANN, guild_id=G1)))
    assert "There is no league" in said, said
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_combats_typed_oddly_are_answered_with_what_to_type(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    ids = await first_server(bot)
    users = {"users": {str(BOB): user(BOB, "bob")}}
    for typed in (*TYPED, "3.5", "0", "9" * 5000, f"{ids['public']}, ²"):
        report = group("league", "report", [option("opponent", str(BOB), 6), option("result", "win"),
                                            option("combats", typed)], user_id=ANN, guild_id=G1,
                       resolved=users)  # fmt: skip
        said = words(await one(fake, report))
        assert "went wrong" not in said, (typed, said)
        assert "combats:" in said, (typed, said)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
