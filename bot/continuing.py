"""Continuing a 40K combat that goes on: the checks and the next round's inputs, shared by the CLI and the bot."""

from __future__ import annotations

from typing import Any

from bot.storage import StoredCombat
from rules_core import RefereeError

# Facts of the charge turn that no later round has: a continued combat drops them (no charge, no cover advantage).
CHARGE_ONLY = {"charge_distance": None, "difficult_terrain": False, "shot_this_turn": False, "defender_in_cover": False}


def next_round(stored: StoredCombat, continued_by: int | None) -> tuple[str, str, dict[str, Any]]:
    """(attacker, defender, options) of the next round, or a RefereeError saying why there is none."""
    report = stored.report
    record_id = stored.id
    going_on = [ev for step in report.steps for ev in step.events if ev.kind == "continues"]
    example = f"continue {record_id}"
    if report.game != "40k":
        raise RefereeError(
            f"Record #{record_id} is a {report.game} combat; only 40K assaults carry on into later rounds.",
            token=str(record_id),
        )
    if not going_on:
        raise RefereeError(
            f"Record #{record_id}'s combat is over ({report.result.outcome.replace('_', ' ')}): there is no next "
            "round.",
            token=str(record_id),
        )
    if stored.voided:
        raise RefereeError(f"Record #{record_id} is void: its combat cannot go on.", token=str(record_id))
    if continued_by is not None:
        raise RefereeError(
            f"Record #{record_id}'s combat has already been continued as #{continued_by}: continue #{continued_by} "
            "instead.",
            token=str(record_id),
            example=example.replace(str(record_id), str(continued_by)),
        )
    step = going_on[0]
    options = {**dict(report.to_dict()["inputs"]["options"]), **CHARGE_ONLY, "round": step.get("next_round")}
    options = {name: value for name, value in options.items() if value is not None}
    return str(step.get("attacker_survivors")), str(step.get("defender_survivors")), options
