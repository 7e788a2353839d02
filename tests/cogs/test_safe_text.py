"""Text a player wrote (match notes, reasons, roster descriptions, unit names) is shown as typed in Discord: no header,
no masked link, no mention and no formatting that breaks out; the bot's own mentions still render as mentions."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from bot.leagues.model import AuditEntry
from bot.render.markdown import escape
from cogs.leagues._ui import audit_embed, match_embed
from tests.cogs.test_league_embeds import LEAGUE, match

BAIT = "# BIG [Free Nitro](https://nitro.example/claim) @everyone <@&42> <@7>\n-# small *print*"


def breaks_out(shown: str) -> list[str]:
    """The Markdown a Discord client would act on in ``shown`` (unescaped)."""
    found = []
    for line in shown.split("\n"):
        if re.match(r"\s*(#{1,3}|-#)\s", line):
            found.append("header: " + line)
    found += [f"masked link: {m}" for m in re.findall(r"(?<!\\)\[[^\]]*(?<!\\)\]\(", shown)]
    found += [f"mention: {m}" for m in re.findall(r"(?<!\\)<[@#][!&]?\d+>", shown)]
    found += [f"emphasis: {m}" for m in re.findall(r"(?<!\\)\*[^*]+(?<!\\)\*", shown)]
    return found


def test_the_bait_is_neutralised_by_the_one_escape() -> None:
    assert breaks_out(BAIT)  # the checker sees what a client would act on
    assert breaks_out(escape(BAIT)) == []


def test_a_match_note_is_shown_as_typed() -> None:
    embed = match_embed(match(1, notes=BAIT), LEAGUE).to_dict()
    [notes] = [field["value"] for field in embed["fields"] if field["name"] == "Notes"]
    assert breaks_out(notes) == []
    assert "<@100000000000000001>" in embed["description"]  # the bot's own mention of the reporter still mentions


def test_a_score_is_shown_as_typed() -> None:
    scored = replace(match(1), score="[3](https://x.example)")
    description = match_embed(scored, LEAGUE).to_dict()["description"]
    assert breaks_out(description.split(" (", 1)[1]) == []  # the score, after the bot's own mentions


def test_an_audit_reason_is_shown_as_typed() -> None:
    entry = AuditEntry(id=1, league_id=1, match_id=1, kind="voided", actor="5", reason=BAIT, before=None, after=None,
                       at=datetime(2026, 11, 1, tzinfo=UTC))  # fmt: skip
    description = audit_embed(LEAGUE, [entry]).description or ""
    assert breaks_out(description.split("“", 1)[1]) == []
    assert "by <@5>" in description  # the bot's mention of the actor


def test_a_refusal_names_a_member_as_a_mention_and_a_deleted_one_as_a_plain_word() -> None:
    from bot.discord.errors import DISCORD
    from bot.leagues.errors import NotAllowed
    from rules_core.errors import Mention

    member = NotAllowed(["Only ", Mention("444000000000000442"), " can confirm it."])
    assert member.text_of(DISCORD) == "Only <@444000000000000442> can confirm it."
    deleted = NotAllowed(["Only ", Mention("deleted-0a1b2c3d"), " can confirm it."])
    assert deleted.text_of(DISCORD) == "Only deleted-0a1b2c3d can confirm it."  # never a broken '<@deleted-…>'
