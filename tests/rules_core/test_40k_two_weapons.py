"""40K models with two special weapons (decision 11): the model strikes with one of them, the other counting only
as an additional close combat weapon; by default the one with the better expected result against its target,
``strike-with=`` chooses; rending and poisoned are weapons of their own unless ``weapon_traits=traits``."""

from __future__ import annotations

import pytest

from rules_core import SpecError

from .helpers40k import MARINE, events, rolls, run, strike_titles

WRAITHS = "3x Wraith: WS4 S4 T6 W3 I1 A0 Ld5 Sv3+"
MARINES = "5x Marine: WS4 S4 T4 W1 I4 A0 Ld8 Sv3+"
LIBRARIAN = "1x Librarian: WS5 S4 T4 W2 I5 A1 Ld10 Sv3+ force-weapon lightning-claw"


def choices(report: object) -> list[str]:
    return [str(e.get("note")) for e in events(report, "policy") if e.get("choice") == "strike_with"]  # type: ignore[arg-type]


def test_a_force_weapon_and_a_lightning_claw_strike_as_one_weapon_the_claw_by_default() -> None:
    # The claw re-rolls the failed wound (1 -> 6): no psychic test follows, as the claw is not the force weapon.
    report = run(LIBRARIAN, WRAITHS, [3, 1, 6, 1, 1], round=2)
    assert not rolls(report, "psychic test")
    (note,) = choices(report)
    assert "strikes with the lightning claw" in note and "force weapon" in note and "better expected" in note


def test_strike_with_the_force_weapon_uses_its_test_and_no_claw_reroll() -> None:
    report = run(LIBRARIAN + " strike-with=force-weapon", WRAITHS, [3, 6, 3, 4, 1, 1], round=2)
    (wound,) = rolls(report, "to wound")
    assert not wound.rerolls
    assert len(rolls(report, "psychic test")) == 1 and events(report, "slain_outright")


def test_a_power_fist_and_a_rending_weapon_strike_with_the_fist_and_one_extra_attack() -> None:
    # The fist (S8, no armour save) with the rending weapon as an additional close combat weapon: 2 attacks, and a
    # 6 to hit is only a hit (it wounds on the roll of 2).
    report = run("1x Nob: WS4 S4 T4 W1 I3 A1 Ld7 Sv6+ power-fist rending", MARINES, [6, 1, 2, 1, 1], round=2)
    assert [len(roll.dice) for roll in rolls(report, "to hit")] == [2]
    assert not events(report, "rending")
    assert rolls(report, "to wound")[0].purpose == "to wound (S8 vs T4)"


def test_weapon_traits_makes_rending_a_trait_of_the_fist() -> None:
    report = run(
        "1x Nob: WS4 S4 T4 W1 I3 A1 Ld7 Sv6+ power-fist rending", MARINES, [6, 1, 1], round=2, weapon_traits="traits"
    )
    assert [len(roll.dice) for roll in rolls(report, "to hit")] == [1]
    assert events(report, "rending")


def test_on_equal_expected_results_the_weapon_striking_earlier_is_chosen() -> None:
    # S5 against T3: the fist (S10) and the power weapon (S5) both wound on 2+ and ignore armour: the power weapon
    # strikes at Initiative 4, the fist only at Initiative 1.
    attacker = "1x Chaplain: WS4 S5 T4 W1 I4 A1 Ld8 Sv3+ power-fist power-weapon"
    report = run(attacker, "1x Target: WS4 S3 T3 W1 I1 A0 Ld8 Sv3+", [1, 1], round=2)
    assert strike_titles(report)[0].startswith("Initiative 4")
    (note,) = choices(report)
    assert "strikes with the power weapon" in note


def test_a_heavy_weapon_with_a_power_weapon_is_a_second_weapon() -> None:
    report = run(f"1x Champion: {MARINE} power-weapon heavy-ccw", MARINES, [1, 1], round=2)
    assert [len(roll.dice) for roll in rolls(report, "to hit")] == [2]


# ---------------------------------------------------------------- a psyker that already used a psychic power


def test_a_psyker_that_used_a_power_this_turn_strikes_with_its_force_weapon_as_a_power_weapon() -> None:
    librarian = "1x Librarian: WS5 S4 T4 W2 I5 A2 Ld10 Sv3+ force-weapon used-psychic-power"
    report = run(librarian, WRAITHS, [3, 3, 6, 1, 1, 1], round=2)
    assert not rolls(report, "psychic test") and not rolls(report, "armour save")
    assert any("already used a psychic power" in str(e.get("note")) for e in events(report, "policy"))


def test_used_psychic_power_without_a_force_weapon_is_refused_with_an_example() -> None:
    with pytest.raises(SpecError, match="force-weapon") as refused:
        run("1x Librarian: WS5 S4 T4 W2 I5 A2 Ld10 Sv3+ power-weapon used-psychic-power", WRAITHS, [], round=2)
    assert refused.value.token == "used-psychic-power"
    assert "force-weapon used-psychic-power" in str(refused.value)


def fighting(report: object) -> str:
    return " ".join(str(e.get("note")) for e in events(report, "fighting") + events(report, "policy"))  # type: ignore[arg-type]


def test_a_lightning_claw_beside_the_weapon_struck_with_gives_no_attack_and_the_report_says_why() -> None:
    """Seen failing before the fix: 'A1 with force-weapon', no +1 for the claw and no word why."""
    report = run(LIBRARIAN + " strike-with=force-weapon", MARINES, [1], round=2)
    note = fighting(report)
    assert "no extra attack for the lightning claw" in note
    assert "for a model with a Lightning Claw is another Lightning Claw" in note


def test_lone_claw_bonus_as_additional_counts_the_claw_as_the_additional_weapon() -> None:
    """Seen failing before the fix (no such option): the claw, as the additional weapon, gives the force-weapon
    strike +1 attack (the other reading of the lightning claw's sentence)."""
    report = run(LIBRARIAN + " strike-with=force-weapon", MARINES, [1, 1], round=2, lone_claw_bonus="as_additional")
    (hit,) = rolls(report, "to hit")
    assert len(hit.dice) == 2
    assert "+1 two weapons" in fighting(report)
    # Striking with the claw itself, only another claw would give the bonus.
    report = run(LIBRARIAN + " strike-with=lightning-claw", MARINES, [1], round=2, lone_claw_bonus="as_additional")
    assert len(rolls(report, "to hit")[0].dice) == 1
