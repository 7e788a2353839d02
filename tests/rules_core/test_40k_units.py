"""40K facts per unit (decision 21): which units charged this turn (a unit joining a combat going on) and which
defending units are in cover; the command-wide options stay every unit's default (scripted dice)."""

from __future__ import annotations

import pytest

from bot.render.summary import headline
from rules_core import IllegalDeclarationError, OptionError, SpecError

from .helpers40k import MARINE, events, rolls, run, strike_titles

ORKS = "2x Ork: WS4 S3 T4 W1 I2 A1 Ld7 Sv6+"
GROTS = "2x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv-"


def attacks(report: object) -> list[int]:
    return [len(roll.dice) for roll in rolls(report, "to hit")]  # type: ignore[arg-type]


def test_a_unit_joining_a_later_round_marked_charged_gets_the_charge_bonus() -> None:
    # Round 2: the Marines fought last turn (1 attack each); the Assault Marines charge in now (2 each).
    attacker = f"5x Marine: {MARINE} | 5x Assault Marine: {MARINE} charged"
    report = run(attacker, "10x Ork: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+", [1] * 15, round=2)
    assert attacks(report) == [5, 10]
    (going_on,) = events(report, "continuing")
    assert list(going_on.get("joining")) == ["Assault Marine"]  # type: ignore[arg-type]


def test_a_unit_marked_not_charged_gets_no_bonus_in_the_charge_turn() -> None:
    attacker = f"5x Marine: {MARINE} | 5x Scout: {MARINE} not-charged"
    report = run(attacker, "10x Ork: WS4 S3 T4 W1 I2 A0 Ld7 Sv6+", [1] * 15)
    assert attacks(report) == [10, 5]
    (charged,) = events(report, "charged")
    assert list(charged.get("units")) == ["Marine"]  # type: ignore[arg-type]
    assert "Scout did not charge" in str(charged.get("note"))


def test_in_cover_on_one_defending_unit_makes_only_it_strike_first() -> None:
    # One combat (decision 22): an Ork fights each attacking unit, the Grots the Scouts.
    attacker = f"5x Marine: {MARINE} | 5x Scout: {MARINE} vs=2"
    defender = f"{ORKS} vs=1:1,2:1 | {GROTS} in-cover vs=2"
    report = run(attacker, defender, [1] * 24, charge_distance=3)
    assert strike_titles(report)[0] == "Cover: Grot ×2 → Scout"
    assert [title.split(":")[0] for title in strike_titles(report)[1:]] == ["Initiative 4"] * 2 + ["Initiative 2"] * 2
    assert [e.get("unit") for e in events(report, "cover")] == ["Grot"]


def test_a_defender_in_cover_strikes_first_against_a_unit_joining_a_later_round() -> None:
    attacker = f"5x Marine: {MARINE} | 5x Assault Marine: {MARINE} charged vs=2"
    defender = f"{ORKS} vs=1:1,2:1 | {GROTS} in-cover vs=2"
    report = run(attacker, defender, [1] * 19, round=2)
    assert strike_titles(report)[0] == "Cover: Grot ×2 → Assault Marine"
    assert attacks(report) == [2, 5, 10, 1, 1]


def test_cover_needs_a_unit_charging_it_this_turn() -> None:
    # Round 2: the Grots in cover fight only the Marines, who have fought since last turn: no cover advantage.
    attacker = f"5x Marine: {MARINE} vs=2 | 5x Assault Marine: {MARINE} charged"
    defender = f"{ORKS} vs=1:1,2:1 | {GROTS} in-cover"
    report = run(attacker, defender, [1] * 19, round=2)
    assert not any(title.startswith("Cover") for title in strike_titles(report))
    assert not events(report, "cover")


def test_in_a_later_round_cover_counts_only_against_the_unit_charging_in() -> None:
    """Seen failing before the fix: the Orks struck first at the Marines too, who have fought them since round 1
    ("after the first round of close combat fighting is assumed to have swept into the cover")."""
    attacker = f"5x Marine: {MARINE} | 5x Scout: {MARINE} charged"
    report = run(attacker, f"{ORKS} in-cover vs=1:1,2:1", [1] * 17, round=2)
    titles = strike_titles(report)
    assert titles[0] == "Cover: Ork ×1 → Scout"
    assert "Initiative 2: Ork ×1 → Marine" in titles
    (cover,) = events(report, "cover")
    assert "its models fighting Scout strike first" in str(cover.get("note"))
    assert "Marine" in str(cover.get("note")) and "swept into the cover" in str(cover.get("note"))


def test_cover_later_round_none_gives_no_cover_after_round_one() -> None:
    attacker = f"5x Marine: {MARINE} | 5x Scout: {MARINE} charged"
    report = run(attacker, f"{ORKS} in-cover vs=1:1,2:1", [1] * 17, round=2, cover_later_round="none")
    assert not any(title.startswith("Cover") for title in strike_titles(report))
    assert not events(report, "cover")


def test_a_unit_that_did_not_charge_meets_no_cover_advantage_frag_grenades_or_not() -> None:
    # The Orks in cover fight the Marines, who did not charge: no cover advantage, so the Marines' frag grenades
    # have nothing to cancel and the Orks strike in Initiative order.
    attacker = f"5x Marine: {MARINE} frag-grenades not-charged | 5x Scout: {MARINE}"
    report = run(attacker, ORKS, [1] * 17, defender_in_cover=True)
    titles = strike_titles(report)
    assert not any(title.startswith("Cover") for title in titles) and titles[0].startswith("Initiative 4: Marine ×5")


def test_a_joining_charge_follows_the_charge_rules_and_may_fail() -> None:
    attacker = f"5x Marine: {MARINE} | 5x Assault Marine: {MARINE} charged"
    report = run(attacker, ORKS, [], round=2, charge_distance=8)
    assert report.result.outcome == "no_charge"
    (missed,) = events(report, "not_joined")
    assert "Assault Marine does not reach the combat" in str(missed.get("note"))
    report = run(attacker, ORKS, [2, 3] + [1] * 17, round=2, charge_distance=3, difficult_terrain=True)
    assert attacks(report) == [5, 10, 2]
    with pytest.raises(IllegalDeclarationError, match="fired in the shooting phase"):
        run(attacker, ORKS, [], round=2, shot_this_turn=True)


def test_a_failed_joining_charge_is_not_headlined_as_no_combat() -> None:
    """Seen failing before the fix: 'No combat between Marine and Assault Marine and Ork: no charge', while the
    Marines and the Orks fight on."""
    attacker = f"5x Marine: {MARINE} | 5x Assault Marine: {MARINE} charged"
    report = run(attacker, ORKS, [], round=2, charge_distance=8)
    line = headline(report)
    assert line.startswith("Assault Marine's charge fails: it does not reach the combat")
    assert "No combat" not in line


def test_charge_facts_in_a_later_round_without_a_unit_marked_charged_are_still_refused() -> None:
    with pytest.raises(OptionError, match="no unit is marked charged"):
        run(f"5x Marine: {MARINE}", ORKS, [], round=2, charge_distance=3)


def test_the_next_round_starts_without_this_turns_facts() -> None:
    attacker = f"5x Marine: {MARINE} | 5x Assault Marine: {MARINE} charged"
    report = run(attacker, f"{ORKS} in-cover", [1] * 17, round=2)
    (going_on,) = events(report, "continues")
    for side in ("attacker_survivors", "defender_survivors"):
        text = str(going_on.get(side))
        assert "charged" not in text and "in-cover" not in text


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "error", "token"),
    [
        (f"5x Marine: {MARINE} charged not-charged", ORKS, {}, SpecError, "not-charged"),
        (f"5x Marine: {MARINE} charged ; 1x Sergeant: {MARINE} not-charged", ORKS, {}, SpecError, "not-charged"),
        (f"5x Marine: {MARINE} in-cover", ORKS, {}, IllegalDeclarationError, "in-cover"),
        (f"5x Marine: {MARINE}", f"{ORKS} charged", {}, IllegalDeclarationError, "charged"),
        (f"5x Marine: {MARINE} not-charged", ORKS, {}, IllegalDeclarationError, "not-charged"),
    ],
)
def test_contradictions_are_refused_with_an_example(
    attacker: str, defender: str, options: dict[str, object], error: type[Exception], token: str
) -> None:
    with pytest.raises(error) as raised:
        run(attacker, defender, [], **options)
    assert raised.value.token == token  # type: ignore[attr-defined]
    assert "Example:" in str(raised.value)


def test_in_round_one_cover_counts_only_against_the_units_that_charged() -> None:
    # "Cover advantage applies only to models in cover that are being charged": the Scouts, marked not-charged,
    # are struck in Initiative order even in round 1 (an Ork fights each unit: one combat).
    attacker = f"5x Marine: {MARINE} | 5x Scout: {MARINE} not-charged vs=1"
    defender = f"{ORKS} vs=1:1,2:1 in-cover"
    report = run(attacker, defender, [1] * 17, charge_distance=3)
    titles = strike_titles(report)
    assert titles[0] == "Cover: Ork ×1 → Marine"
    assert not any(title.startswith("Cover") and "Scout" in title for title in titles)
