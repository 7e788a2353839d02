"""The Hand-to-Hand phase of a duel (decisions: see the package docstring): ``Duel`` runs the combat rounds in
order and reads the phase's result. One resolution fights one phase: one model against one, or a lone model against
several (a multiple combat, fought as a series of one-on-one rounds in the order the outnumbering side lists its
models). The steps live beside it, one concern a module:

- ``state.py``: the phase's state (its fighters, one per model), the contradictions refused, the outcome words;
- ``combat_round.py``: a combat round: attack dice, parries, combat scores, the round's winner;
- ``strike.py``: the weapon the winner strikes with, and what one hit of it is worth;
- ``hits.py``: the winner's hits: to wound, armour saves, Damage;
- ``aftermath.py``: breaking off, the Follow-Up Move, or the fight going on next phase.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rules_core.dice import DiceSource
from rules_core.games.duel.aftermath import escapes_step, what_next_step
from rules_core.games.duel.combat_round import round_step
from rules_core.games.duel.hits import hits_step
from rules_core.games.duel.spec import Side, format_side
from rules_core.games.duel.state import ATTACKER, DEFENDER, GAME_ID, Outcome, Phase, check_sides
from rules_core.options import OptionValue
from rules_core.report import FrozenMap, Inputs, Report, Result, SideResult, Winner

# Sides are immutable and often fought again (replays, the odds): format each once.
canonical = functools.lru_cache(maxsize=256)(format_side)


class Duel(Phase):
    def run(self) -> Report:
        check_sides(self.attacker_side, self.defender_side)
        lone, many = (
            (self.attackers[0], self.defenders) if len(self.attackers) == 1 else (self.defenders[0], self.attackers)
        )
        for number, foe in enumerate(many, start=1):
            if not lone.alive:
                break
            # The lone model survived every earlier round: each later foe rolls one more die per round fought.
            bonus = number - 1
            if lone.side is ATTACKER:
                fought = round_step(self, number, lone, foe, bonus_for=foe, bonus=bonus)
            else:
                fought = round_step(self, number, foe, lone, bonus_for=foe, bonus=bonus)
            if fought is not None:
                hits_step(self, *fought)
        escapes_step(self)
        what_next_step(self, lone)
        return self._report()

    def _report(self) -> Report:
        fighters = (*self.attackers, *self.defenders)
        inflicted = {name: sum(f.wounds_inflicted for f in fighters if f.side is name) for name in (ATTACKER, DEFENDER)}
        a, d = inflicted[ATTACKER], inflicted[DEFENDER]
        winner = Winner.ATTACKER if a > d else Winner.DEFENDER if d > a else Winner.DRAW
        if any(not f.alive for f in fighters):
            outcome = Outcome.KILLED
        elif any(f.escaped_inches is not None for f in fighters):
            outcome = Outcome.BROKE_OFF
        elif a or d:
            outcome = Outcome.WOUNDED
        else:
            outcome = Outcome.STALEMATE
        sides = {}
        for name, members in ((ATTACKER, self.attackers), (DEFENDER, self.defenders)):
            escaped = [f for f in members if f.escaped_inches is not None]
            sides[name] = SideResult(
                lost=sum(not f.alive for f in members),
                remaining=sum(f.alive for f in members),
                extra=FrozenMap(
                    wounds_inflicted=inflicted[name],
                    broken=bool(escaped),
                    models=tuple(
                        FrozenMap(
                            name=f.label,
                            wounds=f.group.profile.w,
                            wounds_left=f.wounds_left,
                            status="slain"
                            if not f.alive
                            else "broke_off"
                            if f.escaped_inches is not None
                            else "fought"
                            if f.opponents
                            else "did_not_fight",
                        )
                        for f in members
                    ),
                ),
            )
        inputs = Inputs(
            canonical(self.attacker_side),
            canonical(self.defender_side),
            FrozenMap(self.options),
        )
        result = Result(outcome, winner, sides[ATTACKER], sides[DEFENDER])
        return Report(GAME_ID, self.dice.seed, inputs, tuple(self.steps), result)


def resolve(attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> Report:
    return Duel(attacker, defender, options, dice).run()
