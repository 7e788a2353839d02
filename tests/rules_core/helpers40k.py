"""Shared helpers for the 40K tests: run with scripted dice, find rolls and events."""

from __future__ import annotations

from rules_core import ScriptedDice, resolve
from rules_core.report import Report
from tests.rules_core.checks import events, rolls  # noqa: F401  (re-exported for this game\'s tests)

MARINE = "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
# The README's quick-start 40K fight (its phone-screen target is tested on these).
QUICK_START_ATTACKER = (
    "9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades ; "
    "1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist frag-grenades dies-last"
)
QUICK_START_DEFENDER = (
    "14x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ heavy-ccw two-weapons ; "
    "1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ power-fist dies-last"
)


def run(attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve("40k", attacker, defender, rng=ScriptedDice(faces), **options)


def titles(report: Report) -> list[str]:
    return [step.title for step in report.steps]


def strike_titles(report: Report) -> list[str]:
    return [step.title for step in report.steps if "→" in step.title]
