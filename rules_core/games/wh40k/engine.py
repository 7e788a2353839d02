"""The 40K assault phase, resolved step by step (decisions: see the package docstring)."""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum

from rules_core.charts import to_hit_by_weapon_skill, to_wound
from rules_core.dice import DiceSource
from rules_core.errors import IllegalDeclarationError, OptionError
from rules_core.games.wh40k.positions import Model, describe, kept
from rules_core.games.wh40k.spec import (
    ARMOUR_IGNORING,
    BIKE,
    DIES_FIRST,
    DIES_LAST,
    EXAMPLE_SPLIT,
    FORCE_WEAPON,
    FRAG,
    HAND_WEAPONS,
    HEAVY_CCW,
    JUMP_PACK,
    LIGHTNING_CLAW,
    LIGHTNING_CLAWS,
    MONSTROUS,
    NO_ARMOUR,
    PLASMA,
    POISONED,
    POWER_FIST,
    RENDING,
    TWO_WEAPONS,
    Grenades,
    Group,
    Side,
    Unit,
    format_side,
)
from rules_core.options import OptionValue
from rules_core.report import (
    Combine,
    Event,
    FrozenMap,
    Inputs,
    Json,
    Op,
    Report,
    Result,
    Roll,
    SideName,
    SideResult,
    Step,
    Target,
    Winner,
    event,
)
from rules_core.rolling import roll_combined_test, roll_each, roll_unchecked

GAME_ID = "40k"
MAX_CHARGE = 6.0
FALL_BACK_DICE = 2
FAST_FALL_BACK_DICE = 3
CONSOLIDATE_INCHES = 3
PILE_IN_INCHES = 6


class Role(IntEnum):
    ENGAGED = 0
    SUPPORTING = 1
    OUT = 2


class Outcome(StrEnum):
    NO_CHARGE = "no_charge"
    DRAWN = "drawn"
    HELD = "held"
    FELL_BACK = "fell_back"
    SOME_FELL_BACK = "some_fell_back"
    DESTROYED = "destroyed"
    BOTH_DESTROYED = "both_destroyed"


# --------------------------------------------------------------------------- state


class GroupState:
    __slots__ = ("aims", "alive_by_role", "full_wounds", "group", "roles", "unit", "wounds")

    def __init__(self, group: Group, unit: UnitState) -> None:
        self.group = group
        self.unit = unit
        self.full_wounds = group.profile.w
        self.wounds = [group.profile.w] * group.count
        self.roles = (
            [Role.ENGAGED] * group.engaged + [Role.SUPPORTING] * group.supporting + [Role.OUT] * group.out_of_fight
        )
        self.alive_by_role = [group.engaged, group.supporting, group.out_of_fight]
        # A group dividing its models between enemy units (vs=1:6+2,2:2): the enemy unit number each model fights
        # (0 when out of reach); None when the whole group fights its unit's target.
        self.aims: list[int] | None = None
        if group.split:
            self.aims = [target for target, engaged, _ in group.split for _ in range(engaged)]
            self.aims += [target for target, _, supporting in group.split for _ in range(supporting)]
            self.aims += [0] * group.out_of_fight

    def alive_aiming(self, role: Role, aim: int) -> int:
        """Living models of ``role`` that fight enemy unit number ``aim`` (0: the whole group's)."""
        if not aim or self.aims is None:
            return self.alive_by_role[role]
        return sum(
            1
            for left, its_role, its_aim in zip(self.wounds, self.roles, self.aims, strict=True)
            if left > 0 and its_role is role and its_aim == aim
        )

    def alive(self, role: Role | None = None) -> int:
        if role is None:
            return self.alive_by_role[0] + self.alive_by_role[1] + self.alive_by_role[2]
        return self.alive_by_role[role]

    def wound(self, index: int, amount: int) -> bool:
        """Take ``amount`` wounds on model ``index`` (at most what it has left); True when it dies."""
        left = self.wounds[index]
        self.wounds[index] = max(left - amount, 0)
        if left > 0 and self.wounds[index] == 0:
            self.alive_by_role[self.roles[index]] -= 1
            return True
        return False


class UnitState:
    __slots__ = ("groups", "index", "initial", "label", "side", "target", "targets", "unit", "ws_over_half")

    def __init__(self, unit: Unit, side: SideName, index: int, label: str) -> None:
        self.unit = unit
        self.side = side
        self.index = index
        self.label = label
        self.groups = [GroupState(group, self) for group in unit.groups]
        self.initial = unit.models
        self.target: UnitState | None = None
        self.targets: list[UnitState] = []  # every enemy unit it fights (dividing attacks), its target first
        self.ws_over_half = False  # option ws_majority=over_half: the majority WS type needs over half the models

    def alive(self) -> int:
        return sum(group.alive() for group in self.groups)

    def alive_in_zone(self) -> int:
        return sum(group.alive(Role.ENGAGED) + group.alive(Role.SUPPORTING) for group in self.groups)

    def highest_leadership(self) -> int:
        return max(g.group.profile.ld for g in self.groups if g.alive())

    def alive_profiles(self) -> list[tuple[Group, int]]:
        return [(g.group, g.alive()) for g in self.groups if g.alive()]


@dataclass(frozen=True, slots=True)
class AttackProfile:
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


@dataclass(slots=True)
class Pool:
    unit: UnitState
    group: GroupState
    role: Role
    target: UnitState
    profile: AttackProfile
    priority: tuple[int, int]
    phase: str
    aim: int = 0  # the enemy unit number these models of a dividing group fight (0: the whole group's target)
    divide: tuple[UnitState, ...] = ()  # an independent character dividing its hits between these units

    def alive(self) -> int:
        return self.group.alive_aiming(self.role, self.aim)


@dataclass(slots=True)
class SideTally:
    wounds_inflicted: int = 0
    morale: list[dict[str, Json]] = field(default_factory=list)


def a_or_an(word: str) -> str:
    """The indefinite article for ``word``, by its first letter ("an Ogryn", "a Marine")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


# --------------------------------------------------------------------------- weapons


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
    parts = [f"{profile.attacks} attack{'s' if profile.attacks != 1 else ''} each"]
    if profile.bonuses:
        parts.append(f"(A{base_attacks} " + " ".join(profile.bonuses) + ")")
    if profile.weapons:
        parts.append("with " + ", ".join(sorted(profile.weapons)))
    parts.append(f"WS{profile.ws} S{profile.strength}")
    if profile.ignores_armour:
        parts.append("ignoring armour")
    return " ".join(parts)


# --------------------------------------------------------------------------- majorities


def majority(values: Counter[int], *, on_tie: str) -> tuple[int, list[int]]:
    """The most common value, and the tied values when there is no single majority."""
    top = max(values.values())
    tied = sorted(value for value, count in values.items() if count == top)
    if len(tied) == 1:
        return tied[0], []
    return (tied[0] if on_tie == "lowest" else tied[-1]), tied


def majority_ws(values: Counter[int], *, over_half: bool) -> tuple[int, str | None]:
    """The Weapon Skill attacks are resolved against: the majority type's, or with no majority the lowest in the
    unit (the rule), with a note saying why. The majority type is the single most common value, or with
    ``over_half`` (option ws_majority=over_half) a value held by more than half of the models."""
    top = max(values.values())
    tied = sorted(value for value, count in values.items() if count == top)
    total = sum(values.values())
    if len(tied) == 1 and (not over_half or 2 * top > total):
        return tied[0], None
    lowest = min(values)
    why = (
        f"WS{' and WS'.join(map(str, tied))} tie for the most models"
        if len(tied) > 1
        else f"WS{tied[0]} is the most common but not held by more than half of the models (ws_majority=over_half)"
    )
    return lowest, f"{why}: there is no majority Weapon Skill, so the lowest in the unit, WS{lowest}, is used."


@dataclass(frozen=True, slots=True)
class TargetSnapshot:
    """Majority values of a target unit, fixed at the start of a strike step."""

    ws: int
    t: int
    t_note: str | None
    save_counts: tuple[tuple[tuple[int | None, int | None], int], ...]
    ws_note: str | None = None


def snapshot(unit: UnitState) -> TargetSnapshot:
    profiles = unit.alive_profiles()
    if len(profiles) == 1:  # one profile alive: it is every majority, and nothing is tied
        group, alive = profiles[0]
        return TargetSnapshot(group.profile.ws, group.profile.t, None, ((group.profile.save_type, alive),))
    ws_counts: Counter[int] = Counter()
    t_counts: Counter[int] = Counter()
    save_counts: Counter[tuple[int | None, int | None]] = Counter()
    for group, alive in profiles:
        ws_counts[group.profile.ws] += alive
        t_counts[group.profile.t] += alive
        save_counts[group.profile.save_type] += alive
    ws, ws_note = majority_ws(ws_counts, over_half=unit.ws_over_half)
    if ws_note:
        ws_note = f"{unit.label}: {ws_note}"
    t, tied = majority(t_counts, on_tie="highest")
    t_note = None
    if tied:
        chosen = unit.unit.tie_t if unit.unit.tie_t in tied else t
        how = "tie-t" if chosen == unit.unit.tie_t else "default policy: the highest"
        t_note = f"{unit.label}: Toughness tied between {', '.join(map(str, tied))}; the owner uses T{chosen} ({how})."
        t = chosen
    return TargetSnapshot(ws, t, t_note, tuple(save_counts.items()), ws_note)


def _effective_save(save_type: tuple[int | None, int | None], profile: AttackProfile) -> tuple[int | None, str]:
    sv, inv = save_type
    armour = None if profile.ignores_armour or sv is None else (max(sv, 4) if profile.heavy else sv)
    if armour is not None and (inv is None or armour <= inv):
        return armour, "armour save"
    if inv is not None:
        return inv, "invulnerable save"
    return None, "no save"


def choose_save_type(
    snap: TargetSnapshot, unit: UnitState, profile: AttackProfile
) -> tuple[tuple[int | None, int | None], str | None]:
    counts = dict(snap.save_counts)
    top = max(counts.values())
    tied = [save_type for save_type, count in counts.items() if count == top]
    if len(tied) == 1:
        return tied[0], None

    def goodness(save_type: tuple[int | None, int | None]) -> int:
        value, _ = _effective_save(save_type, profile)
        return 7 if value is None else value

    chosen_from = tied
    how = "default policy: the best save against these attacks"
    if unit.unit.tie_save is not None:
        wanted = [s for s in tied if (NO_ARMOUR if s[0] is None else s[0]) == unit.unit.tie_save]
        if wanted:
            chosen_from, how = wanted, "tie-save"
    chosen = min(chosen_from, key=goodness)
    names = ", ".join(_save_type_text(s) for s in tied)
    return (
        chosen,
        f"{unit.label}: saves tied between {names}; the owner uses {_save_type_text(chosen)} ({how}).",
    )


def _save_type_text(save_type: tuple[int | None, int | None]) -> str:
    sv, inv = save_type
    text = "Sv-" if sv is None else f"Sv{sv}+"
    return text + (f" Inv{inv}+" if inv is not None else "")


# --------------------------------------------------------------------------- the resolver


class Assault:
    """One resolution: the mutable state of the fight and the steps written so far."""

    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        self.inputs = Inputs(format_side(attacker), format_side(defender), FrozenMap(dict(options)))
        self.options = options
        self.dice = dice
        self.steps: list[Step] = []
        self.round = int(_opt_int(options, "round"))
        self.units: dict[SideName, list[UnitState]] = {
            SideName.ATTACKER: self._make_units(attacker, SideName.ATTACKER),
            SideName.DEFENDER: self._make_units(defender, SideName.DEFENDER),
        }
        for side in SideName:
            enemies = self.units[side.other]
            for state in self.units[side]:
                if state.unit.vs > len(enemies):
                    raise OptionError(
                        f"{state.label} fights vs={state.unit.vs}, but the {side.other.value} has only "
                        f"{len(enemies)} unit{'s' if len(enemies) != 1 else ''}.",
                        token=f"vs={state.unit.vs}",
                        example="... | 5x Ork Nob: WS4 S4 T4 W1 I3 A2 Ld7 Sv6+ vs=2",
                    )
                state.target = enemies[state.unit.vs - 1]
                state.targets = self._targets(state, enemies)
                state.ws_over_half = options.get("ws_majority") == "over_half"
        self._check_dividing_characters()
        self.tally = {SideName.ATTACKER: SideTally(), SideName.DEFENDER: SideTally()}
        self.charged = False
        self.destroyed_before_fight = False  # a unit failed to regroup while falling back (decision 20 may apply)
        # Psykers (group, model index) that took their psychic test this turn: one psychic power per turn.
        self.psychic_tested: set[tuple[int, int]] = set()
        self.perils_deaths: Counter[SideName] = Counter()  # models slain by Perils of the Warp, per side
        self.lost_why: dict[int, str] = {}  # unit -> why its attacks at a unit destroyed before the fight are lost

    @staticmethod
    def _targets(state: UnitState, enemies: list[UnitState]) -> list[UnitState]:
        """Every enemy unit ``state`` fights: its groups' own targets (vs=1:6,2:2), a character's (vs=1,2)."""
        assert state.target is not None
        numbers: list[int] = list(state.unit.divide)
        for group in state.unit.groups:
            if group.split:
                numbers += [target for target, engaged, supporting in group.split if engaged + supporting]
            elif group.engaged + group.supporting:
                numbers.append(state.unit.vs)
        for number in numbers:
            if number > len(enemies):
                raise OptionError(
                    f"{state.label} fights enemy unit {number}, but the {state.side.other.value} has only "
                    f"{len(enemies)} unit{'s' if len(enemies) != 1 else ''}.",
                    token=str(number),
                    example=EXAMPLE_SPLIT,
                )
        found = [enemies[number - 1] for number in dict.fromkeys(numbers)]
        return [state.target] + [e for e in found if e is not state.target] if state.target in found else found

    def _check_dividing_characters(self) -> None:
        """An independent character divides its hits only between units it is engaged with: units that say some
        of their models in base contact fight it (base contact is mutual, and the referee cannot see the table)."""
        for side in SideName:
            for state in self.units[side]:
                for enemy in state.targets if state.unit.divide else ():
                    if any(_fights_in_contact(enemy, group.group, state) for group in enemy.groups):
                        continue
                    raise IllegalDeclarationError(
                        f"{state.label} divides its hits between "
                        + ", ".join(e.label for e in state.targets)
                        + f", but no model of {enemy.label} in base contact fights it, so they are not engaged. "
                        f"Say which of {enemy.label}'s models are in base contact with {state.label} (vs= on "
                        f"{enemy.label}, e.g. vs=1:6,{state.index + 1}:2), or leave {enemy.label} out of "
                        f"{state.label}'s vs=.",
                        token="vs=" + ",".join(map(str, state.unit.divide)),
                        example=EXAMPLE_SPLIT,
                    )

    @staticmethod
    def _make_units(side: Side, name: SideName) -> list[UnitState]:
        seen: Counter[str] = Counter(unit.name for unit in side.units)
        numbering: Counter[str] = Counter()
        states = []
        for index, unit in enumerate(side.units):
            label = unit.name
            if seen[unit.name] > 1:
                numbering[unit.name] += 1
                label = f"{unit.name} #{numbering[unit.name]}"
            states.append(UnitState(unit, name, index, label))
        return states

    # ----------------------------------------------------------------- dice helpers

    def roll_each(self, purpose: str, count: int, need: int, *, reroll_failures: bool = False) -> Roll:
        return roll_each(self.dice, purpose, count, Target(Op.AT_LEAST, need), reroll_failures=reroll_failures)

    def roll_2d6_test(
        self,
        purpose: str,
        target: Target,
        *,
        combine: Combine = Combine.SUM,
        double_one_passes: bool = False,
    ) -> Roll:
        """A 2D6 test read as a total (or the highest die); one success entry for the combined result."""
        return roll_combined_test(self.dice, purpose, target, combine=combine, double_one_passes=double_one_passes)

    def roll_distance(self, purpose: str, count: int) -> Roll:
        return roll_unchecked(self.dice, purpose, count)

    # ----------------------------------------------------------------- procedure

    def run(self) -> Report:
        if not self.charge_step():
            return self.report(Outcome.NO_CHARGE, Winner.NONE)
        if self.options.get("defender_falling_back") and self.charged:  # tested when charged, never later
            self.regroup_step()
        if any(state.alive() for state in self.units[SideName.DEFENDER]):
            pools = self.who_fights_step()
            for priority in sorted({pool.priority for pool in pools}):
                self.strike_step([pool for pool in pools if pool.priority == priority])
        winner = self.result_step()
        if winner in (Winner.ATTACKER, Winner.DEFENDER):
            winning = SideName(winner.value)
            fallen = self.morale_step(winning.other)
            if fallen:
                self.sweeping_advance_step(winning, fallen)
        else:
            fallen = {}
        outcome = self.outcome(winner, fallen)
        self.next_step(winner, fallen)
        return self.report(outcome, winner)

    def charge_step(self) -> bool:
        distance = self.options.get("charge_distance")
        difficult = bool(self.options.get("difficult_terrain"))
        if self.round > 1:
            if distance is not None or difficult:
                raise OptionError(
                    f"Round {self.round} is a later round of a combat already fought: nobody charges, so "
                    "charge_distance and difficult_terrain do not apply; leave them out.",
                    token="charge_distance" if distance is not None else "difficult_terrain",
                    example=f"round={self.round} (without charge_distance or difficult_terrain)",
                )
            if self.options.get("shot_this_turn"):
                raise IllegalDeclarationError(
                    "Units locked in close combat may not shoot, so shot_this_turn cannot apply to a later round; "
                    "leave it out.",
                    token="shot_this_turn",
                    example=f"round={self.round} (without shot_this_turn)",
                )
            self.steps.append(
                Step(
                    f"Round {self.round}: the combat continues",
                    events=(
                        event(
                            "continuing",
                            round=self.round,
                            note="No charge this turn: no +1 attack for charging and no cover advantage."
                            + (
                                " Assaulted while falling back: the defenders tested to regroup when they were "
                                "charged, so no test now; they fight normally."
                                if self.options.get("defender_falling_back")
                                else ""
                            ),
                        ),
                        self._positions_event(),
                    ),
                )
            )
            return True
        if self.options.get("shot_this_turn"):
            raise IllegalDeclarationError(
                "(shot_this_turn): a unit that fired in the shooting phase of this turn may not declare a charge; "
                "leave it out to charge.",
                token="shot_this_turn",
                example="charge_distance=4 (without shot_this_turn)",
            )
        if difficult and distance is None:
            raise OptionError(
                "A charge through difficult terrain needs the distance to the enemy (charge_distance), "
                "to compare with the 2D6 roll.",
                token="difficult_terrain",
                example="charge_distance=4 with difficult_terrain",
            )
        events: list[Event] = []
        rolls: list[Roll] = []
        if distance is None:
            events.append(
                event(
                    "assumed",
                    fact="in_reach",
                    note='No charge distance given: the chargers are assumed to be within 6".',
                )
            )
        else:
            inches = float(distance)
            if inches > MAX_CHARGE:
                events.append(
                    event(
                        "no_charge",
                        distance=inches,
                        note=f'The enemy is {inches:g}" away, more than 6": the charge does not happen.',
                    )
                )
                self.steps.append(Step("Charge", events=tuple(events)))
                return False
            if difficult:
                need = max(1, math.ceil(inches))
                roll = self.roll_2d6_test(
                    "charge through difficult terrain", Target(Op.AT_LEAST, need), combine=Combine.HIGHEST
                )
                rolls.append(roll)
                if not roll.successes:
                    events.append(
                        event(
                            "no_charge",
                            distance=inches,
                            moved=max(roll.dice),
                            note=f"Difficult terrain: the highest die is {max(roll.dice)}, short of "
                            f'{inches:g}": the charge does not proceed and nobody moves.',
                        )
                    )
                    self.steps.append(Step("Charge", tuple(rolls), tuple(events)))
                    return False
            events.append(event("charge", distance=inches, note=f'The chargers reach the enemy {inches:g}" away.'))
        self.charged = True
        events.append(
            event(
                "charged",
                side=SideName.ATTACKER.value,
                note="The attacker charged: its models in base contact get +1 attack this turn.",
            )
        )
        self.steps.append(Step("Charge", tuple(rolls), tuple(events)))
        return True

    def _positions_event(self) -> Event:
        """A later round: each unit's positions as used (from the inputs), so every report shows them."""
        placed = {side: [f"{state.label} {describe(state.unit)}" for state in self.units[side]] for side in SideName}
        return event(
            "positions",
            round=self.round,
            attacker=placed[SideName.ATTACKER],
            defender=placed[SideName.DEFENDER],
            note="Positions used this round: " + "; ".join(placed[SideName.ATTACKER] + placed[SideName.DEFENDER]) + ".",
        )

    def regroup_step(self) -> None:
        """Assaulted while falling back: each defending unit checks to regroup at once (2D6 <= its highest Ld,
        no modifiers, even where regrouping is normally barred); one that fails is destroyed (decision 19)."""
        rolls: list[Roll] = []
        events: list[Event] = []
        double_one = bool(self.options.get("double_one_passes"))
        for state in self.units[SideName.DEFENDER]:
            ld = state.highest_leadership()
            roll = self.roll_2d6_test(
                f"regroup test ({state.label})", Target(Op.AT_MOST, ld), double_one_passes=double_one
            )
            rolls.append(roll)
            total, passed = sum(roll.dice), bool(roll.successes)
            events.append(
                event(
                    "regroup",
                    side=SideName.DEFENDER.value,
                    unit=state.label,
                    passed=passed,
                    note=f"{state.label} was falling back when charged and must regroup at once: {total} against "
                    f"Ld{ld}, no modifiers: " + ("it regroups and fights normally." if passed else "it fails."),
                )
            )
            if passed:
                continue
            self.destroyed_before_fight = True
            models = state.alive()
            for group_state in state.groups:
                for index, left in enumerate(group_state.wounds):
                    if left > 0:
                        group_state.wound(index, left)
            events.append(
                event(
                    "destroyed_falling_back",
                    side=SideName.DEFENDER.value,
                    unit=state.label,
                    models=models,
                    note=f"{state.label} failed to regroup while falling back and is destroyed: "
                    + (
                        f"its {models} models are lost, but they are not wounds inflicted and do not count"
                        if models != 1
                        else "its 1 model is lost, but it is not a wound inflicted and does not count"
                    )
                    + " for the assault result.",
                )
            )
            events.append(event("casualty", side=SideName.DEFENDER.value, unit=state.label, models=models))
        self.steps.append(Step("Assaulted while falling back", tuple(rolls), tuple(events)))

    def _fight_instead(self, state: UnitState, events: list[Event]) -> UnitState | None:
        """Decision 20: models whose target was destroyed before a blow was struck (it failed to regroup) fight the
        first enemy unit that declared models in base contact with their unit; the report says so (or why their
        attacks are lost)."""
        enemies = self.units[state.side.other]
        assert state.target is not None
        aimed: list[UnitState]
        if state.unit.divide:
            aimed = [] if any(e.alive() for e in state.targets) else list(state.targets)
        else:
            aimed = [
                enemies[aim - 1] if aim else state.target
                for g in state.unit.groups
                for aim, engaged, supporting in (g.split or [(0, g.engaged, g.supporting)])
                if engaged + supporting
            ]
        gone = [e for e in dict.fromkeys(aimed) if not e.alive()]
        if not gone:
            return None
        instead = next(
            (
                enemy
                for enemy in enemies
                if enemy.alive() and any(_fights_in_contact(enemy, g.group, state) for g in enemy.groups)
            ),
            None,
        )
        names = " and ".join(e.label for e in gone)
        was = "were" if len(gone) > 1 else "was"
        if instead is not None:
            events.append(
                event(
                    "retarget",
                    side=state.side.value,
                    unit=state.label,
                    target=instead.label,
                    note=f"{names} {was} destroyed before a blow was struck, so it engages nobody: {state.label}'s "
                    f"models that would fight it fight {instead.label}, whose models are in base contact with "
                    f"{state.label}.",
                )
            )
        else:
            self.lost_why[id(state)] = (
                f"{names} {was} destroyed before a blow was struck and no other enemy unit has models in base "
                f"contact with {state.label}: the attacks are lost."
            )
        return instead

    def grenades_used(self, state: UnitState, pools: list[Pool]) -> tuple[Grenades, str | None]:
        unit = state.unit
        has_frag, has_plasma = unit.carries(FRAG), unit.carries(PLASMA)
        if has_frag and has_plasma:
            if unit.grenades is not None:
                return unit.grenades, None
            own = max((p.profile.initiative for p in pools if p.unit is state), default=0)
            target = state.target
            theirs = max((p.profile.initiative for p in pools if p.unit is target), default=0)
            choice = Grenades.PLASMA if own > theirs else Grenades.FRAG
            why = (
                "it strikes before them in Initiative order"
                if choice is Grenades.PLASMA
                else ("it would not strike first in Initiative order")
            )
            return choice, (
                f"{state.label} carries frag and plasma grenades and uses {choice.value} grenades: {why} "
                "(default policy; grenades=frag or grenades=plasma chooses)."
            )
        if has_plasma:
            return Grenades.PLASMA, None
        if has_frag:
            return Grenades.FRAG, None
        return Grenades.NONE, None

    def who_fights_step(self) -> list[Pool]:
        events: list[Event] = []
        pools: list[Pool] = []
        fist_notes: list[tuple[int, Pool]] = []  # events to say "in the Cover step" when a fist strikes there
        fighting_notes: list[tuple[int, UnitState, bool, str, str]] = []
        for side in SideName:
            charged = self.charged and side is SideName.ATTACKER
            for state in self.units[side]:
                assert state.target is not None
                if not state.alive():  # destroyed before the fight (it failed to regroup while falling back)
                    continue
                enemies = self.units[side.other]
                instead = self._fight_instead(state, events) if self.destroyed_before_fight else None
                for group_state in state.groups:
                    group = group_state.group
                    aims = [(t, e, s) for t, e, s in group.split] or [(0, group.engaged, group.supporting)]
                    engaged_pool: Pool | None = None
                    for aim, engaged, supporting in aims:
                        target = enemies[aim - 1] if aim else state.target
                        divide = tuple(e for e in state.targets if e.alive()) if state.unit.divide else ()
                        if len(divide) == 1:  # one unit left to divide between (decision 20): it fights that one
                            target, divide = divide[0], ()
                        if instead is not None and not divide and not target.alive():
                            target = instead  # its target was destroyed before the fight (decision 20)
                        profile = engaged_profile(group, charged=charged)
                        if engaged and profile.attacks:  # models with no attacks are only targets
                            engaged_pool = Pool(
                                state,
                                group_state,
                                Role.ENGAGED,
                                target,
                                profile,
                                (1, -profile.initiative),
                                f"Initiative {profile.initiative}",
                                aim,
                                divide,
                            )
                            pools.append(engaged_pool)
                        if supporting:
                            profile = supporting_profile(group)
                            pools.append(
                                Pool(
                                    state,
                                    group_state,
                                    Role.SUPPORTING,
                                    target,
                                    profile,
                                    (1, -profile.initiative),
                                    f"Initiative {profile.initiative}",
                                    aim,
                                )
                            )
                    if group.engaged:
                        _, note = active_weapons(group)
                        if note:
                            if engaged_pool is not None:
                                fist_notes.append((len(events), engaged_pool))
                            events.append(
                                event(
                                    "policy",
                                    choice="strike_with",
                                    side=side.value,
                                    unit=state.label,
                                    note=note,
                                )
                            )
                dividing = _dividing_note(state, enemies)
                fighting_notes.append((len(events), state, charged, dividing, _targets_text(state, instead)))
                events.append(
                    event(
                        "fighting",
                        side=side.value,
                        unit=state.label,
                        target=state.target.label if instead is None or state.target.alive() else instead.label,
                        engaged=sum(g.group.engaged for g in state.groups),
                        supporting=sum(g.group.supporting for g in state.groups),
                        out_of_fight=sum(g.group.out_of_fight for g in state.groups),
                        note=_fighting_note(state.unit, state.label, fighting_notes[-1][4], charged) + dividing,
                        **({"targets": [e.label for e in state.targets]} if len(state.targets) > 1 else {}),
                    )
                )
        cover = self.charged and bool(self.options.get("defender_in_cover"))
        if cover:
            events.extend(self._apply_cover(pools))
            _say_where_fists_strike(events, pools, fist_notes, fighting_notes)
        events.append(CASUALTY_POLICY)
        order = " then ".join(
            sorted({p.phase for p in pools}, key=lambda phase: min(p.priority for p in pools if p.phase == phase))
        )
        nobody = "Nobody in the fight has an attack: no blows are struck."  # every model A0
        events.append(event("strike_order", order=order, note=f"Strike order: {order}." if order else nobody))
        self.steps.append(Step("Who fights and who strikes first", events=tuple(events)))
        return pools

    def _apply_cover(self, pools: list[Pool]) -> list[Event]:
        events: list[Event] = []
        grenades: dict[int, Grenades] = {}
        for state in self.units[SideName.ATTACKER]:
            used, note = self.grenades_used(state, pools)
            grenades[id(state)] = used
            if note:
                events.append(event("policy", choice="grenades", side="attacker", unit=state.label, note=note))
        fists_at_1 = self.options.get("cover_power_fists") == "initiative_1"
        for pool in pools:
            if fists_at_1 and POWER_FIST in pool.profile.weapons:
                continue  # cover_power_fists=initiative_1: a power fist strikes at Initiative 1 even then
            if pool.unit.side is SideName.DEFENDER:
                if grenades[id(pool.target)] is not Grenades.PLASMA:
                    pool.priority, pool.phase = (0, 0), "Cover"
            elif grenades[id(pool.unit)] is Grenades.FRAG:
                pool.priority, pool.phase = (0, 0), "Cover"
        for state in self.units[SideName.DEFENDER]:
            assert state.target is not None
            used = grenades[id(state.target)]
            if used is Grenades.PLASMA:
                note = (
                    f"{state.label} is in cover, but {state.target.label} assaults with plasma grenades: "
                    "they fight in Initiative order."
                )
            elif used is Grenades.FRAG:
                note = (
                    f"{state.label} is in cover and strikes first, but {state.target.label} throws frag grenades "
                    "and strikes simultaneously with them."
                )
            else:
                note = f"{state.label} was charged in cover: all its models strike first, regardless of Initiative."
            events.append(event("cover", side="defender", unit=state.label, grenades=used.value, note=note))
        return events

    # ----------------------------------------------------------------- striking

    def strike_step(self, pools: list[Pool]) -> None:
        """Everyone in one step strikes simultaneously: attacks are counted before any casualty is removed."""
        counts = [(pool, pool.alive()) for pool in pools]
        snapshots: dict[int, TargetSnapshot] = {}
        for pool, models in counts:
            for target in pool.divide or (pool.target,):
                if models and id(target) not in snapshots and target.alive():
                    snapshots[id(target)] = snapshot(target)
        for pool, models in counts:
            if not models or not pool.profile.attacks:
                continue
            if pool.divide:
                inflicted = self.strike_divided(pool, models, snapshots)
            else:
                inflicted = self.strike(pool, models, snapshots.get(id(pool.target)), sweep=False)
            self.tally[pool.unit.side].wounds_inflicted += inflicted

    def strike(
        self,
        pool: Pool,
        models: int,
        snap: TargetSnapshot | None,
        *,
        sweep: bool,
        dealt: tuple[int, int, int] | None = None,
    ) -> int:
        """One pool's attacks on its target, or (``dealt``: hits, rending hits, all hits) the hits an independent
        character dividing its hits deals this target."""
        profile, target = pool.profile, pool.target
        role_text = "" if pool.role is Role.ENGAGED else " (supporting)"
        attacks = models * profile.attacks
        title = f"{pool.phase}: {pool.group.group.name} ×{models}{role_text} → {target.label}"
        if dealt is not None:
            title += f" ({dealt[0]} of its {dealt[2]} hits)" if dealt[2] != 1 else " (its 1 hit)"
        events: list[Event] = (
            [
                event(
                    "hits_dealt",
                    side=pool.unit.side.value,
                    unit=pool.unit.label,
                    target=target.label,
                    hits=dealt[0],
                    note=(
                        f"{dealt[0]} of {pool.group.group.name}'s {dealt[2]} hits on {target.label}."
                        if dealt[2] != 1
                        else f"{pool.group.group.name}'s 1 hit on {target.label}."
                    ),
                )
            ]
            if dealt is not None
            else [
                event(
                    "strike",
                    side=pool.unit.side.value,
                    unit=pool.unit.label,
                    group=pool.group.group.name,
                    models=models,
                    attacks=attacks,
                    target=target.label,
                    note=f"{models} {pool.group.group.name}{role_text}: "
                    + describe_profile(profile, pool.group.group.profile.a if pool.role is Role.ENGAGED else 1)
                    + ".",
                )
            ]
        )
        rolls: list[Roll] = []
        if snap is None or target.alive_in_zone() == 0:
            events.append(
                event(
                    "no_target",
                    unit=target.label,
                    note=self.lost_why.get(id(pool.unit), "")
                    if not target.alive() and id(pool.unit) in self.lost_why
                    else f"No model of {target.label} is left within reach: the attacks are lost.",
                )
            )
            self.steps.append(Step(title, tuple(rolls), tuple(events)))
            return 0
        # To hit.
        if dealt is not None:
            hits, rends = dealt[0], dealt[1]
        elif sweep:
            hits = attacks
            rends = 0
            if profile.rending:
                check = self.roll_each("rending check (hits are automatic)", attacks, 6)
                rolls.append(check)
                rends = check.successes
            events.append(
                event(
                    "automatic_hits",
                    hits=attacks,
                    note=f"Sweeping advance: all {attacks} attacks hit automatically.",
                )
            )
        else:
            if snap.ws_note:
                events.append(event("majority", stat="WS", unit=target.label, note=snap.ws_note))
            need_hit = to_hit_by_weapon_skill(profile.ws, snap.ws)
            hit_roll = self.roll_each(f"to hit (WS{profile.ws} vs WS{snap.ws})", attacks, need_hit)
            rolls.append(hit_roll)
            hits = hit_roll.successes
            rends = sum(1 for face in hit_roll.dice if face == 6) if profile.rending else 0
        normal_hits = hits - rends
        if rends:
            events.append(
                event(
                    "rending",
                    hits=rends,
                    note=f"{rends} rending 6{'s' if rends != 1 else ''} to hit: automatic wounds, no armour save.",
                )
            )
        # To wound.
        wounds = 0
        if normal_hits:
            if profile.poisoned is not None:
                need_wound: int | None = profile.poisoned
                purpose = f"to wound (poisoned {profile.poisoned}+)"
            else:
                need_wound = to_wound(profile.strength, snap.t)
                purpose = f"to wound (S{profile.strength} vs T{snap.t})"
            if snap.t_note:
                events.append(event("policy", choice="tied_toughness", unit=target.label, note=snap.t_note))
            if need_wound is None:
                events.append(
                    event(
                        "no_effect",
                        hits=normal_hits,
                        note=f"S{profile.strength} cannot hurt T{snap.t}: the hits have no effect.",
                    )
                )
            else:
                wound_roll = self.roll_each(purpose, normal_hits, need_wound, reroll_failures=profile.reroll_wounds)
                rolls.append(wound_roll)
                wounds = wound_roll.successes
        # Saves.
        save_type, save_note = choose_save_type(snap, target, profile)
        if save_note and (wounds or rends):
            events.append(event("policy", choice="tied_save", unit=target.label, note=save_note))
        unsaved = 0
        for count, rend in ((wounds, False), (rends, True)):
            if not count:
                continue
            if rend:
                value, kind = (save_type[1], "invulnerable save") if save_type[1] is not None else (None, "no save")
            else:
                value, kind = _effective_save(save_type, profile)
            if value is None:
                unsaved += count
                events.append(
                    event(
                        "no_save",
                        wounds=count,
                        note=f"{count} wound{'s' if count != 1 else ''}: no save possible.",
                    )
                )
                continue
            save_roll = self.roll_each(kind, count, value)
            rolls.append(save_roll)
            unsaved += count - save_roll.successes
        # Casualties.
        inflicted = 0
        if unsaved:
            inflicted, killed, discarded, survivors = allocate(target, unsaved, save_type)
            events.append(_wounds_event(target, unsaved, inflicted, discarded))
            if killed:
                events.append(event("casualty", side=target.side.value, unit=target.label, models=killed))
            if profile.force and inflicted and pool.role is Role.ENGAGED:
                self.force_weapon(pool, models, survivors, rolls, events, sweep=sweep)
        self.steps.append(Step(title, tuple(rolls), tuple(events)))
        return inflicted

    def strike_divided(self, pool: Pool, models: int, snapshots: dict[int, TargetSnapshot]) -> int:
        """An independent character dividing its hits between the units it is engaged with: one roll to hit, then
        the hits dealt between the units (decision 15), each resolved as a strike on that unit."""
        profile, group = pool.profile, pool.group.group
        targets = [t for t in pool.divide if id(t) in snapshots and t.alive_in_zone()]
        attacks = models * profile.attacks
        title = f"{pool.phase}: {group.name} ×{models} → " + ", ".join(t.label for t in pool.divide)
        events: list[Event] = [
            event(
                "strike",
                side=pool.unit.side.value,
                unit=pool.unit.label,
                group=group.name,
                models=models,
                attacks=attacks,
                target=", ".join(t.label for t in pool.divide),
                note=f"{models} {group.name}: " + describe_profile(profile, group.profile.a) + ", dividing its hits.",
            )
        ]
        if not targets:
            events.append(
                event(
                    "no_target",
                    unit=pool.target.label,
                    note="No enemy model is left within reach: the attacks are lost.",
                )
            )
            self.steps.append(Step(title, (), tuple(events)))
            return 0
        for target in targets:
            ws_note = snapshots[id(target)].ws_note
            if ws_note:
                events.append(event("majority", stat="WS", unit=target.label, note=ws_note))
        needs = {id(t): to_hit_by_weapon_skill(profile.ws, snapshots[id(t)].ws) for t in targets}
        need = max(needs.values())
        # The hardest WS among the units it divides between (the highest of those needing the worst roll).
        ws = max(snapshots[id(t)].ws for t in targets if needs[id(t)] == need)
        hit_roll = self.roll_each(f"to hit (WS{profile.ws} vs WS{ws})", attacks, need)
        dealt = deal_hits(
            [face for face, hit in zip(hit_roll.dice, hit_roll.success, strict=True) if hit],
            [pool.unit.unit.divide.index(t.index + 1) for t in targets],
            [(pool.unit.unit.divide.index(number), most) for number, most in pool.unit.unit.hits],
        )
        total = hit_roll.successes
        shares = []
        for target, faces in zip(targets, dealt, strict=True):
            shares.append(f"{len(faces)} on {target.label}")
        how = (
            "hits= as given, the rest in turn"
            if pool.unit.unit.hits
            else "default policy: one at a time in turn, in vs= order; hits= chooses"
        )
        why = (
            f" (against WS{ws}, the hardest of the units it divides between: the hits are dealt after the roll)"
            if len({snapshots[id(t)].ws for t in targets}) > 1
            else ""
        )
        events.append(
            event(
                "divide_hits",
                side=pool.unit.side.value,
                unit=pool.unit.label,
                hits=total,
                shares={t.label: len(f) for t, f in zip(targets, dealt, strict=True)},
                note=f"{group.name} scores {total} hit{'s' if total != 1 else ''}{why} and divides "
                + ("them: " if total != 1 else "it: ")
                + ", ".join(shares)
                + f" ({how}).",
            )
        )
        self.steps.append(Step(title, (hit_roll,), tuple(events)))
        inflicted = 0
        for target, faces in zip(targets, dealt, strict=True):
            if not faces:
                continue
            rends = sum(1 for face in faces if face == 6) if profile.rending else 0
            share = replace(pool, target=target, divide=())
            inflicted += self.strike(
                share, models, snapshots[id(target)], sweep=False, dealt=(len(faces), rends, total)
            )
        return inflicted

    def force_weapon(
        self,
        pool: Pool,
        psykers: int,
        survivors: list[tuple[GroupState, int]],
        rolls: list[Roll],
        events: list[Event],
        *,
        sweep: bool = False,
    ) -> None:
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
            if role in roles and (id(psyker), index) not in self.psychic_tested
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
            self.psychic_tested.add((id(psyker), tester))
            roll = self.roll_2d6_test("psychic test (force weapon)", Target(Op.AT_MOST, pool.profile.ld))
            rolls.append(roll)
            test, passed = roll.dice, bool(roll.successes)
            if self.options.get("perils") and test[0] == test[1] and test[0] in (1, 6):
                self.perils(pool, tester, rolls, events)
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

    def perils(self, pool: Pool, tester: int, rolls: list[Roll], events: list[Event]) -> None:
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
            save = self.roll_each("invulnerable save (Perils of the Warp)", 1, inv)
            rolls.append(save)
            if save.successes:
                return
        if psyker.wound(tester, 1):
            self.perils_deaths[pool.unit.side] += 1
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

    # ----------------------------------------------------------------- result and after

    def result_step(self) -> Winner:
        attacker_left = sum(u.alive() for u in self.units[SideName.ATTACKER])
        defender_left = sum(u.alive() for u in self.units[SideName.DEFENDER])
        a = self.tally[SideName.ATTACKER].wounds_inflicted
        d = self.tally[SideName.DEFENDER].wounds_inflicted
        perils = {
            side: f" ({n} slain by Perils of the Warp)" for side, n in self.perils_deaths.items() if n
        }  # a side wiped out partly by its own Perils is not "destroyed by the enemy"
        if attacker_left == 0 and defender_left == 0:
            winner, note = Winner.DRAW, "Both sides are wiped out" + "".join(perils.values()) + "."
        elif (defender_left == 0 and SideName.DEFENDER in perils) or (
            attacker_left == 0 and SideName.ATTACKER in perils
        ):
            gone = SideName.DEFENDER if defender_left == 0 else SideName.ATTACKER
            winner = Winner(gone.other.value)
            note = f"The {gone.value} has no model left{perils[gone]}: the {gone.other.value} wins automatically."
        elif defender_left == 0:
            winner, note = Winner.ATTACKER, "The attacker destroyed the enemy and wins automatically."
            if not self.tally[SideName.ATTACKER].wounds_inflicted and self.options.get("defender_falling_back"):
                note = (
                    "Every defending unit failed to regroup while falling back and was destroyed: the attacker "
                    "wins automatically."
                )
        elif attacker_left == 0:
            winner, note = Winner.DEFENDER, "The defender destroyed the enemy and wins automatically."
        elif a > d:
            winner, note = Winner.ATTACKER, f"The attacker inflicted more wounds ({a} to {d}) and wins."
        elif d > a:
            winner, note = Winner.DEFENDER, f"The defender inflicted more wounds ({d} to {a}) and wins."
        else:
            winner, note = (
                Winner.DRAW,
                f"Both sides inflicted {a} wounds: the combat is drawn and continues next turn.",
            )
        self.steps.append(
            Step(
                "Assault result",
                events=(event("result", winner=winner.value, attacker_wounds=a, defender_wounds=d, note=note),),
            )
        )
        return winner

    def morale_step(self, losing: SideName) -> dict[int, tuple[UnitState, int]]:
        """Each surviving losing unit tests Leadership; returns the units that fall back with their roll."""
        winning = losing.other
        margin = self.tally[winning].wounds_inflicted - self.tally[losing].wounds_inflicted
        per_wound = self.options.get("morale_modifier") == "per_wound"
        double_one = bool(self.options.get("double_one_passes"))
        rolls: list[Roll] = []
        events: list[Event] = []
        failed: list[UnitState] = []
        for state in self.units[losing]:
            if not state.alive():
                continue
            ld = state.highest_leadership()
            modifier = max(margin, 0) if per_wound else 0
            target = Target(Op.AT_MOST, ld - modifier)
            roll = self.roll_2d6_test(f"Leadership ({state.label})", target, double_one_passes=double_one)
            rolls.append(roll)
            faces, passed = list(roll.dice), bool(roll.successes)
            self.tally[losing].morale.append(
                {"unit": state.label, "dice": list(faces), "target": target.value, "passed": passed}
            )
            detail = f"Ld{ld}" + (f" -{modifier} (lost by {modifier})" if modifier else "")
            if double_one and faces == [1, 1] and not target.met_by(sum(faces)):
                detail += "; a double 1 always passes"
            events.append(
                event(
                    "morale",
                    side=losing.value,
                    unit=state.label,
                    passed=passed,
                    note=f"{state.label} {'holds its ground' if passed else 'fails'} ({sum(faces)} against {detail}).",
                )
            )
            if not passed:
                failed.append(state)
        if events:  # no step when nobody is left to test (the loser was wiped out)
            self.steps.append(Step("Loser checks morale", tuple(rolls), tuple(events)))
        if not failed:
            return {}
        rolls, events = [], []
        fallen: dict[int, tuple[UnitState, int]] = {}
        for state in failed:
            fast = all(BIKE in g.group.keywords or JUMP_PACK in g.group.keywords for g in state.groups if g.alive())
            count = FAST_FALL_BACK_DICE if fast else FALL_BACK_DICE
            roll = self.roll_distance(f"fall back ({state.label})", count)
            rolls.append(roll)
            distance = sum(roll.dice)
            fallen[id(state)] = (state, distance)
            events.append(
                event(
                    "fall_back",
                    side=losing.value,
                    unit=state.label,
                    distance=distance,
                    dice=count,
                    note=f'{state.label} falls back {count}D6 = {distance}" straight toward its own table edge '
                    "(or to the base line where it entered the table), staying coherent; halve the distance through "
                    "difficult terrain; it moves around obstructions by the shortest route, ignoring enemy models "
                    "that fought it in close combat this turn. If it "
                    "cannot make the full move in any direction without doubling back, entering impassable terrain "
                    'or coming within 1" of the enemy, it is destroyed (Trapped!).',
                )
            )
        self.steps.append(Step("Fall back", tuple(rolls), tuple(events)))
        return fallen

    def engaged_with(self, state: UnitState) -> list[UnitState]:
        enemies = self.units[state.side.other]
        return [e for e in enemies if e in state.targets or state in e.targets]

    def sweeping_advance_step(self, winning: SideName, fallen: dict[int, tuple[UnitState, int]]) -> None:
        for state in self.units[winning]:
            if not state.alive():
                continue
            engaged = self.engaged_with(state)
            fleeing = [e for e in engaged if id(e) in fallen and e.alive()]
            if not fleeing or any(e.alive() and id(e) not in fallen for e in engaged):
                continue
            victim = state.target if state.target in fleeing else fleeing[0]
            assert victim is not None
            fall_back = fallen[id(victim)][1]
            hopeless = (
                fall_back >= 12
            )  # 2D6 cannot beat it: still rolled (the dice the odds count), with no "needs 13+"
            roll = (
                self.roll_distance(f"sweeping advance ({state.label}): cannot beat a fall-back roll of {fall_back}", 2)
                if hopeless
                else self.roll_2d6_test(f"sweeping advance ({state.label})", Target(Op.AT_LEAST, fall_back + 1))
            )
            events = [
                event(
                    "sweeping_advance",
                    side=winning.value,
                    unit=state.label,
                    target=victim.label,
                    roll=sum(roll.dice),
                    fall_back=fall_back,
                    success=bool(roll.successes),
                    note=(
                        f"{state.label} rolls {sum(roll.dice)}, but 2D6 cannot beat a fall-back roll of {fall_back}: "
                        "they get away."
                        if hopeless
                        else f"{state.label} rolls {sum(roll.dice)} against the fall-back roll of {fall_back}: "
                        + (
                            "greater, so it cuts them down as they flee."
                            if roll.successes
                            else "not greater, so they get away."
                        )
                    ),
                )
            ]
            self.steps.append(Step(f"Sweeping advance: {state.label}", (roll,), tuple(events)))
            if not roll.successes:
                continue
            snap = snapshot(victim)
            for group_state in state.groups:
                models = group_state.alive(Role.ENGAGED) + group_state.alive(Role.SUPPORTING)
                if not models or not victim.alive():
                    continue
                profile = engaged_profile(group_state.group, charged=False, sweep=True)
                if not profile.attacks:
                    continue
                pool = Pool(state, group_state, Role.ENGAGED, victim, profile, (2, 0), "Sweeping advance")
                self.strike(pool, models, snap, sweep=True)

    def outcome(self, winner: Winner, fallen: dict[int, tuple[UnitState, int]]) -> str:
        if winner is Winner.DRAW:
            both_gone = all(not u.alive() for side in SideName for u in self.units[side])
            return Outcome.BOTH_DESTROYED if both_gone else Outcome.DRAWN
        losing = SideName(winner.value).other
        survivors = [u for u in self.units[losing] if u.alive()]
        if not survivors:
            return Outcome.DESTROYED
        fled = [u for u in survivors if id(u) in fallen]
        if len(fled) == len(survivors):
            return Outcome.FELL_BACK
        return Outcome.SOME_FELL_BACK if fled else Outcome.HELD

    def survivors(self, side: SideName, fighting: list[UnitState]) -> tuple[str, list[str]]:
        """The canonical spec of ``side``'s units still in the fight, for the next round, and their positions.

        Each unit keeps this round's counts in base contact and within 2", capped by the models it has left
        (decision 7: the casualties came from those places, the pile-in fills them); a wounded multi-wound model
        becomes a group of its own whose W is the wounds it has left; ``vs=`` points at its target's place among
        the enemy units still fighting.
        """
        mine = [state for state in fighting if state.side is side]
        enemies = [state for state in fighting if state.side is not side]
        everyone = self.units[side.other]
        # An enemy unit's number this round -> its number next round (0: no longer fighting).
        renumber = {n: enemies.index(e) + 1 if e in enemies else 0 for n, e in enumerate(everyone, start=1)}
        texts: list[str] = []
        placed: list[str] = []
        for state in mine:
            models: list[Model] = []
            for index, group_state in enumerate(state.groups):
                aims = group_state.aims or [0] * len(group_state.wounds)
                models += [
                    Model(index, wounds, int(role), renumber[aim] if aim else 0)
                    for wounds, role, aim in zip(group_state.wounds, group_state.roles, aims, strict=True)
                    if wounds > 0
                ]
            target = state.target if state.target in enemies else next(
                (e for e in self.engaged_with(state) if e in enemies), enemies[0]
            )  # fmt: skip
            unit = state.unit
            if unit.divide:  # a character dividing its hits: between the units still fighting
                divide = tuple(renumber[n] for n in unit.divide if renumber[n])
                hits = tuple((renumber[n], most) for n, most in unit.hits if renumber[n])
                unit = replace(unit, divide=divide if len(divide) > 1 else (), hits=hits if len(divide) > 1 else ())
                target = enemies[divide[0] - 1] if divide else target
            text, unit = _survivors_text(unit, tuple(models), enemies.index(target) + 1)
            texts.append(text)
            placed.append(f"{state.label} {describe(unit)}")
        return " | ".join(texts), placed

    def next_step(self, winner: Winner, fallen: dict[int, tuple[UnitState, int]]) -> None:
        events: list[Event] = []
        still_fighting: list[UnitState] = []
        for side in SideName:
            for state in self.units[side]:
                if not state.alive() or id(state) in fallen:
                    continue
                engaged = [e for e in self.engaged_with(state) if e.alive()]
                if engaged and any(id(e) not in fallen for e in engaged):
                    still_fighting.append(state)
                elif winner.value == side.value:
                    events.append(
                        event(
                            "consolidate",
                            side=side.value,
                            unit=state.label,
                            distance=CONSOLIDATE_INCHES,
                            note=f'{state.label} may consolidate up to {CONSOLIDATE_INCHES}" in any direction, '
                            "ignoring difficult terrain; it may not move into contact with the enemy.",
                        )
                    )
        if still_fighting:
            attackers, attacker_places = self.survivors(SideName.ATTACKER, still_fighting)
            defenders, defender_places = self.survivors(SideName.DEFENDER, still_fighting)
            events.append(
                event(
                    "continues",
                    next_round=self.round + 1,
                    attacker_survivors=attackers,
                    defender_survivors=defenders,
                    note=f"The combat continues next turn as round {self.round + 1} (no charge bonus, no cover "
                    "advantage). Positions kept from this round, capped by the models left (the players may give "
                    "others): " + "; ".join(attacker_places + defender_places) + ".",
                )
            )
            for state in sorted(still_fighting, key=lambda s: s.side is not SideName.ATTACKER):
                if state.alive() == sum(g.alive(Role.ENGAGED) for g in state.groups):
                    continue  # every model is in base contact: nobody piles in
                events.append(
                    event(
                        "pile_in",
                        side=state.side.value,
                        unit=state.label,
                        distance=PILE_IN_INCHES,
                        note=f'{state.label}: models not in base contact must move up to {PILE_IN_INCHES}" to contact '
                        "the enemy their unit is engaged with (the player whose turn it is moves first).",
                    )
                )
        if events:
            self.steps.append(Step("What happens next", events=tuple(events)))

    def report(self, outcome: str, winner: Winner) -> Report:
        def side_result(side: SideName) -> SideResult:
            initial = sum(u.initial for u in self.units[side])
            remaining = sum(u.alive() for u in self.units[side])
            tally = self.tally[side]
            return SideResult(
                initial - remaining,
                remaining,
                FrozenMap(wounds_inflicted=tally.wounds_inflicted, morale=tally.morale),
            )

        return Report(
            game=GAME_ID,
            seed=self.dice.seed,
            inputs=self.inputs,
            steps=tuple(self.steps),
            result=Result(outcome, winner, side_result(SideName.ATTACKER), side_result(SideName.DEFENDER)),
        )


@functools.lru_cache(maxsize=4096)  # combats end in few distinct states, and a unit is formatted per report
def _survivors_text(unit: Unit, models: tuple[Model, ...], vs: int) -> tuple[str, Unit]:
    """The canonical spec of ``unit``'s survivors (``models``) for the next round, as format_side writes a unit,
    with the unit it describes."""
    placed = kept(unit, models, vs)
    return format_side(Side((placed,))), placed


def deal_hits(faces: list[int], order: list[int], caps: list[tuple[int, int]]) -> list[list[int]]:
    """Deal the hit dice ``faces`` (in the order rolled) between units (positions 0..n-1 of ``order``, the units
    still in reach in vs= order): first ``caps`` (position, at most N) in order, then one at a time in turn."""
    dealt: list[list[int]] = [[] for _ in order]
    remaining = list(faces)
    for position, most in caps:
        if position in order:
            slot = order.index(position)
            dealt[slot] += remaining[:most]
            remaining = remaining[most:]
    for number, face in enumerate(remaining):
        dealt[number % len(order)].append(face)
    return dealt


def _fights_in_contact(enemy: UnitState, group: Group, character: UnitState) -> bool:
    """Whether some of ``group``'s models (of ``enemy``) in base contact fight ``character``."""
    number = character.index + 1
    if group.split:
        return any(target == number and engaged for target, engaged, _ in group.split)
    if enemy.unit.divide:
        return number in enemy.unit.divide
    return bool(group.engaged) and enemy.unit.vs == number


def _targets_text(state: UnitState, instead: UnitState | None = None) -> str:
    """The enemy unit a unit fights, or every one it divides its attacks between ("Ork Boy and Nob"); units
    destroyed before the fight are left out (``instead`` fights in their place, decision 20)."""
    assert state.target is not None
    if len(state.targets) < 2 and instead is None:  # the common case: one enemy unit
        return state.target.label if not state.targets else state.targets[0].label
    found = state.targets or [state.target]
    alive = [target for target in found if target.alive()]
    if state.unit.divide and alive:
        found = alive
    elif instead is not None:
        found = [t if t.alive() else instead for t in found]
    labels = list(dict.fromkeys(target.label for target in found))
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _dividing_note(state: UnitState, enemies: list[UnitState]) -> str:
    """How a unit divides its attacks between enemy units (nothing when it fights one)."""
    if (
        len(state.targets) < 2 or len([e for e in state.targets if e.alive()]) < 2
    ):  # one enemy unit left (the other died): nothing divided
        return ""
    if state.unit.divide:
        return " It divides its hits between them."
    parts = []
    for group in state.unit.groups:
        for target, engaged, supporting in group.split:
            text = f"{engaged} {group.name} in base contact"
            if supporting:
                text += f' and {supporting} within 2"'
            parts.append(f"{text} {'fights' if engaged + supporting == 1 else 'fight'} {enemies[target - 1].label}")
    return " Dividing its attacks: " + "; ".join(parts) + "."


def _wounds_event(target: UnitState, unsaved: int, inflicted: int, discarded: int) -> Event:
    note = f"{unsaved} unsaved wound{'s' if unsaved != 1 else ''} on {target.label}"
    if inflicted != unsaved:
        extra = unsaved - inflicted - discarded
        parts = []
        if extra:
            parts.append(f"{extra} lost beyond a model's Wounds")
        if discarded:
            parts.append(f"{discarded} discarded: no model left within reach")
        note += f" ({inflicted} count; " + "; ".join(parts) + ")"
    return event(
        "wounds",
        side=target.side.value,
        unit=target.label,
        unsaved=unsaved,
        inflicted=inflicted,
        discarded=discarded,
        note=note + ".",
    )


def allocate(
    target: UnitState, wounds: int, save_type: tuple[int | None, int | None]
) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """Allocate unsaved wounds one model at a time within the danger zone.

    Returns (wounds actually inflicted, models killed, wounds discarded for want of a
    model in reach, models wounded by these wounds that survived).
    """
    if all(g.full_wounds == 1 for g in target.groups):
        return _allocate_single_wounds(target, wounds, save_type)
    return _allocate_any(target, wounds, save_type)


def _allocate_any(
    target: UnitState, wounds: int, save_type: tuple[int | None, int | None]
) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """allocate() for any models (the general rule; _allocate_single_wounds is its shortcut)."""
    inflicted = killed = 0
    wounded_here: dict[tuple[int, int], tuple[GroupState, int]] = {}
    # Sort once by everything but "already wounded" (the rule first: the save that was used; then the
    # owner's choices). Only the model a batch stops on is left partly wounded, so the wounded are few and
    # are tracked apart; each pick is the better of the first unwounded model and the best wounded one.
    order: list[tuple[tuple[int, int, int, int, int], GroupState, int]] = []
    wounded: list[tuple[tuple[int, int, int, int, int], GroupState, int]] = []
    for group_index, g in enumerate(target.groups):
        group = g.group
        priority = 0 if DIES_FIRST in group.keywords else 2 if DIES_LAST in group.keywords else 1
        mismatch = 0 if group.profile.save_type == save_type else 1
        for index, role in enumerate(g.roles):
            left = g.wounds[index]
            if role is Role.OUT or left <= 0:
                continue
            entry = ((mismatch, priority, int(role is Role.ENGAGED), -group.count, group_index), g, index)
            (wounded if left < g.full_wounds else order).append(entry)
    order.sort(key=lambda entry: entry[0])
    position = 0
    while wounds > 0:
        wounded = [entry for entry in wounded if entry[1].wounds[entry[2]] > 0]
        while position < len(order) and order[position][1].wounds[order[position][2]] <= 0:
            position += 1
        choices = wounded[:]
        if position < len(order):
            choices.append(order[position])
        if not choices:
            break
        # Among equal rule-and-choice ranks a wounded model goes first.
        best = min(
            choices, key=lambda entry: (entry[0][:2], entry[1].wounds[entry[2]] == entry[1].full_wounds, entry[0][2:])
        )
        _, g, index = best
        taken = min(wounds, g.wounds[index])
        wounds -= taken
        inflicted += taken
        wounded_here[(id(g), index)] = (g, index)
        if g.wound(index, taken):
            killed += 1
        elif best not in wounded:
            wounded.append(best)
    survivors = [(g, index) for g, index in wounded_here.values() if g.wounds[index] > 0]
    return inflicted, killed, wounds, survivors


@functools.lru_cache(maxsize=4096)  # the same units fight again and again
def _fighting_note(unit: Unit, label: str, target: str, charged: bool, fists_in_cover: bool = False) -> str:
    parts = []
    for group in unit.groups:
        if group.engaged:
            profile = engaged_profile(group, charged=charged)
            if not profile.attacks:
                they = "they" if group.engaged != 1 else "it"
                parts.append(f"{group.engaged} {group.name} in base contact: no attacks (A0), but {they} can be hit")
                continue
            when = ""
            if fists_in_cover and POWER_FIST in profile.weapons:
                when = ", in the Cover step with its unit"
            elif profile.initiative != group.profile.i:
                when = f", at Initiative {profile.initiative}"
            parts.append(
                f"{group.engaged} {group.name} in base contact: " + describe_profile(profile, group.profile.a) + when
            )
        if group.supporting:
            parts.append(f'{group.supporting} {group.name} within 2": 1 attack each')
        if group.out_of_fight:
            parts.append(f"{group.out_of_fight} {group.name} out of reach (do not fight, cannot be hit)")
    return f"{label} fights {target}: " + "; ".join(parts) + "."


def _say_where_fists_strike(
    events: list[Event],
    pools: list[Pool],
    fist_notes: list[tuple[int, Pool]],
    fighting_notes: list[tuple[int, UnitState, bool, str, str]],
) -> None:
    """Power fists moved into the Cover step (decision 12) are said to strike there, not at Initiative 1."""
    in_cover = {id(pool.unit) for pool in pools if pool.phase == "Cover" and POWER_FIST in pool.profile.weapons}
    for index, pool in fist_notes:
        if pool.phase == "Cover":
            group = pool.group.group
            other = next(w for w in HAND_WEAPONS if w in group.keywords and w != POWER_FIST)
            note = fist_policy_note(group, other, "in the Cover step with its unit")
            events[index] = event(events[index].kind, **{**dict(events[index].fields), "note": note})
    for index, state, charged, dividing, targets in fighting_notes:
        if id(state) in in_cover:
            assert state.target is not None
            note = _fighting_note(state.unit, state.label, targets, charged, True) + dividing
            events[index] = event(events[index].kind, **{**dict(events[index].fields), "note": note})


CASUALTY_POLICY = event(
    "policy",
    choice="casualties",
    note="Which models die (the owner's choice): first models with the save that was used (the rule), "
    "then dies-first groups before others and dies-last groups last; within those a model already "
    "wounded, then supporting models before those in base contact, then the largest group (the rank "
    'and file before a sergeant). Only models in base contact or within 2" of them (the danger zone, '
    "fixed now) can be hit.",
)  # the same in every report (events are immutable, so one serves all)


def _allocate_single_wounds(
    target: UnitState, wounds: int, save_type: tuple[int | None, int | None]
) -> tuple[int, int, int, list[tuple[GroupState, int]]]:
    """allocate() when every model has one wound (the common case): each wound kills the next model in the same
    order (models of one group and role in turn, in model order), none is left partly wounded, and the wounds
    beyond the last model in reach are lost."""
    buckets: list[tuple[tuple[int, int, int, int, int], GroupState, Role]] = []
    for group_index, g in enumerate(target.groups):
        group = g.group
        priority = 0 if DIES_FIRST in group.keywords else 2 if DIES_LAST in group.keywords else 1
        mismatch = 0 if group.profile.save_type == save_type else 1
        for role in (Role.ENGAGED, Role.SUPPORTING):
            if g.alive_by_role[role]:
                buckets.append(((mismatch, priority, int(role is Role.ENGAGED), -group.count, group_index), g, role))
    buckets.sort(key=lambda bucket: bucket[0])
    killed = 0
    for _, g, role in buckets:
        for index, (left, its_role) in enumerate(zip(g.wounds, g.roles, strict=True)):
            if killed == wounds:
                return killed, killed, 0, []
            if left > 0 and its_role is role:
                g.wound(index, 1)
                killed += 1
    return killed, killed, wounds - killed, []


def _opt_int(options: Mapping[str, OptionValue], name: str) -> int:
    value = options.get(name)
    return int(value) if isinstance(value, int | float) else 1


def resolve(attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> Report:
    return Assault(attacker, defender, options, dice).run()
