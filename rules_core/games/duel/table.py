"""The duel at the table (``Game.table_summary``): the models slain by kind ("2 Ork Boys and the Nob"), wounds to mark
on the living, the Follow-Up and break-off moves with their distances, and whether the fight goes on next phase.

The report's result lists every model (``models``: name, wounds, wounds left, status); a model of a group of several
is labelled with its number ("Ork Boy 2"), and the table removes "2 Ork Boys", not numbered models.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.errors import RefereeError
from rules_core.report import Report, SideName
from rules_core.spec import group_head, split_groups, split_units
from rules_core.table import TableSummary, counted, join_words, wiped_out


def table_summary(report: Report) -> TableSummary:
    groups = _group_sizes(report)
    removals: list[str] = []
    for side in (SideName.ATTACKER, SideName.DEFENDER):
        models = report.result.side(side).extra.get("models") or ()
        slain: dict[str, int] = {}
        marks: list[str] = []
        for model in models:
            if not isinstance(model, Mapping):
                continue
            kind = _kind(str(model.get("name")), groups)
            if model.get("status") == "slain":
                slain[kind] = slain.get(kind, 0) + 1
            elif int(model.get("wounds_left", 0)) < int(model.get("wounds", 0)):
                lost = int(model.get("wounds", 0)) - int(model.get("wounds_left", 0))
                marks.append(f"{lost} wound{'s' if lost != 1 else ''} on {_the(str(model.get('name')), groups)}")
        text = join_words(
            ("the " + kind) if groups.get(kind) == 1 else counted(kind, count) for kind, count in slain.items()
        )
        if marks:
            text = (text + "; " if text else "") + "mark " + join_words(marks)
        removals.append(text)
    moves: list[str] = []
    follow_ups: list[str] = []
    still: list[str] = []
    for step in report.steps:
        for ev in step.events:
            if ev.kind == "broke_off":
                away = ev.get("away_from") or "its attacker"  # a record before 0.3.0 has no away_from
                moves.append(f'{ev.get("model")} breaks off {ev.get("inches")}" directly away from {away}')
            elif ev.kind == "follow_up" or (ev.kind == "instruction" and "may make a Follow-Up" in str(ev.get("note"))):
                follow_ups.append(str(ev.get("model")))
            elif ev.kind == "instruction" and "locked in combat" in str(ev.get("note")):
                first, _, others = str(ev.get("note")).split(" are still locked")[0].partition(" and ")
                still.append(join_words([first, *others.split(", ")]))
    if follow_ups:
        verb = "may make a Follow-Up Move" if len(follow_ups) == 1 else "may each make a Follow-Up Move"
        moves.append(f'{join_words(follow_ups)} {verb} of up to 2"')
    if still:
        next_step = "; ".join(still) + " fight again in the next Hand-to-Hand phase."
    elif any(ev.kind == "broke_off" for step in report.steps for ev in step.events):
        next_step = "A model that broke off is Broken with its squad and may not try to Rally until the following turn."
    else:
        next_step = "The hand-to-hand fight is over."
    return TableSummary(
        removals=(removals[0], removals[1]), destroyed=wiped_out(report), moves=tuple(moves), next_step=next_step
    )


def _group_sizes(report: Report) -> dict[str, int]:
    """Each group's name -> its number of models, as the inputs were read."""
    sizes: dict[str, int] = {}
    for text in (report.inputs.attacker, report.inputs.defender):
        try:
            for unit in split_units(text):
                for group in split_groups(unit):
                    count, name = group_head(group)
                    sizes[name] = sizes.get(name, 0) + count
        except RefereeError:
            continue
    return sizes


def _kind(label: str, groups: Mapping[str, int]) -> str:
    """The group a model's label belongs to: "Ork Boy 2" -> "Ork Boy"; a label of its own stays."""
    if label in groups:
        return label
    base, _, number = label.rpartition(" ")
    return base if number.isdigit() and base in groups else label


def _the(label: str, groups: Mapping[str, int]) -> str:
    """'the Nob' (the only one of its kind), 'Ork Boy 1' (one of several, by its label)."""
    return f"the {label}" if groups.get(label) == 1 else label
