"""Quick rulings: the number needed for two given values, read from the charts the games use."""

from __future__ import annotations

from rules_core.charts import to_hit_by_weapon_skill, to_wound
from rules_core.games.boltaction.spec import Quality
from rules_core.games.duel.engine import strength_save_modifier

CHARTS = {
    "to-hit": "40K close combat to hit: attacker's WS against defender's WS",
    "to-wound": "To wound: Strength against Toughness (40K, the duel)",
    "save-modifier": "Duel: save modifier of a Strength (the WHFB table)",
    "bolt-action-damage": "Bolt Action damage value by the target's quality",
    "epic-result": "Epic: Armageddon assault result modifiers",
}

EPIC_RESULT = (
    "+1 for each enemy unit destroyed in this assault (supporting fire and earlier rounds included)\n"
    "+1 for more units remaining than the enemy; +1 more for more than twice as many\n"
    "+1 for no Blast markers; +1 for fewer Blast markers than the enemy\n"
    "+1 for each Inspiring unit taking part"
)


def ruling(chart: str, first: int | None, second: int | None) -> str:
    """The answer in one or a few lines; ValueError naming what is missing."""
    if chart == "to-hit":
        attacker, defender = _two(first, second, "the attacker's WS", "the defender's WS")
        return f"WS{attacker} against WS{defender} hits on **{to_hit_by_weapon_skill(attacker, defender)}+**."
    if chart == "to-wound":
        strength, toughness = _two(first, second, "the Strength", "the Toughness")
        need = to_wound(strength, toughness)
        return f"S{strength} against T{toughness}: " + (
            "**cannot wound**." if need is None else f"wounds on **{need}+**."
        )
    if chart == "save-modifier":
        strength = _one(first, "the Strength")
        return f"S{strength}: save modifier **{strength_save_modifier(strength, 'whfb'):+d}**."
    if chart == "bolt-action-damage":
        return "\n".join(f"{q.value}: damaged on **{q.damage_value}+** (Morale {q.morale})" for q in Quality)
    if chart == "epic-result":
        return EPIC_RESULT
    raise ValueError(f"There is no chart '{chart}'. Charts: {', '.join(CHARTS)}.")


def _one(value: int | None, what: str) -> int:
    if value is None or not 1 <= value <= 10:
        raise ValueError(f"Give {what} as a: 1 to 10.")
    return value


def _two(first: int | None, second: int | None, what_a: str, what_b: str) -> tuple[int, int]:
    return _one(first, what_a), _one(second, what_b)
