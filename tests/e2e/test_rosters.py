"""/roster through the real discord.py stack: save, share, use, show, list, delete, import and export files, and the
shipped samples."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.rosters import shipped_rosters
from rules_core import all_games
from rules_core.registry import command_path
from tests.e2e.fake_discord import (
    OPPONENT_ID,
    PLAYER_ID,
    FakeDiscord,
    base_interaction,
    command_interaction,
    final_answer,
)

EPHEMERAL = 64
ROSTERS = Path(__file__).resolve().parents[2] / "data" / "rosters"


def text(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def roster(fake: FakeDiscord, sub: str, options: list[dict[str, Any]], **kwargs: Any) -> Any:
    (callback,) = await fake.ask(command_interaction("roster", options, subcommand=sub, **kwargs))
    return callback


async def test_save_share_use_show_list_and_delete(bot: RefereeBot, fake: FakeDiscord) -> None:
    saved = await roster(fake, "save", [text("name", "boss"), text("game", "duel"),
                                        text("spec", "Warboss: WS5 S4 T5 W3 I4 A3 Sv4+ power-fist"),
                                        text("share", True, 5)])  # fmt: skip
    assert "shared with this server" in saved.payload["data"]["content"]
    # Another player in the server uses it by name.
    duel = command_interaction("duel", [text("attacker", "@boss"), text("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")],
                               user_id=OPPONENT_ID)  # fmt: skip
    await fake.interaction(duel)
    answer = await final_answer(fake, duel["token"])
    assert "record #1" in answer.data["embeds"][0]["footer"]["text"]
    assert (await bot.store.records.get(1, actor=OPERATOR)).report.inputs.attacker.startswith("1x Warboss:")
    shown = await roster(fake, "show", [text("name", "boss"), text("game", "duel")], user_id=OPPONENT_ID)
    assert "Warboss" in shown.payload["data"]["embeds"][0]["description"]
    listed = await roster(fake, "list", [])
    assert "`@boss` (duel, 1 units) · shared" in listed.payload["data"]["embeds"][0]["description"]
    deleted = await roster(fake, "delete", [text("name", "boss"), text("game", "duel")])
    assert deleted.payload["data"]["flags"] & EPHEMERAL
    assert await bot.store.rosters.visible_to(str(OPPONENT_ID), guild_id="900000000000000003") == []


async def test_import_and_export_files(bot: RefereeBot, fake: FakeDiscord) -> None:
    upload = fake.attachment("40k.yaml", (ROSTERS / "40k.yaml").read_bytes())
    imported = await roster(fake, "import", [text("file", upload["id"], 11)],
                            resolved={"attachments": {upload["id"]: upload}})  # fmt: skip
    assert "Imported 2 rosters" in imported.payload["data"]["content"]
    exported = await roster(fake, "export", [])
    assert exported.files == ["rosters.yaml"]


async def test_a_bad_file_imports_nothing_and_says_why(bot: RefereeBot, fake: FakeDiscord) -> None:
    upload = fake.attachment("bad.yaml", b"schema: referee-rosters/1\nrosters: [{name: x, game: 40k, spec: 'M: WS4'}]")
    reply = await roster(fake, "import", [text("file", upload["id"], 11)],
                         resolved={"attachments": {upload["id"]: upload}})  # fmt: skip
    assert reply.payload["data"]["flags"] & EPHEMERAL
    assert "Roster 1 ('x') of bad.yaml" in reply.payload["data"]["embeds"][0]["description"]
    assert await bot.store.rosters.visible_to("900000000000000005") == []


def fight_of(description: str) -> tuple[str, str | None, list[dict[str, Any]]]:
    """The command the samples answer says to type next, as Discord would send it: name, subcommand, options."""
    (typed,) = re.findall(r"\*\*Fight now\*\*: `(/[^`]+)`", description)
    words = typed[1:].split()
    path = [w for w in words if ":" not in w]
    options = [text(*w.split(":", 1)) for w in words if ":" in w]
    return path[0], path[1] if len(path) > 1 else None, options


async def test_samples_save_the_shipped_units_and_say_what_to_type_next(bot: RefereeBot, fake: FakeDiscord) -> None:
    reply = await roster(fake, "samples", [text("game", "40k")])
    data = reply.payload["data"]
    assert data["flags"] & EPHEMERAL
    description = data["embeds"][0]["description"]
    assert "**Fight now**: `/assault 40k attacker:@tactical-squad defender:@ork-mob`" in description
    assert "referee" not in description and "--" not in description  # Discord's words only
    mine = await bot.store.rosters.visible_to(str(PLAYER_ID), game="40k")
    assert [r.name for r in mine] == sorted(sample.name for sample in shipped_rosters("40k"))  # as referee samples
    # The sides' suggestions offer them as @name.
    focused = {"type": 3, "name": "attacker", "value": "@tac", "focused": True}
    data = {"id": "1", "name": "assault", "type": 1, "options": [{"type": 1, "name": "40k", "options": [focused]}]}
    payload = base_interaction(4, data, user_id=PLAYER_ID)
    await fake.interaction(payload)
    (suggested,) = await fake.wait_answers(payload["token"], 1)
    assert "@tactical-squad" in [choice["value"] for choice in suggested.payload["data"]["choices"]]
    # Asking again saves nothing twice, and a roster of the player's own with a sample's name is kept.
    again = await roster(fake, "samples", [text("game", "40k")])
    assert "Already in your rosters" in again.payload["data"]["embeds"][0]["description"]
    assert len(await bot.store.rosters.visible_to(str(PLAYER_ID), game="40k")) == len(mine)


async def test_each_games_samples_fight_exactly_as_the_answer_says(bot: RefereeBot, fake: FakeDiscord) -> None:
    for number, game in enumerate(all_games(), start=1):
        reply = await roster(fake, "samples", [text("game", game.id)])
        name, sub, options = fight_of(reply.payload["data"]["embeds"][0]["description"])
        assert (f"{name} {sub}" if sub else name) == command_path(game)
        payload = command_interaction(name, options, subcommand=sub)
        await fake.interaction(payload)
        calls = await fake.wait_answers(payload["token"], 1)
        assert not calls[0].payload["data"].get("flags", 0) & EPHEMERAL, (game.id, calls[0].payload)  # no error
        answer = await final_answer(fake, payload["token"])
        assert f"record #{number}" in answer.data["embeds"][0]["footer"]["text"], (game.id, answer.data)
