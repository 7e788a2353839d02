"""A 40K combat that goes on hands its survivors to the next round as canonical specs."""

from __future__ import annotations

from rules_core import resolve
from rules_core.games.wh40k.spec import parse_side
from tests.rules_core.checks import events

MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
ORKS = "10x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W3 I3 A3 Ld7 Sv6+"
WARBOSS = "1x Warboss: WS5 S5 T5 W3 I4 A4 Ld9 Sv4+"


def test_survivors_are_every_living_model_all_engaged() -> None:
    checked = 0
    for seed in range(60):
        report = resolve("40k", MARINES, ORKS, seed=seed, charge_distance=3)
        going_on = events(report, "continues")
        if not going_on:
            continue
        checked += 1
        for side, result in (("attacker", report.result.attacker), ("defender", report.result.defender)):
            survivors = parse_side(str(going_on[0].get(f"{side}_survivors")))
            assert survivors.models == result.remaining  # one unit a side here: all of it fights on
            for group in (g for unit in survivors.units for g in unit.groups):
                assert group.engaged == group.count and group.supporting == 0
    assert checked >= 10


def test_a_wounded_model_carries_the_wounds_it_has_left_into_the_next_round() -> None:
    wounded = 0
    for seed in range(80):
        report = resolve("40k", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", WARBOSS, seed=seed, charge_distance=3)
        going_on = events(report, "continues")
        if not going_on:
            continue
        (warboss,) = [g for u in parse_side(str(going_on[0].get("defender_survivors"))).units for g in u.groups]
        assert warboss.profile.w == 3 - report.result.attacker.extra["wounds_inflicted"]
        wounded += warboss.profile.w < 3
        attacker, defender = (str(going_on[0].get(f"{side}_survivors")) for side in ("attacker", "defender"))
        next_round = resolve("40k", attacker, defender, seed=1, round=2)
        # The survivors are canonical specs: the next round takes them exactly as written, without a charge.
        assert (next_round.inputs.attacker, next_round.inputs.defender) == (attacker, defender)
        assert events(next_round, "no_charge") == [] and next_round.inputs.options["round"] == 2
    assert wounded >= 3
