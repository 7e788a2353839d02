"""The weapon a round's winner strikes with, and what one hit of it is worth.

The player chooses the weapon (``weapon-choice``); by default the referee takes the Close Combat weapon with the most
expected wounds against this opponent (decision 7), and a hit whose weapon lists no save modifier takes it from
the Strength table of option ``strength_save_table`` (decision 8). The exact odds choose with the same functions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from rules_core.charts import to_wound
from rules_core.games.duel.spec import ModelGroup, Profile
from rules_core.games.duel.weapons import Damage, Weapon

UNARMED = Damage(0, 0, 1)


def strength_save_modifier(strength: int, table: str) -> int:
    """The save modifier of a hit with no listed modifier: the WHFB table (S4 -1 ... S10 -7), or none."""
    if table == "none":
        return 0
    return min(0, 3 - strength)


@functools.lru_cache(maxsize=4096)
def expected_wounds(
    strength: int, save_modifier: int, damage: Damage, *, toughness: int, save: int | None, wounds_left: int
) -> Fraction:
    """Expected wounds one hit takes off a model with ``wounds_left`` (damage beyond them is lost)."""
    need = to_wound(strength, toughness)
    if need is None:
        return Fraction(0)
    save_need = 7 if save is None else save - save_modifier
    unsaved = Fraction(1) if save_need > 6 else Fraction(save_need - 1, 6)
    outcomes = list(damage.outcomes())
    taken = Fraction(sum(min(value, wounds_left) for value in outcomes), len(outcomes))
    return Fraction(7 - need, 6) * unsaved * taken


@dataclass(frozen=True, slots=True)
class Strike:
    weapon: Weapon | None
    strength: int
    save_modifier: int
    damage: Damage
    note: str


def _save_modifier(weapon: Weapon, strength: int, table: str) -> int:
    return weapon.save_modifier if weapon.save_modifier is not None else strength_save_modifier(strength, table)


@functools.lru_cache(maxsize=1024)
def choose_weapon(striker: ModelGroup, target: Profile, wounds_left: int, table: str) -> Strike:
    """The weapon a winner strikes with (the player's choice: ``weapon-choice``, else its best against ``target``)."""
    usable = striker.close_combat_weapons
    user_s = striker.profile.s
    if not usable:
        carried = " (it carries no weapon with the Close Combat rule)" if striker.weapons else ""
        note = f"strikes with its own Strength S{user_s}{carried}."
        return Strike(None, user_s, strength_save_modifier(user_s, table), UNARMED, note)
    if striker.weapon_choice is not None:
        weapon = next(w for w in usable if w.name == striker.weapon_choice)
        note = f"strikes with {weapon.describe(user_s)} (weapon-choice)."
    elif len(usable) == 1:
        weapon = usable[0]
        note = f"strikes with {weapon.describe(user_s)}."
    else:

        def value(weapon: Weapon) -> Fraction:
            strength = weapon.strength_for(user_s)
            return expected_wounds(
                strength,
                _save_modifier(weapon, strength, table),
                weapon.damage,
                toughness=target.t,
                save=target.sv,
                wounds_left=wounds_left,
            )

        weapon = max(usable, key=value)  # max keeps the first of equals: the order the player listed them
        save = "Sv-" if target.sv is None else f"Sv{target.sv}+"
        note = (
            f"strikes with {weapon.describe(user_s)}, its best weapon against T{target.t} {save} "
            "(weapon-choice=NAME picks another)."
        )
    strength = weapon.strength_for(user_s)
    return Strike(weapon, strength, _save_modifier(weapon, strength, table), weapon.damage, note)
