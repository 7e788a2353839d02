"""The challenge service (bot/challenges/service.py) without a front end: Discord stores a challenge's sides in the
engine's canonical text and resolves it from them, so that text must give the very report the player's own text
gives (a property over every game); the opponent's new side from inline text or their roster; the agreement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.challenges.commitment import commitment, draw_salt, matches
from bot.challenges.service import agreement, changed_defender, inputs_as_read, resolution
from bot.data import catalogue
from bot.rosters import RosterError, check_roster
from bot.storage.challenges import StoredChallenge
from rules_core import RefereeError, all_games, get_game, resolve
from rules_core.dice import MAX_SEED
from tests.rules_core.test_40k_properties import OPTIONS, sides

W40K = get_game("40k")
OTHER_GAMES = [game for game in all_games() if game.id != "40k"]
MOMENT = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


@st.composite
def combats(draw: st.DrawFn) -> tuple[str, str, str, dict[str, Any]]:
    """Valid inputs of any game: generated 40K sides and options, or another game's example with its options."""
    if draw(st.booleans()):
        return W40K.id, draw(sides()), draw(sides()), dict(draw(OPTIONS))
    game = draw(st.sampled_from(OTHER_GAMES))
    return game.id, game.example_attacker, game.example_defender, dict(game.example_options)


def challenge_of(game_id: str, inputs: dict[str, Any], seed: int, **more: Any) -> StoredChallenge:
    salt = draw_salt()
    fields: dict[str, Any] = {
        "id": 7, "game": game_id, "kind": get_game(game_id).command, "inputs": inputs, "inputs_version": 1,
        "seed": seed, "salt": salt, "commitment": commitment(seed, salt), "status": "open", "challenger_id": "11",
        "opponent_id": "22", "guild_id": "1", "channel_id": "2", "message_id": None, "challenger_ok_version": 1,
        "challenger_ok_at": MOMENT, "opponent_ok_version": None, "opponent_ok_at": None,
        "expires_at": MOMENT + timedelta(minutes=15), "record_id": None, "created_at": MOMENT,
    }  # fmt: skip
    return StoredChallenge(**(fields | more))


@settings(max_examples=40, deadline=None)
@given(combat=combats(), seed=st.integers(min_value=0, max_value=MAX_SEED))
def test_the_canonical_inputs_resolve_to_the_players_own_report(
    combat: tuple[str, str, str, dict[str, Any]], seed: int
) -> None:
    """A challenge shown and stored as read resolves, with its committed seed, to byte for byte the report the
    player's own text gives, and its revealed seed hashes to its commitment."""
    game_id, attacker, defender, options = combat
    first = resolve(catalogue().game(game_id), attacker, defender, seed=seed, **options)
    inputs = inputs_as_read(first, options, ())
    again = resolution(game_id, inputs, seed)
    assert again.to_json(indent=None) == first.to_json(indent=None)
    stored = challenge_of(game_id, inputs, seed)
    assert matches(stored.seed, stored.salt, stored.commitment)


async def test_the_opponents_side_inline_or_from_their_roster() -> None:
    first = resolve(catalogue().game(W40K), W40K.example_attacker, W40K.example_defender, seed=5)
    challenge = challenge_of("40k", inputs_as_read(first, {"charge_distance": 4.0}, ["charge_distance"]), 5)
    mine = check_roster("40k", "orks", "7x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ | 2x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+")
    asked: list[tuple[str, str]] = []

    async def lookup(game_id: str, name: str) -> Any:
        asked.append((game_id, name))
        if name != "orks":
            raise RosterError(f"There is no roster '{name}'.", token=name)
        return mine

    inline = await changed_defender(W40K, challenge, "  3x Ork Boy:  WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ", lookup)
    assert inline["defender"].startswith("3x Ork Boy: WS4 S3 T4") and "defender_reference" not in inline
    assert inline["attacker"] == challenge.inputs["attacker"] and inline["options"] == {"charge_distance": 4.0}
    assert inline["house_rules"] == ["charge_distance"]
    unit = await changed_defender(W40K, challenge, "@orks/2", lookup)
    assert unit["defender"].startswith("2x Nob") and unit["defender_reference"] == "@orks/2"
    assert asked == [("40k", "orks")]
    with pytest.raises(RefereeError):
        await changed_defender(W40K, challenge, "@goblins", lookup)
    with pytest.raises(RefereeError) as bad:
        await changed_defender(W40K, challenge, "3x Ork Boy: WS4 S3 T4 Wx", lookup)
    assert bad.value.given is not None and bad.value.given.option == "defender"


def test_the_agreement_names_both_players_and_when_each_accepted() -> None:
    first = resolve(catalogue().game(W40K), W40K.example_attacker, W40K.example_defender, seed=5)
    challenge = challenge_of("40k", inputs_as_read(first, {}, ()), 5, inputs_version=2, challenger_ok_version=None,
                             challenger_ok_at=None, opponent_ok_version=2, opponent_ok_at=MOMENT)  # fmt: skip
    later = MOMENT + timedelta(minutes=3)
    agreed = agreement(challenge, last="challenger", at=later, by="discord")
    assert agreed == {
        "challenge_id": 7, "commitment": challenge.commitment, "inputs": challenge.inputs, "inputs_version": 2,
        "challenger": "11", "challenger_ok_at": later.isoformat(timespec="seconds"), "opponent": "22",
        "opponent_ok_at": MOMENT.isoformat(timespec="seconds"), "by": "discord",
    }  # fmt: skip
