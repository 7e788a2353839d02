"""Shared helpers for the duel tests: the shipped weapon table, scripted dice, rolls and events."""

from __future__ import annotations

from pathlib import Path

import yaml

from rules_core import ScriptedDice, resolve
from rules_core.games.duel import DuelGame
from rules_core.games.duel.weapons import parse_weapon_table
from rules_core.report import Event, Report
from tests.rules_core.checks import events, rolls  # noqa: F401  (re-exported for this game\'s tests)

TABLE_PATH = Path(__file__).resolve().parents[2] / "data" / "weapons" / "duel.yaml"
# rules_core does no I/O; the tests, like bot/, read the table and hand it in.
ARMOURY = parse_weapon_table(yaml.safe_load(TABLE_PATH.read_text(encoding="utf-8")), name="duel.yaml")
GAME = DuelGame(ARMOURY)


def duel(attacker: str, defender: str, faces: list[int], **options: object) -> Report:
    """Resolve with exactly these dice: too many or too few fails the test."""
    return resolve(GAME, attacker, defender, rng=ScriptedDice(faces), **options)


def rounds(report: Report) -> list[Event]:
    return events(report, "round")


def score(report: Report, model: str, round_number: int = 1) -> int:
    found = [ev for ev in events(report, "score") if ev.get("model") == model]
    return int(found[round_number - 1].get("score"))
