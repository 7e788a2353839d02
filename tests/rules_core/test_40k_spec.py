"""Parsing 40K specs: every bad input is a RefereeError naming the token with a correct example."""

from __future__ import annotations

import pytest

from rules_core import LimitError, SpecError, UnsupportedError, resolve
from rules_core.errors import RefereeError
from rules_core.games.wh40k.spec import format_side, parse_side
from rules_core.spec import MAX_MODELS_PER_SIDE, MAX_SPEC_CHARS, MAX_UNITS_PER_SIDE

from .helpers40k import MARINE


def test_the_issue_examples_parse() -> None:
    side = parse_side("10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+")
    assert side.models == 10
    side = parse_side(
        "4x Guardian: WS3 S3 T3 W1 I4 A1 Ld8 Sv5+ | 1x Warlock: WS4 S3 T3 W1 I4 A1 Ld8 Sv5+ Inv4+ force-weapon "
        "independent-character"
    )
    assert [unit.name for unit in side.units] == ["Guardian", "Warlock"]
    assert side.units[1].independent_character
    assert side.units[1].groups[0].profile.inv == 4


def test_defaults_engaged_all_supporting_none_vs_first() -> None:
    (unit,) = parse_side(f"10x Marine: {MARINE}").units
    group = unit.groups[0]
    assert (group.engaged, group.supporting, unit.vs) == (10, 0, 1)
    group = parse_side(f"10x Marine: {MARINE} supporting=3").units[0].groups[0]
    assert (group.engaged, group.supporting) == (7, 3)


def test_count_defaults_to_one_and_no_save_is_sv_minus() -> None:
    group = parse_side("Carnifex: WS3 S9 T6 W4 I1 A2 Ld10 Sv-").units[0].groups[0]
    assert group.count == 1
    assert group.profile.sv is None


def test_canonical_form_round_trips() -> None:
    text = (
        "9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades supporting=2 ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 "
        "Ld9 Sv3+ power-fist dies-last | 1x Librarian: WS5 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+ force-weapon poisoned=3+ "
        "independent-character vs=2"
    )
    side = parse_side(text, enemy_units=2)
    assert parse_side(format_side(side), enemy_units=2) == side
    assert format_side(parse_side(format_side(side), enemy_units=2)) == format_side(side)


BAD_SPECS = [
    ("10x Marine WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "colon", SpecError),
    (f"10x Marine: {MARINE} ws4", "ws4", SpecError),
    ("10x Marine: WS4 S4 T4 W1 I4 A1 Ld8", "missing Sv", SpecError),
    ("10x Marine: WS11 S4 T4 W1 I4 A1 Ld8 Sv3+", "WS11", SpecError),
    ("10x Marine: WS4 S4 T0 W1 I4 A1 Ld8 Sv3+", "T0", SpecError),
    ("10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv1+", "Sv1+", SpecError),
    ("10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3", "Sv3", SpecError),
    (f"10x Marine: {MARINE} WS5", "WS twice", SpecError),
    (f"10x Marine: {MARINE} Bs4", "Bs4", SpecError),
    (f"10x Marine: {MARINE} power-sword", "power-sword", SpecError),
    (f"10x Marine: {MARINE} engaged=11", "engaged=11", SpecError),
    (f"10x Marine: {MARINE} engaged=6 supporting=5", "supporting", SpecError),
    (f"10x Marine: {MARINE} engaged=0", "engaged=0", SpecError),
    (f"10x Marine: {MARINE} flank=2", "flank=2", SpecError),
    (f"10x Marine: {MARINE} strike-with=power-fist", "strike-with", SpecError),
    (f"10x Marine: {MARINE} poisoned=7+", "poisoned=7+", SpecError),
    (f"10x Marine: {MARINE} grenades=smoke", "grenades=smoke", SpecError),
    (f"2x Warlock: {MARINE} independent-character", "independent character", SpecError),
    (f"5x Guardian: {MARINE} ; 1x Warlock: {MARINE} independent-character", "own unit", SpecError),
    (f"1x Sergeant: {MARINE} lightning-claw lightning-claws", "lightning", SpecError),
    (f"0x Marine: {MARINE}", "0x", SpecError),
    (f"10x : {MARINE}", "no name", SpecError),
    (f"10x Mar|ine: {MARINE}", "colon", SpecError),
    (f"10x Marine: {MARINE} |", "empty", SpecError),
    (f"10x Marine: {MARINE} ; ", "empty group", SpecError),
    ("", "empty", SpecError),
    ("@my-marines", "roster", SpecError),
    (f"10x Marine: {MARINE} Inv-", "Inv-", SpecError),
    (f"1x Rhino: {MARINE} vehicle", "vehicle", UnsupportedError),
    (f"10x Mar<ine: {MARINE}", "character", SpecError),
    (f"10x Marine: {MARINE} engaged=x", "engaged=x", SpecError),
    (f"10x Marine: {MARINE} =3", "=3", SpecError),
]


@pytest.mark.parametrize(("text", "mentions", "kind"), BAD_SPECS)
def test_bad_specs_name_the_problem_and_show_an_example(text: str, mentions: str, kind: type) -> None:
    with pytest.raises(kind) as error:
        parse_side(text)
    assert isinstance(error.value, RefereeError)
    message = str(error.value)
    assert mentions.lower() in message.lower()
    assert "Example:" in message
    assert "\n" not in message


def test_vehicles_are_answered_with_not_supported_yet() -> None:
    with pytest.raises(UnsupportedError, match="not supported yet"):
        parse_side(f"1x Rhino: {MARINE} vehicle")


def test_unknown_keywords_get_a_suggestion() -> None:
    with pytest.raises(SpecError, match="Did you mean 'power-fist'"):
        parse_side(f"1x Sergeant: {MARINE} power-fists")
    # Stat keys are case-insensitive (ws4 is WS4); a near miss gets the stat it resembles.
    assert parse_side(f"1x Sergeant: {MARINE} ws4".replace("WS4 ", "")) == parse_side(f"1x Sergeant: {MARINE}")
    with pytest.raises(SpecError, match="Did you mean 'WS4'"):
        parse_side(f"1x Sergeant: {MARINE} wz4".replace("WS4 ", ""))


def test_limits_spec_length() -> None:
    text = f"10x Marine: {MARINE} " + " " * MAX_SPEC_CHARS
    with pytest.raises(LimitError, match="characters long"):
        parse_side(text)


def test_limits_models_per_side() -> None:
    parse_side(f"{MAX_MODELS_PER_SIDE}x Marine: {MARINE}")
    with pytest.raises(LimitError, match="201 models"):
        parse_side(f"{MAX_MODELS_PER_SIDE}x Marine: {MARINE} | 1x Sergeant: {MARINE}")
    with pytest.raises(LimitError):
        parse_side(f"99999999x Marine: {MARINE}")


def test_limits_units_per_side() -> None:
    parse_side(" | ".join([f"1x M: {MARINE}"] * MAX_UNITS_PER_SIDE))
    with pytest.raises(LimitError, match="51 units"):
        parse_side(" | ".join([f"1x M: {MARINE}"] * (MAX_UNITS_PER_SIDE + 1)))


def test_limits_name_length() -> None:
    parse_side(f"1x {'N' * 100}: {MARINE}")
    with pytest.raises(LimitError, match="limit is 100"):
        parse_side(f"1x {'N' * 101}: {MARINE}")


def test_the_largest_input_resolves_quickly_and_correctly() -> None:
    big = f"200x Marine: {MARINE} frag-grenades"
    report = resolve("40k", big, big, seed=3, charge_distance=2)
    assert report.result.attacker.remaining + report.result.attacker.lost == 200


def test_options_are_checked_with_examples() -> None:
    from rules_core import OptionError

    with pytest.raises(OptionError, match="Unknown option 'charge_range'"):
        resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, charge_range=3)
    with pytest.raises(OptionError, match="morale_modifier is one of none, per_wound"):
        resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, morale_modifier="harsh")
    with pytest.raises(OptionError, match="round must be 1 to 50"):
        resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, round=0)
    with pytest.raises(OptionError, match="charge_distance is a number"):
        resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, charge_distance="far")
    with pytest.raises(OptionError, match="charge_distance is a number"):
        resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, charge_distance=float("nan"))
    report = resolve("40k", f"1x M: {MARINE}", f"1x M: {MARINE}", seed=1, charge_distance="4.5", round="1")
    assert report.inputs.options["charge_distance"] == 4.5


def test_unknown_games_list_the_known_ones() -> None:
    from rules_core import UnknownGameError

    with pytest.raises(UnknownGameError, match="Known games: 40k"):
        resolve("chess", "a", "b")
