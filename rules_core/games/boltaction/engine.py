"""Bolt Action close quarters: range, reaction fire, rounds of close quarters, the loser destroyed, the regroup."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_core.dice import DiceSource
from rules_core.games.boltaction.spec import FANATICS, NCO, OFFICER, TOUGH_FIGHTERS, Unit, format_unit
from rules_core.options import OptionValue
from rules_core.report import (
    Event,
    FrozenMap,
    Inputs,
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

GAME_ID = "boltaction"
RUN_MOVE = 12.0  # the maximum Run move: the assault's reach
ROUGH_MOVE = 6.0  # through rough ground or over an obstacle
SURPRISE_RANGE = 6.0
BASE_TO_HIT = 3
MAX_ROUNDS = 200  # a guard only: simultaneous rounds end long before (each side always has a chance to damage)
ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER


class Outcome:
    FAILED_TO_CONTACT = "failed_to_contact"
    SHOT_DOWN = "shot_down"  # reaction fire wiped the assaulters out
    FAILED_MORALE = "failed_morale"  # the assaulters failed their morale check under reaction fire: destroyed
    DESTROYED = "destroyed"  # the loser of close quarters is destroyed
    BOTH_DESTROYED = "both_destroyed"
    UNDECIDED = "undecided"  # only after MAX_ROUNDS drawn rounds


# Which men a unit's owner removes first (plain riflemen, then assault-weapon men, then the NCO, the officer last);
# exceptional damage lets the enemy pick the officer, then the NCO.
_OWNER_ORDER = {"man": 0, NCO: 1, OFFICER: 2}


@dataclass(slots=True)
class Man:
    role: str  # "man", "nco" or "officer"
    tough: bool  # a Tough Fighter (the unit's rule, or an assault weapon)


def _men(unit: Unit) -> list[Man]:
    """The unit's men; the officer, then the NCO, carry the first assault weapons (the usual loadout)."""
    everyone_tough = unit.has(TOUGH_FIGHTERS)
    weapons = unit.assault_weapon_men
    roles = [role for role in (OFFICER, NCO) if unit.has(role)]
    roles += ["man"] * (unit.count - len(roles))
    men = []
    for role in roles:
        men.append(Man(role, everyone_tough or weapons > 0))
        weapons -= 1
    return men


@dataclass(slots=True, eq=False)
class UnitState:
    unit: Unit
    side: SideName
    men: list[Man]
    pins: int
    side_name: str = ""
    caused: int = 0  # casualties this unit inflicted by damage rolls (reaction fire and close quarters)
    surrendered: int = 0  # survivors removed when the unit lost
    regroup_inches: int | None = None
    start: int = field(init=False)

    def __post_init__(self) -> None:
        self.start = len(self.men)

    @property
    def alive(self) -> int:
        return len(self.men)

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def leaders(self) -> int:
        return sum(man.role != "man" for man in self.men)

    def remove(self, casualties: int, picked_by_enemy: int) -> list[str]:
        """Remove casualties: ``picked_by_enemy`` leaders first (exceptional damage), the rest as the owner picks."""
        removed: list[str] = []
        for _ in range(min(picked_by_enemy, casualties)):
            leader = next((man for man in self.men if man.role == OFFICER), None) or next(
                (man for man in self.men if man.role == NCO), None
            )
            if leader is None:
                break
            self.men.remove(leader)
            removed.append(leader.role)
        for _ in range(casualties - len(removed)):
            if not self.men:
                break
            man = min(self.men, key=lambda m: (_OWNER_ORDER[m.role], m.tough))
            self.men.remove(man)
            removed.append(man.role)
        return removed


@dataclass(frozen=True, slots=True)
class Damage:
    """One side's damage rolls against the other: casualties (before capping at the men left) and exceptional."""

    rolls: tuple[Roll, ...]
    casualties: int
    exceptional: int


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


class CloseQuarters:
    def __init__(self, attacker: Unit, defender: Unit, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        self.options = options
        self.dice = dice
        self.attacker = UnitState(attacker, ATTACKER, _men(attacker), attacker.pins, ATTACKER.value)
        self.defender = UnitState(defender, DEFENDER, _men(defender), defender.pins, DEFENDER.value)
        self.steps: list[Step] = []
        self.defensive = bool(options["rough_ground"]) or bool(options["defended_obstacle"])

    # --- the procedure --------------------------------------------------------------------------------------

    def run(self) -> Report:
        if not self._contact():
            return self._report(Outcome.FAILED_TO_CONTACT, Winner.NONE)
        outcome = self._reaction_fire()
        if outcome is not None:
            return self._report(outcome, Winner.DEFENDER)
        return self._fight()

    def _contact(self) -> bool:
        distance = self.options["distance"]
        rough = bool(self.options["rough_ground"])
        reach = ROUGH_MOVE if rough else RUN_MOVE
        why = " (the path crosses rough ground or an obstacle)" if rough else ""
        a, d = self.attacker.name, self.defender.name
        if distance is None:
            note = f'No distance given: {a} are assumed to be within reach of {d}{why}, and more than 6" away.'
            self.steps.append(Step(f"{a} assault {d}", (), (event("assumed", note=note),)))
            return True
        inches = float(distance)
        if inches > reach:
            note = (
                f'{inches:g}" is more than the {reach:g}" run{why}: the assault fails to contact. {a} move {reach:g}" '
                f'towards {d} and stop more than 1" away from them.'
            )
            self.steps.append(
                Step(f"{a} fail to contact {d}", (), (event("failed_to_contact", distance=inches, note=note),))
            )
            return False
        note = f'{inches:g}" is within the {reach:g}" run{why}: the assault goes ahead.'
        self.steps.append(Step(f"{a} assault {d}", (), (event("in_reach", distance=inches, note=note),)))
        return True

    def _no_reaction(self) -> str | None:
        distance = self.options["distance"]
        if self.options["target_has_acted"]:
            return f"{self.defender.name} have already taken an action this turn: they cannot react."
        if distance is not None and float(distance) <= SURPRISE_RANGE and not self.options["ambush"]:
            return (
                f'Surprise charge: declared from {float(distance):g}" (6" or less), so {self.defender.name} '
                "cannot react."
            )
        if self.options["out_of_arc"]:
            return (
                f"The assaulters start outside the fire arc of {self.defender.name}'s fixed-arc weapons: no "
                "reaction fire."
            )
        shots = self.options["reaction_shots"]
        if shots is None:
            return (
                f"{self.defender.name} do not react: the player gave no reaction shots (give the number of shots "
                "they fire in reaction to have them fire)."
            )
        if not shots:
            return (
                f"{self.defender.name} do not fire in reaction: the player gave 0 reaction shots, declaring that "
                "the unit did not fire."
            )
        return None

    def _reaction_fire(self) -> str | None:
        """The defenders fire at the assaulters before they move; the outcome if that ends the assault."""
        reason = self._no_reaction()
        shooter, target = self.defender, self.attacker
        title = f"Reaction fire: {shooter.name} fire at {target.name}"
        if reason is not None:
            given = self.options["reaction_shots"]  # None: not given; 0: given as none fired
            shots_given = None if given is None else int(str(given))
            self.steps.append(
                Step("Reaction fire", (), (event("no_reaction", reaction_shots=shots_given, note=reason),))
            )
            return None
        shots = int(str(self.options["reaction_shots"]))
        extra = int(str(self.options["reaction_modifiers"]))
        inexperienced = -1 if shooter.unit.quality.value == "inexperienced" else 0
        modifiers = [
            ("long range (always, in reaction)", -1),
            ("pins", -shooter.pins),
            ("inexperienced", inexperienced),
        ]
        modifiers.append(("other modifiers given", extra))
        total = sum(value for _, value in modifiers)
        need = BASE_TO_HIT - total
        shown = ", ".join(f"{why} {value:+d}" for why, value in modifiers if value)
        events: list[Event] = [
            event(
                "strike",
                side=shooter.side_name,
                shots=shots,
                modifier=total,
                needed=need,
                note=f"{shooter.name} fire {_plural(shots, 'shot')} as the assaulters come on. "
                f"To hit: 3+ with {shown} = {need}+"
                + (" (a 6, then " + f"{need - 3}+)" if 7 <= need <= 9 else "")
                + (": no hit is possible" if need > 9 else "")
                + ". The order is given automatically, so no pin is removed.",
            )
        ]
        rolls: list[Roll] = []
        hits = 0
        if need <= 6:
            roll = roll_each(self.dice, f"to hit ({_plural(shots, 'shot')})", shots, Target(Op.AT_LEAST, max(2, need)))
            rolls.append(roll)
            hits = roll.successes
        elif need <= 9:
            roll = roll_each(self.dice, f"to hit ({_plural(shots, 'shot')}, a 6 first)", shots, Target(Op.AT_LEAST, 6))
            rolls.append(roll)
            if roll.successes:
                second = roll_each(
                    self.dice, f"to hit (then {need - 3}+)", roll.successes, Target(Op.AT_LEAST, need - 3)
                )
                rolls.append(second)
                hits = second.successes
        if hits:
            damage = self._damage(target, hits, tough=0, purpose="to damage")
            rolls += damage.rolls
            before = target.alive
            self._casualties(shooter, target, damage, events)
            target.pins += 1
            events.append(
                event(
                    "pin",
                    side=target.side_name,
                    pins=target.pins,
                    note=f"{target.name} take a pin marker "
                    f"({_plural(target.pins, 'pin')} now; pins have no effect in close quarters).",
                )
            )
            if not target.alive:
                events.append(
                    event(
                        "shot_down", note=f"The reaction fire wipes {target.name} out before they reach {shooter.name}."
                    )
                )
                self.steps.append(Step(title, tuple(rolls), tuple(events)))
                return Outcome.SHOT_DOWN
            if self.options["morale_check"] and target.alive * 2 <= before:
                self.steps.append(Step(title, tuple(rolls), tuple(events)))
                return self._morale(target, before)
        else:
            events.append(event("no_hits", note="No hits: the assaulters charge on untouched."))
        self.steps.append(Step(title, tuple(rolls), tuple(events)))
        return None

    def _morale(self, unit: UnitState, before: int) -> str | None:
        morale = unit.unit.quality.morale
        value = morale - unit.pins
        roll = roll_combined_test(
            self.dice,
            f"morale check (Morale {morale}, -{unit.pins} for {_plural(unit.pins, 'pin')})"
            if unit.pins
            else f"morale check (Morale {morale}, no pins)",
            Target(Op.AT_MOST, value),
        )
        passed = bool(roll.successes)
        note = f"{unit.name} are down to {unit.alive} of {before}, half or less: morale check, 2D6 <= {value}: " + (
            "passed; the assault goes on." if passed else f"failed; {unit.name} are destroyed."
        )
        self.steps.append(
            Step(f"{unit.name} test their morale", (roll,), (event("morale", passed=passed, needed=value, note=note),))
        )
        if passed:
            return None
        unit.surrendered = unit.alive
        unit.men.clear()
        return Outcome.FAILED_MORALE

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
            caused = self._round(number, simultaneous)
            a_wiped, d_wiped = not a.alive, not d.alive
            if a_wiped and d_wiped:
                self._round_result(number, caused, "Both units are wiped out.", None)
                return self._report(Outcome.BOTH_DESTROYED, Winner.DRAW)
            winner: UnitState | None
            if a_wiped or d_wiped:
                winner = d if a_wiped else a
                verdict = f"{(a if a_wiped else d).name} are wiped out: {winner.name} win."
            elif caused[ATTACKER] != caused[DEFENDER]:
                winner = a if caused[ATTACKER] > caused[DEFENDER] else d
                verdict = f"{winner.name} win the round by {max(caused.values())} casualties to {min(caused.values())}."
            else:
                winner = None
                verdict = (
                    f"A draw at {_plural(caused[ATTACKER], 'casualty', 'casualties')} each: another round, "
                    "fought simultaneously."
                )
            self._round_result(number, caused, verdict, winner)
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

    def _round(self, number: int, simultaneous: bool) -> dict[SideName, int]:
        a, d = self.attacker, self.defender
        caused = {ATTACKER: 0, DEFENDER: 0}
        if simultaneous:
            a_fighters, d_fighters = list(a.men), list(d.men)
            a_damage = self._damage(d, len(a_fighters), tough=sum(m.tough for m in a_fighters))
            d_damage = self._damage(a, len(d_fighters), tough=sum(m.tough for m in d_fighters))
            events: list[Event] = [
                event(
                    "simultaneous",
                    note="Both sides fight at the same time: every man strikes, the fallen too, "
                    "and casualties are removed afterwards.",
                ),
            ]
            caused[ATTACKER] = self._casualties(a, d, a_damage, events)
            caused[DEFENDER] = self._casualties(d, a, d_damage, events)
            self.steps.append(
                Step(f"Round {number}: both sides strike at once", (*a_damage.rolls, *d_damage.rolls), tuple(events))
            )
            return caused
        for striker, target in ((a, d), (d, a)):
            if not striker.alive:
                continue
            damage = self._damage(target, striker.alive, tough=sum(m.tough for m in striker.men))
            events = []
            caused[striker.side] = self._casualties(striker, target, damage, events)
            verb = "strike" if striker is a else "strike back"
            self.steps.append(Step(f"Round {number}: {striker.name} {verb}", damage.rolls, tuple(events)))
        return caused

    def _damage(self, target: UnitState, attacks: int, *, tough: int, purpose: str = "") -> Damage:
        """Damage rolls: one per hit (or per man in close quarters), Tough Fighters' extra rolls, exceptional damage.

        ``tough`` of the ``attacks`` belong to Tough Fighters: each casualty they cause earns one extra roll, which
        earns no further roll.
        """
        value = target.unit.quality.damage_value
        aim = Target(Op.AT_LEAST, value)
        rolls: list[Roll] = []
        casualties = sixes = 0
        plain = attacks - tough
        if tough:
            roll = roll_each(self.dice, f"to damage ({_plural(tough, 'Tough Fighter')})", tough, aim)
            rolls.append(roll)
            casualties += roll.successes
            sixes += roll.dice.count(6)
        if plain:
            label = purpose or f"to damage ({_plural(plain, 'man', 'men')})"
            roll = roll_each(self.dice, label, plain, aim)
            rolls.append(roll)
            casualties += roll.successes
            sixes += roll.dice.count(6)
        if tough and rolls[0].successes:
            extra = min(rolls[0].successes, target.alive - casualties)
            if extra > 0:
                roll = roll_each(self.dice, "to damage (Tough Fighters' extra rolls)", extra, aim)
                rolls.append(roll)
                casualties += roll.successes
                sixes += roll.dice.count(6)
        exceptional = 0
        leaders = target.leaders
        if sixes and leaders:
            # Exceptional damage only matters when there is someone worth picking: the target's NCO or officer.
            faces: list[int] = []
            for _ in range(sixes):
                if exceptional == leaders:
                    break
                face = self.dice.d6(1)[0]
                faces.append(face)
                exceptional += face == 6
            success = tuple(face == 6 for face in faces)
            rolls.append(
                Roll(
                    "exceptional damage (each 6 re-rolled)", tuple(faces), Target(Op.AT_LEAST, 6), success, exceptional
                )
            )
        return Damage(tuple(rolls), casualties, exceptional)

    def _casualties(self, striker: UnitState, target: UnitState, damage: Damage, events: list[Event]) -> int:
        removed = target.remove(min(damage.casualties, target.alive), damage.exceptional)
        striker.caused += len(removed)
        picked = [role for role in removed[: damage.exceptional] if role != "man"]
        lost = _plural(len(removed), "man", "men") if removed else "no men"
        note = f"{target.name} lose {lost}; {target.alive} left"
        if picked:
            note += f" ({striker.name} pick the {' and the '.join('NCO' if r == NCO else r for r in picked)} with "
            note += "exceptional damage)"
        if damage.casualties > len(removed):
            note += f"; {damage.casualties - len(removed)} more damage found no one"
        events.append(event("casualty", side=target.side_name, unit=target.name, models=len(removed), note=note + "."))
        return len(removed)

    def _round_result(self, number: int, caused: dict[SideName, int], verdict: str, winner: UnitState | None) -> None:
        self.steps.append(
            Step(
                f"Round {number} result",
                (),
                (
                    event(
                        "round",
                        round=number,
                        attacker_caused=caused[ATTACKER],
                        defender_caused=caused[DEFENDER],
                        winner=winner.side_name if winner else "none",
                        note=verdict,
                    ),
                ),
            )
        )

    def _destroy(self, loser: UnitState) -> None:
        loser.surrendered = loser.alive
        loser.men.clear()
        note = f"{loser.name} lose and are destroyed"
        note += (
            f": their {_plural(loser.surrendered, 'survivor')} surrender, flee or play dead, and count as casualties."
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
        roll = roll_unchecked(self.dice, 'regroup (D6")', 1)
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
