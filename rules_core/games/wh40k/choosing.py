"""A 40K model with two or more special weapons strikes with one of them, "counting the other as an additional
close combat weapon" (decision 11): ``strike-with=`` is the player's choice; without it, the referee takes the
weapon with the better expected result against the group's target, and says so with the numbers.

The expected result of a weapon is the chance that one of its attacks becomes an unsaved wound against the
target's majorities at the start of the fight (every choice gives the same number of attacks); a force weapon
counts as the power weapon it is (its psychic test is not counted). On equal chances the weapon striking at the
higher Initiative is taken (a power fist strikes at Initiative 1), then the first in the keyword order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_core.charts import to_hit_by_weapon_skill, to_wound
from rules_core.games.wh40k.majorities import choose_save_type, snapshot
from rules_core.games.wh40k.spec import LIGHTNING_CLAW, TWO_WEAPONS, WEAPONS, Group, Unit
from rules_core.games.wh40k.state import Fight, GroupState, UnitState, unit_policy
from rules_core.games.wh40k.weapons import AttackProfile, SaveType, candidates, effective_save, engaged_profile
from rules_core.odds.laws import p_at_least
from rules_core.report import Event, SideName

WEAPON_SET = frozenset(WEAPONS)
# Each weapon keyword in words, for the report ("counting the rending weapon as an additional ...").
NAMES = {"rending": "rending weapon", "poisoned": "poisoned weapon", "heavy-ccw": "heavy close combat weapon"}


def p_unsaved(profile: AttackProfile, ws: int, t: int, save_type: SaveType, *, sweep: bool) -> float:
    """P(one attack becomes an unsaved wound): hit (or automatic), rending 6, wound with re-rolls, save."""
    rend = 1 / 6 if profile.rending else 0.0
    hit = 1.0 if sweep else p_at_least(to_hit_by_weapon_skill(profile.ws, ws))
    normal = hit - rend
    need = profile.poisoned if profile.poisoned is not None else to_wound(profile.strength, t)
    wound = p_at_least(need)
    if profile.reroll_wounds:
        wound += (1 - wound) * wound
    save, _ = effective_save(save_type, profile)
    invulnerable = save_type[1]
    fail = 1.0 if save is None else 1 - p_at_least(save)
    fail_rend = 1.0 if invulnerable is None else 1 - p_at_least(invulnerable)
    return normal * wound * fail + rend * fail_rend


@dataclass(frozen=True, slots=True)
class Choice:
    """The referee's choice for a group: the weapon it strikes with, each candidate's chance per attack, and the
    target it was weighed against."""

    weapon: str
    chances: tuple[tuple[str, float], ...]
    target: str


def weapon_traits(fight: Fight) -> bool:
    """Option weapon_traits=traits: rending and poisoned ride with the weapon the model strikes with."""
    return fight.options.get("weapon_traits") == "traits"


def claw_as_additional(fight: Fight) -> bool:
    """Option lone_claw_bonus=as_additional: a lightning claw beside the weapon struck with gives +1 attack."""
    return fight.options.get("lone_claw_bonus") == "as_additional"


def armed(group: Group, claw_extra: bool) -> Group:
    """The group as it strikes with its ``strike_with``: with ``claw_extra`` (lone_claw_bonus=as_additional), a
    lone lightning claw beside another special weapon struck with is the additional close combat weapon, written
    as the two-weapons bonus it gives (the claw does not strike); otherwise the group as it is."""
    if not claw_extra or LIGHTNING_CLAW not in group.keywords or group.strike_with in (None, "none", LIGHTNING_CLAW):
        return group
    return replace(group, keywords=(group.keywords - {LIGHTNING_CLAW}) | {TWO_WEAPONS})


def choose_weapons(fight: Fight) -> None:
    """Each group with several special weapons and no ``strike-with=`` gets the referee's choice, as if written:
    its state's group strikes with it from now on (the unit as written stays for the report and the next round).
    With lone_claw_bonus=as_additional the choice weighs the attacks each weapon gets too."""
    traits = weapon_traits(fight)
    claw_extra = claw_as_additional(fight)
    for side in SideName:
        for state in fight.units[side]:
            for group_state in state.groups:
                group = group_state.group
                if len(group.keywords & WEAPON_SET) < 2:
                    continue  # the common case: one special weapon or none
                if group.strike_with is not None:  # the player's own choice
                    group_state.group = armed(group, claw_extra)
                    continue
                found = candidates(group, traits)
                if len(found) < 2:
                    continue
                target = _target(fight, state, group)
                if not target.alive():  # destroyed before the fight (decision 20): the keyword order stands
                    continue
                snap = snapshot(target)
                chances = []
                for weapon in found:
                    striking = armed(replace(group, strike_with=weapon), claw_extra)
                    profile = engaged_profile(striking, charged=False, traits=traits)
                    save_type, _ = choose_save_type(snap, target, profile)
                    chance = p_unsaved(profile, snap.ws, snap.t, save_type, sweep=False)
                    chances.append(
                        (weapon, chance, profile, striking, chance * profile.attacks if claw_extra else chance)
                    )
                best = max(chances, key=lambda c: (round(c[4], 12), c[2].initiative, -found.index(c[0])))
                fight.weapon_choices[id(group_state)] = Choice(
                    best[0], tuple((c[0], c[1]) for c in chances), target.label
                )
                group_state.group = best[3]


def lone_claw_event(fight: Fight, state: UnitState, group_state: GroupState) -> Event | None:
    """A group striking with the weapon the player chose (``strike-with=``) beside a lone lightning claw: the report
    says why the claw adds no attack (decision 11; the referee's own choice says it in its note)."""
    group = group_state.group
    if (
        LIGHTNING_CLAW not in group.keywords
        or group.strike_with in (None, "none", LIGHTNING_CLAW)
        or id(group_state) in fight.weapon_choices
    ):
        return None
    return unit_policy(
        "lone_claw",
        state,
        f"{group.name} strikes with the {_words(group.strike_with)}, with no extra attack for the lightning "
        'claw: "the only weapon that can provide an additional close combat weapon attack bonus for a model with a '
        'Lightning Claw is another Lightning Claw" (decision 11).',
    )


def _target(fight: Fight, state: UnitState, group: Group) -> UnitState:
    """The enemy unit a group's choice is weighed against: its first declared target."""
    assert state.target is not None
    if group.split:
        return fight.units[state.side.other][group.split[0][0] - 1]
    return state.target


def choice_note(group_state: GroupState, choice: Choice, *, in_cover: bool = False) -> str:
    """The policy note: which weapon, when it strikes, what the others add, and the numbers behind it."""
    group = group_state.group
    name, weapon = group.name, choice.weapon
    others = [w for w, _ in choice.chances if w != weapon]
    when = " in the Cover step with its unit" if in_cover else " at Initiative 1" if weapon == "power-fist" else ""
    counting = " and ".join(f"the {_words(w)}" for w in others)
    extra = (
        f"counting {counting} as an additional close combat weapon (+1 attack)"
        if engaged_profile(group, charged=False).bonuses
        else f"with no extra attack for {counting} (only another lightning claw gives a model with a lightning claw "
        "the additional weapon bonus)"
    )
    chances = dict(choice.chances)
    against = ", ".join(f"{chances[w]:.2f} with the {_words(w)}" for w in others)
    return (
        f"{name} strikes with the {_words(weapon)}{when}, {extra} (default policy: the better expected result, "
        f"{chances[weapon]:.2f} unsaved wounds per attack against {choice.target}, to {against}; "
        + " or ".join(f"strike-with={w}" for w in others)
        + " chooses)."
    )


def _words(weapon: str) -> str:
    return NAMES.get(weapon, weapon.replace("-", " "))


def fighting_unit(state: UnitState) -> Unit:
    """The unit as it fights: its groups with the referee's weapon choices in place."""
    groups = tuple(group_state.group for group_state in state.groups)
    return state.unit if groups == state.unit.groups else replace(state.unit, groups=groups)
