"""The report contract: JSON shape, round trip, determinism."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules_core import resolve
from rules_core.report import Report

ATTACKER = (
    "9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ "
    "power-fist dies-last"
)
DEFENDER = (
    "14x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ heavy-ccw two-weapons ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ power-fist"
)


def sample(seed: int = 11) -> Report:
    return resolve("40k", ATTACKER, DEFENDER, seed=seed, charge_distance=4, defender_in_cover=True)


def test_the_json_has_exactly_the_cross_game_shape() -> None:
    data = json.loads(sample().to_json())
    assert list(data) == ["schema_version", "game", "engine_version", "seed", "inputs", "steps", "result"]
    assert data["schema_version"] == 1 and data["game"] == "40k" and data["seed"] == 11
    assert list(data["inputs"]) == ["attacker", "defender", "options"]
    assert data["inputs"]["options"]["charge_distance"] == 4.0
    for step in data["steps"]:
        assert list(step) == ["title", "rolls", "events"]
        for roll in step["rolls"]:
            # What the roll is for, as data (the 40K tags every roll; reports before 0.3.0 have neither key).
            assert list(roll) == ["purpose", "dice", "target", "success", "successes", "rerolls", "combine", "kind",
                                  "side"]  # fmt: skip
            assert roll["side"] in ("attacker", "defender")
            assert roll["target"] is None or set(roll["target"]) == {"op", "value"}
            assert roll["target"] is None or roll["target"]["op"] in (">=", "<=")
            assert all(1 <= face <= 6 for face in roll["dice"])
            if roll["combine"] == "each" and roll["target"] is not None:
                assert len(roll["success"]) == len(roll["dice"])
                assert roll["successes"] == sum(roll["success"])
        for ev in step["events"]:
            assert isinstance(ev["kind"], str)
    result = data["result"]
    assert list(result) == ["outcome", "winner", "attacker", "defender"]
    assert result["winner"] in ("attacker", "defender", "draw", "none")
    for side in ("attacker", "defender"):
        assert list(result[side]) == ["lost", "remaining", "wounds_inflicted", "morale"]
        for entry in result[side]["morale"]:
            assert list(entry) == ["unit", "dice", "target", "passed"]


def test_round_trip_is_exact() -> None:
    for seed in range(30):
        report = sample(seed)
        assert Report.from_dict(report.to_dict()) == report
        assert Report.from_json(report.to_json()) == report
        assert Report.from_json(report.to_json()).to_json() == report.to_json()


def test_same_seed_same_bytes_different_seed_different_dice() -> None:
    assert sample(5).to_json() == sample(5).to_json()
    assert sample(5).to_json() != sample(6).to_json()


def test_the_report_is_immutable() -> None:
    report = sample()
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.seed = 1  # type: ignore[misc]
    assert hash(report.steps[0])  # frozen all the way down


def test_replaying_the_normalised_inputs_gives_the_same_report() -> None:
    report = sample(21)
    options = dict(report.inputs.options)
    again = resolve("40k", report.inputs.attacker, report.inputs.defender, seed=report.seed, **options)
    assert again == report


def test_the_fast_constructors_make_what_the_dataclasses_make() -> None:
    """``event`` and ``new_roll`` set slots directly for speed: their objects equal, hash and freeze as the
    constructors' do, scalars or not."""
    from rules_core.report import Combine, Event, FrozenMap, Op, Reroll, Roll, SideName, Target, event, new_roll

    fields = (
        "to hit (WS4 vs WS4)",
        (1, 4, 6),
        Target(Op.AT_LEAST, 4),
        (False, True, True),
        2,
        (Reroll(0, 1, 3),),
        Combine.EACH,
        "to_hit",
        SideName.ATTACKER,
    )
    fast, slow = new_roll(*fields), Roll(*fields)
    assert fast == slow and hash(fast) == hash(slow) and fast.to_dict() == slow.to_dict()
    plain = event("fighting", side="attacker", unit="Marine", engaged=3, note="Marine fights Ork.")
    nested = event("fighting", units=["Marine", "Scout"], odds={"win": 0.5})
    assert plain == Event("fighting", FrozenMap(side="attacker", unit="Marine", engaged=3, note="Marine fights Ork."))
    assert nested == Event("fighting", FrozenMap(units=["Marine", "Scout"], odds={"win": 0.5}))
    assert nested.get("units") == ("Marine", "Scout") and isinstance(nested.get("odds"), FrozenMap)
    assert hash(plain) == hash(Event("fighting", FrozenMap(dict(plain.fields))))
    for made in (fast, plain):
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.kind = "other"  # type: ignore[misc]
