"""Whom each 40K unit fights, and when, for the step that says who fights and who strikes first: the unit that
models fight instead when theirs was destroyed before the fight (decision 20), charging into cover with grenades
(decision 12), and the notes that describe each unit's fighters and targets."""

from __future__ import annotations

import functools

from rules_core.games.wh40k.charging import named, unit_charged
from rules_core.games.wh40k.choosing import choice_note, fighting_unit, weapon_traits
from rules_core.games.wh40k.spec import FRAG, PLASMA, POWER_FIST, Grenades, Unit
from rules_core.games.wh40k.state import Fight, Pool, UnitState, fights_in_contact
from rules_core.games.wh40k.weapons import describe_profile, engaged_profile
from rules_core.report import Event, SideName, event


def fight_instead(fight: Fight, state: UnitState, events: list[Event]) -> UnitState | None:
    """Decision 20: models whose target was destroyed before a blow was struck (it failed to regroup) fight the
    first enemy unit that declared models in base contact with their unit; the report says so (or why their
    attacks are lost)."""
    enemies = fight.units[state.side.other]
    assert state.target is not None
    aimed: list[UnitState]
    if state.unit.divide:
        aimed = [] if any(e.alive() for e in state.targets) else list(state.targets)
    else:
        aimed = [
            enemies[aim - 1] if aim else state.target
            for g in state.unit.groups
            for aim, engaged, supporting in (g.split or [(0, g.engaged, g.supporting)])
            if engaged + supporting
        ]
    gone = [e for e in dict.fromkeys(aimed) if not e.alive()]
    if not gone:
        return None
    instead = next(
        (
            enemy
            for enemy in enemies
            if enemy.alive() and any(fights_in_contact(enemy, g.group, state) for g in enemy.groups)
        ),
        None,
    )
    names = " and ".join(e.label for e in gone)
    was = "were" if len(gone) > 1 else "was"
    if instead is not None:
        events.append(
            event(
                "retarget",
                side=state.side.value,
                unit=state.label,
                target=instead.label,
                note=f"{names} {was} destroyed before a blow was struck, so it engages nobody: {state.label}'s "
                f"models that would fight it fight {instead.label}, whose models are in base contact with "
                f"{state.label}.",
            )
        )
    else:
        fight.lost_why[id(state)] = (
            f"{names} {was} destroyed before a blow was struck and no other enemy unit has models in base "
            f"contact with {state.label}: the attacks are lost."
        )
    return instead


def grenades_used(state: UnitState, pools: list[Pool]) -> tuple[Grenades, str | None]:
    """The grenades a charging unit uses, and a policy note when it carries both kinds."""
    unit = state.unit
    has_frag, has_plasma = unit.carries(FRAG), unit.carries(PLASMA)
    if has_frag and has_plasma:
        if unit.grenades is not None:
            return unit.grenades, None
        own = max((p.profile.initiative for p in pools if p.unit is state), default=0)
        target = state.target
        theirs = max((p.profile.initiative for p in pools if p.unit is target), default=0)
        choice = Grenades.PLASMA if own > theirs else Grenades.FRAG
        why = (
            "it strikes before them in Initiative order"
            if choice is Grenades.PLASMA
            else ("it would not strike first in Initiative order")
        )
        return choice, (
            f"{state.label} carries frag and plasma grenades and uses {choice.value} grenades: {why} "
            "(default policy; grenades=frag or grenades=plasma chooses)."
        )
    if has_plasma:
        return Grenades.PLASMA, None
    if has_frag:
        return Grenades.FRAG, None
    return Grenades.NONE, None


def apply_cover(fight: Fight, pools: list[Pool]) -> list[Event]:
    """A charge into cover: the pools that strike first move to the Cover step, and each defending unit is told
    why it strikes when it does."""
    events: list[Event] = []
    grenades: dict[int, Grenades] = {}
    covered = fight.covered
    for state in fight.units[SideName.ATTACKER]:
        if not unit_charged(fight, state):  # grenades matter only to a unit charging (decision 21)
            grenades[id(state)] = Grenades.NONE
            continue
        used, note = grenades_used(state, pools)
        grenades[id(state)] = used
        if note:
            events.append(event("policy", choice="grenades", side="attacker", unit=state.label, note=note))
    fists_at_1 = fight.options.get("cover_power_fists") == "initiative_1"
    for pool in pools:
        if fists_at_1 and POWER_FIST in pool.profile.weapons:
            continue  # cover_power_fists=initiative_1: a power fist strikes at Initiative 1 even then
        if pool.unit.side is SideName.DEFENDER:
            if id(pool.unit) in covered and grenades[id(pool.target)] is not Grenades.PLASMA and _first_at(fight, pool):
                pool.priority, pool.phase = (0, 0), "Cover"
        elif grenades[id(pool.unit)] is Grenades.FRAG and id(pool.target) in covered:
            pool.priority, pool.phase = (0, 0), "Cover"
    for state in fight.units[SideName.DEFENDER]:
        if id(state) not in covered:
            continue
        assert state.target is not None
        used = grenades[id(state.target)]
        if used is Grenades.PLASMA:
            note = (
                f"{state.label} is in cover, but {state.target.label} assaults with plasma grenades: "
                "they fight in Initiative order."
            )
        elif used is Grenades.FRAG:
            note = (
                f"{state.label} is in cover and strikes first, but {state.target.label} throws frag grenades "
                "and strikes simultaneously with them."
            )
        elif (swept := _swept(fight, state)) and (charging := [t for t in state.targets if t not in swept]):
            note = (
                f"{state.label} was charged in cover by {named(charging)}: its models fighting {named(charging)} "
                f"strike first, regardless of Initiative; those fighting {named(swept)}, who fought it before this "
                "turn, strike in Initiative order (the fighting there has swept into the cover)."
            )
        else:
            note = f"{state.label} was charged in cover: all its models strike first, regardless of Initiative."
        events.append(event("cover", side="defender", unit=state.label, grenades=used.value, note=note))
    return events


def _first_at(fight: Fight, pool: Pool) -> bool:
    """Whether a defending unit in cover strikes first at this pool's target: only at a unit that charged this turn
    ("cover advantage applies only to models in cover that are being charged"; in a later round, "the first round
    of close combat fighting is assumed to have swept into the cover", decision 21)."""
    return unit_charged(fight, pool.target)


def _swept(fight: Fight, state: UnitState) -> list[UnitState]:
    """The units a defending unit in cover fights without its cover advantage: those that did not charge this turn
    (a unit marked not-charged in round 1, the units fighting on in a later round)."""
    found = state.targets or ([state.target] if state.target is not None else [])
    return [target for target in found if not unit_charged(fight, target)]


def targets_text(state: UnitState, instead: UnitState | None = None) -> str:
    """The enemy unit a unit fights, or every one it divides its attacks between ("Ork Boy and Nob"); units
    destroyed before the fight are left out (``instead`` fights in their place, decision 20)."""
    assert state.target is not None
    if len(state.targets) < 2 and instead is None:  # the common case: one enemy unit
        return state.target.label if not state.targets else state.targets[0].label
    found = state.targets or [state.target]
    alive = [target for target in found if target.alive()]
    if state.unit.divide and alive:
        found = alive
    elif instead is not None:
        found = [t if t.alive() else instead for t in found]
    labels = list(dict.fromkeys(target.label for target in found))
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def dividing_note(state: UnitState, enemies: list[UnitState]) -> str:
    """How a unit divides its attacks between enemy units (nothing when it fights one)."""
    if (
        len(state.targets) < 2 or len([e for e in state.targets if e.alive()]) < 2
    ):  # one enemy unit left (the other died): nothing divided
        return ""
    if state.unit.divide:
        return " It divides its hits between them."
    parts = []
    for group in state.unit.groups:
        for target, engaged, supporting in group.split:
            text = f"{engaged} {group.name} in base contact"
            if supporting:
                text += f' and {supporting} within 2"'
            parts.append(f"{text} {'fights' if engaged + supporting == 1 else 'fight'} {enemies[target - 1].label}")
    return " Dividing its attacks: " + "; ".join(parts) + "."


@functools.lru_cache(maxsize=4096)  # the same units fight again and again
def fighting_note(
    unit: Unit, label: str, target: str, charged: bool, fists_in_cover: bool = False, *, traits: bool = False
) -> str:
    """Whom a unit fights, and how its models in base contact, within 2" and out of reach take part."""
    parts = []
    for group in unit.groups:
        if group.engaged:
            profile = engaged_profile(group, charged=charged, traits=traits)
            if not profile.attacks:
                they = "they" if group.engaged != 1 else "it"
                parts.append(f"{group.engaged} {group.name} in base contact: no attacks (A0), but {they} can be hit")
                continue
            when = ""
            if fists_in_cover and POWER_FIST in profile.weapons:
                when = ", in the Cover step with its unit"
            elif profile.initiative != group.profile.i:
                when = f", at Initiative {profile.initiative}"
            parts.append(
                f"{group.engaged} {group.name} in base contact: " + describe_profile(profile, group.profile.a) + when
            )
        if group.supporting:
            parts.append(f'{group.supporting} {group.name} within 2": 1 attack each')
        if group.out_of_fight:
            parts.append(f"{group.out_of_fight} {group.name} out of reach (do not fight, cannot be hit)")
    return f"{label} fights {target}: " + "; ".join(parts) + "."


def say_where_fists_strike(
    fight: Fight,
    events: list[Event],
    pools: list[Pool],
    fist_notes: list[tuple[int, Pool]],
    fighting_notes: list[tuple[int, UnitState, bool, str, str]],
) -> None:
    """Power fists moved into the Cover step (decision 12) are said to strike there, not at Initiative 1."""
    in_cover = {id(pool.unit) for pool in pools if pool.phase == "Cover" and POWER_FIST in pool.profile.weapons}
    for index, pool in fist_notes:
        choice = fight.weapon_choices.get(id(pool.group))
        if pool.phase == "Cover" and choice is not None:
            note = choice_note(pool.group, choice, in_cover=True)
            events[index] = event(events[index].kind, **{**dict(events[index].fields), "note": note})
    for index, state, charged, dividing, targets in fighting_notes:
        if id(state) in in_cover:
            assert state.target is not None
            unit = fighting_unit(state)
            note = fighting_note(unit, state.label, targets, charged, True, traits=weapon_traits(fight)) + dividing
            events[index] = event(events[index].kind, **{**dict(events[index].fields), "note": note})
