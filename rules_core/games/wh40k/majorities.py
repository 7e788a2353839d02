"""A 40K target unit's majority values (WS, T and save), fixed at the start of each strike step, and the owner's
choice when they tie (decision 8)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules_core.games.wh40k.spec import NO_ARMOUR
from rules_core.games.wh40k.state import UnitState
from rules_core.games.wh40k.weapons import AttackProfile, SaveType, effective_save


def majority(values: Counter[int], *, on_tie: str) -> tuple[int, list[int]]:
    """The most common value, and the tied values when there is no single majority."""
    top = max(values.values())
    tied = sorted(value for value, count in values.items() if count == top)
    if len(tied) == 1:
        return tied[0], []
    return (tied[0] if on_tie == "lowest" else tied[-1]), tied


def majority_ws(values: Counter[int], *, over_half: bool) -> tuple[int, str | None]:
    """The Weapon Skill attacks are resolved against: the majority type's, or with no majority the lowest in the
    unit (the rule), with a note saying why. The majority type is the single most common value, or with
    ``over_half`` (option ws_majority=over_half) a value held by more than half of the models."""
    top = max(values.values())
    tied = sorted(value for value, count in values.items() if count == top)
    total = sum(values.values())
    if len(tied) == 1 and (not over_half or 2 * top > total):
        return tied[0], None
    lowest = min(values)
    why = (
        f"WS{' and WS'.join(map(str, tied))} tie for the most models"
        if len(tied) > 1
        else f"WS{tied[0]} is the most common but not held by more than half of the models (ws_majority=over_half)"
    )
    return lowest, f"{why}: there is no majority Weapon Skill, so the lowest in the unit, WS{lowest}, is used."


@dataclass(frozen=True, slots=True)
class TargetSnapshot:
    """Majority values of a target unit, fixed at the start of a strike step."""

    ws: int
    t: int
    t_note: str | None
    save_counts: tuple[tuple[SaveType, int], ...]
    ws_note: str | None = None


def snapshot(unit: UnitState) -> TargetSnapshot:
    """``unit``'s majority WS and T, with the saves of its living models, as a strike step begins."""
    profiles = unit.alive_profiles()
    if len(profiles) == 1:  # one profile alive: it is every majority, and nothing is tied
        group, alive = profiles[0]
        return TargetSnapshot(group.profile.ws, group.profile.t, None, ((group.profile.save_type, alive),))
    ws_counts: Counter[int] = Counter()
    t_counts: Counter[int] = Counter()
    save_counts: Counter[SaveType] = Counter()
    for group, alive in profiles:
        ws_counts[group.profile.ws] += alive
        t_counts[group.profile.t] += alive
        save_counts[group.profile.save_type] += alive
    ws, ws_note = majority_ws(ws_counts, over_half=unit.ws_over_half)
    if ws_note:
        ws_note = f"{unit.label}: {ws_note}"
    t, tied = majority(t_counts, on_tie="highest")
    t_note = None
    if tied:
        chosen = unit.unit.tie_t if unit.unit.tie_t in tied else t
        how = "tie-t" if chosen == unit.unit.tie_t else "default policy: the highest"
        t_note = f"{unit.label}: Toughness tied between {', '.join(map(str, tied))}; the owner uses T{chosen} ({how})."
        t = chosen
    return TargetSnapshot(ws, t, t_note, tuple(save_counts.items()), ws_note)


def choose_save_type(snap: TargetSnapshot, unit: UnitState, profile: AttackProfile) -> tuple[SaveType, str | None]:
    """The majority save type ``unit`` takes against ``profile``'s attacks, and a note when saves tie."""
    counts = dict(snap.save_counts)
    top = max(counts.values())
    tied = [save_type for save_type, count in counts.items() if count == top]
    if len(tied) == 1:
        return tied[0], None

    def goodness(save_type: SaveType) -> int:
        value, _ = effective_save(save_type, profile)
        return 7 if value is None else value

    chosen_from = tied
    how = "default policy: the best save against these attacks"
    if unit.unit.tie_save is not None:
        wanted = [s for s in tied if (NO_ARMOUR if s[0] is None else s[0]) == unit.unit.tie_save]
        if wanted:
            chosen_from, how = wanted, "tie-save"
    chosen = min(chosen_from, key=goodness)
    names = ", ".join(_save_type_text(s) for s in tied)
    return (
        chosen,
        f"{unit.label}: saves tied between {names}; the owner uses {_save_type_text(chosen)} ({how}).",
    )


def _save_type_text(save_type: SaveType) -> str:
    sv, inv = save_type
    text = "Sv-" if sv is None else f"Sv{sv}+"
    return text + (f" Inv{inv}+" if inv is not None else "")
