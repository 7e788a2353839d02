"""The attacks: each directly engaged unit's close combat or firefight dice, and the supporting formations' fire."""

from __future__ import annotations

from rules_core.games.formation.saves import Saving
from rules_core.games.formation.spec import Group, Position
from rules_core.games.formation.state import Hits, SideState, UnitState, attack_value, plural
from rules_core.report import Event, Roll, event
from rules_core.roll_kinds import TO_HIT
from rules_core.rolling import roll_each


class Attacking(Saving):
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
            enemy, contact = side.name.other.value, self.rules.contact
            events.append(
                event(
                    "contact_lost",
                    side=side.name.value,
                    note=f"No {enemy} unit in {contact} is left: the {side.name.value}'s units that were in "
                    f"{contact} have lost every contact partner and fight with FF (within {self.rules.engagement_range}"
                    f"). If the counter-charges put them back in {contact}, the lost_contact option says so.",
                )
            )
        for index, group in enumerate(side.formation.groups):
            for position in (Position.CONTACT, Position.IN_RANGE):
                units = counts.get((index, position), 0)
                value = attack_value(group, position, lost)
                label = "CC" if position is Position.CONTACT and not lost else "FF"
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
        roll = roll_each(
            self.dice,
            f"to hit: {group.name} ({label}{self.value(value)})",
            dice,
            self.hit_target(value),
            kind=TO_HIT,
            side=side.name,
        )
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

    def support_targets(self, side: SideState) -> tuple[bool, list[UnitState]]:
        """Whether the enemy's supporting formations may fire at this side, and the units their hits may land on.

        Reikhammer: only at a unit "directly involved in the assault", "in a position to attack" (the text): with
        none, the supporting formations cannot fire; their hits land only on such units unless the support_targets
        option says every directly engaged unit. Epic: any directly engaged unit (A5).
        """
        engaged = side.engaged()
        if not self.rules.support_needs_attacker:
            return True, engaged
        lost = self.contact_lost(side)
        able = [unit for unit in engaged if attack_value(unit.group, unit.position, lost) is not None]
        return bool(able), (able if self.settings.support_targets == "attackers" else engaged)

    def support_fire(self, side: SideState, may_fire: bool, rolls: list[Roll], events: list[Event]) -> Hits:
        hits = Hits()
        if side.support is None:
            return hits
        if not may_fire:
            enemy = side.name.other.value
            for formation in side.support.formations:
                events.append(
                    event(
                        "support",
                        side=side.name.value,
                        formation=formation.name,
                        note=f"Supporting formation {formation.name} cannot fire: no {enemy} unit is in a position "
                        "to attack, so none is directly involved in the assault (the text).",
                    )
                )
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
                    note=f"Supporting formation {formation.name} scores {plural(hits.total - before, 'hit')}.",
                )
            )
        return hits
