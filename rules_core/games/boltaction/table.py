"""Bolt Action close quarters at the table (``Game.table_summary``): the men each unit removes (a destroyed unit's
survivors who surrender, flee or play dead included), the failed assault's move or the winner's regroup with its
distance, and what follows."""

from __future__ import annotations

from rules_core.errors import RefereeError
from rules_core.report import Report, SideName
from rules_core.spec import group_head
from rules_core.table import TableSummary, casualties_by_unit, wiped_out


def _men(count: int) -> str:
    return f"{count} {'man' if count == 1 else 'men'}"


def table_summary(report: Report) -> TableSummary:
    removals: list[str] = []
    moves: list[str] = []
    surrendered = {SideName.ATTACKER.value: 0, SideName.DEFENDER.value: 0}
    for step in report.steps:
        for ev in step.events:
            if ev.kind == "destroyed":
                surrendered[str(ev.get("side"))] = int(ev.get("surrendered") or 0)
            elif ev.kind == "regroup":
                moves.append(f'{_unit(report, str(ev.get("side")))} may regroup up to {ev.get("inches")}"')
            elif ev.kind == "failed_to_contact":
                note = str(ev.get("note"))
                moves.append(note.split("fails to contact. ", 1)[-1].rstrip("."))
    for side in (SideName.ATTACKER, SideName.DEFENDER):
        killed = sum(casualties_by_unit(report, side).values())
        fled = surrendered[side.value]
        if fled:
            removals.append(f"all {_men(killed + fled)} ({fled} surrender, flee or play dead)")
        else:
            removals.append(_men(killed) if killed else "")
    outcome = str(report.result.outcome)
    if outcome == "undecided":
        next_step = "Still locked after the drawn rounds: fight on with a new resolution."
    elif outcome == "failed_to_contact":
        next_step = "No close quarters this turn."
    else:
        next_step = "Close quarters is over."
    return TableSummary(
        removals=(removals[0], removals[1]),
        destroyed=wiped_out(report),
        moves=tuple(moves),
        next_step=next_step,
        left=("man", "men"),
    )


def _unit(report: Report, side: str) -> str:
    """The unit's name as the inputs give it ("8x Grenadiers: ..." -> "Grenadiers")."""
    text = report.inputs.attacker if side == SideName.ATTACKER.value else report.inputs.defender
    try:
        return group_head(text)[1]
    except RefereeError:
        return side
