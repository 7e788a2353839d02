"""What the README and the docs tell a new server owner agrees with what the bot does: the invite's permissions
cover every call it makes (threads included) and its integer is theirs; results are public unless made private, and
every page says so."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.server_settings.model import effective

ROOT = Path(__file__).resolve().parents[1]
# What the bot does in a channel, and the permission each needs: answers to interactions need none.
NEEDED = {
    "view_channel": "post a copy in the results channel and news in the league channel",
    "send_messages": "post in those channels",
    "embed_links": "its results are embeds",
    "attach_files": "the full log and the odds chart",
    "read_message_history": "reach its earlier messages: a result's to start a thread, a challenge or league card",
    "create_public_threads": "a long fight's thread (bot/discord/delivery.py, start_thread)",
    "send_messages_in_threads": "the pages posted in that thread (post_to_thread)",
}


def invite_step() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return " ".join(readme.split("**Invite it**", 1)[1].split("4. **Run**", 1)[0].split())


def test_the_invite_asks_for_what_the_bot_uses_and_its_integer_is_theirs() -> None:
    step = invite_step()
    listed = re.search(r"bot permissions (.+?) \(permissions integer `(\d+)`\)", step)
    assert listed is not None, step
    names = re.split(r", | and ", listed[1])
    flags = {name.lower().replace(" ", "_").replace("view_channels", "view_channel") for name in names}
    assert flags == set(NEEDED), sorted(flags ^ set(NEEDED))
    assert int(listed[2]) == discord.Permissions(**dict.fromkeys(flags, True)).value


def test_results_are_public_by_default_and_every_page_says_so() -> None:
    assert effective([], None).private is False  # no visibility set: public
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "public by default" in readme and "private by default" not in readme
    settings = " ".join((ROOT / "docs" / "settings.md").read_text(encoding="utf-8").split())
    assert "Results public (the default)" in settings
    delivery = " ".join((ROOT / "docs" / "delivery.md").read_text(encoding="utf-8").split())
    assert "private by default" not in delivery and "4. Otherwise public." in delivery
