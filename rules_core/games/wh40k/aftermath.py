"""What follows a 40K assault's result (steps 5 and 6 and after): the loser's morale tests and fall back, the
winners' sweeping advances, then consolidation, or the combat continuing next turn with the survivors."""

from __future__ import annotations

import functools
from dataclasses import replace

from rules_core.games.wh40k.choosing import weapon_traits
from rules_core.games.wh40k.majorities import snapshot
from rules_core.games.wh40k.positions import Model, describe, kept
from rules_core.games.wh40k.spec import BIKE, JUMP_PACK, Side, Unit, format_side, this_turn_only
from rules_core.games.wh40k.state import Fight, Pool, Role, UnitState
from rules_core.games.wh40k.strike import strike
from rules_core.games.wh40k.weapons import engaged_profile
from rules_core.report import Event, Op, Roll, SideName, Step, Target, Winner, event
from rules_core.roll_kinds import FALL_BACK_DISTANCE, LEADERSHIP, SWEEP

FALL_BACK_DICE = 2
FAST_FALL_BACK_DICE = 3
CONSOLIDATE_INCHES = 3
PILE_IN_INCHES = 6


def morale_step(fight: Fight, losing: SideName) -> dict[int, tuple[UnitState, int]]:
    """Each surviving losing unit tests Leadership; returns the units that fall back with their roll."""
    winning = losing.other
    margin = fight.tally[winning].wounds_inflicted - fight.tally[losing].wounds_inflicted
    per_wound = fight.options.get("morale_modifier") == "per_wound"
    double_one = bool(fight.options.get("double_one_passes"))
    rolls: list[Roll] = []
    events: list[Event] = []
    failed: list[UnitState] = []
    for state in fight.units[losing]:
        if not state.alive():
            continue
        ld = state.highest_leadership()
        modifier = max(margin, 0) if per_wound else 0
        target = Target(Op.AT_MOST, ld - modifier)
        roll = fight.roll_2d6_test(
            f"Leadership ({state.label})", target, double_one_passes=double_one, kind=LEADERSHIP, side=losing
        )
        rolls.append(roll)
        faces, passed = list(roll.dice), bool(roll.successes)
        fight.tally[losing].morale.append(
            {"unit": state.label, "dice": list(faces), "target": target.value, "passed": passed}
        )
        detail = f"Ld{ld}" + (f" -{modifier} (lost by {modifier})" if modifier else "")
        if double_one and faces == [1, 1] and not target.met_by(sum(faces)):
            detail += "; a double 1 always passes"
        events.append(
            event(
                "morale",
                side=losing.value,
                unit=state.label,
                passed=passed,
                note=f"{state.label} {'holds its ground' if passed else 'fails'} ({sum(faces)} against {detail}).",
            )
        )
        if not passed:
            failed.append(state)
    if events:  # no step when nobody is left to test (the loser was wiped out)
        fight.steps.append(Step("Loser checks morale", tuple(rolls), tuple(events)))
    if not failed:
        return {}
    rolls, events = [], []
    fallen: dict[int, tuple[UnitState, int]] = {}
    for state in failed:
        fast = all(BIKE in g.group.keywords or JUMP_PACK in g.group.keywords for g in state.groups if g.alive())
        count = FAST_FALL_BACK_DICE if fast else FALL_BACK_DICE
        roll = fight.roll_distance(f"fall back ({state.label})", count, kind=FALL_BACK_DISTANCE, side=state.side)
        rolls.append(roll)
        distance = sum(roll.dice)
        fallen[id(state)] = (state, distance)
        events.append(
            event(
                "fall_back",
                side=losing.value,
                unit=state.label,
                distance=distance,
                dice=count,
                note=f'{state.label} falls back {count}D6 = {distance}" straight toward its own table edge '
                "(or to the base line where it entered the table), staying coherent; halve the distance through "
                "difficult terrain; it moves around obstructions by the shortest route, ignoring enemy models "
                "that fought it in close combat this turn. If it "
                "cannot make the full move in any direction without doubling back, entering impassable terrain "
                'or coming within 1" of the enemy, it is destroyed (Trapped!).',
            )
        )
    fight.steps.append(Step("Fall back", tuple(rolls), tuple(events)))
    return fallen


def sweeping_advance_step(fight: Fight, winning: SideName, fallen: dict[int, tuple[UnitState, int]]) -> None:
    """Each winning unit all of whose engaged enemies fell back or were destroyed rolls 2D6 against its fleeing
    target's fall-back roll; when greater, its models in reach strike again, hitting automatically."""
    for state in fight.units[winning]:
        if not state.alive():
            continue
        engaged = fight.engaged_with(state)
        fleeing = [e for e in engaged if id(e) in fallen and e.alive()]
        if not fleeing or any(e.alive() and id(e) not in fallen for e in engaged):
            continue
        victim = state.target if state.target in fleeing else fleeing[0]
        assert victim is not None
        fall_back = fallen[id(victim)][1]
        hopeless = fall_back >= 12  # 2D6 cannot beat it: still rolled (the dice the odds count), with no "needs 13+"
        roll = (
            fight.roll_distance(
                f"sweeping advance ({state.label}): cannot beat a fall-back roll of {fall_back}",
                2,
                kind=SWEEP,
                side=winning,
            )
            if hopeless
            else fight.roll_2d6_test(
                f"sweeping advance ({state.label})", Target(Op.AT_LEAST, fall_back + 1), kind=SWEEP, side=winning
            )
        )
        events = [
            event(
                "sweeping_advance",
                side=winning.value,
                unit=state.label,
                target=victim.label,
                roll=sum(roll.dice),
                fall_back=fall_back,
                success=bool(roll.successes),
                note=(
                    f"{state.label} rolls {sum(roll.dice)}, but 2D6 cannot beat a fall-back roll of {fall_back}: "
                    "they get away."
                    if hopeless
                    else f"{state.label} rolls {sum(roll.dice)} against the fall-back roll of {fall_back}: "
                    + (
                        "greater, so it cuts them down as they flee."
                        if roll.successes
                        else "not greater, so they get away."
                    )
                ),
            )
        ]
        fight.steps.append(Step(f"Sweeping advance: {state.label}", (roll,), tuple(events)))
        if not roll.successes:
            continue
        snap = snapshot(victim)
        for group_state in state.groups:
            models = group_state.alive(Role.ENGAGED) + group_state.alive(Role.SUPPORTING)
            if not models or not victim.alive():
                continue
            profile = engaged_profile(group_state.group, charged=False, sweep=True, traits=weapon_traits(fight))
            if not profile.attacks:
                continue
            pool = Pool(state, group_state, Role.ENGAGED, victim, profile, (2, 0), "Sweeping advance")
            strike(fight, pool, models, snap, sweep=True)


def next_step(fight: Fight, winner: Winner, fallen: dict[int, tuple[UnitState, int]]) -> None:
    """What happens next: the winners left with no enemy consolidate; units still engaged fight on next round,
    with their survivors' specs and positions, and those not in base contact pile in."""
    events: list[Event] = []
    still_fighting: list[UnitState] = []
    for side in SideName:
        for state in fight.units[side]:
            if not state.alive() or id(state) in fallen:
                continue
            engaged = [e for e in fight.engaged_with(state) if e.alive()]
            if engaged and any(id(e) not in fallen for e in engaged):
                still_fighting.append(state)
            elif winner.value == side.value:
                events.append(
                    event(
                        "consolidate",
                        side=side.value,
                        unit=state.label,
                        distance=CONSOLIDATE_INCHES,
                        note=f'{state.label} may consolidate up to {CONSOLIDATE_INCHES}" in any direction, '
                        "ignoring difficult terrain; it may not move into contact with the enemy.",
                    )
                )
    if still_fighting:
        attackers, attacker_places = survivors(fight, SideName.ATTACKER, still_fighting)
        defenders, defender_places = survivors(fight, SideName.DEFENDER, still_fighting)
        events.append(
            event(
                "continues",
                next_round=fight.round + 1,
                attacker_survivors=attackers,
                defender_survivors=defenders,
                note=f"The combat continues next turn as round {fight.round + 1} (no charge bonus, no cover "
                "advantage). Positions kept from this round, capped by the models left (the players may give "
                "others): " + "; ".join(attacker_places + defender_places) + ".",
            )
        )
        for state in sorted(still_fighting, key=lambda s: s.side is not SideName.ATTACKER):
            if state.alive() == sum(g.alive(Role.ENGAGED) for g in state.groups):
                continue  # every model is in base contact: nobody piles in
            events.append(
                event(
                    "pile_in",
                    side=state.side.value,
                    unit=state.label,
                    distance=PILE_IN_INCHES,
                    note=f'{state.label}: models not in base contact must move up to {PILE_IN_INCHES}" to contact '
                    "the enemy their unit is engaged with (the player whose turn it is moves first).",
                )
            )
    if events:
        fight.steps.append(Step("What happens next", events=tuple(events)))


def survivors(fight: Fight, side: SideName, fighting: list[UnitState]) -> tuple[str, list[str]]:
    """The canonical spec of ``side``'s units still in the fight, for the next round, and their positions.

    Each unit keeps this round's counts in base contact and within 2", capped by the models it has left
    (decision 7: the casualties came from those places, the pile-in fills them); a wounded multi-wound model
    becomes a group of its own whose W is the wounds it has left; ``vs=`` points at its target's place among
    the enemy units still fighting.
    """
    mine = [state for state in fighting if state.side is side]
    enemies = [state for state in fighting if state.side is not side]
    everyone = fight.units[side.other]
    # An enemy unit's number this round -> its number next round (0: no longer fighting).
    renumber = {n: enemies.index(e) + 1 if e in enemies else 0 for n, e in enumerate(everyone, start=1)}
    texts: list[str] = []
    placed: list[str] = []
    for state in mine:
        models: list[Model] = []
        for index, group_state in enumerate(state.groups):
            aims = group_state.aims or [0] * len(group_state.wounds)
            models += [
                Model(index, wounds, int(role), renumber[aim] if aim else 0)
                for wounds, role, aim in zip(group_state.wounds, group_state.roles, aims, strict=True)
                if wounds > 0
            ]
        target = state.target if state.target in enemies else next(
            (e for e in fight.engaged_with(state) if e in enemies), enemies[0]
        )  # fmt: skip
        unit = this_turn_only(state.unit)  # who charged and who was in cover held for this turn only
        if unit.divide:  # a character dividing its hits: between the units still fighting
            divide = tuple(renumber[n] for n in unit.divide if renumber[n])
            hits = tuple((renumber[n], most) for n, most in unit.hits if renumber[n])
            unit = replace(unit, divide=divide if len(divide) > 1 else (), hits=hits if len(divide) > 1 else ())
            target = enemies[divide[0] - 1] if divide else target
        text, unit = _survivors_text(unit, tuple(models), enemies.index(target) + 1)
        texts.append(text)
        placed.append(f"{state.label} {describe(unit)}")
    return " | ".join(texts), placed


@functools.lru_cache(maxsize=4096)  # combats end in few distinct states, and a unit is formatted per report
def _survivors_text(unit: Unit, models: tuple[Model, ...], vs: int) -> tuple[str, Unit]:
    """The canonical spec of ``unit``'s survivors (``models``) for the next round, as format_side writes a unit,
    with the unit it describes."""
    placed = kept(unit, models, vs)
    return format_side(Side((placed,))), placed
