"""Issue 33's 40K rulings on several units: separate combats are refused with one command per combat (decision 21),
each losing unit's own fate, an independent character's ``hits=`` caps, the declarations the text forbids, and the
sweeping advance's words."""

from __future__ import annotations

import pytest

from bot.cli.common import TERMINAL
from bot.discord.errors import DISCORD
from rules_core import IllegalDeclarationError, resolve
from rules_core.errors import Commands
from rules_core.games.wh40k.combats import combats
from rules_core.games.wh40k.spec import parse_side
from rules_core.odds import odds

MARINES = "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
SCOUTS = "5x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+"
ORKS = "10x Ork: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
GROTS = "5x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv-"
# The issue's case: the Marines fight the Orks and the Scouts the Grots; nobody touches across.
ISSUE_ATTACKER = f"{MARINES} vs=1 | {SCOUTS} vs=2"
ISSUE_DEFENDER = f"{ORKS} vs=1 | {GROTS} vs=2"


def test_the_issue_case_is_refused_with_one_command_per_combat_in_each_front_end() -> None:
    """Seen failing before the fix: the two fights were totalled as one result."""
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, seed=7, charge_distance=4)
    error = caught.value
    assert "2 separate combats" in error.message
    assert "1. Marine against Ork; 2. Scout against Grot" in error.message
    assert isinstance(error.example, Commands)
    terminal = error.one_line(TERMINAL).split("\n")
    assert terminal[1:] == [
        f'  referee assault 40k --attacker "{MARINES}" --defender "{ORKS}" --charge-distance 4',
        f'  referee assault 40k --attacker "{SCOUTS}" --defender "{GROTS}" --charge-distance 4',
    ]
    discord = error.example_of(DISCORD)
    assert discord == (
        f"/assault 40k attacker:{MARINES} defender:{ORKS} charge_distance:4\n"
        f"/assault 40k attacker:{SCOUTS} defender:{GROTS} charge_distance:4"
    )
    assert "referee" not in discord and "--" not in discord


def test_each_command_is_a_combat_that_resolves_alone() -> None:
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, seed=7, charge_distance=4)
    example = caught.value.example
    assert isinstance(example, Commands)
    for command in example.examples:
        given = {setting.name: setting.value for setting in command.settings}
        report = resolve("40k", str(given.pop("attacker")), str(given.pop("defender")), seed=7, **given)
        assert report.result.outcome


def test_units_joined_through_a_chain_are_one_combat() -> None:
    # The Scouts fight the Grots, and the Grots fight the Marines, who fight the Orks: one combat.
    attacker = parse_side(f"{MARINES} | {SCOUTS} vs=2")
    defender = parse_side(f"{ORKS} | {GROTS} vs=1")
    assert combats(attacker, defender) == [((0, 1), (0, 1))]
    resolve("40k", f"{MARINES} | {SCOUTS} vs=2", f"{ORKS} | {GROTS} vs=1", seed=7)


def test_renumbered_vs_and_a_split_keep_who_fights_whom() -> None:
    # Combat 2 holds attacker unit 2 and defender units 2 and 3: their vs= are renumbered within it.
    attacker = f"{MARINES} | 6x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+ vs=2:4,3:2"
    defender = f"{ORKS} | {GROTS} vs=2 | 3x Snotling: WS1 S1 T1 W1 I1 A1 Ld4 Sv- vs=2"
    with pytest.raises(IllegalDeclarationError) as caught:
        resolve("40k", attacker, defender, seed=1, round=2)
    example = caught.value.example
    assert isinstance(example, Commands)
    second = {s.name: s.value for s in example.examples[1].settings}
    assert second["attacker"] == "6x Scout: WS3 S4 T4 W1 I4 A1 Ld8 Sv4+ vs=1:4,2:2"
    assert second["defender"] == f"{GROTS} | 3x Snotling: WS1 S1 T1 W1 I1 A1 Ld4 Sv-"
    assert second["round"] == 2


def test_odds_refuse_the_same_way_naming_the_odds_command() -> None:
    for method in ("auto", "exact", "monte-carlo"):
        with pytest.raises(IllegalDeclarationError) as caught:
            odds("40k", ISSUE_ATTACKER, ISSUE_DEFENDER, method=method, trials=100, charge_distance=4)
        lines = caught.value.one_line(TERMINAL).split("\n")
        assert lines[1].startswith("  referee odds 40k --attacker"), (method, lines)
        assert (caught.value.example_of(DISCORD) or "").startswith("/odds 40k attacker:")
