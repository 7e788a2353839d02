"""Issue 34, found by attacking: an id of 2^31 or more (what no table holds) in every id option, id argument and
button, and as ``league:`` or ``combats:`` text, is answered "There is no ..." on PostgreSQL exactly as on SQLite
(as for an id that does not exist), with nothing logged as an error and every row unchanged."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord, command_interaction, component_interaction, user
from tests.e2e.test_servers import (
    BOB,
    CID,
    G1,
    MANAGER,
    MAX,
    bot,
    first_server,
    group,
    option,
    rows,
    season,
)

__all__ = ["bot"]  # the fixture (both backends)

BIG = (2**31, 2**53 - 1)  # the first id no 32-bit column holds, and the largest integer Discord sends


def attempts(number: int, there: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every command and button that takes an id, with ``number`` as that id."""
    league = option("league", f"#{number}")
    users = {"users": {str(u): user(u, f"user{u % 1000}") for u in (BOB, CID)}}

    def button(custom_id: str) -> dict[str, Any]:
        components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]
        return component_interaction(custom_id, components, user_id=there["user_id"], guild_id=there["guild_id"])

    return {
        "replay": command_interaction("replay", [option("record", number, 4)], **there),
        "verify": command_interaction("verify", [option("record", number, 4)], **there),
        "void": command_interaction("void", [option("record", number, 4), option("reason", "a mistake")], **there),
        "note": command_interaction("note", [option("record", number, 4), option("text", "a note")], **there),
        "continue": group("assault", "continue", [option("record", number, 4)], **there),
        "league-admin void": group(
            "league-admin", "void", [option("match", number, 4), option("reason", "no")], **there
        ),
        "league-admin correct": group(
            "league-admin",
            "correct",
            [option("match", number, 4), option("result", "win"), option("reason", "no")],
            **there,
        ),
        "league-admin resolve": group(
            "league-admin",
            "resolve",
            [option("match", number, 4), option("decision", "win"), option("reason", "no")],
            **there,
        ),
        "league audit match": group("league", "audit", [option("match", number, 4)], **there),
        "league standings": group("league", "standings", [league], **there),
        "league standings season": group("league", "standings", [option("season", number, 4)], **there),
        "league join": group("league", "join", [league], **there),
        "league history": group("league", "history", [league], **there),
        "league-admin settings": group("league-admin", "settings", [league, option("confirm_hours", 1, 4)], **there),
        "season end": season("end", [league], **there),
        "league-admin enter": group(
            "league-admin",
            "enter",
            [
                option("player", str(BOB), 6),
                option("opponent", str(CID), 6),
                option("result", "win"),
                option("combats", f"{number}"),
            ],
            resolved=users,
            **there,
        ),
        "page button": button(f"referee:page:{number}:1"),
        "verify button": button(f"referee:verify:{number}"),
        "rolls button": button(f"referee:rolls:{number}"),
        "why button": button(f"referee:why:{number}"),
        "challenge button": button(f"referee:ch:{number}:1:accept"),
        "league confirm button": button(f"referee:league:confirm:{number}"),
    }


def worded(reply: dict[str, Any]) -> str:
    """The private answer's words, whichever form it takes (a callback, or a deferral's follow-up)."""
    data = reply.get("data", reply)
    embeds = data.get("embeds") or []
    return str(embeds[0].get("description", "")) if embeds else str(data.get("content", ""))


async def answer(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    """The bot's last call about ``payload`` once it has said something (a deferral alone says nothing)."""
    calls = await fake.ask(payload)
    if calls[0].payload.get("type") in (5, 6):  # deferred: the words follow
        calls = await fake.wait_answers(payload["token"], 2)
    return calls[-1].payload  # type: ignore[no-any-return]


async def test_an_id_no_table_holds_is_not_found_as_on_sqlite(
    bot: RefereeBot, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    await first_server(bot)
    before = {table: found for table, found in (await rows(bot)).items() if table != "display_names"}
    there = {"user_id": MAX, "permissions": MANAGER, "guild_id": G1}
    missing = {what: worded(await answer(fake, payload)) for what, payload in attempts(9999, there).items()}
    caplog.clear()
    wrong = {}
    for number in BIG:
        for what, payload in attempts(number, there).items():
            again = payload | {"id": f"{number}{len(what)}", "token": f"big-{number}-{what}"}
            try:
                text = worded(await answer(fake, again)).replace(str(number), "N")
            except TimeoutError:
                text = "(no answer)"

            if text != missing[what].replace("9999", "N"):
                wrong[what, number] = text
    assert wrong == {}, (wrong, missing)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert {table: found for table, found in (await rows(bot)).items() if table != "display_names"} == before
