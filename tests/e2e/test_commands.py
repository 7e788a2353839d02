"""Every combat command through the real discord.py stack and the fake Discord: answers, errors, buttons."""

from __future__ import annotations

from typing import Any

from bot.access import OPERATOR
from bot.discord.app import RefereeBot
from tests.e2e.conftest import long_fight, within_limits
from tests.e2e.fake_discord import (
    GUILD_ID,
    OPPONENT_ID,
    Answer,
    FakeDiscord,
    command_interaction,
    component_interaction,
    final_answer,
    user,
)

EPHEMERAL = 64
MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
ORK_MOB = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


def custom_ids(payload: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in payload.get("components", []) for c in row["components"]]


async def run(fake: FakeDiscord, payload: dict[str, Any], answers: int = 1) -> list[Any]:
    return await fake.ask(payload, answers)


async def result(fake: FakeDiscord, payload: dict[str, Any]) -> Answer:
    await fake.interaction(payload)
    return await final_answer(fake, payload["token"])


async def test_each_game_command_answers_with_a_recorded_result(bot: RefereeBot, fake: FakeDiscord) -> None:
    cases = [
        command_interaction(
            "assault",
            [option("attacker", MARINES), option("defender", ORK_MOB), option("charge_distance", 4.0, 10)],
            subcommand="40k",
        ),
        command_interaction(
            "assault",
            [option("attacker", "6x Tactical: CC4+ FF4+ Sv4+ INF"), option("defender", "8x Boyz: CC4+ FF6+ Sv6+ INF")],
            subcommand="epic",
        ),
        command_interaction(
            "assault",
            [option("attacker", "6x Line: CC4 FF3 Sv5+ INF"), option("defender", "6x Spearmen: CC4 FF1 Sv6+ INF")],
            subcommand="reikhammer",
        ),
        command_interaction(
            "closequarters",
            [
                option("attacker", "8x Grenadiers: veteran smg=2 nco"),
                option("defender", "10x Rifles: regular nco"),
                option("reaction_shots", 10, 4),
                option("distance", 9.0, 10),
            ],
        ),
        command_interaction(
            "duel",
            [
                option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"),
                option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-"),
                option("opponent", str(OPPONENT_ID), 6),
            ],
            resolved={"users": {str(OPPONENT_ID): user(OPPONENT_ID, "opponent")}},
        ),
    ]
    for number, payload in enumerate(cases, start=1):
        answer = await result(fake, payload)
        assert not answer.first.get("flags", 0) & EPHEMERAL
        (embed,) = answer.data["embeds"]
        within_limits(embed)
        assert f"record #{number}" in embed["footer"]["text"]
        assert f"referee:verify:{number}" in custom_ids(answer.data)
    stored = await bot.store.records.get(5, actor=OPERATOR)
    assert stored.opponent == str(OPPONENT_ID)
    assert stored.guild_id is not None and stored.requested_by.isdigit()


async def test_a_bad_spec_is_answered_privately_at_once_with_an_example(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction("duel", [option("attacker", "A: WS4 S4"), option("defender", "B: WS3")])
    (callback,) = await run(fake, payload, 1)
    assert callback.payload["type"] == 4  # answered at once
    data = callback.payload["data"]
    assert data["flags"] & EPHEMERAL
    (embed,) = data["embeds"]
    assert "missing" in embed["description"]
    assert embed["fields"][0]["name"] == "Your attacker, the faulty part in ⟦ ⟧"  # the spec back, token marked
    assert embed["fields"][-1]["name"] == "A correct example"


async def test_an_unknown_roster_is_a_private_error(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction(
        "duel", [option("attacker", "@nobody"), option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")]
    )
    (callback,) = await run(fake, payload, 1)
    assert callback.payload["data"]["flags"] & EPHEMERAL
    assert "no duel roster named 'nobody'" in callback.payload["data"]["embeds"][0]["description"]


async def test_private_results_are_ephemeral(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction("duel", [option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"),
                                           option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-"),
                                           option("private", True, 5)])  # fmt: skip
    answer = await result(fake, payload)
    assert answer.first["flags"] & EPHEMERAL  # the message is ephemeral from the start; the edit keeps it so


async def test_a_long_combat_pages_with_buttons_and_attaches_the_log(bot: RefereeBot, fake: FakeDiscord) -> None:
    attackers, defenders = long_fight()  # long enough to page
    payload = command_interaction("assault", [option("attacker", attackers), option("defender", defenders),
                                              option("charge_distance", 3.0, 10)], subcommand="40k")  # fmt: skip
    answer = await result(fake, payload)
    assert answer.files == ["combat-1.md"]
    ids = custom_ids(answer.data)
    assert "referee:page:1:1" in ids
    (embed,) = answer.data["embeds"]
    within_limits(embed)
    assert embed["footer"]["text"].endswith("page 1/" + embed["footer"]["text"].rsplit("/", 1)[1])
    click = component_interaction("referee:page:1:1", answer.data["components"])
    (update,) = await run(fake, click, 1)
    assert update.payload["type"] == 7  # the message is updated in place
    page_two = update.payload["data"]["embeds"][0]
    within_limits(page_two)
    assert "page 2/" in page_two["footer"]["text"]
    assert "referee:page:1:0" in custom_ids(update.payload["data"])


async def test_the_verify_button_re_runs_the_record(bot: RefereeBot, fake: FakeDiscord) -> None:
    payload = command_interaction("duel", [option("attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+"),
                                           option("defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")])  # fmt: skip
    shown = await result(fake, payload)
    (answer,) = await run(fake, component_interaction("referee:verify:1", shown.data["components"]), 1)
    assert answer.payload["data"]["flags"] & EPHEMERAL
    assert answer.payload["data"]["embeds"][0]["title"] == "Record #1 verified"


async def test_assault_continue_fights_the_next_round(bot: RefereeBot, fake: FakeDiscord) -> None:
    from rules_core import resolve

    first = resolve("40k", MARINES, ORK_MOB, seed=0, charge_distance=3)
    record = await bot.store.records.add(first, requested_by="1", guild_id=str(GUILD_ID))  # public, in this server
    payload = command_interaction("assault", [option("record", record, 4)], subcommand="continue")
    answer = await result(fake, payload)
    assert "record #2" in answer.data["embeds"][0]["footer"]["text"]
    assert (await bot.store.records.get(2, actor=OPERATOR)).continues_id == record
    again = command_interaction("assault", [option("record", record, 4)], subcommand="continue")
    (refused,) = await run(fake, again, 1)
    assert "already been continued as #2" in refused.payload["data"]["embeds"][0]["description"]
    assert "continue 2" not in str(refused.payload["data"]["embeds"][0])  # no CLI-shaped example in Discord


async def test_assault_continue_takes_the_positions_the_player_gives(bot: RefereeBot, fake: FakeDiscord) -> None:
    from rules_core import resolve
    from rules_core.games.wh40k.spec import parse_side

    first = resolve("40k", MARINES, ORK_MOB, seed=0, charge_distance=3)
    record = await bot.store.records.add(first, requested_by="1", guild_id=str(GUILD_ID))  # public, in this server
    wrong = command_interaction("assault", [option("record", record, 4), option("attacker_positions", "Marines=3")],
                                subcommand="continue")  # fmt: skip
    (refused,) = await run(fake, wrong, 1)
    description = refused.payload["data"]["embeds"][0]["description"]
    assert "'Marines' is not one of the attacker's units still fighting: 'Marine'" in description
    payload = command_interaction("assault", [option("record", record, 4), option("defender_positions", "Ork Boy=2:3")],
                                  subcommand="continue")  # fmt: skip
    answer = await result(fake, payload)
    assert 'defender: as given, Ork Boy: 2 in base contact, 3 within 2"' in answer.first["content"]
    orks = parse_side((await bot.store.records.get(2, actor=OPERATOR)).report.inputs.defender).units[0]
    assert (sum(g.engaged for g in orks.groups), sum(g.supporting for g in orks.groups)) == (2, 3)
