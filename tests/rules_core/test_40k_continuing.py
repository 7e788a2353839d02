"""A 40K combat that goes on hands its survivors to the next round as canonical specs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules_core import SpecError, resolve
from rules_core.games.wh40k.positions import apply_positions
from rules_core.games.wh40k.spec import parse_side
from rules_core.report import Report
from tests.rules_core.checks import events
from tests.rules_core.helpers40k import run

MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
ORKS = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W3 I3 A3 Ld7 Sv6+"
WARBOSS = "1x Warboss: WS5 S5 T5 W3 I4 A4 Ld9 Sv4+"


def continuing(attacker: str, defender: str, seeds: int) -> Iterator[tuple[Report, Any]]:
    """(report, its 'continues' event) for each of the first ``seeds`` seeds whose charge leads to a next round."""
    for seed in range(seeds):
        report = resolve("40k", attacker, defender, seed=seed, charge_distance=3)
        going_on = events(report, "continues")
        if going_on:
            yield report, going_on[0]


def test_when_everyone_fought_in_base_contact_every_survivor_stays_there() -> None:
    checked = 0
    for report, going_on in continuing(MARINES, ORKS, 60):
        checked += 1
        for side, result in (("attacker", report.result.attacker), ("defender", report.result.defender)):
            survivors = parse_side(str(going_on.get(f"{side}_survivors")))
            assert survivors.models == result.remaining  # one unit a side here: all of it fights on
            for group in (g for unit in survivors.units for g in unit.groups):
                assert group.engaged == group.count and group.supporting == 0
    assert checked >= 10


def test_a_wounded_model_carries_the_wounds_it_has_left_into_the_next_round() -> None:
    wounded = 0
    for report, going_on in continuing("5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", WARBOSS, 80):
        (warboss,) = [g for u in parse_side(str(going_on.get("defender_survivors"))).units for g in u.groups]
        assert warboss.profile.w == 3 - report.result.attacker.extra["wounds_inflicted"]
        wounded += warboss.profile.w < 3
        attacker, defender = (str(going_on.get(f"{side}_survivors")) for side in ("attacker", "defender"))
        next_round = resolve("40k", attacker, defender, seed=1, round=2)
        # The survivors are canonical specs: the next round takes them exactly as written, without a charge.
        assert (next_round.inputs.attacker, next_round.inputs.defender) == (attacker, defender)
        assert events(next_round, "no_charge") == [] and next_round.inputs.options["round"] == 2
    assert wounded >= 3


SPREAD_ORKS = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ engaged=3 supporting=4"
CAPTAIN = "1x Captain: WS6 S4 T4 W3 I5 A3 Ld10 Sv3+ Inv4+"


def test_the_next_round_keeps_this_rounds_positions_capped_by_the_survivors() -> None:
    """28 Orks do not all pile onto one Captain: the next round keeps engaged/supporting, capped by the living."""
    checked = 0
    for report, going_on in continuing(SPREAD_ORKS, CAPTAIN, 40):
        checked += 1
        alive = report.result.attacker.remaining
        (orks,) = parse_side(str(going_on.get("attacker_survivors"))).units
        engaged = sum(g.engaged for g in orks.groups)
        supporting = sum(g.supporting for g in orks.groups)
        assert orks.models == alive
        assert engaged == min(3, alive) and supporting == min(4, alive - engaged)
        assert "3 in base contact" in str(going_on.get("note"))
    assert checked >= 5


def test_models_out_of_reach_pile_in_to_replace_the_casualties() -> None:
    # Round 2 (no charge): 1 Marine engaged, 2 supporting, 2 out of reach. Nobody hits the Nob; the Nob's 2
    # unsaved wounds kill the 2 supporting Marines (they die first, decision 10); the Marines hold (double 1).
    # Next round: 3 left, and the counts are kept: 1 in base contact, 2 within 2" (the pile-in), not 3 engaged.
    report = run(
        "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ engaged=1 supporting=2",
        "1x Nob: WS4 S4 T4 W3 I3 A3 Ld7 Sv6+",
        [1] + [1, 1] + [6, 6, 1] + [6, 6] + [1, 1] + [1, 1],
        round=2,
    )
    (going_on,) = events(report, "continues")
    (marines,) = parse_side(str(going_on.get("attacker_survivors"))).units
    assert [(g.count, g.engaged, g.supporting) for g in marines.groups] == [(3, 1, 2)]


def test_positions_given_for_the_next_round_replace_the_kept_counts() -> None:
    side = parse_side(
        "7x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ engaged=3 supporting=4 ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ | "
        "1x Nob: WS4 S4 T4 W1 I3 A3 Ld7 Sv6+ | 1x Nob: WS4 S4 T4 W1 I3 A3 Ld7 Sv6+"
    )
    placed, given = apply_positions(side, "ork boy=2:5 | Nob #2=1", side_name="attacker")
    boys = placed.units[0]
    # Places are filled from the models that were in base contact (the Nob too: all of it by default), then
    # those within 2", then the rest: nobody steps back.
    assert [(g.name, g.count, g.engaged, g.supporting) for g in boys.groups] == [
        ("Ork Boy", 7, 2, 4),
        ("Nob", 1, 0, 1),
    ]
    assert placed.units[1] == side.units[1]
    assert given == ['Ork Boy: 2 in base contact, 5 within 2", 1 out of reach', "Nob #2: 1 in base contact"]
    # By number too; an empty text changes nothing.
    assert apply_positions(side, "1=8", side_name="attacker")[0].units[0].groups[1].engaged == 1
    assert apply_positions(side, "  ", side_name="attacker") == (side, [])


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Ork Boyz=3:2", "'Ork Boyz' is not one of the attacker's units still fighting: 'Ork Boy', 'Nob #1'"),
        ("Ork Boy=6:4", 'Ork Boy has 8 models left, but 6 in base contact and 4 within 2" make 10'),
        ("Ork Boy=0:4", "at least one model in base contact"),
        ("Ork Boy 3:2", "name=engaged:supporting"),
        ("Ork Boy=three", "two whole numbers"),
        ("Ork Boy=3 | ork boy=2", "given positions twice"),
    ],
)
def test_impossible_positions_are_refused_with_an_example(text: str, fragment: str) -> None:
    side = parse_side(
        "7x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ | "
        "1x Nob: WS4 S4 T4 W1 I3 A3 Ld7 Sv6+ | 1x Nob: WS4 S4 T4 W1 I3 A3 Ld7 Sv6+"
    )
    with pytest.raises(SpecError) as raised:
        apply_positions(side, text, side_name="attacker")
    assert fragment in raised.value.message
    # The example fits the unit named when there is one (8 models: 4 and 4), else the first unit.
    assert raised.value.example in (
        'Ork Boy=3:2 (3 in base contact, 2 within 2" of them)',
        'Ork Boy=4:4 (4 in base contact, 4 within 2" of them)',
    )
