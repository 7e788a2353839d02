"""Epic: Armageddon and Reikhammer at the table (``Game.table_summary``): the units (stands) each formation removes,
the loser's withdrawal and the winner's consolidation in the game's own words, and the rally test or the next
round's counter-charges."""

from __future__ import annotations

from rules_core.games.formation.rules import FormationRules
from rules_core.report import Report, SideName
from rules_core.table import TableSummary, casualties_by_unit, join_words, reads_plural, side_name, wiped_out


def _units(count: int) -> str:
    return f"{count} unit{'s' if count != 1 else ''}"


def table_summary(report: Report, rules: FormationRules) -> TableSummary:
    removals: list[str] = []
    for side in (SideName.ATTACKER, SideName.DEFENDER):
        by_unit = casualties_by_unit(report, side)
        named = [f"{count} {unit}" for unit, count in by_unit.items() if unit]  # stands by type, named as typed
        if by_unit.get(""):
            named.append(f"the other {_units(by_unit[''])} left (already Broken)")
        removals.append(join_words(named))
    moves: list[str] = []
    rally: list[str] = []
    still = ""
    for step in report.steps:
        for ev in step.events:
            whose = str(ev.get("side"))
            if ev.kind == "withdraw":
                units = ", ".join(ev.get("units") or ())
                name = side_name(report, whose)
                verb = "withdraw" if reads_plural(name) else "withdraws"
                moves.append(f"{name} {verb} ({units}): {rules.withdrawal_move}")
            elif ev.kind == "consolidate":
                moves.append(f"{side_name(report, whose)} {rules.consolidation_move}")
            elif ev.kind == "rally" and rules.rally_test:
                rally.append(side_name(report, whose))
            elif ev.kind == "instruction" and "hold their ground" in str(ev.get("note")):
                still = "Neither formation withdraws: both hold their ground."
    tests = "each tests" if len(rally) > 1 else "it tests"
    next_step = (
        rules.rally_test.format(name=join_words(rally), tests=tests) if rally else still or "The assault is over."
    )
    notes = tuple(note for side in (SideName.ATTACKER, SideName.DEFENDER) if (note := _formations(report, side, rules)))
    return TableSummary(
        removals=(removals[0], removals[1]),
        destroyed=wiped_out(report),
        moves=tuple(moves),
        next_step=next_step,
        notes=notes,
        parts="formations" if rules.several_formations else "",
    )


def _formations(report: Report, side: SideName, rules: FormationRules) -> str:
    """A side of several formations: what each ends with ("Formation A: 1 unit left, 1 Shock, Broken; ..."); empty
    for a side of one (its line says it)."""
    formations = report.result.side(side).extra.get("formations")
    if not isinstance(formations, (list, tuple)):
        return ""
    said = []
    for formation in formations:
        left, markers = int(formation["remaining"]), int(formation[rules.marker_key])
        state = (
            f"{_units(left)} left, {markers} {rules.marker if markers == 1 else rules.markers}"
            + (", Broken" if formation["broken"] else "")
            if left
            else "wiped out"
        )
        said.append(f"formation {formation['formation']}: {state}")
    text = "; ".join(said) + "."
    return text[0].upper() + text[1:]
