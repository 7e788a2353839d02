"""The 40K assault procedure (decisions: see the package docstring): ``Assault`` runs the steps in the order of
the rules text, and itself holds the charge, the regroup test, who fights and who strikes first, and the assault
result. The rest lives beside it, one concern a module:

- ``state.py``: the fight's state (units, groups and their models, pools, tallies, the dice);
- ``weapons.py``: the attack profile a group's weapons give it, and the save they leave a target;
- ``choosing.py``: which of its special weapons a model strikes with when it has two or more;
- ``charging.py``: which units charged this turn and which defending units are in cover;
- ``kinds.py``: what each roll is for (``Roll.kind``);
- ``majorities.py``: a target unit's majority WS, T and save, and the owner's choice when they tie;
- ``fighting.py``: whom each unit fights and when (targets gone before the fight, cover and grenades);
- ``strike.py``: a strike step, each strike's stages (to hit, to wound, saves, casualties) as functions;
- ``allocation.py``: hits dealt between units, and unsaved wounds allocated model by model;
- ``psychic.py``: force weapons' psychic tests and Perils of the Warp;
- ``combats.py``: which units touch by their declarations: separate combats (refused, one command each), models
  within 2" attacking a unit their unit does not touch (refused), and a unit nobody fights back (said);
- ``aftermath.py``: morale, fall back, sweeping advances, and consolidation or the next round;
- ``positions.py`` and ``spec.py``: a later round's positions, and the unit specs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum

from rules_core.dice import DiceSource
from rules_core.errors import IllegalDeclarationError, OptionError, OptionName, example
from rules_core.games.wh40k.aftermath import morale_step, next_step, sweeping_advance_step
from rules_core.games.wh40k.allocation import CASUALTY_POLICY
from rules_core.games.wh40k.charging import (
    charged_event,
    check_turn_facts,
    join_step,
    joining,
    not_joined,
    settle,
    unit_charged,
)
from rules_core.games.wh40k.choosing import (
    choice_note,
    choose_weapons,
    fighting_unit,
    lone_claw_event,
    weapon_traits,
)
from rules_core.games.wh40k.combats import unopposed
from rules_core.games.wh40k.fighting import (
    apply_cover,
    dividing_note,
    fight_instead,
    fighting_note,
    say_where_fists_strike,
    targets_text,
)
from rules_core.games.wh40k.kinds import CHARGE_MOVE
from rules_core.games.wh40k.positions import describe
from rules_core.games.wh40k.psychic import used_power_event
from rules_core.games.wh40k.spec import GAME_ID, Side
from rules_core.games.wh40k.state import Fight, Pool, Role, UnitState, unit_policy
from rules_core.games.wh40k.strike import strike_step
from rules_core.games.wh40k.weapons import engaged_profile, supporting_profile
from rules_core.options import OptionValue
from rules_core.report import (
    Combine,
    Event,
    FrozenMap,
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
from rules_core.roll_kinds import LEADERSHIP
from rules_core.table import EndStates

MAX_CHARGE = 6.0


class Outcome(StrEnum):
    """What followed the result: the report's outcome word."""

    NO_CHARGE = "no_charge"
    DRAWN = "drawn"
    HELD = "held"
    FELL_BACK = "fell_back"
    SOME_FELL_BACK = "some_fell_back"
    DESTROYED = "destroyed"
    BOTH_DESTROYED = "both_destroyed"


class Assault(Fight):
    """One resolution: the procedure run over the fight, step by step."""

    def run(self) -> Report:
        """The steps in order: the charge, the regroup test, who fights, the strike steps in Initiative order, the
        result, the loser's morale and the sweeping advance, and what happens next."""
        if not self.charge_step():
            return self.report(Outcome.NO_CHARGE, Winner.NONE)
        if self.options.get("defender_falling_back") and self.charged and self.round == 1:  # when charged, never later
            self.regroup_step()
        if any(state.alive() for state in self.units[SideName.DEFENDER]):
            pools = self.who_fights_step()
            for priority in sorted({pool.priority for pool in pools}):
                strike_step(self, [pool for pool in pools if pool.priority == priority])
        winner = self.result_step()
        if winner in (Winner.ATTACKER, Winner.DEFENDER):
            winning = SideName(winner.value)
            fallen = morale_step(self, winning.other)
            if fallen:
                sweeping_advance_step(self, winning, fallen)
        else:
            fallen = {}
        outcome = self.outcome(winner, fallen)
        next_step(self, winner, fallen)
        return self.report(outcome, winner)

    def charge_step(self) -> bool:
        """Whether the charge goes in (a later round: the combat simply continues); refuses what cannot be
        declared (decision 14)."""
        distance = self.options.get("charge_distance")
        difficult = bool(self.options.get("difficult_terrain"))
        check_turn_facts(self)
        joiners = joining(self)
        if joiners:  # a later round that units join by charging (decision 21): the combat goes on, and a charge
            self.steps.append(join_step(self, joiners, self._positions_event()))
        elif self.round > 1:
            if distance is not None or difficult:
                raise OptionError(
                    [f"Round {self.round} is a later round of a combat already fought and no unit is marked "
                     "charged (joining it this turn), so ", OptionName("charge_distance"), " and ",
                     OptionName("difficult_terrain"), " do not apply; leave them out."],
                    token="charge_distance" if distance is not None else "difficult_terrain",
                    example=example(round=self.round),
                )  # fmt: skip
            if self.options.get("shot_this_turn"):
                raise IllegalDeclarationError(
                    ["Units locked in close combat may not shoot, so ", OptionName("shot_this_turn"),
                     " cannot apply to a later round; leave it out."],
                    token="shot_this_turn",
                    example=example(round=self.round),
                )  # fmt: skip
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
                ["A unit that fired in the shooting phase of this turn (", OptionName("shot_this_turn"),
                 ") may not declare a charge; leave it out to charge."],
                token="shot_this_turn",
                example=example(charge_distance=4),
            )  # fmt: skip
        if difficult and distance is None:
            raise OptionError(
                ["A charge through difficult terrain needs the distance to the enemy (", OptionName("charge_distance"),
                 "), to compare with the 2D6 roll."],
                token="difficult_terrain",
                example=example(charge_distance=4, difficult_terrain=True),
            )  # fmt: skip
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
                self.steps.append(Step("Charge", events=(*events, *not_joined(self))))
                return False
            if difficult:
                need = max(1, math.ceil(inches))
                roll = self.roll_2d6_test(
                    "charge through difficult terrain",
                    Target(Op.AT_LEAST, need),
                    combine=Combine.HIGHEST,
                    kind=CHARGE_MOVE,
                    side=SideName.ATTACKER,
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
                    self.steps.append(Step("Charge", tuple(rolls), (*events, *not_joined(self))))
                    return False
            events.append(event("charge", distance=inches, note=f'The chargers reach the enemy {inches:g}" away.'))
        self.charged = True
        events.append(charged_event(self))
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
                f"regroup test ({state.label})",
                Target(Op.AT_MOST, ld),
                double_one_passes=double_one,
                kind=LEADERSHIP,
                side=SideName.DEFENDER,
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

    def who_fights_step(self) -> list[Pool]:
        """Who fights whom, with which weapons, and in which order they strike: the pools of the strike steps."""
        events: list[Event] = []
        pools: list[Pool] = []
        fist_notes: list[tuple[int, Pool]] = []  # events to say "in the Cover step" when a fist strikes there
        fighting_notes: list[tuple[int, UnitState, bool, str, str]] = []
        settle(self)  # who charged, who strikes first from cover (decision 21)
        choose_weapons(self)  # two special weapons: the better expected result, unless strike-with= says (dec. 11)
        traits = weapon_traits(self)
        for side in SideName:
            for state in self.units[side]:
                assert state.target is not None
                charged = unit_charged(self, state)
                if not state.alive():  # destroyed before the fight (it failed to regroup while falling back)
                    continue
                enemies = self.units[side.other]
                instead = fight_instead(self, state, events) if self.destroyed_before_fight else None
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
                        profile = engaged_profile(group, charged=charged, traits=traits)
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
                    used_power = used_power_event(state, group_state, traits=traits) if group.engaged else None
                    if used_power is not None:
                        events.append(used_power)
                    lone_claw = lone_claw_event(self, state, group_state) if group.engaged else None
                    if lone_claw is not None:
                        events.append(lone_claw)
                    if group.engaged:
                        choice = self.weapon_choices.get(id(group_state))
                        if choice is not None:
                            note = choice_note(group_state, choice)
                            if engaged_pool is not None:
                                fist_notes.append((len(events), engaged_pool))
                            events.append(unit_policy("strike_with", state, note))
                dividing = dividing_note(state, enemies)
                fighting_notes.append((len(events), state, charged, dividing, targets_text(state, instead)))
                events.append(
                    event(
                        "fighting",
                        side=side.value,
                        unit=state.label,
                        target=state.target.label if instead is None or state.target.alive() else instead.label,
                        engaged=sum(g.group.engaged for g in state.groups),
                        supporting=sum(g.group.supporting for g in state.groups),
                        out_of_fight=sum(g.group.out_of_fight for g in state.groups),
                        note=fighting_note(
                            fighting_unit(state), state.label, fighting_notes[-1][4], charged, traits=traits
                        )
                        + dividing,
                        **({"targets": [e.label for e in state.targets]} if len(state.targets) > 1 else {}),
                    )
                )
        events.extend(unopposed(self))  # decision 24
        if self.covered:
            events.extend(apply_cover(self, pools))
            say_where_fists_strike(self, events, pools, fist_notes, fighting_notes)
        events.append(CASUALTY_POLICY)
        order = " then ".join(
            sorted({p.phase for p in pools}, key=lambda phase: min(p.priority for p in pools if p.phase == phase))
        )
        nobody = "Nobody in the fight has an attack: no blows are struck."  # every model A0
        events.append(event("strike_order", order=order, note=f"Strike order: {order}." if order else nobody))
        self.steps.append(Step("Who fights and who strikes first", events=tuple(events)))
        return pools

    def result_step(self) -> Winner:
        """The assault result: the side left alone wins, else the side that inflicted more wounds."""
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

    def outcome(self, winner: Winner, fallen: dict[int, tuple[UnitState, int]]) -> str:
        """The word for what followed the result (drawn, held, fell back, destroyed...)."""
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


ENDS = EndStates()  # the fights just resolved: their table summary reads the end from here, no re-run (table.py)


def resolve(attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> Report:
    fight = Assault(attacker, defender, options, dice)
    report = fight.run()
    ENDS.remember(report, fight)
    return report
