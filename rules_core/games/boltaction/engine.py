"""The Bolt Action assault procedure (decisions: see the package docstring): ``CloseQuarters`` runs the steps in
the order of the rules text, and itself holds the rounds' outcome (who won, Fanatics fighting on), the loser
destroyed, the winner's regroup and the report. The rest lives beside it, one step a module:

- ``state.py``: the procedure's constants, each unit's men and their removal order, the fight's shared state;
- ``reaction.py``: measuring the move, the target's reaction fire, and the morale check under it;
- ``rounds.py``: a round of close quarters (in turn, or simultaneous) and its result;
- ``damage.py``: damage rolls (Tough Fighters, exceptional damage) and the casualties they remove.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rules_core.compact import plural
from rules_core.dice import DiceSource
from rules_core.games.boltaction.reaction import contact, reaction_fire
from rules_core.games.boltaction.rounds import fight_round, round_result
from rules_core.games.boltaction.spec import FANATICS, Unit, format_unit
from rules_core.games.boltaction.state import (
    ATTACKER,
    DEFENDER,
    GAME_ID,
    MAX_ROUNDS,
    REGROUP_DISTANCE,
    Fight,
    Outcome,
    UnitState,
    check_terrain,
    surrender_words,
    unit_men,
)
from rules_core.options import OptionValue
from rules_core.report import FrozenMap, Inputs, Report, Result, SideResult, Step, Winner, event
from rules_core.rolling import roll_unchecked


class CloseQuarters:
    def __init__(self, attacker: Unit, defender: Unit, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        check_terrain(options)
        self.options = options
        self.dice = dice
        self.attacker = UnitState(attacker, ATTACKER, unit_men(attacker), attacker.pins, ATTACKER.value)
        self.defender = UnitState(defender, DEFENDER, unit_men(defender), defender.pins, DEFENDER.value)
        self.fight = Fight(options, dice, self.attacker, self.defender)
        self.steps = self.fight.steps
        self.defensive = bool(options["rough_ground"]) or bool(options["defended_obstacle"])

    # --- the procedure --------------------------------------------------------------------------------------

    def run(self) -> Report:
        if not contact(self.fight):
            return self._report(Outcome.FAILED_TO_CONTACT, Winner.NONE)
        outcome = reaction_fire(self.fight)
        if outcome is not None:
            return self._report(outcome, Winner.DEFENDER)
        return self._fight()

    def _fight(self) -> Report:
        a, d = self.attacker, self.defender
        simultaneous = self.defensive
        if simultaneous:
            why = (
                "the assault crossed rough ground or an obstacle"
                if self.options["rough_ground"]
                else "the defenders hold an obstacle"
            )
            self.steps.append(
                Step(
                    "Defensive position",
                    (),
                    (
                        event(
                            "defensive_position",
                            note=f"{d.name} fight from a defensive "
                            f"position ({why}): the first round is fought simultaneously.",
                        ),
                    ),
                )
            )
        for number in range(1, MAX_ROUNDS + 1):
            caused = fight_round(self.fight, number, simultaneous)
            a_wiped, d_wiped = not a.alive, not d.alive
            if a_wiped and d_wiped:
                round_result(self.fight, number, caused, "Both units are wiped out.", None)
                return self._report(Outcome.BOTH_DESTROYED, Winner.DRAW)
            winner: UnitState | None
            if a_wiped or d_wiped:
                winner = d if a_wiped else a
                verdict = f"{(a if a_wiped else d).name} are wiped out: {winner.name} win."
            elif caused[ATTACKER] != caused[DEFENDER]:
                winner = a if caused[ATTACKER] > caused[DEFENDER] else d
                most, least = max(caused.values()), min(caused.values())
                verdict = f"{winner.name} win the round by {plural(most, 'casualty', 'casualties')} to {least}."
            else:
                winner = None
                verdict = (
                    f"A draw at {plural(caused[ATTACKER], 'casualty', 'casualties')} each: another round, "
                    "fought simultaneously."
                )
            round_result(self.fight, number, caused, verdict, winner)
            simultaneous = True
            if winner is None:
                continue
            loser = d if winner is a else a
            if loser.alive and loser.unit.has(FANATICS):
                self.steps.append(
                    Step(
                        f"{loser.name} fight on",
                        (),
                        (
                            event(
                                "fanatics",
                                note=f"{loser.name} are "
                                "Fanatics: a lost round does not destroy them. Another round, fought simultaneously.",
                            ),
                        ),
                    )
                )
                continue
            self._destroy(loser)
            self._regroup(winner)
            return self._report(Outcome.DESTROYED, Winner.ATTACKER if winner is a else Winner.DEFENDER)
        self.steps.append(
            Step(
                "Still undecided",
                (),
                (
                    event(
                        "undecided",
                        note=f"{MAX_ROUNDS} drawn rounds: the referee stops here; fight on with a new resolution.",
                    ),
                ),
            )
        )
        return self._report(Outcome.UNDECIDED, Winner.DRAW)

    def _destroy(self, loser: UnitState) -> None:
        loser.surrendered = loser.alive
        loser.men.clear()
        note = f"{loser.name} lose and are destroyed"
        note += (
            f": their {plural(loser.surrendered, 'survivor')} {surrender_words(loser.surrendered)}, and "
            f"{'counts as a casualty' if loser.surrendered == 1 else 'count as casualties'}."
            if loser.surrendered
            else "."
        )
        self.steps.append(
            Step(
                f"{loser.name} are destroyed",
                (),
                (event("destroyed", side=loser.side_name, unit=loser.name, surrendered=loser.surrendered, note=note),),
            )
        )

    def _regroup(self, winner: UnitState) -> None:
        roll = roll_unchecked(self.dice, 'regroup (D6")', 1, kind=REGROUP_DISTANCE, side=winner.side)
        winner.regroup_inches = roll.dice[0]
        note = (
            f'{winner.name} may regroup up to {winner.regroup_inches}" (no order needed; it does not affect their '
            "order): they may not leave the table, mount a transport or enter a building they did not assault."
        )
        self.steps.append(
            Step(
                f"{winner.name} regroup",
                (roll,),
                (event("regroup", side=winner.side_name, inches=winner.regroup_inches, note=note),),
            )
        )

    def _report(self, outcome: str, winner: Winner) -> Report:
        sides = {}
        for state in (self.attacker, self.defender):
            sides[state.side] = SideResult(
                lost=state.start - state.alive,
                remaining=state.alive,
                extra=FrozenMap(
                    casualties_caused=state.caused,
                    surrendered=state.surrendered,
                    destroyed=state.alive == 0,  # wiped out, or destroyed with its survivors
                    pins=state.pins,
                    regroup_inches=state.regroup_inches,
                ),
            )
        inputs = Inputs(canonical(self.attacker.unit), canonical(self.defender.unit), FrozenMap(self.options))
        result = Result(outcome, winner, sides[ATTACKER], sides[DEFENDER])
        return Report(GAME_ID, self.dice.seed, inputs, tuple(self.steps), result)


canonical = functools.lru_cache(maxsize=256)(format_unit)


def resolve(attacker: Unit, defender: Unit, options: Mapping[str, OptionValue], dice: DiceSource) -> Report:
    return CloseQuarters(attacker, defender, options, dice).run()
