"""40K force weapons: after its blows wound, each psyker takes one psychic test a turn to slay a wounded survivor
outright, and may suffer Perils of the Warp (decision 13)."""

from __future__ import annotations

from rules_core.games.wh40k.spec import FORCE_WEAPON, USED_PSYCHIC_POWER
from rules_core.games.wh40k.state import Fight, GroupState, Pool, Role, UnitState, unit_policy
from rules_core.games.wh40k.weapons import active_weapons
from rules_core.report import Event, Op, Roll, Target, event
from rules_core.roll_kinds import INVULNERABLE_SAVE, PSYCHIC_TEST


def used_power_event(state: UnitState, group_state: GroupState, *, traits: bool) -> Event | None:
    """A psyker that already used a psychic power this turn strikes with its force weapon as a power weapon: no
    psychic test ("you may not use another psychic power in the same turn"); the report says so."""
    group = group_state.group
    if USED_PSYCHIC_POWER not in group.keywords or FORCE_WEAPON not in active_weapons(group, traits):
        return None
    return unit_policy(
        "psychic_power_used",
        state,
        f"{group.name} already used a psychic power this turn: its force weapon strikes as a power weapon, "
        'with no psychic test ("you may not use another psychic power in the same turn").',
    )


def force_weapon(
    fight: Fight,
    pool: Pool,
    survivors: list[tuple[GroupState, int]],
    rolls: list[Roll],
    events: list[Event],
    *,
    psykers: int,
    sweep: bool,
) -> None:
    """After ``pool``'s force weapons wound, each of its ``psykers`` that struck tests once (2D6 <= Ld) against a
    different wounded model that ``survivors`` lists: a pass slays it outright."""
    if not survivors:
        events.append(
            event(
                "policy",
                choice="force_test",
                note=(
                    "Every model wounded by the force weapon is already dead: no psychic test is taken "
                    "(it could only risk Perils of the Warp)."
                ),
            )
        )
        return
    psyker = pool.group
    # The psykers that struck (in the fight those in base contact, in a sweep all in reach) and have not yet
    # taken a psychic test this turn; living ones first (one killed in this simultaneous step still struck).
    roles = (Role.ENGAGED, Role.SUPPORTING) if sweep else (Role.ENGAGED,)
    candidates = [
        index
        for index, role in enumerate(psyker.roles)
        if role in roles and (id(psyker), index) not in fight.psychic_tested
    ]
    candidates.sort(key=lambda index: psyker.wounds[index] <= 0)
    testers = candidates[: min(psykers, len(survivors))]
    if len(testers) < min(psykers, len(survivors)):
        events.append(
            event(
                "policy",
                choice="force_test",
                note=(
                    f"{psyker.group.name} has already taken its psychic test this turn (one psychic power per "
                    "turn): no further test against the models it wounded."
                    if not testers
                    else f"Only {len(testers)} {psyker.group.name} ha{'s' if len(testers) == 1 else 've'} not "
                    "taken a psychic test this turn (one psychic power per turn)."
                ),
            )
        )
    for tester, (group_state, index) in zip(testers, survivors, strict=False):
        fight.psychic_tested.add((id(psyker), tester))
        roll = fight.roll_2d6_test(
            "psychic test (force weapon)", Target(Op.AT_MOST, pool.profile.ld), kind=PSYCHIC_TEST, side=pool.unit.side
        )
        rolls.append(roll)
        test, passed = roll.dice, bool(roll.successes)
        if fight.options.get("perils") and test[0] == test[1] and test[0] in (1, 6):
            perils(fight, pool, tester, rolls, events)
        if passed:
            group_state.wound(index, group_state.wounds[index])
            target, name = group_state.unit, group_state.group.name
            events.append(
                event(
                    "slain_outright",
                    side=target.side.value,
                    unit=target.label,
                    model=group_state.group.name,
                    note=f"The force weapon slays {a_or_an(name)} {name} outright (only the wounds actually "
                    "inflicted count for the result).",
                )
            )
            events.append(event("casualty", side=target.side.value, unit=target.label, models=1))


def perils(fight: Fight, pool: Pool, tester: int, rolls: list[Roll], events: list[Event]) -> None:
    """Perils of the Warp: psyker ``tester`` of ``pool`` takes a wound, invulnerable saves only."""
    psyker = pool.group
    inv = psyker.group.profile.inv
    events.append(
        event(
            "perils",
            side=pool.unit.side.value,
            unit=pool.unit.label,
            note="Perils of the Warp: the psyker takes a wound (invulnerable saves only).",
        )
    )
    if psyker.wounds[tester] <= 0:
        return
    if inv is not None:
        save = fight.roll_each(
            "invulnerable save (Perils of the Warp)", 1, inv, kind=INVULNERABLE_SAVE, side=pool.unit.side
        )
        rolls.append(save)
        if save.successes:
            return
    if psyker.wound(tester, 1):
        fight.perils_deaths[pool.unit.side] += 1
        events.append(
            event(
                "casualty",
                side=pool.unit.side.value,
                unit=pool.unit.label,
                models=1,
                cause="perils",
                note=f"{pool.unit.label}: the {psyker.group.name} is slain by Perils of the Warp (its own "
                "psychic power, not the enemy).",
            )
        )


def a_or_an(word: str) -> str:
    """The indefinite article for ``word``, by its first letter ("an Ogryn", "a Marine")."""
    return "an" if word[:1].lower() in "aeiou" else "a"
