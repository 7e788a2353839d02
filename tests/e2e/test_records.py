"""/replay, /verify, /history, /void and /note through the real discord.py stack."""

from __future__ import annotations

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from bot.storage.records import MAX_NOTE_CHARS
from rules_core import resolve
from tests.e2e.fake_discord import OPPONENT_ID, PLAYER_ID, FakeDiscord, command_interaction

EPHEMERAL = 64


async def stored(bot: RefereeBot, count: int = 1) -> list[int]:
    ids = []
    for seed in range(count):
        report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=seed)
        ids.append(await bot.store.records.add(report, requested_by=str(PLAYER_ID), guild_id="900000000000000003"))
    return ids


async def answer(fake: FakeDiscord, payload: dict) -> dict:  # type: ignore[type-arg]
    (callback,) = await fake.ask(payload)
    return callback.payload  # type: ignore[no-any-return]


async def test_replay_shows_the_stored_result_with_its_buttons(bot: RefereeBot, fake: FakeDiscord) -> None:
    (record,) = await stored(bot)
    reply = await answer(fake, command_interaction("replay", [{"type": 4, "name": "record", "value": record}]))
    assert reply["type"] == 4
    assert f"record #{record}" in reply["data"]["embeds"][0]["footer"]["text"]
    assert reply["data"]["components"]


async def test_verify_says_identical(bot: RefereeBot, fake: FakeDiscord) -> None:
    (record,) = await stored(bot)
    reply = await answer(fake, command_interaction("verify", [{"type": 4, "name": "record", "value": record}]))
    assert reply["data"]["flags"] & EPHEMERAL
    assert reply["data"]["embeds"][0]["title"] == f"Record #{record} verified"


async def test_history_lists_the_servers_combats(bot: RefereeBot, fake: FakeDiscord) -> None:
    await stored(bot, 3)
    reply = await answer(fake, command_interaction("history", [{"type": 3, "name": "game", "value": "duel"}]))
    text = reply["data"]["embeds"][0]["description"]
    assert text.index("`#3`") < text.index("`#1`")


async def test_void_by_the_requester_or_a_manager_only(bot: RefereeBot, fake: FakeDiscord) -> None:
    (record,) = await stored(bot)
    options = [{"type": 4, "name": "record", "value": record}, {"type": 3, "name": "reason", "value": "wrong unit"}]
    refused = await answer(fake, command_interaction("void", options, user_id=OPPONENT_ID, permissions="0"))
    assert refused["data"]["flags"] & EPHEMERAL
    assert not (await bot.store.records.get(record, actor=OPERATOR)).voided
    accepted = await answer(fake, command_interaction("void", options))
    assert accepted["data"]["embeds"][0]["title"] == f"Record #{record} is void"
    assert (await bot.store.records.get(record, actor=OPERATOR)).voided
    replay = await answer(fake, command_interaction("replay", [{"type": 4, "name": "record", "value": record}]))
    assert "**VOID**" in replay["data"]["embeds"][0]["description"]


async def test_an_unknown_record_is_a_private_error(bot: RefereeBot, fake: FakeDiscord) -> None:
    reply = await answer(fake, command_interaction("replay", [{"type": 4, "name": "record", "value": 99}]))
    assert reply["data"]["flags"] & EPHEMERAL
    assert "no combat record #99" in reply["data"]["embeds"][0]["description"]


def note(record: int, text: str) -> list[dict]:  # type: ignore[type-arg]
    return [{"type": 4, "name": "record", "value": record}, {"type": 3, "name": "text", "value": text}]


async def test_a_note_joins_the_record_and_shows_on_replay(bot: RefereeBot, fake: FakeDiscord) -> None:
    (record,) = await stored(bot)
    added = await answer(fake, command_interaction("note", note(record, "Re-rolled on the table by agreement")))
    assert not added["data"].get("flags", 0) & EPHEMERAL  # a public combat's note is the table's
    assert added["data"]["embeds"][0]["title"] == f"Note added to record #{record}"
    assert "referee" not in added["data"]["embeds"][0]["footer"]["text"]  # Discord's words: /replay
    history = (await bot.store.records.get(record, actor=OPERATOR)).history
    assert [(n.kind, n.actor, n.reason) for n in history] == [("note", str(PLAYER_ID), "Re-rolled on the table by "
                                                                "agreement")]  # fmt: skip
    replay = await answer(fake, command_interaction("replay", [{"type": 4, "name": "record", "value": record}]))
    assert f"Note by <@{PLAYER_ID}>" in replay["data"]["embeds"][0]["description"]
    assert "Re-rolled on the table by agreement" in replay["data"]["embeds"][0]["description"]


async def test_a_note_on_a_record_one_may_not_see_is_not_found(bot: RefereeBot, fake: FakeDiscord) -> None:
    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=1)
    private = await bot.store.records.add(report, requested_by=str(PLAYER_ID), guild_id="900000000000000003",
                                          private=True)  # fmt: skip
    refused = await answer(fake, command_interaction("note", note(private, "seen it"), user_id=OPPONENT_ID))
    assert refused["data"]["flags"] & EPHEMERAL
    assert f"no combat record #{private}" in refused["data"]["embeds"][0]["description"]
    assert (await bot.store.records.get(private, actor=OPERATOR)).history == ()
    mine = await answer(fake, command_interaction("note", note(private, "ours")))
    assert mine["data"]["flags"] & EPHEMERAL  # a private combat's note is said to its writer alone


async def test_a_note_over_the_limit_is_refused_whole(bot: RefereeBot, fake: FakeDiscord) -> None:
    (record,) = await stored(bot)
    refused = await answer(fake, command_interaction("note", note(record, "n" * (MAX_NOTE_CHARS + 1))))
    assert refused["data"]["flags"] & EPHEMERAL
    assert f"the limit is {MAX_NOTE_CHARS:,}" in refused["data"]["embeds"][0]["description"]
    assert (await bot.store.records.get(record, actor=OPERATOR)).history == ()
