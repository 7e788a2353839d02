"""After the assault: the loser breaks (or is destroyed), the markers each formation gains, the winner
consolidates, and the report with what each side ends with.
"""

from __future__ import annotations

from rules_core.games.formation.result import Resulting
from rules_core.games.formation.state import ATTACKER, DEFENDER, Outcome, Part, SideState, be
from rules_core.report import Event, FrozenMap, Json, Report, Result, SideName, SideResult, Step, Winner, event
from rules_core.table import join_words as join


class Aftermath(Resulting):
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
                    note=f"The {name} was already Broken: its {self.units_text(remaining)} left {be(remaining)} "
                    "destroyed.",
                )
            )
        # Every losing formation is Broken, with as many markers as it has units left.
        formations = self.formations_after(losing, [(True, part.strength()) for part in losing.parts])
        if not losing.alive():
            self.after[losing.name] = {
                "broken": True,
                "withdraws": False,
                "withdrawing": (),
                self.rules.marker_key: 0,
                **formations,
            }
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
            **formations,
        }
        who = (
            f"The {name}'s formations {join([part.name for part in losing.parts])} are"
            if losing.several
            else f"The {name} is"
        )
        events.append(
            event(
                "withdraw",
                side=name,
                units=list(withdrawing),
                note=f"{who} Broken and must withdraw ({', '.join(withdrawing)}). {self.rules.withdrawal}",
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
        """The winner's (or in a draw each side's) markers, formation by formation: "each winning formation receives
        a number of Shock points equal to the number of its units that were killed"."""
        ends = [
            self.part_markers(side, part, events, drawn=drawn) if side.alive() else (part.broken_at_start, 0)
            for part in side.parts
        ]
        standing = [end for part, end in zip(side.parts, ends, strict=True) if part.alive()]
        self.after[side.name] = {
            # A side of several formations is Broken when each formation left is.
            "broken": all(broken for broken, _ in standing) if standing else side.broken_at_start,
            "withdraws": False,
            "withdrawing": (),
            self.rules.marker_key: sum(markers for _, markers in ends),
            **self.formations_after(side, ends),
        }

    def part_markers(self, side: SideState, part: Part, events: list[Event], *, drawn: bool) -> tuple[bool, int]:
        """One formation's markers after the assault it did not lose: whether it is Broken, and how many it has."""
        rules = self.rules
        name = side.name.value
        # The side by its role when it is one formation, else each formation by name.
        label, extra = (f"formation {part.name}", {"formation": part.name}) if side.several else (f"the {name}", {})
        said = label[0].upper() + label[1:]
        if not part.alive():
            events.append(event("destroyed", side=name, **extra, note=f"{said} is destroyed."))
            return part.broken_at_start, 0
        lost = part.lost_strength()
        markers = part.markers_at_start
        broken = part.broken_at_start
        if broken:
            markers = part.strength()  # a Broken formation has as many markers as it has units
            events.append(
                event(
                    "markers",
                    side=name,
                    **extra,
                    gained=0,
                    note=f"{said} was already Broken: it gains no {rules.markers} and counts {markers}, one per "
                    f"{part.measure(one=True)} left.",
                )
            )
            return broken, markers
        markers += lost
        if not lost:
            note = f"{said} lost no units: no " + (
                f"new {rules.markers}; it still has {markers}." if markers else f"{rules.markers}."
            )
        else:
            note = (
                f"{said} gains {lost} {rules.marker if lost == 1 else rules.markers}, one per "
                f"{part.lost_kinds()} it lost, and has {markers}."
            )
        events.append(event("markers", side=name, **extra, gained=lost, note=note))
        if lost and markers >= part.strength():
            broken = True
            reason = "holds its ground" if drawn else "won, so it does not withdraw"
            events.append(
                event(
                    "breaks",
                    side=name,
                    **extra,
                    note=f"With {markers} {rules.marker if markers == 1 else rules.markers} and "
                    f"{part.strength_text()} left, {label} "
                    f"is Broken, but it {reason}; a Broken formation has as "
                    f"{'much' if rules.markers_mass else 'many'} {rules.markers} as "
                    f"{part.measure()} left: {part.strength()}.",
                )
            )
            markers = part.strength()  # never more markers than units (REFERENCE.md 001 and 004)
        return broken, markers

    def formations_after(self, side: SideState, ends: list[tuple[bool, int]]) -> dict[str, Json]:
        """A side of several formations: each one's units left, markers and Broken state after the assault."""
        if not side.several:
            return {}
        return {
            "formations": [
                {
                    "formation": part.name,
                    "remaining": part.units_alive(),
                    self.rules.marker_key: markers,
                    "broken": broken,
                }
                for part, (broken, markers) in zip(side.parts, ends, strict=True)
            ]
        }

    def report(self, outcome: Outcome, winner: Winner) -> Report:
        def side_result(name: SideName) -> SideResult:
            side = self.sides[name]
            # No assault: each formation as it started (a Broken one has as many markers as it has units left).
            start = [
                (part.broken_at_start, part.strength() if part.broken_at_start else part.markers_at_start)
                for part in side.parts
            ]
            after = self.after[name] or {
                "broken": side.broken_at_start,
                "withdraws": False,
                "withdrawing": (),
                self.rules.marker_key: sum(markers for _, markers in start),
                **self.formations_after(side, start),
            }
            initial = side.formation.units
            remaining = side.units_alive()
            support = [
                {"formation": formation, f"{self.rules.marker_key}_gained": gained}
                for formation, gained in self.support_markers[name]
            ]
            # A war engine's markers count its damage capacity: the table line shows what it has left.
            capacity = side.war_engine_capacity()
            return SideResult(
                initial - remaining,
                remaining,
                FrozenMap(
                    kills=side.kills,
                    score=side.score,
                    **after,
                    supporting_formations=support,
                    **({"damage_capacity": capacity} if capacity else {}),
                ),
            )

        return Report(
            game=self.rules.game_id,
            seed=self.dice.seed,
            inputs=self.inputs,
            steps=tuple(self.steps),
            result=Result(outcome.value, winner, side_result(ATTACKER), side_result(DEFENDER)),
        )
