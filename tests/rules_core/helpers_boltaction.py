"""Shared helpers for the Bolt Action tests: scripted dice, rolls and events."""

from __future__ import annotations

from rules_core import ScriptedDice, resolve
from rules_core.report import Event, Report, Roll


def run(attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve("boltaction", attacker, defender, rng=ScriptedDice(faces), **options)


def rolls(report: Report, purpose: str) -> list[Roll]:
    return [roll for step in report.steps for roll in step.rolls if roll.purpose.startswith(purpose)]


def events(report: Report, kind: str) -> list[Event]:
    return [ev for step in report.steps for ev in step.events if ev.kind == kind]


def notes(report: Report, kind: str) -> list[str]:
    return [str(ev.get("note")) for ev in events(report, kind)]


def rounds(report: Report) -> list[tuple[int, int, str]]:
    """(attacker's casualties caused, defender's, round winner) for each round."""
    return [(int(ev.get("attacker_caused")), int(ev.get("defender_caused")), str(ev.get("winner")))
            for ev in events(report, "round")]  # fmt: skip
