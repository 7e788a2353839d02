"""The outcome: the immediate outcomes after the attacks, and otherwise the result roll with its modifiers."""

from __future__ import annotations

from rules_core.games.formation.attacks import Attacking
from rules_core.games.formation.rules import DoubleMeans
from rules_core.games.formation.spec import INSPIRING
from rules_core.games.formation.state import ATTACKER, DEFENDER, SideState, allocate, plural
from rules_core.report import Event, Roll, Step, Winner, event
from rules_core.roll_kinds import RESULT_ROLL
from rules_core.rolling import combined_total, roll_unchecked


class Resulting(Attacking):
    def decided(self, *, after_support: bool = False) -> Winner | None:
        """The immediate outcomes after the attacks: the defending formation destroyed, or every directly engaged
        attacker. After supporting fire only the result step's own rule is left: "if one side has completely wiped
        the other side out, then it is the winner" (a side that lost its engaged units but not all goes on to the
        result roll)."""
        attacker, defender = self.sides[ATTACKER], self.sides[DEFENDER]
        note: str
        winner: Winner | None
        if not defender.alive() and attacker.alive():
            winner = Winner.ATTACKER
            note = "Every defending unit is destroyed: the attacker wins."
        elif not defender.alive() and after_support:
            # Supporting fire never stalls the attack: the result step's rule, with the both-wiped-out decision.
            winner = Winner.DEFENDER if self.settings.both_wiped_out == "defender" else Winner.DRAW
            outcome = "the defender wins" if winner is Winner.DEFENDER else "the assault is drawn"
            note = f"Both sides are wiped out by supporting fire: {outcome} (the both-wiped-out decision)."
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
        elif after_support and not attacker.alive():
            winner = Winner.DEFENDER
            note = "Every attacking unit is destroyed: the attacker is wiped out and the defender wins."
        elif not after_support and not attacker.engaged():
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
            words = [f"{plural(units, 'enemy unit')} destroyed"] if units > 0 else []
            if points:
                words.append(f"{plural(points, 'damage point')} on enemy war engines")
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
                items.append((f"{plural(inspiring, 'Inspiring unit')}", inspiring))
        return items

    def markers_for_result(self, side: SideState) -> int:
        # Markers placed during the assault wait for its end; a Broken formation counts as many as its units. A side
        # of several formations fighting as one counts theirs together.
        return sum(part.strength() if part.broken_at_start else part.markers_at_start for part in side.parts)

    def result_step(self) -> Winner | None:
        rolls: list[Roll] = []
        events: list[Event] = []
        for side in (self.sides[ATTACKER], self.sides[DEFENDER]):
            items = self.modifiers(side)
            bonus = sum(value for _, value in items)
            roll = roll_unchecked(
                self.dice,
                f"result roll: {side.name.value}",
                2,
                self.settings.result_dice,
                kind=RESULT_ROLL,
                side=side.name,
            )
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
                        f"still tied after {plural(self.settings.max_rounds, 'round')}, the referee's cap "
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
                f"takes {plural(difference, 'extra hit')} with no saves.",
            )
        )
        unsaved = allocate(loser.alive(), difference, one_pass=True)
        if len(unsaved) < difference:
            events.append(
                event(
                    "hits_lost",
                    side=loser.name.value,
                    hits=difference - len(unsaved),
                    note=f"{plural(difference - len(unsaved), 'extra hit')} "
                    f"{'finds' if difference - len(unsaved) == 1 else 'find'} no unit left.",
                )
            )
        if unsaved:
            self.apply_damage(loser, unsaved, events)
        self.steps.append(Step(title, tuple(rolls), tuple(events)))
        return Winner(winner.name.value)
