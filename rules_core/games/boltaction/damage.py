"""Damage rolls and casualties, in reaction fire and in close quarters: one roll per hit (or per man), Tough
Fighters' extra rolls, exceptional damage, and the men removed in the owner's or the enemy's order."""

from __future__ import annotations

from rules_core.compact import plural
from rules_core.games.boltaction.spec import NCO
from rules_core.games.boltaction.state import ATTACKER, DEFENDER, EXCEPTIONAL_DAMAGE, Damage, Fight, UnitState
from rules_core.report import Event, Op, Roll, Target, event
from rules_core.roll_kinds import DAMAGE
from rules_core.rolling import roll_each


def roll_damage(fight: Fight, target: UnitState, attacks: int, *, tough: int, purpose: str = "") -> Damage:
    """Damage rolls: one per hit (or per man in close quarters), Tough Fighters' extra rolls, exceptional damage.

    ``tough`` of the ``attacks`` belong to Tough Fighters: each casualty they cause earns one extra roll, which
    earns no further roll.
    """
    value = target.unit.quality.damage_value
    side = DEFENDER if target.side is ATTACKER else ATTACKER  # the striker's side: whose men roll
    aim = Target(Op.AT_LEAST, value)
    rolls: list[Roll] = []
    casualties = sixes = 0
    plain = attacks - tough
    if tough:
        roll = roll_each(
            fight.dice, f"to damage ({plural(tough, 'Tough Fighter')})", tough, aim, kind=DAMAGE, side=side
        )
        rolls.append(roll)
        casualties += roll.successes
        sixes += roll.dice.count(6)
    if plain:
        label = purpose or f"to damage ({plural(plain, 'man', 'men')})"
        roll = roll_each(fight.dice, label, plain, aim, kind=DAMAGE, side=side)
        rolls.append(roll)
        casualties += roll.successes
        sixes += roll.dice.count(6)
    if tough and rolls[0].successes:
        extra = min(rolls[0].successes, target.alive - casualties)
        if extra > 0:
            roll = roll_each(fight.dice, "to damage (Tough Fighters' extra rolls)", extra, aim, kind=DAMAGE, side=side)
            rolls.append(roll)
            casualties += roll.successes
            sixes += roll.dice.count(6)
    exceptional = 0
    leaders = target.leaders
    if sixes and leaders:
        # Exceptional damage only matters when there is someone worth picking: the target's NCO or officer.
        faces: list[int] = []
        for _ in range(sixes):
            if exceptional == leaders:
                break
            face = fight.dice.d6(1)[0]
            faces.append(face)
            exceptional += face == 6
        success = tuple(face == 6 for face in faces)
        rolls.append(
            Roll(
                "exceptional damage (each 6 re-rolled)",
                tuple(faces),
                Target(Op.AT_LEAST, 6),
                success,
                exceptional,
                kind=EXCEPTIONAL_DAMAGE,
                side=side,
            )
        )
    return Damage(tuple(rolls), casualties, exceptional)


def take_casualties(striker: UnitState, target: UnitState, damage: Damage, events: list[Event]) -> int:
    """Remove the casualties ``damage`` caused (at most the men left) and say who fell; the number removed."""
    removed = target.remove(min(damage.casualties, target.alive), damage.exceptional)
    striker.caused += len(removed)
    picked = [role for role in removed[: damage.exceptional] if role != "man"]
    lost = plural(len(removed), "man", "men") if removed else "no men"
    note = f"{target.name} lose {lost}; {target.alive} left"
    if picked:
        note += f" ({striker.name} pick the {' and the '.join('NCO' if r == NCO else r for r in picked)} with "
        note += "exceptional damage)"
    if damage.casualties > len(removed):
        note += f"; {damage.casualties - len(removed)} more damage found no one"
    events.append(event("casualty", side=target.side_name, unit=target.name, models=len(removed), note=note + "."))
    return len(removed)
