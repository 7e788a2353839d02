"""Duel specs: the canonical form, the weapon table's names, inline weapons, and every error's message."""

from __future__ import annotations

import pytest

from rules_core import LimitError, SpecError
from rules_core.games.duel import DuelGame
from rules_core.games.duel.spec import ParryPolicy, parse_side
from rules_core.games.duel.weapons import Damage, WeaponError, parse_damage, parse_inline_weapon
from tests.rules_core.helpers_duel import ARMOURY, GAME

BARE = DuelGame()  # no weapon table: inline weapons only


def test_table_weapons_are_written_inline_so_the_canonical_form_needs_no_table() -> None:
    side = GAME.parse_side("Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged")
    text = GAME.format_side(side)
    assert text == (
        "1x Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ charged weapon=chainsword/S4/dmg=1/sv=-1/parry/cc "
        "weapon=bolt-pistol/S4/dmg=1/sv=-1/cc parry=auto"
    )
    assert BARE.parse_side(text) == side
    assert GAME.parse_side(text) == side


def test_groups_flags_settings_and_unused_stats_survive_the_round_trip() -> None:
    text = (
        "3x Ork Boy: M4 WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ high-ground encumbered knife "
        "weapon=choppa/S+1/dmg=D3+1/cc parry=never weapon-choice=choppa | Nob: WS4 S4 T4 W2 I3 A2 Sv- power-fist"
    )
    side = GAME.parse_side(text)
    assert side.models == 4
    boy = side.groups[0]
    assert boy.parry is ParryPolicy.NEVER
    assert boy.weapon_choice == "choppa"
    assert dict(boy.profile.unused) == {"M": 4, "BS": 3, "Ld": 7}
    assert GAME.parse_side(GAME.format_side(side)) == side


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("claw/S+1/dmg=D3/sv=-1/parry/cc", (1, True, "D3", -1, True, True)),
        ("fist/S8/dmg=1/sv=-5/cc", (8, False, "1", -5, False, True)),
        ("stick", (0, True, "1", None, False, False)),
        ("axe/S=user/dmg=2D6", (0, True, "2D6", None, False, False)),
        ("hook/S-1/dmg=D6+2/sv=0/cc", (-1, True, "D6+2", 0, False, True)),
    ],
)
def test_inline_weapons(text: str, expected: tuple[object, ...]) -> None:
    weapon = parse_inline_weapon(text)
    fields = (weapon.strength, weapon.relative, weapon.damage.text(), weapon.save_modifier)
    assert (*fields, weapon.parry, weapon.close_combat) == expected
    assert parse_inline_weapon(weapon.inline().removeprefix("weapon=")) == weapon


def test_relative_strength_is_capped_at_10() -> None:
    assert parse_inline_weapon("maul/S+3/cc").strength_for(9) == 10
    assert parse_inline_weapon("maul/S-1/cc").strength_for(1) == 1


@pytest.mark.parametrize("text", ["claw/S11", "claw/S0", "claw/dmg=D4", "claw/dmg=0", "claw/sv=+1", "claw/sv=-11",
                                  "claw/fast", "Claw/cc", "claw/S4/S5", "claw/dmg=D6+11"])  # fmt: skip
def test_bad_inline_weapons_are_refused(text: str) -> None:
    with pytest.raises(WeaponError):
        parse_inline_weapon(text)


def test_d3_damage_is_half_a_d6_rounded_up() -> None:
    d3 = parse_damage("D3")
    assert [d3.value([face]) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert sorted(set(parse_damage("2D6").outcomes())) == list(range(2, 13))
    assert parse_damage("4") == Damage(0, 0, 4)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ chainswrod", "Did you mean 'chainsword'?"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ banana", "Unknown keyword 'banana'"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ weapon=claw/S11/cc", "Cannot read the weapon"),
        ("A: WS4 S4 T4 W1 I4 A1", "missing Sv"),
        ("A: WS4 S4 T4 W1 I4 Sv3+", "missing A"),
        ("A: WS4 S4 T4 W1 I4 A0 Sv3+", "Attacks (A) must be 1 to 10"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv7+", "Sv2+ to Sv6+"),
        ("A: WS4 WS5 S4 T4 W1 I4 A1 Sv3+", "gives WS twice"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ Inv4+", "Unknown stat 'Inv4+'"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ obstacle", "add charged too"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ charged charged", "gives charged twice"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ parry=sometimes", "parry= is auto"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ knife weapon-choice=chainsword", "it can strike with knife"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ bolter weapon-choice=bolter", "no Close Combat weapon"),
        ("A: WS4 S4 T4 W1 I4 A1 Sv3+ reach=2", "Unknown setting 'reach=2'"),
    ],
)
def test_spec_errors_name_the_problem_and_show_a_correct_example(text: str, fragment: str) -> None:
    with pytest.raises(SpecError) as caught:
        GAME.parse_side(text)
    assert fragment in caught.value.one_line()
    assert caught.value.example
    GAME.parse_side(caught.value.example.split(" --", 1)[0])  # the example itself is correct


def test_without_a_table_a_weapon_name_says_how_to_define_it_inline() -> None:
    with pytest.raises(SpecError, match=r"weapon table \(weapons/duel.yaml\), which was not given.*weapon=NAME"):
        BARE.parse_side("A: WS4 S4 T4 W1 I4 A1 Sv3+ chainsword")


@pytest.mark.parametrize(
    "text",
    [
        "11x Ork: WS3 S3 T4 W1 I2 A1 Sv6+",
        "6x Ork: WS3 S3 T4 W1 I2 A1 Sv6+ | 5x Grot: WS2 S2 T2 W1 I3 A1 Sv-",
        "A: WS4 S4 T4 W1 I4 A1 Sv3+ knife knife knife knife club club club",
    ],
)
def test_limits(text: str) -> None:
    with pytest.raises(LimitError):
        GAME.parse_side(text)


def test_repeated_table_weapons_each_count() -> None:
    (group,) = parse_side("A: WS4 S4 T4 W1 I4 A1 Sv3+ sword sword", ARMOURY).groups
    assert group.parries == 2
    assert len(group.close_combat_weapons) == 2


def test_the_help_lists_the_weapon_table() -> None:
    (names,) = [token for token in GAME.tokens if token.token == "weapon names"]
    assert "chainsword" in names.help and "power-fist" in names.help
