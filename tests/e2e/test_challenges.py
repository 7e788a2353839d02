"""Challenges through the real bot and the fake Discord (issue 24), on SQLite and PostgreSQL: a combat command with
``opponent`` and ``agree:True`` posts a challenge (the sides as read, the commitment, the opponent alone pinged);
the opponent accepts, changes their side through the form (inline or their own @roster) or declines; the challenger
cancels or accepts a change; a press on an expired challenge, by a third member, after a restart; the result in
place of the challenge with its reveal, recorded with both acceptances; /verify naming a tampered seed or
commitment."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.access import OPERATOR
from bot.challenges.commitment import matches
from bot.challenges.expiry import sweep_expired
from bot.discord.app import RefereeBot
from bot.discord.challenges import show_expired
from bot.render.embeds import EMBED_TOTAL
from bot.rosters import check_roster
from bot.server_settings.model import SettingRow, house_key
from bot.storage.challenges import StoredChallenge
from bot.storage.db import now
from bot.verification import Verdict, verify
from tests.bot.storage.conftest import migrated_postgresql
from tests.e2e.conftest import long_fight, running_bot, size, within_limits
from tests.e2e.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    OPPONENT_ID,
    OTHER_GUILD_ID,
    PLAYER_ID,
    RESULTS_CHANNEL_ID,
    Call,
    FakeDiscord,
    command_interaction,
    component_interaction,
    modal_submit_interaction,
    user,
)
from tests.waits import eventually

THIRD_ID = 900000000000000077
MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORKS = "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
NEW_ORKS = "8x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"


@pytest.fixture(params=["sqlite", "postgresql"])
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}"
    return await migrated_postgresql()


@pytest.fixture
async def bot(fake: FakeDiscord, url: str) -> AsyncIterator[RefereeBot]:
    async with running_bot(fake, url) as referee:
        yield referee


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def challenge_command(*, opponent: int | None = OPPONENT_ID, agree: bool | None = True, defender: str = ORKS,
                      user_id: int = PLAYER_ID, more: list[dict[str, Any]] | None = None,
                      guild_id: int = GUILD_ID) -> dict[str, Any]:  # fmt: skip
    options = [option("attacker", MARINES), option("defender", defender), option("charge_distance", 4.0, 10),
               *(more or [])]  # fmt: skip
    resolved = None
    if opponent is not None:
        options.append(option("opponent", str(opponent), 6))
        resolved = {"users": {str(opponent): user(opponent, "opponent")}}
    if agree is not None:
        options.append(option("agree", agree, 5))
    return command_interaction("assault", options, subcommand="40k", resolved=resolved, user_id=user_id,
                               guild_id=guild_id)  # fmt: skip


class Posted:
    """A challenge as posted: the callback's message, its id and the stored challenge."""

    def __init__(self, data: dict[str, Any], message_id: str, challenge: StoredChallenge) -> None:
        self.data, self.message_id, self.challenge = data, message_id, challenge

    @property
    def id(self) -> int:
        return self.challenge.id


async def challenge(bot: RefereeBot, fake: FakeDiscord, **given: Any) -> Posted:
    payload = challenge_command(**given)
    (call,) = await fake.ask(payload)
    data = call.payload["data"]
    assert call.payload["type"] == 4 and not (data.get("flags") or 0) & 64, data  # public
    number = int(re.search(r"Challenge #(\d+)", data["embeds"][0]["title"])[1])  # type: ignore[index]
    message_id = fake.responses[payload["token"]]

    async def message_id_stored() -> bool:  # just after the answer goes out
        stored = await bot.store.challenges.get(number)
        return stored is not None and stored.message_id is not None

    await eventually(message_id_stored, "the challenge's message id stored", 10, every=0.025)
    stored = await bot.store.challenges.get(number)
    assert stored is not None
    return Posted(data, message_id, stored)


def button_id(posted: Posted, action: str) -> str:
    """The custom id of the button ``action`` on the message as the presser sees it (``posted.data``), or one at
    the sides' version it was posted with when it shows no such button (a closed challenge)."""
    ids = [c["custom_id"] for row in posted.data.get("components") or [] for c in row["components"]]
    return next((i for i in ids if i.endswith(f":{action}")),
                f"referee:ch:{posted.id}:{posted.challenge.inputs_version}:{action}")  # fmt: skip


def press_payload(posted: Posted, action: str, user_id: int, guild_id: int = GUILD_ID) -> dict[str, Any]:
    return component_interaction(button_id(posted, action), posted.data.get("components", []), user_id=user_id,
                                 message_id=posted.message_id, guild_id=guild_id)  # fmt: skip


async def press(fake: FakeDiscord, posted: Posted, action: str, user_id: int, answers: int | None = None) -> list[Call]:
    """A press and its first ``answers`` calls: every press but Change my side (answered by its form) is deferred
    first (type 6, within Discord's 3 seconds), then answered by an edit or a follow-up (two calls)."""
    calls = await fake.ask(press_payload(posted, action, user_id), answers or (1 if action == "change" else 2))
    if action != "change":
        assert calls[0].payload["type"] == 6, calls[0].payload
    return calls


async def told(fake: FakeDiscord, posted: Posted, action: str, user_id: int) -> Call:
    """The answer to a press that is only answered (the private line after the deferral, or the form)."""
    return (await press(fake, posted, action, user_id))[-1]


def private_text(call: Call) -> str:
    """A private answer's text: a callback (type 4) or a follow-up, flagged ephemeral."""
    body = call.payload.get("data", call.payload) if call.payload.get("type") else call.payload
    assert (body.get("flags") or 0) & 64, body
    embed = body["embeds"][0]
    return str(embed.get("description", ""))


async def status_of(bot: RefereeBot, posted: Posted) -> StoredChallenge:
    stored = await bot.store.challenges.get(posted.id)
    assert stored is not None
    return stored


async def accepted(bot: RefereeBot, fake: FakeDiscord, posted: Posted, user_id: int) -> tuple[list[Call], int]:
    """Accept pressed last: deferred, then the challenge's message edited into the result with its reveal."""
    calls = await press(fake, posted, "accept", user_id, 2)
    assert calls[0].payload["type"] == 6  # deferred: the message is edited in place
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    footer = edit.payload["embeds"][0]["footer"]["text"]
    record_id = int(footer.split("record #")[1].split()[0])
    return calls, record_id


# --- made ------------------------------------------------------------------------------------------------------


async def test_a_challenge_shows_the_sides_as_read_and_pings_the_opponent_alone(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    posted = await challenge(bot, fake)
    data = posted.data
    assert data["content"] == f"<@{OPPONENT_ID}>: you are challenged."
    assert [str(u) for u in data["allowed_mentions"]["users"]] == [str(OPPONENT_ID)]
    assert data["allowed_mentions"]["parse"] == []
    embed = data["embeds"][0]
    within_limits(embed | {"footer": embed["footer"]})
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "Read: 5× Marine" in fields["Attacker"] and "Read: 6× Ork Boy" in fields["Defender"]
    assert posted.challenge.inputs["attacker"] in fields["Attacker"]  # the canonical text, as the engine wrote it
    assert "`charge_distance:4.0`" in fields["Options"]
    assert posted.challenge.commitment in fields["Dice committed in advance"]
    assert f"<t:{int(posted.challenge.expires_at.timestamp())}:R>" in embed["description"]
    assert f"<@{PLAYER_ID}> (attacker) challenges <@{OPPONENT_ID}> (defender)" in embed["description"]
    ids = [c["custom_id"] for row in data["components"] for c in row["components"]]
    assert ids == [f"referee:ch:{posted.id}:1:{action}" for action in ("accept", "change", "decline", "cancel")]
    stored = posted.challenge
    assert stored.status == "open" and stored.message_id == posted.message_id
    assert stored.challenger_id == str(PLAYER_ID) and stored.opponent_id == str(OPPONENT_ID)
    assert stored.guild_id == str(GUILD_ID)
    assert await bot.store.records.history(actor=OPERATOR) == []  # nothing rolled in public, nothing recorded


async def test_refusals_say_why_privately_with_an_example(bot: RefereeBot, fake: FakeDiscord) -> None:
    cases = [
        (challenge_command(opponent=None), "needs the opponent"),
        (challenge_command(opponent=PLAYER_ID), "cannot challenge yourself"),
        (challenge_command(more=[option("private", True, 5)]), "drop private:True"),
        (challenge_command(defender="6x Ork Boy: WS4 S3 T4 Wx"), "Wx"),
    ]
    for payload, words in cases:
        (call,) = await fake.ask(payload)
        data = call.payload["data"]
        assert data["flags"] & 64, data
        shown = json.dumps(data["embeds"][0])
        assert words in shown, shown
        assert "referee " not in shown and "--" not in shown
    # The fake's users are not bots; a bot named as the opponent is refused the same way.
    bot_payload = challenge_command(opponent=THIRD_ID)
    bot_payload["data"]["resolved"]["users"][str(THIRD_ID)]["bot"] = True
    (call,) = await fake.ask(bot_payload)
    assert "cannot challenge a bot" in json.dumps(call.payload["data"]["embeds"][0])
    example = call.payload["data"]["embeds"][0]["fields"][0]["value"]
    assert "/assault 40k attacker:" in example and "agree:True" in example
    assert await bot.store.records.history(actor=OPERATOR) == []
    async with bot.store.engine.begin() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM challenges"))).scalar_one() == 0


async def test_agree_false_or_unset_rolls_at_once(bot: RefereeBot, fake: FakeDiscord) -> None:
    for agree in (False, None):
        payload = challenge_command(agree=agree)
        calls = await fake.ask(payload, 2)
        assert "record #" in calls[1].payload["embeds"][0]["footer"]["text"]
    async with bot.store.engine.begin() as connection:
        assert (await connection.execute(text("SELECT count(*) FROM challenges"))).scalar_one() == 0


# --- accepted ----------------------------------------------------------------------------------------------------


async def test_accepted_as_is_the_result_replaces_the_challenge_with_its_reveal(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    posted = await challenge(bot, fake)
    before = now()
    calls, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    edit = calls[1].payload
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    seed, salt = posted.challenge.seed, posted.challenge.salt
    assert f"seed `{seed}`" in edit["content"] and f"salt `{salt}`" in edit["content"]
    assert posted.challenge.commitment in edit["content"] and f"/verify record:{record_id}" in edit["content"]
    assert stored.report.seed == seed and matches(seed, salt, posted.challenge.commitment)
    assert stored.commitment == posted.challenge.commitment and stored.salt == salt
    assert stored.requested_by == str(PLAYER_ID) and stored.opponent == str(OPPONENT_ID) and not stored.personal
    agreed = json.loads(stored.agreed_json or "{}")
    assert agreed["challenger"] == str(PLAYER_ID) and agreed["opponent"] == str(OPPONENT_ID)
    assert agreed["challenger_ok_at"] and agreed["opponent_ok_at"] and agreed["by"] == "discord"
    assert agreed["challenge_id"] == posted.id and agreed["inputs_version"] == 1
    assert agreed["inputs"] == posted.challenge.inputs and agreed["commitment"] == posted.challenge.commitment
    assert agreed["opponent_ok_at"] >= before.isoformat(timespec="seconds")
    assert stored.report.inputs.attacker == posted.challenge.inputs["attacker"]
    # The result's buttons, as a command's result has them; nobody but the opponent was ever pinged.
    ids = [c["custom_id"] for row in edit["components"] for c in row["components"] if "custom_id" in c]
    assert f"referee:verify:{record_id}" in ids and f"referee:rolls:{record_id}" in ids
    assert all(not c.payload.get("allowed_mentions", {}).get("users") for c in calls)
    verification = verify(stored)
    assert verification.verdict is Verdict.IDENTICAL and posted.challenge.commitment in verification.message
    done = await status_of(bot, posted)
    assert done.status == "resolved" and done.record_id == record_id
    # A second Accept: privately told it was resolved, nothing more recorded.
    again = await told(fake, posted, "accept", OPPONENT_ID)
    assert f"record #{record_id}" in private_text(again)
    assert len(await bot.store.records.history(actor=OPERATOR)) == 1


async def test_the_challenger_pressing_accept_first_is_told_to_wait(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    call = await told(fake, posted, "accept", PLAYER_ID)
    assert "accepted these sides already" in private_text(call) and f"<@{OPPONENT_ID}>" in private_text(call)
    call = await told(fake, posted, "decline", PLAYER_ID)
    assert f"Only <@{OPPONENT_ID}> can decline" in private_text(call)
    call = await told(fake, posted, "change", PLAYER_ID)
    assert f"Only <@{OPPONENT_ID}> changes their side" in private_text(call)
    call = await told(fake, posted, "cancel", OPPONENT_ID)
    assert f"Only <@{PLAYER_ID}> can cancel" in private_text(call)
    assert (await status_of(bot, posted)).status == "open"


# --- changed -----------------------------------------------------------------------------------------------------


async def change_side(fake: FakeDiscord, posted: Posted, side: str, user_id: int = OPPONENT_ID) -> list[Call]:
    """Change my side pressed (the form opens, filled with the side as it stands), then the form sent."""
    opened = await told(fake, posted, "change", user_id)
    assert opened.payload["type"] == 9, opened.payload  # MODAL
    form = opened.payload["data"]
    assert form["custom_id"] == f"referee:chmodal:{posted.id}"
    submit = modal_submit_interaction(form["custom_id"], {"side": side}, user_id=user_id,
                                      message_id=posted.message_id)  # fmt: skip
    calls = await fake.ask(submit, 3)
    assert calls[0].payload["type"] == 6  # deferred, then the message edited and the challenger pinged
    edit = calls[1]
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    posted.data = posted.data | {"embeds": edit.payload["embeds"], "components": edit.payload["components"]}
    return calls[1:]


def form_default(fake: FakeDiscord, posted: Posted) -> str:
    form = fake.modals[f"referee:chmodal:{posted.id}"]
    return str(form["components"][0]["components"][0].get("value", ""))


async def test_changed_inline_by_the_opponent_then_accepted_by_the_challenger(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    posted = await challenge(bot, fake)
    calls = await change_side(fake, posted, NEW_ORKS)
    assert form_default(fake, posted) == posted.challenge.inputs["defender"]  # prefilled with the side as read
    edit, ping = calls[0].payload, calls[1].payload
    embed = edit["embeds"][0]
    assert (
        "changed" in embed["title"]
        and f"<@{PLAYER_ID}>**: **Accept** these sides, or **Cancel**" in (embed["description"])
    )
    defender = next(f["value"] for f in embed["fields"] if f["name"].startswith("Defender"))
    assert "8× Ork Boy, 1× Nob" in defender
    assert ping["content"].startswith(f"<@{PLAYER_ID}>") and not (ping.get("flags") or 0) & 64
    assert [str(u) for u in ping["allowed_mentions"]["users"]] == [str(PLAYER_ID)]
    changed = await status_of(bot, posted)
    assert changed.inputs_version == 2 and changed.accepted_by("opponent") and not changed.accepted_by("challenger")
    # The opponent pressing Accept now: they accepted their own change already.
    call = await told(fake, posted, "accept", OPPONENT_ID)
    assert "accepted these sides already" in private_text(call)
    _, record_id = await accepted(bot, fake, posted, PLAYER_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert stored.report.inputs.defender == changed.inputs["defender"]
    agreed = json.loads(stored.agreed_json or "{}")
    assert agreed["inputs_version"] == 2 and agreed["inputs"]["defender"] == changed.inputs["defender"]
    assert agreed["opponent_ok_at"] <= agreed["challenger_ok_at"]
    assert verify(stored).verdict is Verdict.IDENTICAL


async def test_changed_to_the_opponents_own_roster(bot: RefereeBot, fake: FakeDiscord) -> None:
    """@orks is looked up among the opponent's rosters (the challenger has one of the same name, not used)."""
    await bot.store.rosters.save(str(PLAYER_ID), check_roster("40k", "orks", "3x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"))
    grots = "5x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv6+"
    await bot.store.rosters.save(str(OPPONENT_ID), check_roster("40k", "orks", f"{NEW_ORKS} | {grots}"))
    posted = await challenge(bot, fake)
    await change_side(fake, posted, "@orks")
    changed = await status_of(bot, posted)
    assert changed.inputs["defender"].startswith("8x Ork Boy") and changed.inputs["defender_reference"] == "@orks"
    # Changing again: the form offers the roster's name back.
    await change_side(fake, posted, "@orks/2")
    assert form_default(fake, posted) == "@orks"
    again = await status_of(bot, posted)
    assert again.inputs_version == 3 and again.inputs["defender"].startswith("5x Grot")
    assert "Ork" not in again.inputs["defender"]
    # An unknown roster: refused privately, nothing changed.
    await press(fake, posted, "change", OPPONENT_ID)
    submit = modal_submit_interaction(f"referee:chmodal:{posted.id}", {"side": "@nothing"}, user_id=OPPONENT_ID,
                                      message_id=posted.message_id)  # fmt: skip
    _, refused = await fake.ask(submit, 2)
    assert refused.payload["flags"] & 64 and "nothing" in json.dumps(refused.payload["embeds"][0])
    assert (await status_of(bot, posted)).inputs_version == 3


async def test_a_change_after_the_challengers_acceptance_needs_both_again(bot: RefereeBot, fake: FakeDiscord) -> None:
    """The challenger accepted (by making it); the opponent's change clears that: the result waits for the
    challenger's Accept of the new sides, and another change after it waits again."""
    posted = await challenge(bot, fake)
    assert posted.challenge.accepted_by("challenger")
    await change_side(fake, posted, NEW_ORKS)
    assert not (await status_of(bot, posted)).accepted_by("challenger")
    await change_side(fake, posted, ORKS.replace("6x", "7x"))
    latest = await status_of(bot, posted)
    assert latest.inputs_version == 3 and not latest.accepted_by("challenger")
    assert await bot.store.records.history(actor=OPERATOR) == []
    _, record_id = await accepted(bot, fake, posted, PLAYER_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert stored.report.inputs.defender.startswith("7x Ork Boy")


# --- declined, cancelled, expired, a third member ------------------------------------------------------------------


async def test_declined_by_the_opponent(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    call = await told(fake, posted, "decline", OPPONENT_ID)
    assert call.method == "PATCH" and call.path.endswith("/@original") and call.payload["components"] == []
    assert "declined" in call.payload["embeds"][0]["title"]
    assert (await status_of(bot, posted)).status == "declined"
    late = await told(fake, posted, "accept", OPPONENT_ID)
    assert "declined" in private_text(late)
    assert await bot.store.records.history(actor=OPERATOR) == []


async def test_cancelled_by_the_challenger(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    call = await told(fake, posted, "cancel", PLAYER_ID)
    assert call.method == "PATCH" and "cancelled" in call.payload["embeds"][0]["title"]
    assert (await status_of(bot, posted)).status == "cancelled"
    late = await told(fake, posted, "accept", OPPONENT_ID)
    assert "cancelled" in private_text(late)
    assert await bot.store.records.history(actor=OPERATOR) == []


async def test_an_expired_challenge_pressed_is_refused_and_shown_expired(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("UPDATE challenges SET expires_at = :t WHERE id = :id"),
                                 {"t": now() - timedelta(minutes=1), "id": posted.id})  # fmt: skip
    calls = await press(fake, posted, "accept", OPPONENT_ID, 3)
    assert calls[1].method == "PATCH" and "expired" in calls[1].payload["embeds"][0]["title"]
    assert calls[1].payload["components"] == []
    assert "expired" in private_text(calls[2])
    assert (await status_of(bot, posted)).status == "expired"
    assert await bot.store.records.history(actor=OPERATOR) == []


async def test_a_third_member_is_refused_privately_and_nothing_changes(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    for action in ("accept", "change", "decline", "cancel"):
        call = await told(fake, posted, action, THIRD_ID)
        words = private_text(call)
        assert f"between <@{PLAYER_ID}> and <@{OPPONENT_ID}>" in words, words
    submit = modal_submit_interaction(f"referee:chmodal:{posted.id}", {"side": NEW_ORKS}, user_id=THIRD_ID,
                                      message_id=posted.message_id)  # fmt: skip
    _, call = await fake.ask(submit, 2)
    assert "only they can answer it" in private_text(call)
    after = await status_of(bot, posted)
    assert after.status == "open" and after.inputs_version == 1 and not after.accepted_by("opponent")
    # Another server's member pressing this server's challenge's button finds nothing there.
    _, call = await fake.ask(press_payload(posted, "accept", OPPONENT_ID, guild_id=OTHER_GUILD_ID), 2)
    assert f"no challenge #{posted.id} in this server" in private_text(call)
    assert (await status_of(bot, posted)).status == "open"


# --- a restart, /verify --------------------------------------------------------------------------------------------


async def test_a_restart_between_challenge_and_acceptance(fake: FakeDiscord, url: str) -> None:
    async with running_bot(fake, url) as first:
        posted = await challenge(first, fake)
    async with running_bot(fake, url) as second:
        _, record_id = await accepted(second, fake, posted, OPPONENT_ID)
        stored = await second.store.records.get(record_id, actor=OPERATOR)
        assert stored.report.seed == posted.challenge.seed
        assert verify(stored).verdict is Verdict.IDENTICAL


async def verify_answer(fake: FakeDiscord, record_id: int) -> dict[str, Any]:
    (call,) = await fake.ask(command_interaction("verify", [option("record", record_id, 4)]))
    return call.payload["data"]["embeds"][0]  # type: ignore[no-any-return]


async def test_verify_names_a_tampered_commitment_and_a_tampered_seed(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    good = await verify_answer(fake, record_id)
    assert "verified" in good["title"] and posted.challenge.commitment in good["description"]
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("UPDATE combat_records SET commitment = :c WHERE id = :id"),
                                 {"c": "ab" * 32, "id": record_id})  # fmt: skip
    tampered = await verify_answer(fake, record_id)
    assert "does NOT verify" in tampered["title"]
    assert "the commitment: the record's " + "ab" * 32 in tampered["fields"][0]["value"]
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("UPDATE combat_records SET commitment = :c, seed = seed + 1 WHERE id = :id"),
                                 {"c": posted.challenge.commitment, "id": record_id})  # fmt: skip
    seed = await verify_answer(fake, record_id)
    assert "does NOT verify" in seed["title"] and "the seed: the row's seed" in seed["fields"][0]["value"]


# --- limits, placement, failures, settings, direct messages --------------------------------------------------------


async def test_huge_sides_keep_discords_limits_and_the_long_result_is_placed(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    """50 units a side: the challenge's embed cuts each side with a note (the whole side is stored); accepted, the
    long result's pages go to a thread on the challenge's message and its summary to the results channel."""
    guild = str(GUILD_ID)
    bot.server_settings.replace_guild(guild, [SettingRow("server", guild, guild, "threads", "on"),
                                              SettingRow("server", guild, guild, "results_channel",
                                                         str(RESULTS_CHANNEL_ID))])  # fmt: skip
    attackers, defenders = long_fight()
    payload = challenge_command()
    payload["data"]["options"][0]["options"][0]["value"] = attackers
    payload["data"]["options"][0]["options"][1]["value"] = defenders
    (call,) = await fake.ask(payload)
    embed = call.payload["data"]["embeds"][0]
    within_limits(embed)
    assert size(embed) + len(call.payload["data"]["content"]) <= EMBED_TOTAL
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "… cut here" in fields["Attacker"] and "the whole side is kept and resolved" in fields["Defender"]
    number = int(re.search(r"Challenge #(\d+)", embed["title"])[1])  # type: ignore[index]
    stored = await bot.store.challenges.get(number)
    assert stored is not None and stored.inputs["attacker"].count(" | ") == 49
    posted = Posted(call.payload["data"], fake.responses[payload["token"]], stored)
    calls, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    assert posted.message_id in fake.threads  # the pages and the log in a thread on the challenge's message
    await fake.wait_calls(lambda c: c.method == "POST" and c.path == f"/channels/{RESULTS_CHANNEL_ID}/messages")
    copies = fake.in_channel(RESULTS_CHANNEL_ID)
    assert len(copies) == 1 and f"record #{record_id}" in copies[0]["embeds"][0]["footer"]["text"]
    assert calls[1].payload["content"].startswith(f"**Challenge #{number} accepted")


async def test_a_storage_failure_leaves_the_challenge_open(bot: RefereeBot, fake: FakeDiscord) -> None:
    posted = await challenge(bot, fake)
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("ALTER TABLE combat_records RENAME TO combat_records_away"))
    calls = await press(fake, posted, "accept", OPPONENT_ID, 2)
    said = calls[1].payload
    assert said["flags"] & 64 and "error id" in said["embeds"][0]["description"]
    assert "still open" in said["embeds"][0]["description"]
    assert (await status_of(bot, posted)).status == "open"
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("ALTER TABLE combat_records_away RENAME TO combat_records"))
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    assert (await status_of(bot, posted)).record_id == record_id


async def test_the_servers_setting_makes_challenges_unless_agree_false(bot: RefereeBot, fake: FakeDiscord) -> None:
    """Where the server asks for agreement, naming an opponent is enough; agree:False rolls at once. The expiry is
    the server's challenge_expiry (the settings as /settings stores them)."""
    guild = str(GUILD_ID)
    bot.server_settings.replace_guild(guild, [SettingRow("server", guild, guild, "agree", "on"),
                                              SettingRow("server", guild, guild, "challenge_expiry", 5)])  # fmt: skip
    posted = await challenge(bot, fake, agree=None)
    minutes = (posted.challenge.expires_at - posted.challenge.created_at).total_seconds() / 60
    assert 4.9 < minutes <= 5.0
    calls = await fake.ask(challenge_command(agree=False), 2)
    assert "record #" in calls[1].payload["embeds"][0]["footer"]["text"]
    calls = await fake.ask(challenge_command(opponent=None, agree=None), 2)  # no opponent: a combat as ever
    assert "record #" in calls[1].payload["embeds"][0]["footer"]["text"]


async def test_direct_messages_refuse_a_challenge(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = challenge_command()
    payload.pop("guild_id")
    member = payload.pop("member")
    payload["user"] = member["user"]
    payload["channel_id"] = payload["channel"]["id"] = str(PLAYER_ID + 7)
    payload["channel"] = {"id": str(PLAYER_ID + 7), "type": 1}
    payload["context"] = 1
    payload["authorizing_integration_owners"] = {"1": str(PLAYER_ID)}
    (call,) = await fake.ask(payload)
    data = call.payload["data"]
    assert data["flags"] & 64 and "lives in a server's channel" in data["embeds"][0]["description"]


async def test_house_rules_are_shown_on_the_challenge_and_kept_on_its_record(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    guild = str(GUILD_ID)
    bot.server_settings.replace_guild(guild, [SettingRow("server", guild, guild, house_key("40k", "double_one_passes"),
                                                         True)])  # fmt: skip
    posted = await challenge(bot, fake)
    options = next(f["value"] for f in posted.data["embeds"][0]["fields"] if f["name"] == "Options")
    assert "Given: `charge_distance:4.0`" in options and "House rules: double one passes: on" in options
    assert posted.challenge.inputs["house_rules"] == ["double_one_passes"]
    bot.server_settings.replace_guild(guild, [])  # cleared before the acceptance: the challenge keeps its rules
    _, record_id = await accepted(bot, fake, posted, OPPONENT_ID)
    stored = await bot.store.records.get(record_id, actor=OPERATOR)
    assert stored.house_rules == ("double_one_passes",) and stored.report.inputs.options["double_one_passes"] is True


async def test_the_expiry_sweep_shows_a_challenge_expired(bot: RefereeBot, fake: FakeDiscord) -> None:
    """bot/challenges/expiry.py's sweep with the Discord edit (show_expired): the message shows it expired, without
    its buttons; a press after says so privately."""
    posted = await challenge(bot, fake)
    async with bot.store.engine.begin() as connection:
        await connection.execute(text("UPDATE challenges SET expires_at = :t WHERE id = :id"),
                                 {"t": now() - timedelta(minutes=1), "id": posted.id})  # fmt: skip
    assert await sweep_expired(bot.store, partial(show_expired, bot)) == 1
    (edit,) = [c for c in fake.calls if c.method == "PATCH" and c.path == f"/channels/{CHANNEL_ID}/messages/"
               f"{posted.message_id}"]  # fmt: skip
    assert "expired" in edit.payload["embeds"][0]["title"] and edit.payload["components"] == []
    assert edit.payload["content"] is None
    late = await told(fake, posted, "accept", OPPONENT_ID)
    assert "expired" in private_text(late)


async def test_the_bot_sweeps_expired_challenges_by_itself(fake: FakeDiscord, url: str) -> None:
    """cogs/challenges runs the sweep in the bot (at start, then every 30 s): a challenge that expired while no bot
    ran is shown expired by the next one to start, without anyone pressing; a challenge still in time is left."""
    async with running_bot(fake, url) as first:
        late = await challenge(first, fake)
        on_time = await challenge(first, fake)
        async with first.store.engine.begin() as connection:
            await connection.execute(text("UPDATE challenges SET expires_at = :t WHERE id = :id"),
                                     {"t": now() - timedelta(minutes=1), "id": late.id})  # fmt: skip
    path = f"/channels/{CHANNEL_ID}/messages/{late.message_id}"
    assert not [c for c in fake.calls if c.method == "PATCH" and c.path == path]
    async with running_bot(fake, url) as second:
        (edit,) = await fake.wait_calls(lambda c: c.method == "PATCH" and c.path == path)
        assert "expired" in edit.payload["embeds"][0]["title"] and edit.payload["components"] == []
        assert (await status_of(second, late)).status == "expired"
        assert (await status_of(second, on_time)).status == "open"
        assert not [c for c in fake.calls if c.method == "PATCH" and c.path.endswith(str(on_time.message_id))]
