"""Before the fight: whether the assault reaches, whether the target reacts, its reaction fire, and the
assaulters' morale check under that fire."""

from __future__ import annotations

from rules_core.compact import plural
from rules_core.games.boltaction.damage import roll_damage, take_casualties
from rules_core.games.boltaction.spec import FANATICS
from rules_core.games.boltaction.state import (
    BASE_TO_HIT,
    ROUGH_MOVE,
    RUN_MOVE,
    Fight,
    Outcome,
    UnitState,
    declared_close,
)
from rules_core.report import Event, Op, Roll, Step, Target, event
from rules_core.roll_kinds import LEADERSHIP, REACTION_FIRE
from rules_core.rolling import roll_combined_test, roll_each


def contact(fight: Fight) -> bool:
    """Measure the move: whether the assault reaches its target (said as a step either way)."""
    distance = fight.options["distance"]
    rough = bool(fight.options["rough_ground"])
    reach = ROUGH_MOVE if rough else RUN_MOVE
    why = " (the path crosses rough ground or an obstacle)" if rough else ""
    a, d = fight.attacker.name, fight.defender.name
    if distance is None:
        how_far = '6" or less away (a surprise charge)' if rough else 'more than 6" away'
        note = f"No distance given: {a} are assumed to be within reach of {d}{why}, and {how_far}."
        fight.steps.append(Step(f"{a} assault {d}", (), (event("assumed", note=note),)))
        return True
    inches = float(distance)
    if inches > reach:
        note = (
            f'{inches:g}" is more than the {reach:g}" run{why}: the assault fails to contact. {a} move {reach:g}" '
            f'towards {d} and stop more than 1" away from them.'
        )
        fight.steps.append(
            Step(f"{a} fail to contact {d}", (), (event("failed_to_contact", distance=inches, note=note),))
        )
        return False
    note = f'{inches:g}" is within the {reach:g}" run{why}: the assault goes ahead.'
    fight.steps.append(Step(f"{a} assault {d}", (), (event("in_reach", distance=inches, note=note),)))
    return True


def _no_reaction(fight: Fight) -> str | None:
    """Why the target does not react, or None when it fires."""
    options, defender = fight.options, fight.defender
    distance = options["distance"]
    if options["target_has_acted"]:
        return f"{defender.name} have already taken an action this turn: they cannot react."
    if declared_close(options) and not options["ambush"]:
        if distance is None:
            return (
                'Surprise charge: over rough ground the assault reaches only 6", so it was declared from 6" or less '
                f"and {defender.name} cannot react."
            )
        return f'Surprise charge: declared from {float(distance):g}" (6" or less), so {defender.name} cannot react.'
    if options["out_of_arc"]:
        return f"The assaulters start outside the fire arc of {defender.name}'s fixed-arc weapons: no reaction fire."
    shots = options["reaction_shots"]
    if shots is None:
        return (
            f"{defender.name} do not react: the player gave no reaction shots (give the number of shots "
            "they fire in reaction to have them fire)."
        )
    if not shots:
        return (
            f"{defender.name} do not fire in reaction: the player gave 0 reaction shots, declaring that "
            "the unit did not fire."
        )
    return None


def reaction_fire(fight: Fight) -> str | None:
    """The defenders fire at the assaulters before they move; the outcome if that ends the assault."""
    reason = _no_reaction(fight)
    shooter, target = fight.defender, fight.attacker
    title = f"Reaction fire: {shooter.name} fire at {target.name}"
    if reason is not None:
        given = fight.options["reaction_shots"]  # None: not given; 0: given as none fired
        shots_given = None if given is None else int(str(given))
        fight.steps.append(Step("Reaction fire", (), (event("no_reaction", reaction_shots=shots_given, note=reason),)))
        return None
    shots = int(str(fight.options["reaction_shots"]))
    extra = int(str(fight.options["reaction_modifiers"]))
    inexperienced = -1 if shooter.unit.quality.value == "inexperienced" else 0
    modifiers = [
        ("long range (always, in reaction)", -1),
        ("pins", -shooter.pins),
        ("inexperienced", inexperienced),
    ]
    modifiers.append(("other modifiers given", extra))
    total = sum(value for _, value in modifiers)
    need = max(2, BASE_TO_HIT - total)  # a natural 1 always misses, whatever the modifiers
    shown = ", ".join(f"{why} {value:+d}" for why, value in modifiers if value)
    events: list[Event] = [
        event(
            "strike",
            side=shooter.side_name,
            shots=shots,
            modifier=total,
            needed=need,
            note=f"{shooter.name} fire {plural(shots, 'shot')} as the assaulters come on. "
            f"To hit: 3+ with {shown} = {need}+"
            + (" (a natural 1 always misses)" if BASE_TO_HIT - total < 2 else "")
            + (" (a 6, then " + f"{need - 3}+)" if 7 <= need <= 9 else "")
            + (": no hit is possible" if need > 9 else "")
            + ". The order is given automatically, so no pin is removed.",
        )
    ]
    rolls: list[Roll] = []
    hits = 0

    def to_hit(purpose: str, count: int, value: int) -> Roll:
        return roll_each(fight.dice, purpose, count, Target(Op.AT_LEAST, value), kind=REACTION_FIRE, side=shooter.side)

    if need <= 6:
        roll = to_hit(f"to hit ({plural(shots, 'shot')})", shots, need)
        rolls.append(roll)
        hits = roll.successes
    elif need <= 9:
        roll = to_hit(f"to hit ({plural(shots, 'shot')}, a 6 first)", shots, 6)
        rolls.append(roll)
        if roll.successes:
            second = to_hit(f"to hit (then {need - 3}+)", roll.successes, need - 3)
            rolls.append(second)
            hits = second.successes
    if hits:
        damage = roll_damage(fight, target, hits, tough=0, purpose="to damage")
        rolls += damage.rolls
        before = target.alive
        take_casualties(shooter, target, damage, events)
        target.pins += 1
        events.append(
            event(
                "pin",
                side=target.side_name,
                pins=target.pins,
                note=f"{target.name} take a pin marker "
                f"({plural(target.pins, 'pin')} now; pins have no effect in close quarters).",
            )
        )
        if not target.alive:
            events.append(
                event("shot_down", note=f"The reaction fire wipes {target.name} out before they reach {shooter.name}.")
            )
            fight.steps.append(Step(title, tuple(rolls), tuple(events)))
            return Outcome.SHOT_DOWN
        if fight.options["morale_check"] and target.alive * 2 <= before:
            if not target.unit.has(FANATICS):
                fight.steps.append(Step(title, tuple(rolls), tuple(events)))
                return _morale(fight, target, before)
            note = (
                f"{target.name} are down to {target.alive} of {before}, half or less, but Fanatics take no morale "
                "check for losses to fire: the assault goes on."
            )
            events.append(event("fanatics", note=note))
    else:
        events.append(event("no_hits", note="No hits: the assaulters charge on untouched."))
    fight.steps.append(Step(title, tuple(rolls), tuple(events)))
    return None


def _morale(fight: Fight, unit: UnitState, before: int) -> str | None:
    """The morale check of a unit brought to half strength or less; the outcome if it fails."""
    morale = unit.unit.quality.morale
    value = morale - unit.pins
    roll = roll_combined_test(
        fight.dice,
        f"morale check (Morale {morale}, -{unit.pins} for {plural(unit.pins, 'pin')})"
        if unit.pins
        else f"morale check (Morale {morale}, no pins)",
        Target(Op.AT_MOST, value),
        kind=LEADERSHIP,
        side=unit.side,
    )
    passed = bool(roll.successes)
    note = f"{unit.name} are down to {unit.alive} of {before}, half or less: morale check, 2D6 <= {value}: " + (
        "passed; the assault goes on." if passed else f"failed; {unit.name} are destroyed."
    )
    fight.steps.append(
        Step(f"{unit.name} test their morale", (roll,), (event("morale", passed=passed, needed=value, note=note),))
    )
    if passed:
        return None
    unit.surrendered = unit.alive
    unit.men.clear()
    return Outcome.FAILED_MORALE
