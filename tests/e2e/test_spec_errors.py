"""A player's typo through the real discord.py stack and the fake Discord (issue 20): the private error shows the
player's own spec back with the faulty token between ⟦ ⟧ and, where the fix is certain, the spec corrected, to
copy (which then resolves); a roster name one letter off gets "did you mean"; and typos do not use up the
six-per-30-seconds allowance."""

from __future__ import annotations

from typing import Any

from bot.discord.app import RefereeBot
from tests.e2e.fake_discord import FakeDiscord, command_interaction, final_answer
from tests.e2e.test_commands import MARINES, ORK_MOB, option
from tests.e2e.test_errors import error_text
from tests.e2e.test_leagues import answer

EPHEMERAL = 64
TYPO = "5x Marine: WS 4 S4 T4 W1 I4 A1 Ld8 Sv3 ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
FIXED = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"


def assault(attacker: str, defender: str) -> dict[str, Any]:
    return command_interaction("assault", [option("attacker", attacker), option("defender", defender)],
                               subcommand="40k")  # fmt: skip


def fields(data: dict[str, Any]) -> dict[str, str]:
    return {field["name"]: field["value"] for field in data["embeds"][0].get("fields", [])}


async def result_of(fake: FakeDiscord, payload: dict[str, Any]) -> dict[str, Any]:
    """The public result a combat command got (its final message), asserting it was answered with one."""
    await fake.interaction(payload)
    final = await final_answer(fake, payload["token"])
    first = final.calls[0].payload
    assert first["type"] == 4 and not first["data"].get("flags", 0) & EPHEMERAL, first
    data: dict[str, Any] = final.data
    return data


async def test_a_typo_is_shown_marked_in_the_players_spec_with_the_corrected_spec_to_copy(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    [shown] = await answer(fake, assault(TYPO, ORK_MOB))
    text = error_text(shown["data"])  # private, and no terminal command nor --flag
    assert text.startswith("Cannot read 'WS 4': write a stat with no space between its key and its value, as WS4.")
    assert fields(shown["data"]) == {
        "Your attacker, the faulty part in ⟦ ⟧": f"```\n{TYPO.replace('WS 4', '⟦WS 4⟧', 1)}\n```",
        # Both slips fixed (the space in WS 4, then the save's missing '+'), found by parsing again after each.
        "Corrected attacker, to copy": f"```\n{FIXED}\n```",
    }
    # Copied as it is, the corrected spec resolves.
    resolved = await result_of(fake, assault(FIXED, ORK_MOB))
    assert "record #1" in resolved["embeds"][0]["footer"]["text"]


async def test_a_near_miss_keyword_in_the_defender_is_corrected(bot: RefereeBot, fake: FakeDiscord) -> None:
    defender = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ chopa"
    payload = command_interaction("duel", [option("attacker", "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainswrod"),
                                           option("defender", defender)])  # fmt: skip
    [shown] = await answer(fake, payload)
    error_text(shown["data"])
    found = fields(shown["data"])
    assert (
        found["Your attacker, the faulty part in ⟦ ⟧"]
        == "```\nMarine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ ⟦chainswrod⟧\n```"
    )
    assert found["Corrected attacker, to copy"] == "```\nMarine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword\n```"


async def test_with_no_certain_fix_the_spec_is_marked_and_the_games_example_shown(
    bot: RefereeBot, fake: FakeDiscord
) -> None:
    [shown] = await answer(fake, assault(MARINES + " power-sword", ORK_MOB))  # power-weapon? a guess, not a fix
    text = error_text(shown["data"])
    assert "Did you mean 'power-weapon'?" in text and "See '/help game:40k'." in text
    found = fields(shown["data"])
    assert found["Your attacker, the faulty part in ⟦ ⟧"].endswith("Sv3+ ⟦power-sword⟧\n```")
    assert found["A correct example"] == "```\n10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+\n```"


async def test_a_roster_name_one_letter_off_gets_did_you_mean(bot: RefereeBot, fake: FakeDiscord) -> None:
    [saved] = await answer(fake, command_interaction(
        "roster", [option("name", "marines"), option("game", "40k"), option("spec", MARINES)], subcommand="save"
    ))  # fmt: skip
    assert "@marines" in saved["data"]["content"]
    [shown] = await answer(fake, assault("@marine", ORK_MOB))
    assert error_text(shown["data"]).startswith(
        "There is no 40k roster named 'marine'. Did you mean @marines? '/roster list game:40k' shows yours."
    )
    [deleting] = await answer(fake, command_interaction(
        "roster", [option("name", "marine"), option("game", "40k")], subcommand="delete"
    ))  # fmt: skip
    assert error_text(deleting["data"]).startswith("You have no 40k roster named 'marine'. Did you mean @marines?")


async def test_six_typos_do_not_use_up_the_allowance(bot: RefereeBot, fake: FakeDiscord) -> None:
    for _ in range(6):
        [refused] = await answer(fake, assault(TYPO, ORK_MOB))
        assert refused["data"]["embeds"][0]["title"] == "That did not work"
    # The seventh attempt, correct, is answered with its result (was: "Slow down: try again in 30 seconds").
    resolved = await result_of(fake, assault(FIXED, ORK_MOB))
    assert "record #1" in resolved["embeds"][0]["footer"]["text"]
    for _ in range(5):
        await result_of(fake, assault(FIXED, ORK_MOB))
    [slow] = await answer(fake, assault(FIXED, ORK_MOB))  # six results: the limit holds for combats that resolved
    assert "Slow down" in slow["data"]["embeds"][0]["description"]


async def test_a_roster_saved_with_a_typo_is_shown_marked_and_corrected(bot: RefereeBot, fake: FakeDiscord) -> None:
    spec = MARINES + " | 1x Captain: WS5 S4 T4 W2 I5 A3 Ld10 Sv3+ independant-character"
    [shown] = await answer(fake, command_interaction(
        "roster", [option("name", "marines"), option("game", "40k"), option("spec", spec)], subcommand="save"
    ))  # fmt: skip
    assert error_text(shown["data"]).startswith("Unit 2 of the roster: Unknown keyword 'independant-character'")
    found = fields(shown["data"])
    assert found["Your spec, the faulty part in ⟦ ⟧"].endswith("Sv3+ ⟦independant-character⟧\n```")
    corrected = spec.replace("independant", "independent")
    assert found["Corrected spec, to copy"] == f"```\n{corrected}\n```"
    [saved] = await answer(fake, command_interaction(
        "roster", [option("name", "marines"), option("game", "40k"), option("spec", corrected)], subcommand="save"
    ))  # fmt: skip
    assert "@marines" in saved["data"]["content"]
