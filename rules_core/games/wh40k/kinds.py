"""What each 40K roll is for (``Roll.kind``): the shared names where one fits, and the 40K's own."""

from __future__ import annotations

from rules_core.roll_kinds import (
    FALL_BACK_DISTANCE,
    INVULNERABLE_SAVE,
    LEADERSHIP,
    PSYCHIC_TEST,
    SAVE,
    SWEEP,
    TO_HIT,
    TO_WOUND,
)

CHARGE_MOVE = "charge_move"  # difficult terrain: 2D6, the highest die must reach the enemy
RENDING_CHECK = "rending_check"  # a sweeping advance hits automatically: dice rolled only to find rending 6s

ROLL_KINDS = (
    TO_HIT,
    TO_WOUND,
    SAVE,
    INVULNERABLE_SAVE,
    LEADERSHIP,  # the loser's morale test and the regroup test of a unit assaulted while falling back
    PSYCHIC_TEST,
    FALL_BACK_DISTANCE,
    SWEEP,
    CHARGE_MOVE,
    RENDING_CHECK,
)
