"""Bolt Action close quarters at the table (``Game.table_summary``): the men each unit removes (the NCO or officer
named when they fall; a destroyed unit's survivors who surrender, flee or play dead included, and those who break
and run when their unit fails its morale check under fire), the failed assault's move or the winner's regroup with
its distance, and what follows.

Which men fell (a rifleman, the NCO) is the owner's removal order and exceptional damage applied as the fight went;
the report counts men only, so the hook re-runs the fight on the report's own dice and trusts what it finds only
when the re-run report is identical (otherwise: the count of men).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from rules_core.errors import RefereeError
from rules_core.games.boltaction.engine import CloseQuarters
from rules_core.games.boltaction.spec import parse_unit
from rules_core.games.boltaction.state import surrender_words
from rules_core.options import OptionSpec, validate_options
from rules_core.report import Report, SideName, thaw
from rules_core.spec import group_head, reading_canonical
from rules_core.table import ReplayDice, TableSummary, casualties_by_unit, join_words, wiped_out

LEADERS = {"nco": "the NCO", "officer": "the officer"}


def _men(count: int) -> str:
    return f"{count} {'man' if count == 1 else 'men'}"


def _fallen(report: Report, options: tuple[OptionSpec, ...]) -> dict[str, Counter[str]] | None:
    """The roles of the men each side lost to damage ("man", "nco", "officer"), from a re-run on the report's dice;
    None when the re-run is not the same fight."""
    given = thaw(report.inputs.options)
    if not isinstance(given, Mapping):
        return None
    try:
        with reading_canonical():
            attacker, defender = parse_unit(report.inputs.attacker), parse_unit(report.inputs.defender)
        fight = CloseQuarters(attacker, defender, validate_options(options, given), ReplayDice(report))
        before = {side.side_name: Counter(man.role for man in side.men) for side in (fight.attacker, fight.defender)}
        again = fight.run()
    except (RefereeError, ValueError, KeyError, TypeError):
        return None
    if again != report:
        return None
    fallen = {}
    for side in (fight.attacker, fight.defender):
        left = Counter(man.role for man in side.men)
        fled = side.surrendered  # a destroyed unit's survivors: cleared with the rest, counted apart
        lost = before[side.side_name] - left
        fallen[side.side_name] = lost if not fled else Counter()
    return fallen


def _removed(roles: Counter[str]) -> str:
    """'3 men and the NCO'."""
    men = roles.get("man", 0)
    return join_words([_men(men) if men else "", *(LEADERS[role] for role in ("nco", "officer") if roles.get(role))])


def table_summary(report: Report, options: tuple[OptionSpec, ...] = ()) -> TableSummary:
    fallen = _fallen(report, options) if options else None
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
    outcome = str(report.result.outcome)
    # A failed morale check under fire removes the assaulters' survivors too.
    broke = int(str(report.result.attacker.extra.get("surrendered") or 0)) if outcome == "failed_morale" else 0
    for side in (SideName.ATTACKER, SideName.DEFENDER):
        killed = sum(casualties_by_unit(report, side).values())
        fled = surrendered[side.value]
        if side is SideName.ATTACKER and broke:
            removals.append(f"all {_men(killed + broke)} ({broke} break and run)")
        elif fled:
            removals.append(f"all {_men(killed + fled)} ({fled} {surrender_words(fled)})")
        elif fallen is not None and sum(fallen[side.value].values()) == killed:
            removals.append(_removed(fallen[side.value]))
        else:
            removals.append(_men(killed) if killed else "")
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
