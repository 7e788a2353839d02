"""Issue 34, found by attacking: a challenge's embed keeps every Discord limit in every state, however long its
sides and a next round's positions, and says where the whole text is (the attached file ``challenge_file``)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest

from bot.render.challenges import challenge_embed, challenge_file
from bot.render.embeds import DESCRIPTION, EMBED_TOTAL, FIELD_VALUE, FIELDS
from bot.storage.challenges import StoredChallenge
from bot.storage.db import now
from rules_core.registry import get_game
from rules_core.spec import side_summary
from tests.e2e.conftest import long_fight


def size(embed: dict[str, Any]) -> int:
    total = len(embed.get("title", "")) + len(embed.get("description", "")) + len(embed["footer"]["text"])
    return total + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def made(status: str = "open", **inputs: Any) -> StoredChallenge:
    attackers, defenders = long_fight()
    placed = "; ".join(f'Marine {n}: 4 in base contact, 0 within 2"' for n in range(1, 51)) * 3
    every = {"attacker": attackers, "defender": defenders, "options": {"round": 2, "charge_distance": 3.0},
             "continues": 7, "players": ["1", "2"],
             "positions": f"Positions for round 2: attacker: as given, {placed}"} | inputs  # fmt: skip
    moment = now()
    return StoredChallenge(id=3, game="40k", kind="assault", inputs=every, inputs_version=1, seed=1, salt="s" * 32,
                           commitment="c" * 64, status=status, challenger_id="1", opponent_id="2", guild_id="9",
                           channel_id="9", message_id=None, challenger_ok_version=None, challenger_ok_at=None,
                           opponent_ok_version=None, opponent_ok_at=None, expires_at=moment + timedelta(hours=1),
                           record_id=None, created_at=moment)  # fmt: skip


@pytest.mark.parametrize("status", ["open", "resolved", "declined", "cancelled", "expired"])
def test_a_long_next_round_challenge_keeps_every_limit(status: str) -> None:
    challenge = made(status)
    assert len(challenge.inputs["positions"]) > DESCRIPTION
    embed = challenge_embed(challenge, get_game("40k")).to_dict()
    assert len(embed.get("description", "")) <= DESCRIPTION
    assert size(embed) <= EMBED_TOTAL, size(embed)
    assert len(embed.get("fields", [])) <= FIELDS and all(len(f["value"]) <= FIELD_VALUE for f in embed["fields"])


def test_what_is_cut_is_whole_in_the_attached_file() -> None:
    challenge = made()
    embed = challenge_embed(challenge, get_game("40k")).to_dict()
    assert "attached" in embed["description"]
    attached = challenge_file(challenge)
    assert attached is not None
    name, text = attached
    assert name == "challenge-3.md"
    for part in (challenge.inputs["attacker"], challenge.inputs["defender"], challenge.inputs["positions"]):
        assert part in text


def test_a_short_challenge_has_nothing_attached() -> None:
    short = made(attacker="5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", defender="6x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+",
                 positions="Positions for round 2: last round's.")  # fmt: skip
    assert challenge_file(short) is None
    assert "attached" not in challenge_embed(short, get_game("40k")).to_dict()["description"]


def fields_of(challenge: StoredChallenge) -> dict[str, str]:
    embed = challenge_embed(challenge, get_game("40k")).to_dict()
    return {field["name"].split(" ")[0]: field["value"] for field in embed["fields"]}


def test_a_next_round_names_each_sides_player_whoever_asked() -> None:
    """The defender's player (2) asked: the challenge names the record's attacker (1) as the attacker, in the
    description and in each side's field, so nobody takes the asker for the attacker."""
    asked = made(positions="Positions for round 2: last round's.", players=["1", "2"])
    asked = dataclasses.replace(asked, challenger_id="2", opponent_id="1")
    embed = challenge_embed(asked, get_game("40k")).to_dict()
    assert "<@1> (attacker)" in embed["description"] and "<@2> (defender)" in embed["description"], embed
    fields = fields_of(asked)
    assert "<@1>" in fields["Attacker"] and "<@2>" not in fields["Attacker"], fields["Attacker"]
    assert "<@2>" in fields["Defender"] and "<@1>" not in fields["Defender"], fields["Defender"]


def test_cut_positions_keep_each_sides_opening() -> None:
    units = "; ".join(f'Marine {n}: 4 in base contact, 0 within 2"' for n in range(1, 60))
    orks = "; ".join(f'Ork Mob {n}: 5 in base contact, 1 within 2"' for n in range(1, 60))
    challenge = made(positions=f"Positions for round 2: attacker: as given, {units}; defender: as given, {orks}.")
    description = challenge_embed(challenge, get_game("40k")).to_dict()["description"]
    assert 'attacker: as given, Marine 1: 4 in base contact, 0 within 2"' in description, description
    assert 'defender: as given, Ork Mob 1: 5 in base contact, 1 within 2"' in description, description
    assert "Marine 59" not in description and "Ork Mob 59" not in description
    assert len(description) <= DESCRIPTION


@pytest.mark.parametrize("status", ["replaced", "declined", "cancelled", "expired", "resolved"])
def test_a_closed_challenges_cut_note_follows_its_state(status: str) -> None:
    fields = fields_of(made(status))
    for side in ("Attacker", "Defender"):
        assert "cut here" in fields[side] and "kept and resolved" not in fields[side], fields[side]
        assert ("resolved" in fields[side]) == (status == "resolved"), fields[side]


def test_an_open_challenges_cut_note_says_the_side_is_resolved_whole() -> None:
    fields = fields_of(made("open"))
    assert all("the whole side is kept and resolved" in fields[side] for side in ("Attacker", "Defender"))


def test_cuts_land_between_units_and_say_what_they_count() -> None:
    challenge = made()
    for side in ("attacker", "defender"):
        value = fields_of(challenge)[side.capitalize()]
        read = next(line for line in value.splitlines() if line.startswith("Read: "))
        shown = read.removeprefix("Read: ").replace("\\|", "|").split(" | ")
        assert shown[-1].startswith("… (+") and shown[-1].endswith(" more units)"), read
        every = side_summary(challenge.inputs[side]).split(" | ")
        assert shown[:-1] == every[: len(shown) - 1], read  # whole units only, none cut in a word
        profile = value.split("```\n", 1)[1].split("\n```", 1)[0]
        whole = challenge.inputs[side].split(" | ")
        kept = profile.removesuffix(" | …").split(" | ")
        assert profile.endswith(" | …") and kept == whole[: len(kept)], profile[-80:]
        assert f"{len(kept)} of {len(whole)} units shown" in value, value[-200:]
