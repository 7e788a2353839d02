"""What a roll is for, as data: the kinds of roll the games share, by one name each.

Each game declares the closed list of kinds its rolls may have (``Game.roll_kinds``), drawn from these names
where one fits and adding its own (snake_case, in its own package) where none does; every roll of its reports
carries one of them (``Roll.kind``) and the side it was rolled for (``Roll.side``). The dice statistics and the
translations read these, never the English ``purpose``: a kind's name is a contract, so it is never renamed.
"""

from __future__ import annotations

TO_HIT = "to_hit"
TO_WOUND = "to_wound"
SAVE = "save"
INVULNERABLE_SAVE = "invulnerable_save"
COVER_SAVE = "cover_save"
LEADERSHIP = "leadership"  # a morale or break test against a Leadership-like value
PSYCHIC_TEST = "psychic_test"
RESULT_ROLL = "result_roll"  # an assault's result, the dice added to each side's score
FALL_BACK_DISTANCE = "fall_back_distance"
SWEEP = "sweep"  # a sweeping advance or pursuit roll
REACTION_FIRE = "reaction_fire"
DAMAGE = "damage"
ARMOUR_PENETRATION = "armour_penetration"
REROLL = "reroll"  # a re-roll made as a roll of its own (not one recorded inside another roll's ``rerolls``)

SHARED: tuple[str, ...] = (
    TO_HIT,
    TO_WOUND,
    SAVE,
    INVULNERABLE_SAVE,
    COVER_SAVE,
    LEADERSHIP,
    PSYCHIC_TEST,
    RESULT_ROLL,
    FALL_BACK_DISTANCE,
    SWEEP,
    REACTION_FIRE,
    DAMAGE,
    ARMOUR_PENETRATION,
    REROLL,
)
