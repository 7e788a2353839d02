"""Continuing a record: its game says whether its combats go on (``Game.continues``) and what the next round is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.continuing import POSITIONS_HELP, next_round
from bot.data import catalogue
from bot.storage.records import StoredCombat
from rules_core import RefereeError, Report, get_game, resolve


def stored(report: Report) -> StoredCombat:
    return StoredCombat(7, report.game, report, report.to_json(), "1", None, None, None, datetime.now(UTC), ())


def test_a_record_of_a_game_whose_combats_end_says_which_games_go_on() -> None:
    duel = catalogue().game("duel")
    report = resolve(duel, duel.example_attacker, duel.example_defender, seed=1)
    with pytest.raises(RefereeError) as error:
        next_round(stored(report), None)
    assert error.value.message == "Record #7 is a duel combat; only 40K assaults carry on into later rounds."


def test_the_positions_help_is_the_continuing_games_own() -> None:
    assert get_game("40k").positions_help == POSITIONS_HELP
    assert "Ork Boy=6:4 | Nob=1" in POSITIONS_HELP
