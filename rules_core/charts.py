"""Charts the rules texts refer to but do not print (filled from REFERENCE.md).

Both are the 3rd/4th-edition Warhammer 40,000 charts, identical to Warhammer
Fantasy Battle 4th-6th edition (REFERENCE.md section 000, confidence H).
"""

from __future__ import annotations


def to_hit_by_weapon_skill(attacker_ws: int, defender_ws: int) -> int:
    """The D6 score needed to hit in close combat: 3+, 4+ or 5+ (no 2+ or 6+ on this chart)."""
    if attacker_ws > defender_ws:
        return 3
    if defender_ws <= 2 * attacker_ws:
        return 4
    return 5


def to_wound(strength: int, toughness: int) -> int | None:
    """The D6 score needed to wound, or None when the hit has no effect (S four or more below T)."""
    difference = strength - toughness
    if difference >= 2:
        return 2
    if difference == 1:
        return 3
    if difference == 0:
        return 4
    if difference == -1:
        return 5
    if difference >= -3:
        return 6
    return None
