"""Re-running a stored combat from its seed and inputs: the audit behind `referee verify` and the Verify button."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.challenges.service import resolution
from bot.data import catalogue
from bot.seals import MadeChallenge, named_challenge, seal
from bot.storage.records import StoredCombat
from rules_core import ENGINE_VERSION, RefereeError, rerun
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
    """For a record resolved from a challenge: what does not hold of its committed seed (bot/seals.py). The row's
    seed column must be the report's seed; an agreed record must keep its commitment and salt, and the report's seed
    and salt hash to it; the agreement must keep the same commitment; the challenge it was resolved from must hold
    the same seed, salt and commitment, and the record must be that challenge's combat (its sides and options as
    both accepted). Empty when all hold, or for a record with no challenge."""
    seed = stored.report.seed
    found: list[str] = []
    if stored.row_seed is not None and stored.row_seed != seed:
        found.append(f"the seed: the row's seed {stored.row_seed} is not the report's seed {seed}")
    sealed = seal(record_id=stored.id, seed=seed, salt=stored.salt, commitment=stored.commitment,
                  agreed_json=stored.agreed_json, made=stored.challenge)  # fmt: skip
    found += sealed.problems
    made = stored.challenge
    if made is not None and made.seed == seed and not sealed.problems:
        found += _not_its_combat(stored, made)
    return tuple(found)


def _not_its_combat(stored: StoredCombat, made: MadeChallenge) -> tuple[str, ...]:
    """Whether the record is the combat of the challenge it was resolved from: its inputs rolled with its seed."""
    try:
        expected = resolution(stored.report.game, made.inputs, made.seed)
    except (RefereeError, KeyError, TypeError, AttributeError):
        return (f"the sides: challenge #{made.id}'s inputs can no longer be read",)
    if expected.inputs != stored.report.inputs:
        return (f"the sides: the record's sides or options are not those both players accepted in challenge "
                f"#{made.id}",)  # fmt: skip
    return ()


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
        missing = any(line.startswith("the commitment: agreed, but") for line in committed)
        why = ("does NOT verify: agreed, but its commitment is missing" if missing else
               "re-runs identically but does NOT match the dice committed before they were rolled")  # fmt: skip
        return Verification(Verdict.ALTERED, f"Record #{stored.id} {why}: it has been altered.", committed)
    text = (
        f"Record #{stored.id} verified: re-running seed {report.seed} with the same inputs gives the identical report."
    )
    if stored.commitment is not None:
        text += (f" Its seed and salt hash to the commitment {stored.commitment} shown before the dice were "
                 "rolled")  # fmt: skip
        made, gone = stored.challenge, named_challenge(stored.agreed_json)
        if made is not None:
            text += f", and challenge #{made.id} holds the same seed, salt, commitment and sides as it was made."
        else:
            text += (f". Challenge #{gone} it was agreed in is no longer stored, so only the record's own "
                     "agreement could be checked: compare the commitment with the one the challenge showed in its "
                     "channel.")  # fmt: skip
    return Verification(Verdict.IDENTICAL, text)
