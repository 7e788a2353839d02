"""/roster through the real discord.py stack: save, share, use, show, list, delete, import and export files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import OPPONENT_ID, FakeDiscord, command_interaction, final_answer

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
