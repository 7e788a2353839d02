"""The Hand-to-Hand phase of a duel: combat rounds, hits, wounds, saves, damage, breaking off, follow-up.

One resolution fights one phase: one model against one, or a lone model against
several (a multiple combat, fought as a series of one-on-one rounds in the order
the outnumbering side lists its models).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rules_core.charts import to_wound
from rules_core.dice import DiceSource
from rules_core.errors import SpecError
from rules_core.games.duel.parry import Advice, advise, counts_of
from rules_core.games.duel.parry import number as short
from rules_core.games.duel.spec import (
    BREAKING_OFF,
    CHARGED,
    ENCUMBERED,
    EXAMPLE_MODEL,
    EXAMPLE_SIDE,
    HIGH_GROUND,
    OBSTACLE,
    ModelGroup,
    ParryPolicy,
    Profile,
    Side,
    format_side,
)
from rules_core.games.duel.weapons import Damage, Weapon
from rules_core.options import OptionValue
from rules_core.report import (
    Combine,
    Event,
    FrozenMap,
    Inputs,
    Op,
    Report,
    Reroll,
    Result,
    Roll,
    SideName,
    SideResult,
    Step,
    Target,
    Winner,
    event,
)
from rules_core.rolling import roll_each, roll_unchecked

GAME_ID = "duel"
ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER  # enum attribute lookups are slow in a hot loop
UNARMED = Damage(0, 0, 1)


class Outcome:
    KILLED = "killed"
    WOUNDED = "wounded"
    STALEMATE = "stalemate"
    BROKE_OFF = "broke_off"


def strength_save_modifier(strength: int, table: str) -> int:
    """The save modifier of a hit with no listed modifier: the WHFB table (S4 -1 ... S10 -7), or none."""
    if table == "none":
        return 0
    return min(0, 3 - strength)


@functools.lru_cache(maxsize=4096)
def expected_wounds(
    strength: int, save_modifier: int, damage: Damage, *, toughness: int, save: int | None, wounds_left: int
) -> Fraction:
    """Expected wounds one hit takes off a model with ``wounds_left`` (damage beyond them is lost)."""
    need = to_wound(strength, toughness)
    if need is None:
        return Fraction(0)
    save_need = 7 if save is None else save - save_modifier
    unsaved = Fraction(1) if save_need > 6 else Fraction(save_need - 1, 6)
    outcomes = list(damage.outcomes())
    taken = Fraction(sum(min(value, wounds_left) for value in outcomes), len(outcomes))
    return Fraction(7 - need, 6) * unsaved * taken


@functools.lru_cache(maxsize=64)
def _situational(flags: frozenset[str]) -> tuple[int, str]:
    """The combat score modifiers a model's flags give, and how the score line shows them."""
    total, text = 0, ""
    for value, why, flag in (
        (1, "charged", CHARGED),
        (1, "high ground", HIGH_GROUND),
        (-1, "encumbered", ENCUMBERED),
        (-1, "charged behind an obstacle", OBSTACLE),
    ):
        if flag in flags:
            total += value
            text += f" {'+' if value > 0 else '-'} 1 ({why})"
    return total, text


def _json_number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _parry_reason(parrier: str, opponent: str, faces: list[int], left: int, advice: Advice) -> str:
    """Why ``parry=auto`` parried or not: the re-roll's effect on the parrier's expected score difference."""
    top = max(faces)
    counted = f", counting the parr{'y' if left == 2 else 'ies'} still left" if left > 1 else ""
    worth = (
        f"{opponent}'s highest die + criticals - fumbles: {short(advice.now)} now, {short(advice.after)} expected "
        f"after a re-roll{counted}"
    )
    if advice.parry:
        gain = short(advice.gain)
        return f": re-rolling {opponent}'s {top} improves {parrier}'s expected score difference by {gain} ({worth})"
    effect = (
        "leaves the expected score difference unchanged, and parrying is optional"
        if advice.gain == 0
        else f"would worsen {parrier}'s expected score difference by {short(-advice.gain)}"
    )
    if faces.count(top) > 1 and top < 6 and left == 1:
        return (
            f": {opponent}'s highest die ({top}) is duplicated, so a re-roll cannot lower its score, only raise it "
            f"or turn up a fumble; it {effect} ({worth})"
        )
    return f": re-rolling {opponent}'s {top} {effect} ({worth})"


@dataclass(frozen=True, slots=True)
class Strike:
    weapon: Weapon | None
    strength: int
    save_modifier: int
    damage: Damage
    note: str


def _save_modifier(weapon: Weapon, strength: int, table: str) -> int:
    return weapon.save_modifier if weapon.save_modifier is not None else strength_save_modifier(strength, table)


@functools.lru_cache(maxsize=1024)
def choose_weapon(striker: ModelGroup, target: Profile, wounds_left: int, table: str) -> Strike:
    """The weapon a winner strikes with (the player's choice: ``weapon-choice``, else its best against ``target``)."""
    usable = striker.close_combat_weapons
    user_s = striker.profile.s
    if not usable:
        carried = " (it carries no weapon with the Close Combat rule)" if striker.weapons else ""
        note = f"strikes with its own Strength S{user_s}{carried}."
        return Strike(None, user_s, strength_save_modifier(user_s, table), UNARMED, note)
    if striker.weapon_choice is not None:
        weapon = next(w for w in usable if w.name == striker.weapon_choice)
        note = f"strikes with {weapon.describe(user_s)} (weapon-choice)."
    elif len(usable) == 1:
        weapon = usable[0]
        note = f"strikes with {weapon.describe(user_s)}."
    else:

        def value(weapon: Weapon) -> Fraction:
            strength = weapon.strength_for(user_s)
            return expected_wounds(
                strength,
                _save_modifier(weapon, strength, table),
                weapon.damage,
                toughness=target.t,
                save=target.sv,
                wounds_left=wounds_left,
            )

        weapon = max(usable, key=value)  # max keeps the first of equals: the order the player listed them
        save = "Sv-" if target.sv is None else f"Sv{target.sv}+"
        note = (
            f"strikes with {weapon.describe(user_s)}, its best weapon against T{target.t} {save} "
            "(weapon-choice=NAME picks another)."
        )
    strength = weapon.strength_for(user_s)
    return Strike(weapon, strength, _save_modifier(weapon, strength, table), weapon.damage, note)


# Sides are immutable and often fought again (replays, the odds): format each once.
canonical = functools.lru_cache(maxsize=256)(format_side)


@dataclass(slots=True, eq=False)
class Fighter:
    group: ModelGroup
    side: SideName
    label: str
    wounds_left: int
    side_name: str = ""  # side.value, kept as plain text for the events
    breaking_off: bool = False
    opponents: list[Fighter] = field(default_factory=list)
    wounds_inflicted: int = 0
    escaped_inches: int | None = None

    @property
    def alive(self) -> bool:
        return self.wounds_left > 0


def _fighters(side: Side, name: SideName) -> list[Fighter]:
    fighters = []
    for group in side.groups:
        for number in range(1, group.count + 1):
            label = group.name if group.count == 1 else f"{group.name} {number}"
            fighters.append(
                Fighter(group, name, label, group.profile.w, name.value, breaking_off=group.has(BREAKING_OFF))
            )
    return fighters


# Flags both sides of one fight cannot have: only the player whose turn it is charges, and of two models in base
# contact only one can stand above the other. ``obstacle`` needs ``charged`` (spec), so it is covered.
EXCLUSIVE = (
    (CHARGED, "charged this turn", "only the player whose turn it is charges"),
    (HIGH_GROUND, "are on the high ground", "of two models in base contact only one can stand above the other"),
)


def check_sides(attacker: Side, defender: Side) -> None:
    """Refuse what cannot be one fight: several models on both sides, or a situation both sides claim.

    One side is a single model that meets every model of the other, so a flag on any model of each side is a
    contradiction in some combat round.
    """
    a_models, d_models = attacker.models, defender.models
    if a_models > 1 and d_models > 1:
        raise SpecError(
            f"Both sides have several models ({a_models} and {d_models}). One duel is fought around one model: one "
            "against one, or one against several. Resolve each lone model's fight with its own command.",
            token=f"{a_models} v {d_models}",
            example=f"attacker {EXAMPLE_MODEL!r}, defender {EXAMPLE_SIDE!r}",
        )
    for flag, meaning, why in EXCLUSIVE:
        a_named = [g.name for g in attacker.groups if g.has(flag)]
        d_named = [g.name for g in defender.groups if g.has(flag)]
        if a_named and d_named:
            raise SpecError(
                f"Both sides {meaning}: the attacker ({', '.join(a_named)}) and the defender "
                f"({', '.join(d_named)}) both have '{flag}', but {why}. Give '{flag}' to one side only.",
                token=flag,
                example=(
                    f"attacker 'Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword {flag}', "
                    "defender 'Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife'"
                ),
            )


class Duel:
    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        self.attacker_side, self.defender_side = attacker, defender
        self.options = options
        self.table = str(options["strength_save_table"])
        self.dice = dice
        self.attackers = _fighters(attacker, ATTACKER)
        self.defenders = _fighters(defender, DEFENDER)
        self.steps: list[Step] = []

    # --- the phase ------------------------------------------------------------------------------------------

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
                self._round(number, lone, foe, bonus_for=foe, bonus=bonus)
            else:
                self._round(number, foe, lone, bonus_for=foe, bonus=bonus)
        self._escapes()
        self._what_next(lone)
        return self._report()

    def _round(self, number: int, first: Fighter, second: Fighter, *, bonus_for: Fighter, bonus: int) -> None:
        """One combat round; ``first`` is the attacking side's model (its dice are rolled first)."""
        first.opponents.append(second)
        second.opponents.append(first)
        events: list[Event] = []
        counts = {}
        purposes = {}
        for fighter in (first, second):
            extra = bonus if fighter is bonus_for else 0
            two_weapons = len(fighter.group.close_combat_weapons) >= 2
            counts[fighter.side] = fighter.group.profile.a + two_weapons + extra
            parts = [f"A{fighter.group.profile.a}"]
            if two_weapons:
                parts.append("+1 two Close Combat weapons")
            if extra:
                parts.append(f"+{extra} multiple combat")
                events.append(
                    event(
                        "bonus",
                        side=fighter.side_name,
                        model=fighter.label,
                        dice=extra,
                        note=f"Multiple combat: {fighter.label} rolls +{extra} attack "
                        f"{'die' if extra == 1 else 'dice'} (round {number}; the lone model survived the earlier "
                        f"round{'s' if number > 2 else ''}).",
                    )
                )
            purposes[fighter.side] = f"attack dice: {fighter.label} ({', '.join(parts)})"
        faces = {first.side: self.dice.d6(counts[first.side]), second.side: self.dice.d6(counts[second.side])}
        rerolls: dict[SideName, list[Reroll]] = {first.side: [], second.side: []}
        self._parry(first, second, faces, rerolls, events)
        scores = {
            fighter.side: self._score(fighter, faces[fighter.side], faces[fighter.side.other], events)
            for fighter in (first, second)
        }
        rolls = tuple(
            Roll(
                purposes[side],
                tuple(faces[side]),
                None,
                (),
                0,
                tuple(rerolls[side]),
                Combine.HIGHEST,
            )
            for side in (first.side, second.side)
        )
        a_score, d_score = scores[ATTACKER], scores[DEFENDER]
        by_side = {first.side: first, second.side: second}
        winner: Fighter | None
        if a_score != d_score:
            winner = by_side[ATTACKER if a_score > d_score else DEFENDER]
            hits = abs(a_score - d_score)
            decided = "score"
            verdict = f"{winner.label} wins {max(a_score, d_score)} to {min(a_score, d_score)}: {hits} hit" + (
                "s" if hits != 1 else ""
            )
        elif first.group.profile.i != second.group.profile.i:
            winner = first if first.group.profile.i > second.group.profile.i else second
            hits = 1
            decided = "initiative"
            verdict = (
                f"Tied at {a_score}: {winner.label} has the higher Initiative "
                f"(I{winner.group.profile.i}) and scores 1 hit"
            )
        else:
            winner, hits, decided = None, 0, "stalemate"
            verdict = f"Tied at {a_score} with equal Initiative (I{first.group.profile.i}): a stalemate, no hits"
        events.append(
            event(
                "round",
                round=number,
                attacker_model=by_side[ATTACKER].label,
                defender_model=by_side[DEFENDER].label,
                attacker_score=a_score,
                defender_score=d_score,
                winner=winner.side_name if winner else "none",
                winner_model=winner.label if winner else None,
                hits=hits,
                decided_by=decided,
                note=verdict + ".",
            )
        )
        title = f"Round {number}: {by_side[ATTACKER].label} {a_score} v {d_score} {by_side[DEFENDER].label}"
        self.steps.append(Step(title, rolls, tuple(events)))
        if winner is not None:
            loser = second if winner is first else first
            self._hits(winner, loser, hits)

    def _parry(
        self,
        first: Fighter,
        second: Fighter,
        faces: dict[SideName, list[int]],
        rerolls: dict[SideName, list[Reroll]],
        events: list[Event],
    ) -> None:
        parries = {}
        for fighter in (first, second):
            own = fighter.group.parries
            if own and fighter.breaking_off:
                events.append(
                    event(
                        "parry",
                        side=fighter.side_name,
                        model=fighter.label,
                        parries=0,
                        note=f"{fighter.label} is breaking off and may not parry.",
                    )
                )
                own = 0
            parries[fighter.side] = own
        both = min(parries.values())
        if both:
            keeps = [f for f in (first, second) if parries[f.side] > both]
            rest = f"; {keeps[0].label} keeps {parries[keeps[0].side] - both}" if keeps else ""
            events.append(
                event(
                    "parry",
                    cancelled=both,
                    note=f"Both can parry: {both} parr{'y' if both == 1 else 'ies'} on each side cancel out{rest}.",
                )
            )
        for parrier in (first, second):
            usable = parries[parrier.side] - both
            if usable <= 0:
                continue
            target_faces = faces[parrier.side.other]
            opponent = second if parrier is first else first
            policy = parrier.group.parry
            for left in range(usable, 0, -1):
                highest = max(target_faces)
                data: dict[str, int | float] = {}
                if policy is ParryPolicy.ALWAYS:
                    used, reason = True, ""
                elif policy is ParryPolicy.NEVER:
                    used, reason = False, " (parry=never)"
                else:
                    advice = advise(counts_of(target_faces), left)
                    used = advice.parry
                    reason = _parry_reason(parrier.label, opponent.label, target_faces, left, advice)
                    data = {"expected_now": _json_number(advice.now), "expected_after": _json_number(advice.after)}
                if not used:
                    events.append(
                        event(
                            "parry",
                            side=parrier.side_name,
                            model=parrier.label,
                            used=False,
                            **data,
                            note=f"{parrier.label} does not parry{reason}.",
                        )
                    )
                    break
                index = target_faces.index(highest)
                new = self.dice.d6(1)[0]
                target_faces[index] = new
                rerolls[opponent.side].append(Reroll(index, highest, new))
                events.append(
                    event(
                        "parry",
                        side=parrier.side_name,
                        model=parrier.label,
                        used=True,
                        before=highest,
                        after=new,
                        **data,
                        note=f"{parrier.label} parries{reason}{'.' if reason else ':'} {opponent.label} re-rolls "
                        f"its {highest}, which becomes {new}.",
                    )
                )

    def _score(self, fighter: Fighter, own: list[int], opponent: list[int], events: list[Event]) -> int:
        group = fighter.group
        highest = max(own)
        ws = 0 if fighter.breaking_off else group.profile.ws
        fumbles = opponent.count(1)
        criticals = max(0, own.count(6) - 1)
        modifier, modifier_text = _situational(group.flags)
        text = f"highest die {highest} + WS{ws}" + (" (breaking off)" if fighter.breaking_off else "")
        if fumbles:
            text += f" + {fumbles} (opponent's fumble{'s' if fumbles > 1 else ''})"
        if criticals:
            text += f" + {criticals} (critical hit{'s' if criticals > 1 else ''})"
        text += modifier_text
        score = highest + ws + fumbles + criticals + modifier
        events.append(
            event(
                "score",
                side=fighter.side_name,
                model=fighter.label,
                highest=highest,
                ws=ws,
                fumbles=fumbles,
                criticals=criticals,
                modifier=modifier,
                score=score,
                note=f"{fighter.label}: {text} = {score}.",
            )
        )
        return score

    # --- hits -----------------------------------------------------------------------------------------------

    def _hits(self, winner: Fighter, loser: Fighter, hits: int) -> None:
        strike = choose_weapon(winner.group, loser.group.profile, loser.wounds_left, self.table)
        events: list[Event] = [
            event("strike", side=winner.side_name, model=winner.label, note=f"{winner.label} {strike.note}")
        ]
        rolls: list[Roll] = []
        profile = loser.group.profile
        weapon_name = strike.weapon.name if strike.weapon else "its own Strength"
        times = "once" if hits == 1 else f"{hits} times"
        title = f"{winner.label} hits {loser.label} {times} ({weapon_name})"
        need = to_wound(strike.strength, profile.t)
        if need is None:
            events.append(
                event(
                    "no_effect",
                    note=f"S{strike.strength} cannot wound T{profile.t} (four or more below): the hits have no effect.",
                )
            )
            self.steps.append(Step(title, (), tuple(events)))
            return
        wound_roll = roll_each(self.dice, "to wound", hits, Target(Op.AT_LEAST, need))
        rolls.append(wound_roll)
        unsaved = wound_roll.successes
        if unsaved:
            save = profile.sv
            save_need = None if save is None else save - strike.save_modifier
            if save is None:
                events.append(event("no_save", note=f"{loser.label} has no armour save."))
            elif save_need is not None and save_need > 6:
                events.append(
                    event(
                        "no_save",
                        note=f"Sv{save}+ with a {strike.save_modifier:+d} save modifier needs {save_need}+: "
                        "no save is possible.",
                    )
                )
            else:
                assert save_need is not None
                save_roll = roll_each(self.dice, "armour save", unsaved, Target(Op.AT_LEAST, save_need))
                if strike.save_modifier:
                    events.append(
                        event(
                            "save_modifier",
                            note=f"Armour save Sv{save}+ with {strike.save_modifier:+d}: {save_need}+.",
                        )
                    )
                rolls.append(save_roll)
                unsaved -= save_roll.successes
        if unsaved:
            self._damage(winner, loser, unsaved, strike.damage, rolls=rolls, events=events)
        self.steps.append(Step(title, tuple(rolls), tuple(events)))

    def _damage(
        self, winner: Fighter, loser: Fighter, unsaved: int, damage: Damage, *, rolls: list[Roll], events: list[Event]
    ) -> None:
        before = loser.wounds_left
        faces: list[int] = []
        values: list[int] = []
        applied = 0
        for _ in range(unsaved):
            if not loser.alive:
                break
            rolled = self.dice.d6(damage.dice) if not damage.fixed else []
            faces += rolled
            value = damage.value(rolled)
            values.append(value)
            loser.wounds_left -= min(value, loser.wounds_left)
            applied += 1
        if faces:
            rule = "half a D6, rounded up" if damage.sides == 3 else "D6"
            rolls.append(Roll(f"damage {damage.text()} ({rule})", tuple(faces), None, (), 0, (), Combine.EACH))
        taken = before - loser.wounds_left
        winner.wounds_inflicted += taken
        per_hit = " + ".join(map(str, values))
        detail = f" ({per_hit} damage)" if len(values) > 1 or not damage.fixed or values[0] != 1 else ""
        lost = unsaved - applied
        wasted = f"; {lost} further unsaved wound{'s are' if lost > 1 else ' is'} lost" if lost else ""
        events.append(
            event(
                "wounds",
                side=loser.side_name,
                model=loser.label,
                unsaved=unsaved,
                wounds=taken,
                left=loser.wounds_left,
                note=f"{loser.label} loses {taken} wound{'s' if taken != 1 else ''}{detail}; "
                f"{loser.wounds_left} left{wasted}.",
            )
        )
        if not loser.alive:
            events.append(
                event(
                    "casualty",
                    side=loser.side_name,
                    unit=loser.label,
                    models=1,
                    note=f"{loser.label} is slain by {winner.label}.",
                )
            )

    # --- after the rounds -----------------------------------------------------------------------------------

    def _escapes(self) -> None:
        for fighter in (*self.attackers, *self.defenders):
            if not (fighter.breaking_off and fighter.alive and fighter.opponents):
                continue
            roll = roll_unchecked(self.dice, 'break-off move (2D6")', 2)
            fighter.escaped_inches = sum(roll.dice)
            note = (
                f'{fighter.label} survives and breaks off: it moves {fighter.escaped_inches}" directly away from '
                "its attacker. It and its squad are automatically Broken and may not try to Rally until the "
                "following turn."
            )
            self.steps.append(
                Step(
                    f"{fighter.label} breaks off",
                    (roll,),
                    (
                        event(
                            "broke_off",
                            side=fighter.side_name,
                            model=fighter.label,
                            inches=fighter.escaped_inches,
                            note=note,
                        ),
                    ),
                )
            )

    def _what_next(self, lone: Fighter) -> None:
        notes: list[Event] = []
        for fighter in (*self.attackers, *self.defenders):
            if not fighter.alive or fighter.escaped_inches is not None:
                continue
            if not fighter.opponents:
                if not lone.alive:
                    notes.append(
                        event(
                            "instruction",
                            model=fighter.label,
                            note=f"{fighter.label} did not fight: {lone.label} was slain before its round. It has "
                            'no opponent left and may make a Follow-Up Move of up to 2".',
                        )
                    )
                continue
            standing = [o for o in fighter.opponents if o.alive and o.escaped_inches is None]
            if standing:
                if fighter is not lone and lone in standing:
                    continue  # said once, from the lone model's side
                others = ", ".join(o.label for o in standing)
                notes.append(
                    event(
                        "instruction",
                        model=fighter.label,
                        note=f"{fighter.label} and {others} are still locked in combat: they fight again in the "
                        "next Hand-to-Hand phase.",
                    )
                )
            elif all(not o.alive for o in fighter.opponents):
                notes.append(
                    event(
                        "follow_up",
                        model=fighter.label,
                        note=f"{fighter.label}'s opponents are all slain: it may make a Follow-Up Move of up to "
                        '2" in any direction, with no movement penalties. It may engage another model, without the '
                        "charge bonus; if it ends unengaged it may move and shoot normally next turn.",
                    )
                )
            else:
                notes.append(
                    event(
                        "instruction",
                        model=fighter.label,
                        note=f"{fighter.label}'s opponent broke off: it is no longer in hand-to-hand combat.",
                    )
                )
        if notes:
            self.steps.append(Step("What happens next", (), tuple(notes)))

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
