"""The formation assault (Epic: Armageddon A1-A8, Reikhammer steps I-VII), step by step.

One procedure for both games; everything in which they differ comes from the
:class:`~rules_core.games.formation.rules.FormationRules` table and the
resolution's :class:`~rules_core.games.formation.rules.FormationSettings`.
The decisions on unclear points are listed in docs/games/epic.md and
docs/games/reikhammer.md (and the two game modules' docstrings).

Dice order (what scripted tests hand in), each round:

1. attacks: the attacker's groups in order (each group's units in contact, then
   those in range), then the defender's;
2. saves against the attacker's hits (the defender's groups in allocation
   order: armour saves with any re-rolls, reinforced armour's saves against
   macro-weapon hits, then second saves), then saves against the defender's hits;
3. if the assault is not decided: supporting fire (the attacker's supporting
   formations, then the defender's), then the saves as in 2;
4. the result roll: the attacker's 2D6, then the defender's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules_core.dice import DiceSource
from rules_core.errors import SpecError
from rules_core.games.formation.rules import DoubleMeans, FormationRules, FormationSettings
from rules_core.games.formation.spec import (
    INSPIRING,
    INVULNERABLE,
    INVULNERABLE_SAVE,
    MACRO_WEAPON,
    REINFORCED_ARMOUR,
    Formation,
    Group,
    Position,
    Support,
    UnitType,
)
from rules_core.report import (
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
from rules_core.rolling import combined_total, roll_each, roll_unchecked

ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER


class Outcome(StrEnum):
    NO_ASSAULT = "no_assault"  # no attacking unit is directly engaged: the assault does not take place
    BROKEN = "broken"  # the loser breaks and withdraws
    DESTROYED = "destroyed"  # the loser has no unit left (wiped out, or destroyed for being Broken already)
    TIED = "tied"  # still tied after max_rounds: a draw
    BOTH_DESTROYED = "both_destroyed"


# --------------------------------------------------------------------------- state


class UnitState:
    """One unit (a stand, a vehicle, a war engine); ``dc`` is 1 for anything but a war engine."""

    __slots__ = ("dc", "group", "group_index", "position")

    def __init__(self, group: Group, group_index: int, position: Position) -> None:
        self.group = group
        self.group_index = group_index
        self.position = position
        self.dc = group.dc


class SideState:
    __slots__ = (
        "broken_at_start",
        "broken_by_markers",
        "broken_flag",
        "formation",
        "kills",
        "markers_at_start",
        "name",
        "score",
        "support",
        "units",
        "war_engine_damage",
    )

    def __init__(
        self, name: SideName, formation: Formation, support: Support | None, settings: FormationSettings
    ) -> None:
        self.name = name
        self.formation = formation
        self.support = support
        self.markers_at_start = settings.markers_of(name)
        self.broken_flag = settings.broken_at_start(name)
        # Allocation order: units in base contact first, then those in range, then the rest; groups in the
        # order given (nearest first).
        self.units = [
            UnitState(group, index, position)
            for position in Position
            for index, group in enumerate(formation.groups)
            for _ in range(group.at(position))
        ]
        # A formation is Broken when its markers are at least its units (a war engine counting its DC), whether
        # or not the players say so (REFERENCE.md 001 and 004).
        self.broken_by_markers = self.markers_at_start >= self.initial_strength()
        self.broken_at_start = self.broken_flag or self.broken_by_markers
        self.kills = 0  # enemy units destroyed, war-engine damage points counting one each (for the result)
        self.war_engine_damage = 0  # of those kills, the damage points dealt to war engines (for the words)
        self.score: int | None = None

    def alive(self) -> list[UnitState]:
        return [unit for unit in self.units if unit.dc > 0]

    def engaged(self) -> list[UnitState]:
        """The directly engaged units still alive: the only ones that attack and can be hit."""
        return [unit for unit in self.units if unit.dc > 0 and unit.position is not Position.OUT]

    def strength(self) -> int:
        """Units remaining as the result counts them: a war engine counts its remaining damage capacity."""
        return sum(unit.dc for unit in self.units if unit.dc > 0)

    def initial_strength(self) -> int:
        return sum(group.count * group.dc for group in self.formation.groups)

    def lost_strength(self) -> int:
        return self.initial_strength() - self.strength()

    def units_alive(self) -> int:
        return sum(1 for unit in self.units if unit.dc > 0)

    def alive_by_group(self) -> list[int]:
        counts = [0] * len(self.formation.groups)
        for unit in self.units:
            if unit.dc > 0:
                counts[unit.group_index] += 1
        return counts


@dataclass(slots=True)
class Hits:
    """Hits scored at one side in one exchange; macro-weapon hits are allocated and saved apart."""

    normal: int = 0
    macro: int = 0

    def add(self, group: Group, hits: int) -> None:
        if MACRO_WEAPON in group.specials:
            self.macro += hits
        else:
            self.normal += hits

    @property
    def total(self) -> int:
        return self.normal + self.macro


def allocate(targets: list[UnitState], hits: int, *, one_pass: bool = False) -> list[UnitState]:
    """Which unit takes each hit, as for shooting: front to back, no unit a second hit before every unit has one.

    A war engine takes up to its remaining damage capacity in each pass (the Epic convention). With
    ``one_pass`` (unsaveable hits, which need no second pass) hits beyond the last unit are left out.
    """
    order: list[UnitState] = []
    if not targets:
        return order
    while len(order) < hits:
        for unit in targets:
            order.extend([unit] * min(unit.dc, hits - len(order)))
            if len(order) == hits:
                break
        if one_pass:
            break
    return order


def check_positions(rules: FormationRules, attacker: Formation, defender: Formation) -> None:
    """Refuse positions that cannot both be true: base contact is mutual, and so is being directly engaged.

    An attacker with no unit directly engaged is no refusal: the assault does not take place (``no_assault``),
    whatever the defender's positions say.
    """
    sides = ((ATTACKER, attacker), (DEFENDER, defender))
    if not any(group.contact or group.in_range for group in attacker.groups):
        return
    contact = {name: [group for group in formation.groups if group.contact] for name, formation in sides}
    for name in (ATTACKER, DEFENDER):
        other = name.other
        if contact[name] and not contact[other]:
            group = contact[name][0]
            raise SpecError(
                f"The {name.value} has units in base contact ({group.name}: {group.contact}) but no {other.value} "
                f"unit is in base contact: base contact is mutual. A group with no contact= or ff= is all in base "
                f"contact; give each group's positions, e.g. contact=0 ff=2 for units within "
                f"{rules.engagement_range} only.",
                token=f"{group.count}x {group.name}",
                example=rules.example_group,
            )
    if not any(group.contact or group.in_range for group in defender.groups):
        raise SpecError(
            f"The attacker has units directly engaged but no defending unit is directly engaged (in base contact or "
            f"within {rules.engagement_range} with a line of fire): a unit within {rules.engagement_range} of an "
            "enemy is within that enemy's range too, and supporting fire needs a directly engaged enemy to fire at.",
            token=f"{defender.groups[0].count}x {defender.groups[0].name}",
            example=rules.example_group,
        )


def _plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def _be(count: int) -> str:
    return "is" if count == 1 else "are"


# --------------------------------------------------------------------------- the procedure


class FormationAssault:
    def __init__(
        self,
        rules: FormationRules,
        settings: FormationSettings,
        *,
        attacker: Formation,
        defender: Formation,
        support: tuple[Support | None, Support | None],
        inputs: Inputs,
        dice: DiceSource,
    ) -> None:
        self.rules = rules
        self.settings = settings
        self.inputs = inputs
        self.dice = dice
        self.sides = {
            ATTACKER: SideState(ATTACKER, attacker, support[0], settings),
            DEFENDER: SideState(DEFENDER, defender, support[1], settings),
        }
        self.steps: list[Step] = []
        self.round = 1
        self.support_markers: dict[SideName, list[tuple[str, int]]] = {ATTACKER: [], DEFENDER: []}
        self.after: dict[SideName, dict[str, Json]] = {ATTACKER: {}, DEFENDER: {}}

    # ------------------------------------------------------------------ helpers

    def hit_target(self, value: int) -> Target:
        return Target(self.rules.hit_op, value)

    def units_text(self, count: int) -> str:
        return _plural(count, "unit")

    def value(self, value: int | None) -> str:
        return self.rules.value_text(value)

    def save_text(self, value: int) -> str:
        """Sv4+ when saves roll over, Sv4 when they roll under (Reikhammer's save_direction=under)."""
        return f"{value}+" if self.settings.save_op is Op.AT_LEAST else str(value)

    # ------------------------------------------------------------------ run

    def run(self) -> Report:
        if not self.setup_step():
            return self.report(Outcome.NO_ASSAULT, Winner.NONE)
        winner: Winner | None = None
        while winner is None:
            if self.round > 1:
                note = f"The result was a tie: a new round with the survivors. {self.rules.counter_charge}"
                self.steps.append(
                    Step(f"Round {self.round}: the combat goes on", events=(event("instruction", note=note),))
                )
            winner = self.fight_round()
            if winner is None:
                winner = self.result_step()
            if winner is None:
                if self.round >= self.settings.max_rounds:
                    winner = Winner.DRAW
                else:
                    self.round += 1
        return self.aftermath(winner)

    def setup_step(self) -> bool:
        events: list[Event] = []
        rules = self.rules
        for side in self.sides.values():
            if side.broken_by_markers:
                state = (
                    f"{side.markers_at_start} {rules.marker if side.markers_at_start == 1 else rules.markers}, at "
                    f"least its units: Broken, counting {rules.markers} equal to its units"
                )
            elif side.broken_at_start:
                state = f"Broken, counting {rules.markers} equal to its units"
            else:
                state = f"{side.markers_at_start} {rules.marker if side.markers_at_start == 1 else rules.markers}"
            events.append(
                event(
                    "formation",
                    side=side.name.value,
                    units=side.units_alive(),
                    note=f"The {side.name.value}: {self.units_text(side.units_alive())} ({state}).",
                )
            )
            for group in side.formation.groups:
                parts = []
                if group.contact:
                    parts.append(f"{group.contact} in base contact (CC{self.value(group.cc)})")
                if group.in_range:
                    parts.append(f"{group.in_range} within {rules.engagement_range} (FF{self.value(group.ff)})")
                if group.out_of_fight:
                    parts.append(f"{group.out_of_fight} not directly engaged")
                events.append(
                    event(
                        "engagement",
                        side=side.name.value,
                        unit=group.name,
                        contact=group.contact,
                        in_range=group.in_range,
                        out=group.out_of_fight,
                        note=f"{group.name}: " + ", ".join(parts) + ".",
                    )
                )
                events.extend(self._policy_notes(side.name, group))
            if side.support is not None:
                for formation in side.support.formations:
                    firing = sum(group.in_range for group in formation.groups)
                    able = "" if firing else ": it cannot lend support"
                    events.append(
                        event(
                            "support",
                            side=side.name.value,
                            formation=formation.name,
                            note=f"Supporting formation {formation.name} ({self.units_text(firing)} able to fire"
                            f"{able}).",
                        )
                    )
        engaged = bool(self.sides[ATTACKER].engaged())
        if not engaged:
            events.append(
                event(
                    "no_assault",
                    note=f"No attacking unit is in base contact or within {rules.engagement_range} of the enemy: "
                    "the assault does not take place.",
                )
            )
        self.steps.append(Step("The formations", events=tuple(events)))
        return engaged

    def _policy_notes(self, side: SideName, group: Group) -> Iterable[Event]:
        if group.cover is not None and side is ATTACKER:
            yield event(
                "policy",
                side=side.value,
                unit=group.name,
                note=f"{group.name}: cover={self.save_text(group.cover)} ignored: attacking infantry leave cover to "
                "engage.",
            )
        elif group.cover is not None and group.unit_type is not UnitType.INFANTRY:
            yield event(
                "policy",
                side=side.value,
                unit=group.name,
                note=f"{group.name}: cover={self.save_text(group.cover)} ignored: only infantry take cover saves.",
            )
        for units, value, where, stat in (
            (group.contact, group.cc, "in base contact", "CC"),
            (group.in_range, group.ff, "in range", "FF"),
        ):
            if units and value is None:
                yield event(
                    "policy",
                    side=side.value,
                    unit=group.name,
                    note=f"{group.name}: the {units} {where} have no {stat} value: they can be hit but cannot attack.",
                )

    # ------------------------------------------------------------------ one round

    def fight_round(self) -> Winner | None:
        prefix = f"Round {self.round}: " if self.round > 1 else ""
        rolls: list[Roll] = []
        events: list[Event] = []
        hits = {side: self.attacks(self.sides[side], rolls, events) for side in (ATTACKER, DEFENDER)}
        for side in (ATTACKER, DEFENDER):
            events.append(
                event(
                    "hits",
                    side=side.value,
                    hits=hits[side].total,
                    macro=hits[side].macro,
                    note=f"The {side.value} scores {_plural(hits[side].total, 'hit')}"
                    + (f" ({hits[side].macro} from macro-weapons)" if hits[side].macro else "")
                    + ".",
                )
            )
        self.steps.append(Step(prefix + "Close combat and firefight attacks", tuple(rolls), tuple(events)))
        self.exchange_saves(hits, prefix + "Hits and saves")
        winner = self.decided()
        if winner is not None or not self.any_support():
            return winner
        rolls, events = [], []
        support_hits = {side: self.support_fire(self.sides[side], rolls, events) for side in (ATTACKER, DEFENDER)}
        self.steps.append(Step(prefix + "Supporting fire", tuple(rolls), tuple(events)))
        self.exchange_saves(support_hits, prefix + "Supporting fire hits and saves")
        return self.decided()

    def contact_lost(self, side: SideState) -> bool:
        """In a later round, whether this side's units in base contact have lost every contact partner.

        The referee knows how many units are in contact, not who touches whom: only when the enemy has no unit in
        base contact left are this side's contact units surely without a partner. They stay the nearest units
        (hits fall on them first) but fight with FF, unless the players say counter-charges restored the contact.
        """
        if self.round == 1 or self.settings.recontact:
            return False
        enemy = self.sides[side.name.other]
        mine = any(unit.position is Position.CONTACT for unit in side.alive())
        return mine and not any(unit.position is Position.CONTACT for unit in enemy.alive())

    def attacks(self, side: SideState, rolls: list[Roll], events: list[Event]) -> Hits:
        hits = Hits()
        counts: dict[tuple[int, Position], int] = {}
        for unit in side.engaged():
            key = (unit.group_index, unit.position)
            counts[key] = counts.get(key, 0) + 1
        lost = self.contact_lost(side)
        if lost:
            enemy = side.name.other.value
            events.append(
                event(
                    "contact_lost",
                    side=side.name.value,
                    note=f"No {enemy} unit in base contact is left: the {side.name.value}'s units that were in base "
                    f"contact have lost every contact partner and fight with FF (within {self.rules.engagement_range}"
                    "). If the counter-charges put them back in base contact, the lost_contact option says so.",
                )
            )
        for index, group in enumerate(side.formation.groups):
            for position in (Position.CONTACT, Position.IN_RANGE):
                units = counts.get((index, position), 0)
                in_contact = position is Position.CONTACT and not lost
                value, label = (group.cc, "CC") if in_contact else (group.ff, "FF")
                if not units or value is None:
                    continue
                hits.add(group, self.attack_roll(side, group, units, value, label, rolls=rolls, events=events))
        return hits

    def attack_roll(
        self,
        side: SideState,
        group: Group,
        units: int,
        value: int,
        label: str,
        *,
        rolls: list[Roll],
        events: list[Event],
    ) -> int:
        dice = units * (1 + group.extra_attacks)
        roll = roll_each(self.dice, f"to hit: {group.name} ({label}{self.value(value)})", dice, self.hit_target(value))
        rolls.append(roll)
        if group.extra_attacks:
            events.append(
                event(
                    "attacks",
                    side=side.name.value,
                    unit=group.name,
                    dice=dice,
                    note=f"{group.name}: {self.units_text(units)} with {group.extra_attacks} extra "
                    f"attack{'s' if group.extra_attacks != 1 else ''} each roll {dice} dice.",
                )
            )
        return roll.successes

    def any_support(self) -> bool:
        return any(side.support is not None for side in self.sides.values())

    def support_fire(self, side: SideState, rolls: list[Roll], events: list[Event]) -> Hits:
        hits = Hits()
        if side.support is None:
            return hits
        for formation in side.support.formations:
            before = hits.total
            for group in formation.groups:
                if group.in_range and group.ff is not None:
                    hits.add(
                        group, self.attack_roll(side, group, group.in_range, group.ff, "FF", rolls=rolls, events=events)
                    )
            events.append(
                event(
                    "hits",
                    side=side.name.value,
                    formation=formation.name,
                    hits=hits.total - before,
                    note=f"Supporting formation {formation.name} scores {_plural(hits.total - before, 'hit')}.",
                )
            )
        return hits

    # ------------------------------------------------------------------ hits and saves

    def exchange_saves(self, hits: dict[SideName, Hits], title: str) -> None:
        """Both sides' hits land together: saves for the defender's units, then the attacker's."""
        for target in (DEFENDER, ATTACKER):
            if not hits[target.other].total:
                continue
            rolls: list[Roll] = []
            events: list[Event] = []
            self.take_hits(self.sides[target], hits[target.other], rolls, events)
            self.steps.append(Step(f"{title}: the {target.value}", tuple(rolls), tuple(events)))

    def take_hits(self, target: SideState, hits: Hits, rolls: list[Roll], events: list[Event]) -> None:
        if not hits.total:
            return
        eligible = target.engaged()
        if not eligible:
            events.append(
                event(
                    "hits_lost",
                    side=target.name.value,
                    hits=hits.total,
                    note=f"{_plural(hits.total, 'hit')} on the {target.name.value} {_be(hits.total)} lost: "
                    "none of its units is directly engaged.",
                )
            )
            return
        normal = allocate(eligible, hits.normal)
        macro = allocate(eligible, hits.macro)
        events.append(self._allocation_event(target, normal, macro))
        unsaved: list[UnitState] = []
        order = list(dict.fromkeys(unit.group_index for unit in eligible))
        for index in order:
            group = target.formation.groups[index]
            unsaved += self.saves(
                target,
                group,
                [u for u in normal if u.group_index == index],
                [u for u in macro if u.group_index == index],
                rolls,
                events=events,
            )
        self.apply_damage(target, unsaved, events)

    def _allocation_event(self, target: SideState, normal: list[UnitState], macro: list[UnitState]) -> Event:
        per_group: dict[str, int] = {}
        for unit in normal + macro:
            per_group[unit.group.name] = per_group.get(unit.group.name, 0) + 1
        spread = ", ".join(f"{name} {count}" for name, count in per_group.items())
        return event(
            "allocation",
            side=target.name.value,
            hits=dict(per_group),
            note=f"Hits on the {target.name.value}, nearest units first: {spread}.",
        )

    def second_save(self, target: SideState, group: Group) -> tuple[str, Target] | None:
        """The better of a cover save (the defending side's infantry only) and an invulnerable save."""
        options: list[tuple[str, Target]] = []
        if group.cover is not None and target.name is DEFENDER and group.unit_type is UnitType.INFANTRY:
            options.append((f"cover save: {group.name}", Target(self.settings.save_op, group.cover)))
        if INVULNERABLE in group.specials:
            options.append((f"invulnerable save: {group.name}", Target(Op.AT_LEAST, INVULNERABLE_SAVE)))
        if not options:
            return None

        def chance(option: tuple[str, Target]) -> int:
            value = option[1].value
            return 7 - value if option[1].op is Op.AT_LEAST else value

        return max(options, key=chance)  # max keeps the first (cover) on a tie

    def reinforced_saves_macro(self, group: Group) -> bool:
        """Whether this group keeps its armour save (never re-rolled) against macro-weapon hits."""
        return REINFORCED_ARMOUR in group.specials and self.settings.reinforced_saves_macro

    def saves(
        self,
        target: SideState,
        group: Group,
        normal: list[UnitState],
        macro: list[UnitState],
        rolls: list[Roll],
        *,
        events: list[Event],
    ) -> list[UnitState]:
        """Roll the saves of one group's hits; return the unit of each unsaved hit."""
        failed: list[UnitState] = []
        if normal:
            if group.save is None:
                failed += normal
            else:
                purpose = f"armour save: {group.name} (Sv{self.save_text(group.save)})"
                reroll = REINFORCED_ARMOUR in group.specials
                roll = roll_each(
                    self.dice,
                    purpose + (", failures re-rolled" if reroll else ""),
                    len(normal),
                    Target(self.settings.save_op, group.save),
                    reroll_failures=reroll,
                )
                rolls.append(roll)
                failed += [unit for unit, saved in zip(normal, roll.success, strict=True) if not saved]
        if macro and group.save is not None and self.reinforced_saves_macro(group):
            # Epic's Macro-Weapon rule: no saving throw unless the unit has Reinforced Armour (or an invulnerable
            # save, taken below), and even then no re-roll.
            roll = roll_each(
                self.dice,
                f"armour save against macro-weapon hits, no re-roll: {group.name} (Sv{self.save_text(group.save)})",
                len(macro),
                Target(self.settings.save_op, group.save),
            )
            rolls.append(roll)
            failed += [unit for unit, saved in zip(macro, roll.success, strict=True) if not saved]
        else:
            failed += macro  # macro-weapon hits allow no armour save (nor its re-roll)
            if macro and group.save is not None and REINFORCED_ARMOUR in group.specials:
                # Only the reinforced_vs_macro=no_save reading gets here: say why the reinforced armour did not save.
                hits = "the macro-weapon hit allows" if len(macro) == 1 else f"{len(macro)} macro-weapon hits allow"
                events.append(
                    event(
                        "save_denied",
                        side=target.name.value,
                        unit=group.name,
                        hits=len(macro),
                        note=f"{group.name}: {hits} no armour save, reinforced armour or not "
                        "(reinforced_vs_macro=no_save).",
                    )
                )
        second = self.second_save(target, group)
        if failed and second is not None:
            roll = roll_each(self.dice, second[0], len(failed), second[1])
            rolls.append(roll)
            failed = [unit for unit, saved in zip(failed, roll.success, strict=True) if not saved]
        return failed

    def apply_damage(self, target: SideState, unsaved: list[UnitState], events: list[Event]) -> None:
        """Unsaved hits remove units (a war engine loses one damage capacity each); casualties per group."""
        enemy = self.sides[target.name.other]
        destroyed: dict[int, int] = {}
        damage: dict[int, int] = {}
        wasted = 0
        for unit in unsaved:
            if unit.dc == 0:
                wasted += 1  # a second hit on a unit already destroyed by the first
                continue
            unit.dc -= 1
            enemy.kills += 1
            if unit.group.war_engine:
                enemy.war_engine_damage += 1
                damage[unit.group_index] = damage.get(unit.group_index, 0) + 1
            if unit.dc == 0:
                destroyed[unit.group_index] = destroyed.get(unit.group_index, 0) + 1
        for index in sorted(set(destroyed) | set(damage)):
            group = target.formation.groups[index]
            if index in damage:
                events.append(
                    event(
                        "damage",
                        side=target.name.value,
                        unit=group.name,
                        dc_lost=damage[index],
                        note=f"{group.name} loses {damage[index]} damage capacity.",
                    )
                )
            if index in destroyed:
                events.append(
                    event(
                        "casualty",
                        side=target.name.value,
                        unit=group.name,
                        units=destroyed[index],
                        note=f"{group.name}: {self.units_text(destroyed[index])} destroyed.",
                    )
                )
        if not unsaved:
            events.append(
                event("no_casualties", side=target.name.value, note=f"The {target.name.value} saves every hit.")
            )
        if wasted:
            events.append(
                event(
                    "wasted",
                    side=target.name.value,
                    hits=wasted,
                    note=f"{_plural(wasted, 'unsaved hit')} fell on units already destroyed.",
                )
            )

    # ------------------------------------------------------------------ outcome

    def decided(self) -> Winner | None:
        """The immediate outcomes: the defending formation destroyed, or every directly engaged attacker."""
        attacker, defender = self.sides[ATTACKER], self.sides[DEFENDER]
        note: str
        winner: Winner | None
        if not defender.alive() and attacker.alive():
            winner = Winner.ATTACKER
            note = "Every defending unit is destroyed: the attacker wins."
        elif not defender.alive():
            if self.settings.both_wiped_out == "defender":
                winner = Winner.DEFENDER
                note = (
                    "Both formations are wiped out. Every directly engaged attacker is destroyed: the attack stalls "
                    "and the defender wins."
                )
            else:
                winner = Winner.DRAW
                note = "Both formations are wiped out: each side met its way to win at once, so the assault is drawn."

        elif not attacker.engaged():
            winner = Winner.DEFENDER
            note = "Every directly engaged attacker is destroyed: the attack stalls and the defender wins."
        else:
            return None
        self.steps.append(Step("The assault is decided", events=(event("decided", winner=winner.value, note=note),)))
        return winner

    def modifiers(self, side: SideState) -> list[tuple[str, int]]:
        rules = self.rules
        enemy = self.sides[side.name.other]
        mine, theirs = side.strength(), enemy.strength()
        items: list[tuple[str, int]] = []
        if side.kills:
            # A war engine's damage points count one each, but they are not units: say which is which.
            units, points = side.kills - side.war_engine_damage, side.war_engine_damage
            words = [f"{_plural(units, 'enemy unit')} destroyed"] if units > 0 else []
            if points:
                words.append(f"{_plural(points, 'damage point')} on enemy war engines")
            items.append((" and ".join(words), side.kills))
        if mine > theirs:
            items.append(("more units remaining", 1))
            if self.settings.double_means is DoubleMeans.MORE_THAN:
                if mine > 2 * theirs:
                    items.append(("more than twice as many units remaining", 1))
            elif mine >= 2 * theirs:
                items.append(("at least twice as many units remaining", 1))
        my_markers, their_markers = self.markers_for_result(side), self.markers_for_result(enemy)
        if my_markers == 0:
            items.append((f"no {rules.markers}", 1))
        if my_markers < their_markers:
            items.append((f"fewer {rules.markers} than the enemy", 1))
        if rules.inspiring_modifier:
            inspiring = sum(1 for unit in side.engaged() if INSPIRING in unit.group.specials)
            if side.support is not None:
                inspiring += sum(
                    group.in_range
                    for formation in side.support.formations
                    for group in formation.groups
                    if INSPIRING in group.specials
                )
            if inspiring:
                items.append((f"{_plural(inspiring, 'Inspiring unit')}", inspiring))
        return items

    def markers_for_result(self, side: SideState) -> int:
        # Markers placed during the assault wait for its end; a Broken formation counts as many as its units.
        return side.strength() if side.broken_at_start else side.markers_at_start

    def result_step(self) -> Winner | None:
        rolls: list[Roll] = []
        events: list[Event] = []
        for side in (self.sides[ATTACKER], self.sides[DEFENDER]):
            items = self.modifiers(side)
            bonus = sum(value for _, value in items)
            roll = roll_unchecked(self.dice, f"result roll: {side.name.value}", 2, self.settings.result_dice)
            rolls.append(roll)
            die = combined_total(roll)
            side.score = die + bonus
            listed = "".join(f" + {value} for {reason}" for reason, value in items) or " with no modifier"
            events.append(
                event(
                    "modifiers",
                    side=side.name.value,
                    modifiers=[{"reason": reason, "value": value} for reason, value in items],
                    total=bonus,
                    score=side.score,
                    note=f"The {side.name.value}: {die}{listed} = {side.score}.",
                )
            )
        attacker, defender = self.sides[ATTACKER], self.sides[DEFENDER]
        assert attacker.score is not None
        assert defender.score is not None
        title = f"Round {self.round}: work out the result" if self.round > 1 else "Work out the result"
        if attacker.score == defender.score:
            last = self.round >= self.settings.max_rounds
            events.append(
                event(
                    "tie",
                    note=f"A tie at {attacker.score}: "
                    + (
                        f"still tied after {_plural(self.settings.max_rounds, 'round')}, the referee's cap "
                        f"(max_rounds={self.settings.max_rounds}): the referee stops here and calls the assault a "
                        "draw. This is not a rules outcome: the rules would fight another round."
                        if last
                        else "fight another round; casualties carry over."
                    ),
                )
            )
            self.steps.append(Step(title, tuple(rolls), tuple(events)))
            return None
        winner = attacker if attacker.score > defender.score else defender
        loser = self.sides[winner.name.other]
        difference = abs(attacker.score - defender.score)
        events.append(
            event(
                "result",
                winner=winner.name.value,
                difference=difference,
                note=f"The {winner.name.value} wins, {winner.score} to {loser.score}: the {loser.name.value} "
                f"takes {_plural(difference, 'extra hit')} with no saves.",
            )
        )
        unsaved = allocate(loser.alive(), difference, one_pass=True)
        if len(unsaved) < difference:
            events.append(
                event(
                    "hits_lost",
                    side=loser.name.value,
                    hits=difference - len(unsaved),
                    note=f"{_plural(difference - len(unsaved), 'extra hit')} "
                    f"{'finds' if difference - len(unsaved) == 1 else 'find'} no unit left.",
                )
            )
        if unsaved:
            self.apply_damage(loser, unsaved, events)
        self.steps.append(Step(title, tuple(rolls), tuple(events)))
        return Winner(winner.name.value)

    # ------------------------------------------------------------------ after the assault

    def aftermath(self, winner: Winner) -> Report:
        events: list[Event] = []
        rules = self.rules
        if winner is Winner.DRAW:
            both_gone = not self.sides[ATTACKER].alive() and not self.sides[DEFENDER].alive()
            for side in self.sides.values():
                self.winner_markers(side, events, drawn=True)
            if not both_gone:
                events.append(event("instruction", note="Neither side withdraws: both formations hold their ground."))
            self.rally_instructions(events)
            self.steps.append(Step("After the assault", events=tuple(events)))
            return self.report(Outcome.BOTH_DESTROYED if both_gone else Outcome.TIED, winner)
        winning = self.sides[SideName(winner.value)]
        losing = self.sides[winning.name.other]
        outcome = self.loser_breaks(losing, events)
        self.support_markers_for(losing, events)
        self.winner_markers(winning, events, drawn=False)
        if winning.alive():
            events.append(event("consolidate", side=winning.name.value, note=rules.consolidation))
        else:
            outcome = Outcome.BOTH_DESTROYED  # the winner's formation is gone too (the attack stalled)
        self.rally_instructions(events)
        self.steps.append(Step("After the assault", events=tuple(events)))
        return self.report(outcome, winner)

    def rally_instructions(self, events: list[Event]) -> None:
        """The end phase's rally test, as an instruction, for each formation Broken after the assault."""
        if self.rules.rally is None:
            return
        for side in self.sides.values():
            if side.alive() and self.after[side.name].get("broken"):
                note = self.rules.rally.format(side=side.name.value)
                events.append(event("rally", side=side.name.value, note=note))

    def loser_breaks(self, losing: SideState, events: list[Event]) -> Outcome:
        name = losing.name.value
        if losing.alive() and losing.broken_at_start:
            remaining = losing.units_alive()
            for unit in losing.alive():
                unit.dc = 0
            events.append(
                event(
                    "casualty",
                    side=name,
                    units=remaining,
                    note=f"The {name} was already Broken: its {self.units_text(remaining)} left {_be(remaining)} "
                    "destroyed.",
                )
            )
        if not losing.alive():
            self.after[losing.name] = {"broken": True, "withdraws": False, "withdrawing": (), self.rules.marker_key: 0}
            events.append(event("destroyed", side=name, note=f"The {name}'s formation is destroyed."))
            return Outcome.DESTROYED
        withdrawing = tuple(
            f"{count}x {group.name}"
            for group, count in zip(losing.formation.groups, losing.alive_by_group(), strict=True)
            if count
        )
        self.after[losing.name] = {
            "broken": True,
            "withdraws": True,
            "withdrawing": withdrawing,
            # A Broken formation has as many markers as it has units left.
            self.rules.marker_key: losing.strength(),
        }
        events.append(
            event(
                "withdraw",
                side=name,
                units=list(withdrawing),
                note=f"The {name} is Broken and must withdraw ({', '.join(withdrawing)}). {self.rules.withdrawal}",
            )
        )
        return Outcome.BROKEN

    def support_markers_for(self, losing: SideState, events: list[Event]) -> None:
        if losing.support is None:
            return
        for formation in losing.support.formations:
            # "Formations ... that could have provided supporting fire": one with no unit able to fire could not.
            gained = 1 if any(group.in_range for group in formation.groups) else 0
            self.support_markers[losing.name].append((formation.name, gained))
            note = (
                f"Supporting formation {formation.name} could have supported the losing side: it gains 1 "
                f"{self.rules.marker}."
                if gained
                else f"Supporting formation {formation.name} had no unit able to fire, so it could not have supported "
                f"the losing side: it gains no {self.rules.markers}."
            )
            events.append(event("markers", side=losing.name.value, formation=formation.name, gained=gained, note=note))

    def winner_markers(self, side: SideState, events: list[Event], *, drawn: bool) -> None:
        rules = self.rules
        name = side.name.value
        lost = side.lost_strength()
        markers = side.markers_at_start
        broken = side.broken_at_start
        if not side.alive():
            self.after[side.name] = {"broken": broken, "withdraws": False, "withdrawing": (), rules.marker_key: 0}
            return
        if broken:
            markers = side.strength()  # a Broken formation has as many markers as it has units
            events.append(
                event(
                    "markers",
                    side=name,
                    gained=0,
                    note=f"The {name} was already Broken: it gains no {rules.markers} and counts {markers}, one per "
                    "unit left.",
                )
            )
        else:
            markers += lost
            if not lost:
                note = f"The {name} lost no units: no " + (
                    f"new {rules.markers}; it still has {markers}." if markers else f"{rules.markers}."
                )
            else:
                note = (
                    f"The {name} gains {lost} {rules.marker if lost == 1 else rules.markers}, one per unit it lost, "
                    f"and has {markers}."
                )
            events.append(event("markers", side=name, gained=lost, note=note))
            if lost and markers >= side.strength():
                broken = True
                reason = "holds its ground" if drawn else "won, so it does not withdraw"
                events.append(
                    event(
                        "breaks",
                        side=name,
                        note=f"With {markers} {rules.marker if markers == 1 else rules.markers} and "
                        f"{self.units_text(side.strength())} left, the {name} "
                        f"is Broken, but it {reason}.",
                    )
                )
        self.after[side.name] = {"broken": broken, "withdraws": False, "withdrawing": (), rules.marker_key: markers}

    def report(self, outcome: Outcome, winner: Winner) -> Report:
        def side_result(name: SideName) -> SideResult:
            side = self.sides[name]
            after = self.after[name] or {
                "broken": side.broken_at_start,
                "withdraws": False,
                "withdrawing": (),
                # A Broken formation has as many markers as it has units left.
                self.rules.marker_key: side.strength() if side.broken_at_start else side.markers_at_start,
            }
            initial = side.formation.units
            remaining = side.units_alive()
            support = [
                {"formation": formation, f"{self.rules.marker_key}_gained": gained}
                for formation, gained in self.support_markers[name]
            ]
            return SideResult(
                initial - remaining,
                remaining,
                FrozenMap(
                    kills=side.kills,
                    score=side.score,
                    **after,
                    supporting_formations=support,
                ),
            )

        return Report(
            game=self.rules.game_id,
            seed=self.dice.seed,
            inputs=self.inputs,
            steps=tuple(self.steps),
            result=Result(outcome.value, winner, side_result(ATTACKER), side_result(DEFENDER)),
        )
