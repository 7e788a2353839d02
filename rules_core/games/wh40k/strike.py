"""A 40K strike step: every pool that strikes at one Initiative strikes at once, each strike in the rules' stages
(to hit, to wound, saves, casualties) as functions called in order; an independent character dividing its hits
rolls to hit once and strikes each unit with its share."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_core.charts import to_hit_by_weapon_skill, to_wound
from rules_core.games.wh40k.allocation import allocate, deal_hits, wounds_event
from rules_core.games.wh40k.kinds import RENDING_CHECK
from rules_core.games.wh40k.majorities import TargetSnapshot, choose_save_type, snapshot
from rules_core.games.wh40k.psychic import force_weapon
from rules_core.games.wh40k.state import Fight, Pool, Role
from rules_core.games.wh40k.weapons import SaveType, describe_profile, effective_save
from rules_core.report import Event, Roll, Step, event
from rules_core.roll_kinds import INVULNERABLE_SAVE, SAVE, TO_HIT, TO_WOUND


def strike_step(fight: Fight, pools: list[Pool]) -> None:
    """Everyone in one step strikes simultaneously: attacks are counted before any casualty is removed."""
    counts = [(pool, pool.alive()) for pool in pools]
    snapshots: dict[int, TargetSnapshot] = {}
    for pool, models in counts:
        for target in pool.divide or (pool.target,):
            if models and id(target) not in snapshots and target.alive():
                snapshots[id(target)] = snapshot(target)
    for pool, models in counts:
        if not models or not pool.profile.attacks:
            continue
        if pool.divide:
            inflicted = strike_divided(fight, pool, models, snapshots)
        else:
            inflicted = strike(fight, pool, models, snapshots.get(id(pool.target)), sweep=False)
        fight.tally[pool.unit.side].wounds_inflicted += inflicted


def strike(
    fight: Fight,
    pool: Pool,
    models: int,
    snap: TargetSnapshot | None,
    *,
    sweep: bool,
    dealt: tuple[int, int, int] | None = None,
) -> int:
    """One pool's attacks on its target, or (``dealt``: hits, rending hits, all hits) the hits an independent
    character dividing its hits deals this target, written as one step; returns the wounds inflicted."""
    title, opening = _announce(pool, models, dealt)
    events = [opening]
    if snap is None or pool.target.alive_in_zone() == 0:
        events.append(_no_target(fight, pool))
        fight.steps.append(Step(title, (), tuple(events)))
        return 0
    rolls: list[Roll] = []
    blows = Blows(fight, pool, models, snap, sweep, dealt, rolls, events)
    hits, rends = roll_to_hit(blows)
    wounds = roll_to_wound(blows, hits - rends)
    unsaved, save_type = take_saves(blows, wounds, rends)
    inflicted = remove_casualties(blows, unsaved, save_type) if unsaved else 0
    fight.steps.append(Step(title, tuple(rolls), tuple(events)))
    return inflicted


def _announce(pool: Pool, models: int, dealt: tuple[int, int, int] | None) -> tuple[str, Event]:
    """A strike's title, and its first event: who strikes with what (or the hits dealt this target)."""
    profile, target, name = pool.profile, pool.target, pool.group.group.name
    role_text = "" if pool.role is Role.ENGAGED else " (supporting)"
    title = f"{pool.phase}: {name} ×{models}{role_text} → {target.label}"
    if dealt is not None:
        title += f" ({dealt[0]} of its {dealt[2]} hits)" if dealt[2] != 1 else " (its 1 hit)"
        return title, event(
            "hits_dealt",
            side=pool.unit.side.value,
            unit=pool.unit.label,
            target=target.label,
            hits=dealt[0],
            note=(
                f"{dealt[0]} of {name}'s {dealt[2]} hits on {target.label}."
                if dealt[2] != 1
                else f"{name}'s 1 hit on {target.label}."
            ),
        )
    return title, event(
        "strike",
        side=pool.unit.side.value,
        unit=pool.unit.label,
        group=name,
        models=models,
        attacks=models * profile.attacks,
        target=target.label,
        note=f"{models} {name}{role_text}: "
        + describe_profile(profile, pool.group.group.profile.a if pool.role is Role.ENGAGED else 1)
        + ".",
    )


def _no_target(fight: Fight, pool: Pool) -> Event:
    """No model of the target is left in reach: the attacks are lost (and why, when it was gone before the
    fight)."""
    target = pool.target
    return event(
        "no_target",
        unit=target.label,
        note=fight.lost_why.get(id(pool.unit), "")
        if not target.alive() and id(pool.unit) in fight.lost_why
        else f"No model of {target.label} is left within reach: the attacks are lost.",
    )


@dataclass(slots=True)
class Blows:
    """One strike as its stages write it: the pool striking and how (its models, in a sweeping advance or with hits
    dealt), the target's majorities, and the step's rolls and events so far."""

    fight: Fight
    pool: Pool
    models: int
    snap: TargetSnapshot
    sweep: bool
    dealt: tuple[int, int, int] | None
    rolls: list[Roll]
    events: list[Event]


def roll_to_hit(blows: Blows) -> tuple[int, int]:
    """To hit: WS against the target's majority WS (automatic in a sweeping advance; already rolled for hits
    dealt); returns the hits and how many of them are rending 6s."""
    profile, snap, events, dealt = blows.pool.profile, blows.snap, blows.events, blows.dealt
    attacks = blows.models * profile.attacks
    if dealt is not None:
        hits, rends = dealt[0], dealt[1]
    elif blows.sweep:
        hits = attacks
        rends = 0
        if profile.rending:
            check = blows.fight.roll_each(
                "rending check (hits are automatic)", attacks, 6, kind=RENDING_CHECK, side=blows.pool.unit.side
            )
            blows.rolls.append(check)
            rends = check.successes
        events.append(
            event(
                "automatic_hits",
                hits=attacks,
                note=f"Sweeping advance: all {attacks} attacks hit automatically.",
            )
        )
    else:
        if snap.ws_note:
            events.append(event("majority", stat="WS", unit=blows.pool.target.label, note=snap.ws_note))
        need_hit = to_hit_by_weapon_skill(profile.ws, snap.ws)
        hit_roll = blows.fight.roll_each(
            f"to hit (WS{profile.ws} vs WS{snap.ws})", attacks, need_hit, kind=TO_HIT, side=blows.pool.unit.side
        )
        blows.rolls.append(hit_roll)
        hits = hit_roll.successes
        rends = sum(1 for face in hit_roll.dice if face == 6) if profile.rending else 0
    if rends:
        events.append(
            event(
                "rending",
                hits=rends,
                note=f"{rends} rending 6{'s' if rends != 1 else ''} to hit: automatic wounds, no armour save.",
            )
        )
    return hits, rends


def roll_to_wound(blows: Blows, normal_hits: int) -> int:
    """To wound: Strength against the target's majority Toughness (or the poison's roll), for the hits that are
    not rending 6s; returns the wounds."""
    if not normal_hits:
        return 0
    profile, snap, events = blows.pool.profile, blows.snap, blows.events
    if profile.poisoned is not None:
        need_wound: int | None = profile.poisoned
        purpose = f"to wound (poisoned {profile.poisoned}+)"
    else:
        need_wound = to_wound(profile.strength, snap.t)
        purpose = f"to wound (S{profile.strength} vs T{snap.t})"
    if snap.t_note:
        events.append(event("policy", choice="tied_toughness", unit=blows.pool.target.label, note=snap.t_note))
    if need_wound is None:
        events.append(
            event(
                "no_effect",
                hits=normal_hits,
                note=f"S{profile.strength} cannot hurt T{snap.t}: the hits have no effect.",
            )
        )
        return 0
    wound_roll = blows.fight.roll_each(
        purpose,
        normal_hits,
        need_wound,
        reroll_failures=profile.reroll_wounds,
        kind=TO_WOUND,
        side=blows.pool.unit.side,
    )
    blows.rolls.append(wound_roll)
    return wound_roll.successes


def take_saves(blows: Blows, wounds: int, rends: int) -> tuple[int, SaveType]:
    """Saves: one roll per wound with the majority save the weapons leave (rending wounds: invulnerable saves
    only); returns the unsaved wounds and the save type used."""
    profile, target, events = blows.pool.profile, blows.pool.target, blows.events
    save_type, save_note = choose_save_type(blows.snap, target, profile)
    if save_note and (wounds or rends):
        events.append(event("policy", choice="tied_save", unit=target.label, note=save_note))
    unsaved = 0
    for count, rend in ((wounds, False), (rends, True)):
        if not count:
            continue
        if rend:
            value, kind = (save_type[1], "invulnerable save") if save_type[1] is not None else (None, "no save")
        else:
            value, kind = effective_save(save_type, profile)
        if value is None:
            unsaved += count
            events.append(
                event(
                    "no_save",
                    wounds=count,
                    note=f"{count} wound{'s' if count != 1 else ''}: no save possible.",
                )
            )
            continue
        save_roll = blows.fight.roll_each(
            kind, count, value, kind=INVULNERABLE_SAVE if kind == "invulnerable save" else SAVE, side=target.side
        )
        blows.rolls.append(save_roll)
        unsaved += count - save_roll.successes
    return unsaved, save_type


def remove_casualties(blows: Blows, unsaved: int, save_type: SaveType) -> int:
    """Casualties: the unsaved wounds allocated and the dead removed, then the force weapons' psychic tests;
    returns the wounds inflicted."""
    pool, events = blows.pool, blows.events
    target = pool.target
    inflicted, killed, discarded, survivors = allocate(target, unsaved, save_type)
    events.append(wounds_event(target, unsaved, inflicted, discarded, sweep=blows.sweep))
    if killed:
        events.append(event("casualty", side=target.side.value, unit=target.label, models=killed))
    if pool.profile.force and inflicted and pool.role is Role.ENGAGED:
        force_weapon(blows.fight, pool, survivors, blows.rolls, events, psykers=blows.models, sweep=blows.sweep)
    return inflicted


def strike_divided(fight: Fight, pool: Pool, models: int, snapshots: dict[int, TargetSnapshot]) -> int:
    """An independent character dividing its hits between the units it is engaged with: one roll to hit, then
    the hits dealt between the units (decision 15), each resolved as a strike on that unit."""
    profile, group = pool.profile, pool.group.group
    targets = [t for t in pool.divide if id(t) in snapshots and t.alive_in_zone()]
    attacks = models * profile.attacks
    title = f"{pool.phase}: {group.name} ×{models} → " + ", ".join(t.label for t in pool.divide)
    events: list[Event] = [
        event(
            "strike",
            side=pool.unit.side.value,
            unit=pool.unit.label,
            group=group.name,
            models=models,
            attacks=attacks,
            target=", ".join(t.label for t in pool.divide),
            note=f"{models} {group.name}: " + describe_profile(profile, group.profile.a) + ", dividing its hits.",
        )
    ]
    if not targets:
        events.append(
            event(
                "no_target",
                unit=pool.target.label,
                note="No enemy model is left within reach: the attacks are lost.",
            )
        )
        fight.steps.append(Step(title, (), tuple(events)))
        return 0
    for target in targets:
        ws_note = snapshots[id(target)].ws_note
        if ws_note:
            events.append(event("majority", stat="WS", unit=target.label, note=ws_note))
    needs = {id(t): to_hit_by_weapon_skill(profile.ws, snapshots[id(t)].ws) for t in targets}
    need = max(needs.values())
    # The hardest WS among the units it divides between (the highest of those needing the worst roll).
    ws = max(snapshots[id(t)].ws for t in targets if needs[id(t)] == need)
    hit_roll = fight.roll_each(f"to hit (WS{profile.ws} vs WS{ws})", attacks, need, kind=TO_HIT, side=pool.unit.side)
    dealt = deal_hits(
        [face for face, hit in zip(hit_roll.dice, hit_roll.success, strict=True) if hit],
        [pool.unit.unit.divide.index(t.index + 1) for t in targets],
        [(pool.unit.unit.divide.index(number), most) for number, most in pool.unit.unit.hits],
    )
    total = hit_roll.successes
    lost = total - sum(len(faces) for faces in dealt)  # beyond every cap of hits= (decision 15)
    shares = []
    for target, faces in zip(targets, dealt, strict=True):
        shares.append(f"{len(faces)} on {target.label}")
    how = "default policy: one at a time in turn, in vs= order; hits= chooses"
    if pool.unit.unit.hits:  # the capped units take their hits first, up to their caps (decision 15)
        labels = {t.index + 1: t.label for t in targets}
        firsts = [f"up to {most} on {labels[n]}" for n, most in pool.unit.unit.hits if n in labels]
        how = "hits= first: " + ", ".join(firsts) + ", the rest in turn"
    why = (
        f" (against WS{ws}, the hardest of the units it divides between: the hits are dealt after the roll)"
        if len({snapshots[id(t)].ws for t in targets}) > 1
        else ""
    )
    events.append(
        event(
            "divide_hits",
            side=pool.unit.side.value,
            unit=pool.unit.label,
            hits=total,
            shares={t.label: len(f) for t, f in zip(targets, dealt, strict=True)},
            note=f"{group.name} scores {total} hit{'s' if total != 1 else ''}{why} and divides "
            + ("them: " if total != 1 else "it: ")
            + ", ".join(shares)
            + f" ({how})"
            + (
                f"; {lost} hit{'s' if lost != 1 else ''} lost: hits= caps every unit it is engaged with."
                if lost
                else "."
            ),
            **({"lost": lost} if lost else {}),
        )
    )
    fight.steps.append(Step(title, (hit_roll,), tuple(events)))
    inflicted = 0
    for target, faces in zip(targets, dealt, strict=True):
        if not faces:
            continue
        rends = sum(1 for face in faces if face == 6) if profile.rending else 0
        share = replace(pool, target=target, divide=())
        inflicted += strike(fight, share, models, snapshots[id(target)], sweep=False, dealt=(len(faces), rends, total))
    return inflicted
