"""Where a unit's models stand in a later round of a 40K combat: in base contact, within 2", or out of reach.

A combat that goes on is fought again next turn with the survivors. By default each unit keeps the round's
counts of models in base contact and within 2" of them, capped by the models it has left (decision 7): the
casualties came from those models, and the pile-in moves the others up to take their places. The players may
give other positions per unit (``Ork Boy=6:4 | Nob=1``); both are written here, for the engine (the survivors it
reports) and for the front ends (the positions a player gives when continuing).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules_core.errors import SpecError
from rules_core.games.wh40k.spec import Side, Unit

POSITIONS_EXAMPLE = "Ork Boy=6:4 | Nob=1"

ENGAGED, SUPPORTING, OUT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Model:
    """One living model: its group in the unit, the wounds it has left, where it stood (0, 1 or 2), and the
    enemy unit it fought when its group divided its models between units (vs=1:6,2:2; 0 otherwise)."""

    group: int
    wounds: int
    role: int
    aim: int = 0


def unit_labels(side: Side) -> list[str]:
    """The units' names as the report writes them: a name used twice is numbered ('Ork Boy #2')."""
    seen = Counter(unit.name for unit in side.units)
    numbering: Counter[str] = Counter()
    labels = []
    for unit in side.units:
        label = unit.name
        if seen[unit.name] > 1:
            numbering[unit.name] += 1
            label = f"{unit.name} #{numbering[unit.name]}"
        labels.append(label)
    return labels


def models_of(unit: Unit) -> list[Model]:
    """Every model of a unit as written (each group's models in base contact, then within 2", then the rest)."""
    models = []
    for index, group in enumerate(unit.groups):
        roles = [ENGAGED] * group.engaged + [SUPPORTING] * group.supporting + [OUT] * group.out_of_fight
        aims = [0] * group.count
        if group.split:
            aims = [target for target, engaged, _ in group.split for _ in range(engaged)]
            aims += [target for target, _, supporting in group.split for _ in range(supporting)]
            aims += [0] * group.out_of_fight
        models += [Model(index, group.profile.w, role, aim) for role, aim in zip(roles, aims, strict=True)]
    return models


def place(unit: Unit, models: Sequence[Model], engaged: int, supporting: int, vs: int) -> Unit:
    """``unit`` with only ``models``, ``engaged`` of them in base contact and ``supporting`` within 2".

    The places are filled from the models in base contact, then those within 2", then those out of reach (the
    pile-in moves models up; nobody steps back), each in the unit's order. A model with fewer wounds left than
    its profile becomes a group of its own whose W is what it has left. A group that divided its models between
    enemy units keeps each model's enemy (``aim``; a model that was out of reach fights the unit's ``vs``).
    """
    order = sorted(range(len(models)), key=lambda i: (models[i].role, i))
    roles = [OUT] * len(models)
    for rank, i in enumerate(order):
        roles[i] = ENGAGED if rank < engaged else SUPPORTING if rank < engaged + supporting else OUT
    counts: dict[tuple[int, int], list[int]] = {}
    aims: dict[tuple[int, int], dict[int, list[int]]] = {}
    for model, role in zip(models, roles, strict=True):
        key = (model.group, model.wounds)
        counts.setdefault(key, [0, 0, 0])[role] += 1
        if role != OUT:
            aims.setdefault(key, {}).setdefault(model.aim or vs, [0, 0])[role] += 1
    groups = []
    for key in sorted(counts, key=lambda key: (key[0], -key[1])):
        group_index, wounds = key
        e, s, o = counts[key]
        group = unit.groups[group_index]
        profile = group.profile if wounds == group.profile.w else replace(group.profile, w=wounds)
        split = tuple((aim, ae, asu) for aim, (ae, asu) in aims.get(key, {}).items()) if group.split else ()
        groups.append(replace(group, count=e + s + o, engaged=e, supporting=s, profile=profile, split=split))
    if all(group.split for group in groups):  # as the parser reads it: every group names its own enemies
        vs = groups[0].split[0][0]
    return replace(unit, groups=tuple(groups), vs=vs)


def kept(unit: Unit, models: Sequence[Model], vs: int) -> Unit:
    """The default for the next round: this round's counts, capped by the models left."""
    engaged = min(sum(g.engaged for g in unit.groups), len(models))
    supporting = min(sum(g.supporting for g in unit.groups), len(models) - engaged)
    return place(unit, models, engaged, supporting, vs)


def describe(unit: Unit) -> str:
    engaged = sum(g.engaged for g in unit.groups)
    supporting = sum(g.supporting for g in unit.groups)
    out = unit.models - engaged - supporting
    text = f"{engaged} in base contact"
    if supporting:
        text += f', {supporting} within 2"'
    if out:
        text += f", {out} out of reach"
    return text


def _refuse(message: str, token: str, labels: list[str], unit: Unit | None = None, label: str = "") -> SpecError:
    """A refusal whose example fits: the unit named, when known, with counts it can take."""
    name = label or (labels[0] if labels else "Ork Boy")
    engaged, supporting = (3, 2) if unit is None else ((unit.models + 1) // 2, unit.models // 2)
    placed = f"{engaged} in base contact" + (f', {supporting} within 2" of them' if supporting else "")
    return SpecError(message, token=token, example=f"{name}={engaged}:{supporting} ({placed})")


def apply_positions(side: Side, text: str | None, *, side_name: str = "side") -> tuple[Side, list[str]]:
    """``side`` with the positions a player gave (``Name=E:S`` per unit, separated by ``|``), and which units got
    them. ``Name`` is the unit's name as the report writes it, or its number; ``:S`` may be left out (0 within 2").
    """
    if text is None or not text.strip():
        return side, []
    labels = unit_labels(side)
    lookup = {label.casefold(): index for index, label in enumerate(labels)}
    units = list(side.units)
    given: list[str] = []
    done: set[int] = set()
    for entry in (part.strip() for part in text.replace(";", "|").split("|")):
        if not entry:
            continue
        name, equals, counts = entry.rpartition("=")
        name = " ".join(name.split())
        if not equals or not name:
            raise _refuse(f"'{entry}': give each unit's positions as name=engaged:supporting.", entry, labels)
        if name.isdigit() and 1 <= int(name) <= len(units):
            index = int(name) - 1
        elif name.casefold() in lookup:
            index = lookup[name.casefold()]
        else:
            raise _refuse(
                f"'{name}' is not one of the {side_name}'s units still fighting: "
                + ", ".join(f"'{label}'" for label in labels)
                + " (or their numbers, from 1).",
                name,
                labels,
            )
        if index in done:
            raise _refuse(f"'{labels[index]}' is given positions twice.", entry, labels)
        done.add(index)
        engaged_text, _, supporting_text = counts.strip().partition(":")
        if not engaged_text.strip().isdigit() or (supporting_text and not supporting_text.strip().isdigit()):
            raise _refuse(
                f"'{entry}': the positions are two whole numbers, in base contact and within 2\".",
                entry,
                labels,
            )
        engaged, supporting = int(engaged_text), int(supporting_text or 0)
        unit = units[index]
        if engaged < 1:
            raise _refuse(
                f"'{entry}': a unit still in the combat has at least one model in base contact (the pile-in "
                "brings them into contact).",
                entry,
                labels,
                unit,
                labels[index],
            )
        if engaged + supporting > unit.models:
            raise _refuse(
                f"'{entry}': {labels[index]} has {unit.models} model{'s' if unit.models != 1 else ''} left, "
                f'but {engaged} in base contact and {supporting} within 2" make {engaged + supporting}.',
                entry,
                labels,
                unit,
                labels[index],
            )
        units[index] = place(unit, models_of(unit), engaged, supporting, unit.vs)
        given.append(f"{labels[index]}: {describe(units[index])}")
    return Side(tuple(units)), given
