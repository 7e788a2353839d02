"""Model counts written the common ways, and stat keys in any case: never a different number of models than meant."""

from __future__ import annotations

import pytest

from rules_core import SpecError, all_games, get_game, resolve
from rules_core.errors import LimitError
from rules_core.games.wh40k.spec import format_side, parse_side
from rules_core.spec import parse_side_spec

from .helpers40k import MARINE
from .helpers_duel import GAME

EXAMPLE = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"

COUNT_FORMS = [
    "10x Tactical Marine",
    "10 x Tactical Marine",
    "10X Tactical Marine",
    "10× Tactical Marine",
    "10 × Tactical Marine",
    "10 Tactical Marine",
    "Tactical Marine x10",
    "Tactical Marine X10",
    "Tactical Marine ×10",
    "Tactical Marine × 10",
    "Tactical Marine x 10",
    "Tactical Marine×10",
]


@pytest.mark.parametrize("head", COUNT_FORMS)
def test_every_common_way_of_writing_a_count_reads_ten_models(head: str) -> None:
    (unit,) = parse_side_spec(f"{head}: WS4", example=EXAMPLE).units
    (group,) = unit.groups
    assert (group.count, group.name) == (10, "Tactical Marine")
    side = parse_side(f"{head}: {MARINE}")
    assert side.models == 10
    assert side.units[0].name == "Tactical Marine"


def test_no_count_is_one_model_and_names_may_hold_numbers() -> None:
    for head, name in [
        ("Captain", "Captain"),
        ("2nd Platoon", "2nd Platoon"),
        ("Squad 7", "Squad 7"),
        ("Max", "Max"),
        ("Ork Boy (Big)", "Ork Boy (Big)"),
        ("Xenos", "Xenos"),
    ]:
        (group,) = parse_side_spec(f"{head}: WS4", example=EXAMPLE).units[0].groups
        assert (group.count, group.name) == (1, name), head


def test_a_name_that_begins_with_a_number_is_written_after_an_explicit_count() -> None:
    (group,) = parse_side_spec("1x 88 Gunners: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (1, "88 Gunners")
    (group,) = parse_side_spec("3x 4x4 Truck: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (3, "4x4 Truck")
    # A bare leading number is always the count.
    (group,) = parse_side_spec("88 Gunners: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (88, "Gunners")


@pytest.mark.parametrize(
    ("head", "mentions"),
    [
        ("10x Marine x10", "two counts"),
        ("10 Marine x5", "two counts"),
        ("10x Marine ×10", "two counts"),
        ("Marine x10 Veteran", "count"),
        ("Marine (x10)", "count"),
        ("Marine (10x)", "count"),
        ("10xMarine", "10x Marine"),
        ("x10 Marine", "count"),
        ("10x", "no name"),
        ("10", "no name"),
        ("Marine x0", "at least one"),
    ],
)
def test_counts_that_cannot_be_read_one_way_are_refused_with_an_example(head: str, mentions: str) -> None:
    with pytest.raises(SpecError) as error:
        parse_side_spec(f"{head}: WS4", example=EXAMPLE)
    assert mentions.lower() in str(error.value).lower()
    assert "Example:" in str(error.value)


def test_a_trailing_count_is_bounded_like_a_leading_one() -> None:
    with pytest.raises(LimitError):
        parse_side_spec("Marine x99999999: WS4", example=EXAMPLE)


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_canonical_inputs_of_every_game_keep_the_count_written_at_the_end(game: str) -> None:
    chosen = GAME if game == "duel" else get_game(game)
    attacker = chosen.example_attacker
    head, _, rest = attacker.partition(":")
    spec = parse_side_spec(head + ":", example=EXAMPLE).units[0].groups[0]
    moved = f"{spec.name} x{spec.count}:{rest}"
    report = resolve(chosen, moved, chosen.example_defender, seed=3, **dict(chosen.example_options))
    original = resolve(chosen, attacker, chosen.example_defender, seed=3, **dict(chosen.example_options))
    assert report.inputs.attacker == original.inputs.attacker


def test_canonical_text_of_a_name_beginning_with_a_number_round_trips() -> None:
    side = parse_side(f"1x 88 Gunners: {MARINE} | 2nd Squad x5: {MARINE}")
    assert [unit.models for unit in side.units] == [1, 5]
    assert parse_side(format_side(side)) == side


def test_the_summary_of_a_side_says_the_counts_as_read() -> None:
    from rules_core.spec import side_summary

    text = f"9 Tactical Marine: {MARINE} ; Sergeant: {MARINE} | Warlock x1: {MARINE}"
    assert side_summary(text) == "9 Tactical Marine, 1 Sergeant | 1 Warlock"
