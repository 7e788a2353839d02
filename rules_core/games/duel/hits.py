"""A round's hits (rules text step 4): the winner's weapon, to wound, armour saves, and Damage."""

from __future__ import annotations

from rules_core.charts import to_wound
from rules_core.games.duel.state import Fighter, Phase
from rules_core.games.duel.strike import choose_weapon
from rules_core.games.duel.weapons import Damage
from rules_core.report import Combine, Event, Op, Roll, Step, Target, event
from rules_core.roll_kinds import DAMAGE, SAVE, TO_WOUND
from rules_core.rolling import roll_each


def hits_step(phase: Phase, winner: Fighter, loser: Fighter, hits: int) -> None:
    strike = choose_weapon(winner.group, loser.group.profile, loser.wounds_left, phase.table)
    events: list[Event] = [
        event("strike", side=winner.side_name, model=winner.label, note=f"{winner.label} {strike.note}")
    ]
    rolls: list[Roll] = []
    profile = loser.group.profile
    weapon_name = strike.weapon.name if strike.weapon else "its own Strength"
    times = "once" if hits == 1 else f"{hits} times"
    title = f"{winner.label} hits {loser.label} {times} ({weapon_name})"
    need = to_wound(strike.strength, profile.t)
    if need is None:
        events.append(
            event(
                "no_effect",
                note=f"S{strike.strength} cannot wound T{profile.t} (four or more below): the hits have no effect.",
            )
        )
        phase.steps.append(Step(title, (), tuple(events)))
        return
    wound_roll = roll_each(phase.dice, "to wound", hits, Target(Op.AT_LEAST, need), kind=TO_WOUND, side=winner.side)
    rolls.append(wound_roll)
    unsaved = wound_roll.successes
    if unsaved:
        save = profile.sv
        save_need = None if save is None else save - strike.save_modifier
        if save is None:
            events.append(event("no_save", note=f"{loser.label} has no armour save."))
        elif save_need is not None and save_need > 6:
            events.append(
                event(
                    "no_save",
                    note=f"Sv{save}+ with a {strike.save_modifier:+d} save modifier needs {save_need}+: "
                    "no save is possible.",
                )
            )
        else:
            assert save_need is not None
            save_roll = roll_each(
                phase.dice, "armour save", unsaved, Target(Op.AT_LEAST, save_need), kind=SAVE, side=loser.side
            )
            if strike.save_modifier:
                events.append(
                    event(
                        "save_modifier",
                        note=f"Armour save Sv{save}+ with {strike.save_modifier:+d}: {save_need}+.",
                    )
                )
            rolls.append(save_roll)
            unsaved -= save_roll.successes
    if unsaved:
        take_damage(phase, winner, loser, unsaved, strike.damage, rolls=rolls, events=events)
    phase.steps.append(Step(title, tuple(rolls), tuple(events)))


def take_damage(
    phase: Phase,
    winner: Fighter,
    loser: Fighter,
    unsaved: int,
    damage: Damage,
    *,
    rolls: list[Roll],
    events: list[Event],
) -> None:
    before = loser.wounds_left
    faces: list[int] = []
    values: list[int] = []
    applied = 0
    for _ in range(unsaved):
        if not loser.alive:
            break
        rolled = phase.dice.d6(damage.dice) if not damage.fixed else []
        faces += rolled
        value = damage.value(rolled)
        values.append(value)
        loser.wounds_left -= min(value, loser.wounds_left)
        applied += 1
    if faces:
        rule = "half a D6, rounded up" if damage.sides == 3 else "D6"
        rolls.append(
            Roll(f"damage {damage.text()} ({rule})", tuple(faces), None, (), 0, (), Combine.EACH, DAMAGE, winner.side)
        )
    taken = before - loser.wounds_left
    winner.wounds_inflicted += taken
    per_hit = " + ".join(map(str, values))
    detail = f" ({per_hit} damage)" if len(values) > 1 or not damage.fixed or values[0] != 1 else ""
    lost = unsaved - applied
    wasted = f"; {lost} further unsaved wound{'s are' if lost > 1 else ' is'} lost" if lost else ""
    events.append(
        event(
            "wounds",
            side=loser.side_name,
            model=loser.label,
            unsaved=unsaved,
            wounds=taken,
            left=loser.wounds_left,
            note=f"{loser.label} loses {taken} wound{'s' if taken != 1 else ''}{detail}; "
            f"{loser.wounds_left} left{wasted}.",
        )
    )
    if not loser.alive:
        loser.slain_by = winner
        events.append(
            event(
                "casualty",
                side=loser.side_name,
                unit=loser.label,
                models=1,
                note=f"{loser.label} is slain by {winner.label}.",
            )
        )
