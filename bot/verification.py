"""Re-running a stored combat from its seed and inputs: the audit behind `referee verify` and the Verify button."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.data import catalogue
from bot.storage.records import StoredCombat
from rules_core import ENGINE_VERSION, rerun


class Verdict(StrEnum):
    IDENTICAL = "identical"
    ALTERED = "altered"
    OTHER_ENGINE = "other_engine"  # resolved by another engine version: it cannot be re-run exactly here


@dataclass(frozen=True, slots=True)
class Verification:
    verdict: Verdict
    message: str


def verify(stored: StoredCombat) -> Verification:
    report = stored.report
    if report.engine_version != ENGINE_VERSION:
        return Verification(
            Verdict.OTHER_ENGINE,
            f"Record #{stored.id} was resolved by engine {report.engine_version}; this is engine {ENGINE_VERSION}. "
            "Only the same engine version can re-run it exactly: verify it with that version.",
        )
    # The stored inputs are the canonical form, read with no character limit: the limit was the player's.
    again = rerun(report, game=catalogue().game(report.game))
    if again.to_json(indent=None) == stored.report_json:
        return Verification(
            Verdict.IDENTICAL,
            f"Record #{stored.id} verified: re-running seed {report.seed} with the same inputs gives the identical "
            "report.",
        )
    return Verification(
        Verdict.ALTERED,
        f"Record #{stored.id} does NOT match a re-run from its seed and inputs: it has been altered.",
    )
