"""Re-running a stored combat from its seed and inputs: the audit behind `referee verify` and the Verify button."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.data import catalogue
from bot.storage.records import StoredCombat
from rules_core import ENGINE_VERSION, rerun
from rules_core.report import Report


class Verdict(StrEnum):
    IDENTICAL = "identical"
    ALTERED = "altered"
    OTHER_ENGINE = "other_engine"  # resolved by another engine version: it cannot be re-run exactly here


@dataclass(frozen=True, slots=True)
class Verification:
    verdict: Verdict
    message: str
    differences: tuple[str, ...] = ()  # what an altered record's re-run changed, briefly (a few lines)


def differences(stored: Report, again: Report) -> tuple[str, ...]:
    """What a re-run gives that the stored report does not: the steps that differ (the first three), the result."""
    found: list[str] = []
    if len(stored.steps) != len(again.steps):
        found.append(f"{len(stored.steps)} steps were recorded; the re-run has {len(again.steps)}")
    changed = [n for n, (old, new) in enumerate(zip(stored.steps, again.steps, strict=False), 1) if old != new]
    found += [f"step {n} ({again.steps[n - 1].title}): its dice or what followed differ" for n in changed[:3]]
    if len(changed) > 3:
        found.append(f"and {len(changed) - 3} more steps differ")
    if stored.result != again.result:
        found.append(f"the result: recorded {stored.result.outcome.replace('_', ' ')} ({stored.result.winner}), "
                     f"re-run {again.result.outcome.replace('_', ' ')} ({again.result.winner})")  # fmt: skip
    return tuple(found) or ("the stored text differs from the re-run's",)


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
        differences(report, again),
    )
