"""Stored means verifiable, void once and replay within Discord's limits, through the real discord.py stack: the
Verify button of a combat recorded at the input limit, a second /void, and /replay (and its page buttons) of a
voided record with its history on a full first page."""

from __future__ import annotations

from typing import Any

from bot.access import OPERATOR, Actor
from bot.data import catalogue
from bot.discord.app import RefereeBot
from bot.storage.records import MAX_NOTE_CHARS, MAX_VOID_REASON_CHARS
from rules_core import resolve
from tests.bot.test_stored_limits import sides
from tests.e2e.conftest import within_limits
from tests.e2e.fake_discord import PLAYER_ID, FakeDiscord, command_interaction, component_interaction

EPHEMERAL = 64
GUILD = "900000000000000003"


async def answer(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    (callback,) = await fake.ask(payload)
    return callback.payload  # type: ignore[no-any-return]


async def at_the_limit(bot: RefereeBot) -> int:
    """A 40K combat whose sides are at the input limit (its stored form is over it), recorded in the server."""
    game = catalogue().game("40k")
    attacker, defender = sides(game, pad=True)
    report = resolve(game, attacker, defender, seed=0, charge_distance=4)
    return await bot.store.records.add(report, requested_by=str(PLAYER_ID), guild_id=GUILD)


async def test_the_verify_button_answers_for_a_combat_recorded_at_the_limit(bot: RefereeBot, fake: FakeDiscord) -> None:
    record = await at_the_limit(bot)
    button = {"type": 2, "style": 1, "label": "Verify", "custom_id": f"referee:verify:{record}"}
    reply = await answer(fake, component_interaction(button["custom_id"], [{"type": 1, "components": [button]}]))
    assert reply["data"]["flags"] & EPHEMERAL
    assert reply["data"]["embeds"][0]["title"] == f"Record #{record} verified"


async def test_a_second_void_says_the_record_is_already_void(bot: RefereeBot, fake: FakeDiscord) -> None:
    record = await at_the_limit(bot)
    first = [{"type": 4, "name": "record", "value": record}, {"type": 3, "name": "reason", "value": "wrong unit"}]
    assert (await answer(fake, command_interaction("void", first)))["data"]["embeds"][0]["title"] == (
        f"Record #{record} is void"
    )
    second = [{"type": 4, "name": "record", "value": record}, {"type": 3, "name": "reason", "value": "again"}]
    refused = await answer(fake, command_interaction("void", second))
    assert refused["data"]["flags"] & EPHEMERAL
    description = refused["data"]["embeds"][0]["description"]
    assert f"Record #{record} is already void (voided by <@{PLAYER_ID}>: 'wrong unit')." in description
    assert "referee" not in description  # Discord's words: no terminal command
    history = (await bot.store.records.get(record, actor=OPERATOR)).history
    assert [note.reason for note in history] == ["wrong unit"]


async def test_replay_of_a_voided_record_keeps_discords_limits_on_every_page(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    record = await at_the_limit(bot)
    player = Actor(str(PLAYER_ID), guild=GUILD)
    await bot.store.records.add_note(record, "void", actor=player, reason="v" * MAX_VOID_REASON_CHARS)
    for _ in range(3):
        await bot.store.records.add_note(record, "note", actor=player, reason="n" * MAX_NOTE_CHARS)
    reply = await answer(fake, command_interaction("replay", [{"type": 4, "name": "record", "value": record}]))
    first = reply["data"]["embeds"][0]
    within_limits(first)
    assert first["description"].startswith(f"**VOID** by <@{PLAYER_ID}>")
    pages = int(first["footer"]["text"].rsplit("/", 1)[1])
    components = reply["data"]["components"]
    for page in range(1, pages):  # "Next ▶" on each page in turn
        shown = (await answer(fake, component_interaction(f"referee:page:{record}:{page}", components)))["data"]
        within_limits(shown["embeds"][0])
        assert shown["embeds"][0]["footer"]["text"].endswith(f"page {page + 1}/{pages}")
        components = shown["components"]
    second = await answer(fake, component_interaction(f"referee:page:{record}:1", reply["data"]["components"]))
    back = await answer(fake, component_interaction(f"referee:page:{record}:0", second["data"]["components"]))
    assert back["data"]["embeds"][0] == first  # the page buttons size the pages as /replay does
