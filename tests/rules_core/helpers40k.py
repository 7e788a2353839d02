"""Shared helpers for the 40K tests: run with scripted dice, find rolls and events."""

from __future__ import annotations

from rules_core import ScriptedDice, resolve
from rules_core.report import Event, Report, Roll

MARINE = "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def run(attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve("40k", attacker, defender, rng=ScriptedDice(faces), **options)


def rolls(report: Report, purpose: str) -> list[Roll]:
    return [roll for step in report.steps for roll in step.rolls if roll.purpose.startswith(purpose)]


def events(report: Report, kind: str) -> list[Event]:
    return [ev for step in report.steps for ev in step.events if ev.kind == kind]


def titles(report: Report) -> list[str]:
    return [step.title for step in report.steps]


def strike_titles(report: Report) -> list[str]:
    return [step.title for step in report.steps if "→" in step.title]
