"""Who is hit and who dies in 40K: an independent character's hits dealt between the units it fights (decision
15), and unsaved wounds allocated one model at a time within the danger zone, in the owner's casualty order
(decisions 3 and 10)."""

from __future__ import annotations

from rules_core.games.wh40k.spec import DIES_FIRST, DIES_LAST
from rules_core.games.wh40k.state import GroupState, Role, UnitState
from rules_core.games.wh40k.weapons import SaveType
from rules_core.report import Event, event

CASUALTY_POLICY = event(
    "policy",
    choice="casualties",
    note="Which models die (the owner's choice): first models with the save that was used (the rule), "
    "then dies-first groups before others and dies-last groups last; within those a model already "
    "wounded, then supporting models before those in base contact, then the largest group (the rank "
    'and file before a sergeant). Only models in base contact or within 2" of them (the danger zone, '
    "fixed now) can be hit.",
)  # the same in every report (events are immutable, so one serves all)


def deal_hits(faces: list[int], order: list[int], caps: list[tuple[int, int]]) -> list[list[int]]:
    """Deal the hit dice ``faces`` (in the order rolled) between units (positions 0..n-1 of ``order``, the units
    still in reach in vs= order): first ``caps`` (position, at most N) in order, then the rest one at a time in turn
    between the units with no cap (``hits=2:1`` puts at most 1 hit on unit 2). Hits that no unit can take (every
    unit in reach capped) are dealt to none: the caller counts them lost."""
    dealt: list[list[int]] = [[] for _ in order]
    remaining = list(faces)
    capped: set[int] = set()
    for position, most in caps:
        if position in order:
            slot = order.index(position)
            dealt[slot] += remaining[:most]
            remaining = remaining[most:]
            capped.add(slot)
    free = [slot for slot in range(len(order)) if slot not in capped]
    for number, face in enumerate(remaining if free else ()):
        dealt[free[number % len(free)]].append(face)
    return dealt


def wounds_event(target: UnitState, unsaved: int, inflicted: int, discarded: int, *, sweep: bool = False) -> Event:
    """The unsaved wounds on ``target``: how many count, and why the others do not (in a sweeping advance none
    counts for the result, which came before it: how many were taken off models)."""
    note = f"{unsaved} unsaved wound{'s' if unsaved != 1 else ''} on {target.label}"
    if inflicted != unsaved:
        extra = unsaved - inflicted - discarded
        parts = []
        if extra:
            parts.append(f"{extra} lost beyond a model's Wounds")
        if discarded:
            parts.append(f"{discarded} discarded: no model left within reach")
        note += f" ({inflicted} {'taken off models' if sweep else 'count'}; " + "; ".join(parts) + ")"
    if sweep:
        note += (": they do not" if unsaved != 1 else ": it does not") + " count for the assault result (the " \
            "sweeping advance comes after it)"  # fmt: skip
    return event(
        "wounds",
        side=target.side.value,
        unit=target.label,
        unsaved=unsaved,
        inflicted=inflicted,
        discarded=discarded,
        note=note + ".",
    )


def allocate(target: UnitState, wounds: int, save_type: SaveType) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """Allocate unsaved wounds one model at a time within the danger zone.

    Returns (wounds actually inflicted, models killed, wounds discarded for want of a
    model in reach, models wounded by these wounds that survived).
    """
    if all(g.full_wounds == 1 for g in target.groups):
        return _allocate_single_wounds(target, wounds, save_type)
    return _allocate_any(target, wounds, save_type)


def _allocate_any(
    target: UnitState, wounds: int, save_type: SaveType
) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """allocate() for any models (the general rule; _allocate_single_wounds is its shortcut)."""
    inflicted = killed = 0
    wounded_here: dict[tuple[int, int], tuple[GroupState, int]] = {}
    # Sort once by everything but "already wounded" (the rule first: the save that was used; then the
    # owner's choices). Only the model a batch stops on is left partly wounded, so the wounded are few and
    # are tracked apart; each pick is the better of the first unwounded model and the best wounded one.
    order: list[tuple[tuple[int, int, int, int, int], GroupState, int]] = []
    wounded: list[tuple[tuple[int, int, int, int, int], GroupState, int]] = []
    for group_index, g in enumerate(target.groups):
        group = g.group
        priority = 0 if DIES_FIRST in group.keywords else 2 if DIES_LAST in group.keywords else 1
        mismatch = 0 if group.profile.save_type == save_type else 1
        for index, role in enumerate(g.roles):
            left = g.wounds[index]
            if role is Role.OUT or left <= 0:
                continue
            entry = ((mismatch, priority, int(role is Role.ENGAGED), -group.count, group_index), g, index)
            (wounded if left < g.full_wounds else order).append(entry)
    order.sort(key=lambda entry: entry[0])
    position = 0
    while wounds > 0:
        wounded = [entry for entry in wounded if entry[1].wounds[entry[2]] > 0]
        while position < len(order) and order[position][1].wounds[order[position][2]] <= 0:
            position += 1
        choices = wounded[:]
        if position < len(order):
            choices.append(order[position])
        if not choices:
            break
        # Among equal rule-and-choice ranks a wounded model goes first.
        best = min(
            choices, key=lambda entry: (entry[0][:2], entry[1].wounds[entry[2]] == entry[1].full_wounds, entry[0][2:])
        )
        _, g, index = best
        taken = min(wounds, g.wounds[index])
        wounds -= taken
        inflicted += taken
        wounded_here[(id(g), index)] = (g, index)
        if g.wound(index, taken):
            killed += 1
        elif best not in wounded:
            wounded.append(best)
    survivors = [(g, index) for g, index in wounded_here.values() if g.wounds[index] > 0]
    return inflicted, killed, wounds, survivors


def _allocate_single_wounds(
    target: UnitState, wounds: int, save_type: SaveType
) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """allocate() when every model has one wound (the common case): each wound kills the next model in the same
    order (models of one group and role in turn, in model order), none is left partly wounded, and the wounds
    beyond the last model in reach are lost."""
    buckets: list[tuple[tuple[int, int, int, int, int], GroupState, Role]] = []
    for group_index, g in enumerate(target.groups):
        group = g.group
        priority = 0 if DIES_FIRST in group.keywords else 2 if DIES_LAST in group.keywords else 1
        mismatch = 0 if group.profile.save_type == save_type else 1
        for role in (Role.ENGAGED, Role.SUPPORTING):
            if g.alive_by_role[role]:
                buckets.append(((mismatch, priority, int(role is Role.ENGAGED), -group.count, group_index), g, role))
    buckets.sort(key=lambda bucket: bucket[0])
    killed = 0
    for _, g, role in buckets:
        for index, (left, its_role) in enumerate(zip(g.wounds, g.roles, strict=True)):
            if killed == wounds:
                return killed, killed, 0, []
            if left > 0 and its_role is role:
                g.wound(index, 1)
                killed += 1
    return killed, killed, wounds - killed, []
