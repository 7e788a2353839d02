"""Shared helpers for the Epic: Armageddon and Reikhammer tests: scripted dice, rolls, events."""

from __future__ import annotations

from rules_core import ScriptedDice, resolve
from rules_core.report import Report
from tests.rules_core.checks import events, rolls  # noqa: F401  (re-exported for this game\'s tests)


def run(game: str, attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve(game, attacker, defender, rng=ScriptedDice(faces), **options)


def modifiers(report: Report, side: str) -> list[dict[str, object]]:
    """The result modifiers of ``side`` in the last result roll, as (reason, value) dicts."""
    found = [ev for ev in events(report, "modifiers") if ev.get("side") == side]
    return [dict(item) for item in found[-1].get("modifiers")]


def modifier_total(report: Report, side: str) -> int:
    return sum(int(str(item["value"])) for item in modifiers(report, side))


def casualties(report: Report, side: str) -> int:
    return sum(int(ev.get("units", 0)) for ev in events(report, "casualty") if ev.get("side") == side)
