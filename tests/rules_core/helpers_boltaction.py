"""Shared helpers for the Bolt Action tests: scripted dice, rolls and events."""

from __future__ import annotations

from rules_core import ScriptedDice, resolve
from rules_core.report import Report
from tests.rules_core.checks import events, rolls  # noqa: F401  (re-exported for this game\'s tests)


def run(attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve("boltaction", attacker, defender, rng=ScriptedDice(faces), **options)


def notes(report: Report, kind: str) -> list[str]:
    return [str(ev.get("note")) for ev in events(report, kind)]


def rounds(report: Report) -> list[tuple[int, int, str]]:
    """(attacker's casualties caused, defender's, round winner) for each round."""
    return [(int(ev.get("attacker_caused")), int(ev.get("defender_caused")), str(ev.get("winner")))
            for ev in events(report, "round")]  # fmt: skip
