"""Re-running a stored combat from its seed and inputs: the audit behind `referee verify` and the Verify button."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from bot.challenges.commitment import matches
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


def commitment_problems(stored: StoredCombat) -> tuple[str, ...]:
    """For a record resolved from a challenge (it has a commitment): what does not hold of its committed seed. The
    report's seed and salt must hash to the commitment; the commitment must be the one agreed (kept in the
    agreement too); the row's seed column must be the report's seed. Empty when all hold, or with no commitment."""
    if stored.commitment is None:
        return ()
    seed = stored.report.seed
    found: list[str] = []
    if stored.row_seed is not None and stored.row_seed != seed:
        found.append(f"the seed: the row's seed {stored.row_seed} is not the report's seed {seed}")
    agreed: object = json.loads(stored.agreed_json) if stored.agreed_json else {}
    agreed_commitment = agreed.get("commitment") if isinstance(agreed, dict) else None
    if not matches(seed, stored.salt or "", stored.commitment):
        if isinstance(agreed_commitment, str) and agreed_commitment != stored.commitment:
            found.append(f"the commitment: the record's {stored.commitment} is not the {agreed_commitment} "
                         "committed to when the challenge was made")  # fmt: skip
        else:
            found.append(f"the seed: SHA-256 of seed {seed} and salt {stored.salt} is not the commitment "
                         f"{stored.commitment} shown before the dice were rolled")  # fmt: skip
    return tuple(found)


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
    committed = commitment_problems(stored)
    if again.to_json(indent=None) != stored.report_json:
        return Verification(
            Verdict.ALTERED,
            f"Record #{stored.id} does NOT match a re-run from its seed and inputs: it has been altered.",
            committed + differences(report, again),
        )
    if committed:
        return Verification(
            Verdict.ALTERED,
            f"Record #{stored.id} re-runs identically but its seed does NOT match the commitment made before the "
            "dice were rolled: it has been altered.",
            committed,
        )
    text = (
        f"Record #{stored.id} verified: re-running seed {report.seed} with the same inputs gives the identical report."
    )
    if stored.commitment is not None:
        text += (f" Its seed and salt hash to the commitment {stored.commitment} shown before the dice were "
                 "rolled.")  # fmt: skip
    return Verification(Verdict.IDENTICAL, text)
