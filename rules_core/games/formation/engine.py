"""The formation assault (Epic: Armageddon A1-A8, Reikhammer steps I-VII), step by step.

One procedure for both games; everything in which they differ comes from the
:class:`~rules_core.games.formation.rules.FormationRules` table and the
resolution's :class:`~rules_core.games.formation.rules.FormationSettings`.
The decisions on unclear points are listed in docs/games/epic.md and
docs/games/reikhammer.md (and the two game modules' docstrings).

``FormationAssault`` runs the steps in the order of the texts and itself holds the setup and one round; the
rest lives beside it, one step a module, each a class the next one builds on:

- ``state.py``: the sides, their units and the damage left on them, hit allocation, the positions check, and
  ``Fight`` (the resolution's state and shared words);
- ``saves.py``: hits and saves, and the casualties they leave;
- ``attacks.py``: the close combat and firefight attacks, and supporting fire;
- ``result.py``: the immediate outcomes, the result roll and its modifiers;
- ``aftermath.py``: the loser breaks or is destroyed, markers, consolidation, and the report.

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

from rules_core.games.formation.aftermath import Aftermath
from rules_core.games.formation.spec import NO_LINE_OF_FIRE, Group, UnitType
from rules_core.games.formation.state import (
    ATTACKER,
    DEFENDER,
    Outcome,
    Part,
    SideState,
    UnitState,
    allocate,
    check_positions,
    plural,
)
from rules_core.report import Event, Report, Roll, SideName, Step, Winner, event

__all__ = [
    "ATTACKER",
    "DEFENDER",
    "FormationAssault",
    "Outcome",
    "SideState",
    "UnitState",
    "allocate",
    "check_positions",
]


class FormationAssault(Aftermath):
    """One resolution: the steps in the order of the texts."""

    # ------------------------------------------------------------------ run

    def run(self) -> Report:
        if not self.setup_step():
            return self.report(Outcome.NO_ASSAULT, Winner.NONE)
        winner: Winner | None = None
        while winner is None:
            if self.round > 1:
                note = f"The result was a tie: a new round with the survivors. {self.rules.counter_charge}"
                if not self.sides[ATTACKER].engaged():
                    # Supporting fire killed every engaged attacker: with the positions kept, the attack stalls at
                    # once, so the round offers no counter-charge the referee would then ignore.
                    note = (
                        "The result was a tie: a new round with the survivors, but no attacking unit is directly "
                        "engaged any more (the referee keeps each survivor in its position), so the attack stalls "
                        "before anyone rolls."
                    )
                self.steps.append(
                    Step(f"Round {self.round}: the combat goes on", events=(event("instruction", note=note),))
                )
            # A later round starts with the attack stalled when supporting fire killed every engaged attacker.
            winner = self.decided() if self.round > 1 else None
            if winner is None:
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
            if side.several:
                state = f"{len(side.parts)} formations fighting as one: " + "; ".join(
                    f"{part.name}, {self.units_text(part.units_alive())}, {self.start_state(part)}"
                    for part in side.parts
                )
            else:
                state = self.start_state(side)
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
                    parts.append(f"{group.contact} in {rules.contact} (CC{self.value(group.cc)})")
                if group.in_range:
                    shoots = "no line of fire" if NO_LINE_OF_FIRE in group.specials else f"FF{self.value(group.ff)}"
                    parts.append(f"{group.in_range} within {rules.engagement_range} ({shoots})")
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
                    note=f"No attacking unit is in {rules.contact} or within {rules.engagement_range} of the enemy: "
                    "the assault does not take place.",
                )
            )
        self.steps.append(Step("The formations", events=tuple(events)))
        return engaged

    def start_state(self, formation: SideState | Part) -> str:
        """A formation's markers and Broken state before the assault, in words."""
        rules, markers = self.rules, formation.markers_at_start
        if formation.broken_by_markers:
            return (
                f"{markers} {rules.marker if markers == 1 else rules.markers}, at least its units: Broken, counting "
                f"{rules.markers} equal to its units"
            )
        if formation.broken_at_start:
            return f"Broken, counting {rules.markers} equal to its units"
        return f"{markers} {rules.marker if markers == 1 else rules.markers}"

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
            (group.contact, group.cc, f"in {self.rules.contact}", "CC"),
            (group.in_range, group.ff, "in range", "FF"),
        ):
            if units and value is None:
                yield event(
                    "policy",
                    side=side.value,
                    unit=group.name,
                    note=f"{group.name}: the {units} {where} have no {stat} value: they can be hit but cannot attack.",
                )
        if NO_LINE_OF_FIRE in group.specials and group.ff is not None:
            within = self.rules.engagement_range
            note = (
                f"{group.name}: the {group.in_range} within {within} have no line of fire: they are directly engaged "
                "(they can be hit) but cannot shoot."
                if group.in_range
                else f"{group.name}: {NO_LINE_OF_FIRE} changes nothing, as no unit of the group is within {within} "
                "(ff=0)."
            )
            yield event("policy", side=side.value, unit=group.name, note=note)

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
                    note=f"The {side.value} scores {plural(hits[side].total, 'hit')}"
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
        targets = {side: self.support_targets(self.sides[side]) for side in (ATTACKER, DEFENDER)}
        support_hits = {
            side: self.support_fire(self.sides[side], targets[side.other][0], rolls, events)
            for side in (ATTACKER, DEFENDER)
        }
        self.steps.append(Step(prefix + "Supporting fire", tuple(rolls), tuple(events)))
        self.exchange_saves(
            support_hits,
            prefix + "Supporting fire hits and saves",
            targets={side: found[1] for side, found in targets.items()},
        )
        return self.decided(after_support=True)
