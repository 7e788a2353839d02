"""40K close-combat weapons: which weapons a group strikes with, the attack profile they give it (attacks,
Strength, Initiative, special attack forms), and the save they leave a target (decisions 9 and 11)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rules_core.games.wh40k.spec import (
    ARMOUR_IGNORING,
    FORCE_WEAPON,
    HAND_WEAPONS,
    HEAVY_CCW,
    LIGHTNING_CLAW,
    LIGHTNING_CLAWS,
    MONSTROUS,
    POISONED,
    POWER_FIST,
    RENDING,
    TWO_WEAPONS,
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


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def active_weapons(group: Group) -> tuple[frozenset[str], str | None]:
    """The weapons a group strikes with, and a policy note when the referee chose for the player."""
    weapons = frozenset(group.weapons)
    if group.strike_with == "none":
        return frozenset(), None
    if group.strike_with is not None:
        return frozenset({group.strike_with}), None
    others = [w for w in HAND_WEAPONS if w in weapons and w != POWER_FIST]
    if POWER_FIST in weapons and others:
        return frozenset({POWER_FIST}), fist_policy_note(group, others[0], "at Initiative 1")
    return weapons, None


def fist_policy_note(group: Group, other: str, when: str) -> str:
    """The default policy for a power fist with another hand weapon, saying when the fist strikes and whether the
    other weapon gives the extra attack (a lightning claw gives none: only another claw pairs with it)."""
    extra = (
        f"counting the {other} as an additional close combat weapon (+1 attack)"
        if two_weapon_bonus(group)
        else f"with no extra attack for the {other} (only another lightning claw gives a model with a lightning "
        "claw the additional weapon bonus)"
    )
    instead = "strikes in Initiative order instead" if when == "at Initiative 1" else f"uses the {other} instead"
    return f"{group.name} strikes with the power fist {when}, {extra} (default policy; strike-with={other} {instead})."


def two_weapon_bonus(group: Group) -> int:
    """+1 attack for a weapon in each hand, at most +1; a single lightning claw pairs only with another claw."""
    keywords = group.keywords
    if LIGHTNING_CLAW in keywords:
        return 0
    if LIGHTNING_CLAWS in keywords or TWO_WEAPONS in keywords:
        return 1
    return 1 if sum(1 for w in HAND_WEAPONS if w in keywords) >= 2 else 0


@functools.lru_cache(maxsize=4096)  # pure, of immutable inputs, and asked again and again
def engaged_profile(group: Group, *, charged: bool, sweep: bool = False) -> AttackProfile:
    """In base contact (or in a sweeping advance): its weapons' effects, +1 attack for two weapons and +1 for
    charging (none in a sweeping advance)."""
    p = group.profile
    weapons, _ = active_weapons(group)
    bonus = two_weapon_bonus(group)
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
        force=FORCE_WEAPON in weapons,
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
