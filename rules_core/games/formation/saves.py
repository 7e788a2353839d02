"""Hits and saves: both sides' hits land together, allocated nearest units first, saved (armour with its re-rolls,
macro-weapon hits apart, then the better of cover and invulnerable), and unsaved hits remove units.
"""

from __future__ import annotations

from rules_core.games.formation.spec import INVULNERABLE, INVULNERABLE_SAVE, REINFORCED_ARMOUR, Group, UnitType
from rules_core.games.formation.state import ATTACKER, DEFENDER, Fight, Hits, SideState, UnitState, allocate, be, plural
from rules_core.report import Event, Op, Roll, SideName, Step, Target, event
from rules_core.roll_kinds import COVER_SAVE, SAVE
from rules_core.roll_kinds import INVULNERABLE_SAVE as INVULNERABLE_SAVE_KIND
from rules_core.rolling import roll_each


class Saving(Fight):
    def exchange_saves(
        self, hits: dict[SideName, Hits], title: str, targets: dict[SideName, list[UnitState]] | None = None
    ) -> None:
        """Both sides' hits land together: saves for the defender's units, then the attacker's; ``targets``: the
        units each side's hits may land on (default: its directly engaged units)."""
        for target in (DEFENDER, ATTACKER):
            if not hits[target.other].total:
                continue
            rolls: list[Roll] = []
            events: list[Event] = []
            eligible = None if targets is None else targets[target]
            self.take_hits(self.sides[target], hits[target.other], rolls, events, eligible)
            self.steps.append(Step(f"{title}: the {target.value}", tuple(rolls), tuple(events)))

    def take_hits(
        self,
        target: SideState,
        hits: Hits,
        rolls: list[Roll],
        events: list[Event],
        eligible: list[UnitState] | None = None,
    ) -> None:
        if not hits.total:
            return
        if eligible is None:
            eligible = target.engaged()
        if not eligible:
            events.append(
                event(
                    "hits_lost",
                    side=target.name.value,
                    hits=hits.total,
                    note=f"{plural(hits.total, 'hit')} on the {target.name.value} {be(hits.total)} lost: "
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

    def second_save(self, target: SideState, group: Group) -> tuple[str, Target, str] | None:
        """The better of a cover save (the defending side's infantry only) and an invulnerable save: its purpose,
        its target and its roll kind."""
        options: list[tuple[str, Target, str]] = []
        if group.cover is not None and target.name is DEFENDER and group.unit_type is UnitType.INFANTRY:
            options.append((f"cover save: {group.name}", Target(self.settings.save_op, group.cover), COVER_SAVE))
        if INVULNERABLE in group.specials:
            options.append(
                (f"invulnerable save: {group.name}", Target(Op.AT_LEAST, INVULNERABLE_SAVE), INVULNERABLE_SAVE_KIND)
            )
        if not options:
            return None

        def chance(option: tuple[str, Target, str]) -> int:
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
                    kind=SAVE,
                    side=target.name,
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
                kind=SAVE,
                side=target.name,
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
            roll = roll_each(self.dice, second[0], len(failed), second[1], kind=second[2], side=target.name)
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
                    note=f"{plural(wasted, 'unsaved hit')} fell on units already destroyed.",
                )
            )
