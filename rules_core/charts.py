"""Charts the rules texts refer to but do not print (filled from REFERENCE.md).

Both are the 3rd/4th-edition Warhammer 40,000 charts, identical to Warhammer
Fantasy Battle 4th-6th edition (REFERENCE.md section 000, confidence H). The quick
rulings read from them (``Game.charts``) are here too, for the games that share them.
"""

from __future__ import annotations

from rules_core.registry import Chart


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


def _to_hit_ruling(attacker: int, defender: int) -> str:
    return f"WS{attacker} against WS{defender} hits on **{to_hit_by_weapon_skill(attacker, defender)}+**."


def _to_wound_ruling(strength: int, toughness: int) -> str:
    need = to_wound(strength, toughness)
    return f"S{strength} against T{toughness}: " + ("**cannot wound**." if need is None else f"wounds on **{need}+**.")


TO_HIT = Chart(
    "to-hit",
    "40K close combat to hit: attacker's WS against defender's WS",
    ("the attacker's WS", "the defender's WS"),
    _to_hit_ruling,
    order=1,
)
TO_WOUND = Chart(
    "to-wound",
    "To wound: Strength against Toughness (40K, the duel)",
    ("the Strength", "the Toughness"),
    _to_wound_ruling,
    order=2,
)
