"""The Python API raises the project's errors for any argument of the wrong type or range: a message naming the
argument (short, however large the value) and a correct example, never Python's own OverflowError or
AttributeError."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from rules_core import (
    DiceError,
    OptionError,
    RefereeError,
    ScriptedDice,
    SpecError,
    UnknownGameError,
    get_game,
    rerun,
    resolve,
)
from rules_core.errors import shown

MARINE = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORK = "5x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def refused(error_type: type[RefereeError], *args: Any, **kwargs: Any) -> RefereeError:
    with pytest.raises(error_type) as caught:
        resolve(*args, **kwargs)
    error = caught.value
    assert len(str(error)) < 600, str(error)
    assert "\n" not in str(error)
    return error


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("charge_distance", 10**400, "must be 0 to 100, not a number of about 401 digits"),
        ("charge_distance", -(10**5000), "must be 0 to 100, not a negative number of about 5001 digits"),
        ("charge_distance", float("nan"), "is a number (0 to 100), not nan"),
        ("charge_distance", math.inf, "must be 0 to 100, not inf"),
        ("charge_distance", "1e400", "must be 0 to 100, not '1e400'"),
        ("charge_distance", True, "is a number (0 to 100), not True"),
        ("charge_distance", -1, "must be 0 to 100, not -1"),
        ("charge_distance", [4], "is a number (0 to 100), not [4]"),
        ("charge_distance", b"4", "is a number (0 to 100), not b'4'"),
        ("round", False, "is a number (1 to 50), not False"),
        ("round", 2.5, "is a whole number, not 2.5"),
        ("round", 10**30, "must be 1 to 50, not 1000000000000000000000000000000"),
        ("round", 2.0**80, "must be 1 to 50, not 1.2089258196146292e+24"),
        ("round", 0, "must be 1 to 50, not 0"),
        ("cover_power_fists", 5, "is one of cover, initiative_1, not 5"),
        ("cover_power_fists", ["cover"], "is one of cover, initiative_1, not ['cover']"),
        ("difficult_terrain", 1, "is on or off (true/false), not 1"),
        ("difficult_terrain", None, "needs a value (on or off)"),
    ],
    ids=shown,
)
def test_an_option_of_the_wrong_type_or_range_is_an_option_error(name: str, value: object, said: str) -> None:
    error = refused(OptionError, "40k", MARINE, ORK, seed=1, **{name: value})
    assert error.token == name
    assert said in str(error), str(error)
    assert error.example is not None  # a correct value to copy


def test_a_long_value_is_quoted_short() -> None:
    error = refused(OptionError, "40k", MARINE, ORK, seed=1, cover_power_fists="x" * 10_000)
    assert "'xxxx" in str(error) and "…" in str(error)
    assert shown(10**5000) == "a number of about 5001 digits"  # str() would refuse to write it


def test_numbers_of_other_types_are_read_as_numbers() -> None:
    assert resolve("40k", MARINE, ORK, seed=1, charge_distance=Fraction(9, 2)).inputs.options["charge_distance"] == 4.5
    assert resolve("40k", MARINE, ORK, seed=1, round=3.0).inputs.options["round"] == 3


@pytest.mark.parametrize("side", [5, None, 1.5, b"5x Marine: WS4", ["5x Marine: WS4"], {"a": 1}, object()])
def test_a_side_that_is_not_text_is_a_spec_error(side: object) -> None:
    for game in ("40k", "epic", "reikhammer", "boltaction"):  # the duel's examples need its weapon table
        chosen = get_game(game)
        error = refused(SpecError, chosen, side, chosen.example_defender, seed=1)
        assert "The attacker is spec text" in str(error) and error.example == chosen.example_attacker
        error = refused(SpecError, chosen, chosen.example_attacker, side, seed=1)
        assert "The defender is spec text" in str(error)


def test_a_side_another_game_parsed_is_refused_and_its_own_is_taken() -> None:
    epic = get_game("epic").parse_side(get_game("epic").example_attacker)
    error = refused(SpecError, "40k", epic, ORK, seed=1)
    assert "not Formation(" in str(error)
    marines = get_game("40k").parse_side(MARINE)
    assert resolve("40k", marines, ORK, seed=3) == resolve("40k", MARINE, ORK, seed=3)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, 10**400, 2**53, [1]], ids=shown)
def test_a_wrong_seed_is_a_dice_error(seed: object) -> None:
    error = refused(DiceError, "40k", MARINE, ORK, seed=seed)
    assert error.token == "seed" and "The seed must be a whole number from 0 to" in str(error)


@pytest.mark.parametrize("rng", [5, "dice", [1, 2, 3], object()])
def test_a_wrong_dice_source_is_a_dice_error(rng: object) -> None:
    error = refused(DiceError, "40k", MARINE, ORK, rng=rng)
    assert error.token == "rng" and "is a DiceSource such as SeededDice(12345)" in str(error)
    assert "seed=12345" in str(error)


def test_a_seed_and_a_dice_source_together_are_refused() -> None:
    refused(DiceError, "40k", MARINE, ORK, seed=1, rng=ScriptedDice([1]))


@pytest.mark.parametrize("game", [5, None, b"40k", ["40k"]])
def test_a_game_that_is_not_a_name_is_an_unknown_game(game: object) -> None:
    error = refused(UnknownGameError, game, MARINE, ORK, seed=1)
    assert "A game is named by text" in str(error) and error.example == "40k"


def test_rerun_gives_the_identical_report() -> None:
    report = resolve("epic", get_game("epic").example_attacker, get_game("epic").example_defender, seed=5,
                     defender_blast_markers=2)  # fmt: skip
    assert rerun(report) == report
