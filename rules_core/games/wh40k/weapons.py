"""40K close-combat weapons: which weapons a group strikes with, the attack profile they give it (attacks,
Strength, Initiative, special attack forms), and the save they leave a target (decisions 9 and 11)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rules_core.games.wh40k.spec import (
    ARMOUR_IGNORING,
    FORCE_WEAPON,
    HEAVY_CCW,
    LIGHTNING_CLAW,
    LIGHTNING_CLAWS,
    MONSTROUS,
    POISONED,
    POWER_FIST,
    RENDING,
    TWO_WEAPONS,
    USED_PSYCHIC_POWER,
    Group,
)

SaveType = tuple[int | None, int | None]  # a model's armour save and invulnerable save (None: it has none)


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """How one model strikes: the stats its blows use and the special attack forms of its weapons."""

    ws: int
    strength: int
    initiative: int
    attacks: int
    weapons: frozenset[str]
    ignores_armour: bool
    heavy: bool
    rending: bool
    poisoned: int | None
    reroll_wounds: bool
    force: bool
    ld: int
    bonuses: tuple[str, ...] = ()


# Rending and poisoned: weapons of their own by default ("Rending weapons", "Poisoned Weapons"); with
# weapon_traits=traits, traits of the weapon the model strikes with (decision 11).
TRAITS = (RENDING, POISONED)


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def candidates(group: Group, traits: bool = False) -> tuple[str, ...]:
    """The special weapons a group chooses between: it strikes with one, the others count only as an additional
    close combat weapon (the dual-weapon note). With ``traits``, rending and poisoned are not among them."""
    return tuple(w for w in group.weapons if not (traits and w in TRAITS))


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def active_weapons(group: Group, traits: bool = False) -> frozenset[str]:
    """The weapons a group strikes with: the one ``strike-with=`` names (none for ``none``), else its only special
    weapon; with ``traits``, rending and poisoned ride with it. A group with several and no choice written has
    it made by the fight (choosing.py) against its target; alone, it takes the first in the keyword order."""
    if group.strike_with == "none":
        return frozenset()
    riding = frozenset(w for w in TRAITS if traits and w in group.keywords)
    if group.strike_with is not None:
        return frozenset({group.strike_with}) | riding
    found = candidates(group, traits)
    return frozenset(found[:1]) | riding


def two_weapon_bonus(group: Group, traits: bool = False) -> int:
    """+1 attack for a weapon in each hand, at most +1: two special weapons count (one strikes, the other is an
    additional close combat weapon); a single lightning claw pairs only with another claw."""
    keywords = group.keywords
    if LIGHTNING_CLAW in keywords:
        return 0
    if LIGHTNING_CLAWS in keywords or TWO_WEAPONS in keywords:
        return 1
    return 1 if len(candidates(group, traits)) >= 2 else 0


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def engaged_profile(group: Group, *, charged: bool, sweep: bool = False, traits: bool = False) -> AttackProfile:
    """In base contact (or in a sweeping advance): its weapons' effects, +1 attack for two weapons and +1 for
    charging (none in a sweeping advance); ``traits``: option weapon_traits=traits."""
    p = group.profile
    weapons = active_weapons(group, traits)
    bonus = two_weapon_bonus(group, traits)
    attacks = p.a + bonus + (1 if charged and not sweep else 0)
    bonuses: list[str] = []
    if charged and not sweep:
        bonuses.append("+1 charged")
    if bonus:
        bonuses.append("+1 two weapons")
    fist = POWER_FIST in weapons
    return AttackProfile(
        ws=p.ws,
        strength=min(2 * p.s, 10) if fist else p.s,
        initiative=1 if fist else p.i,
        attacks=attacks,
        weapons=weapons,
        ignores_armour=bool(weapons & ARMOUR_IGNORING) or MONSTROUS in group.keywords,
        heavy=HEAVY_CCW in weapons,
        rending=RENDING in weapons,
        poisoned=group.poisoned if POISONED in weapons else None,
        reroll_wounds=bool(weapons & {LIGHTNING_CLAW, LIGHTNING_CLAWS}),
        force=FORCE_WEAPON in weapons and USED_PSYCHIC_POWER not in group.keywords,
        ld=p.ld,
        bonuses=tuple(bonuses),
    )


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def supporting_profile(group: Group) -> AttackProfile:
    """Within 2" of an engaged friend: one attack, no bonuses, no special attack forms."""
    p = group.profile
    return AttackProfile(p.ws, p.s, p.i, 1, frozenset(), False, False, False, None, False, False, p.ld)


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def describe_profile(profile: AttackProfile, base_attacks: int) -> str:
    """How a pool strikes, for the report: attacks each (and why), weapons, WS and S, and whether armour counts."""
    parts = [f"{profile.attacks} attack{'s' if profile.attacks != 1 else ''} each"]
    if profile.bonuses:
        parts.append(f"(A{base_attacks} " + " ".join(profile.bonuses) + ")")
    if profile.weapons:
        parts.append("with " + ", ".join(sorted(profile.weapons)))
    parts.append(f"WS{profile.ws} S{profile.strength}")
    if profile.ignores_armour:
        parts.append("ignoring armour")
    return " ".join(parts)


def effective_save(save_type: SaveType, profile: AttackProfile) -> tuple[int | None, str]:
    """The save a model with ``save_type`` takes against ``profile``'s attacks, and its name: the better of the
    armour save the weapons leave (none, or at best 4+ against heavy weapons) and the invulnerable save."""
    sv, inv = save_type
    armour = None if profile.ignores_armour or sv is None else (max(sv, 4) if profile.heavy else sv)
    if armour is not None and (inv is None or armour <= inv):
        return armour, "armour save"
    if inv is not None:
        return inv, "invulnerable save"
    return None, "no save"
