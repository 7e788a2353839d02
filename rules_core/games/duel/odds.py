"""Exact odds of a 2nd edition hand-to-hand phase (rules_core.games.duel.engine and its steps), roll by roll as
distributions.

A phase is one lone model against one or several, one combat round each in the order listed, later foes rolling
one more attack die per round the lone model has survived. Each round:
- each side's attack dice are a multiset of faces; the opponent's usable parries (after both sides' parries
  cancel out) re-roll its highest die, as the parrier's policy says (never; always; auto: while the re-roll
  improves the parrier's expected score difference, the parries still left counted: games.duel.parry);
- only "highest + criticals (sixes after the first) - fumbles (ones, which the opponent adds)" matters of each
  side's dice, so the round's winner and hits follow from the two sides' laws of that number;
- hits wound (the S/T chart), are saved, and each unsaved wound deals its weapon's Damage, capped at the wounds
  left. The weapon the winner strikes with is the referee's choice for that target and its wounds left.
The phase's result is read exactly as the referee reads it: the side that inflicted more wounds wins.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping

from rules_core.charts import to_wound
from rules_core.games.duel.combat_round import situational
from rules_core.games.duel.parry import pays, reduced, rerolled, worth
from rules_core.games.duel.spec import BREAKING_OFF, ModelGroup, ParryPolicy, Side
from rules_core.games.duel.state import Outcome, check_sides
from rules_core.games.duel.strike import choose_weapon
from rules_core.games.duel.weapons import Damage
from rules_core.odds.budget import check
from rules_core.odds.laws import binomial
from rules_core.odds.model import Odds, distribution, exact_odds
from rules_core.options import OptionValue

GAME_ID = "duel"
Faces = tuple[int, ...]  # how many dice show 1, 2, ..., 6


Form = tuple[Faces, int]  # the dice the re-rolls to come can tell apart, and what the others add (parry.form)


@functools.cache
def _added(top: Faces, face: int, parries: int) -> Form:
    """One more die showing ``face`` (0 to 5 for 1 to 6) added to ``top``, in its form for ``parries``."""
    counts = list(top)
    counts[face] += 1
    return reduced(tuple(counts), parries)


@functools.cache
def _rolled(count: int, parries: int) -> tuple[tuple[Form, float], ...]:
    """The law of ``count`` D6 in their forms for ``parries`` re-rolls to come (games.duel.parry.form), a die at a
    time: 20 dice against 6 parries are some thousands of forms, not 53,130 ways to fall."""
    if count == 0:
        return ((((0, 0, 0, 0, 0, 0), 0), 1.0),)
    law: dict[Form, float] = defaultdict(float)
    for (top, offset), p in _rolled(count - 1, parries):
        check()  # past its deadline, the calculation gives way to Monte Carlo
        for face in range(6):
            following, more = _added(top, face, parries)
            law[(following, offset + more)] += p / 6
    return tuple(law.items())


@functools.cache
def _parried_law(top: Faces, left: int, policy: ParryPolicy) -> tuple[tuple[int, float], ...]:
    """The law of the worth of dice whose form for ``left`` re-rolls to come is ``top`` (the number set apart not
    counted), after those re-rolls by the parrier's ``policy``: the referee's loop, each re-roll of the highest die
    in turn, ``auto`` stopping at the first that does not pay."""
    check()  # past its deadline, the calculation gives way to Monte Carlo
    if left <= 0:
        return ((worth(top), 1.0),)
    if policy is ParryPolicy.NEVER or (policy is ParryPolicy.AUTO and not pays(top, left)):
        kept, more = reduced(top, left - 1)  # the parrier stops here (the referee's loop breaks)
        return tuple((value + more, p) for value, p in _parried_law(kept, left - 1, policy))
    law: dict[int, float] = defaultdict(float)
    for new in range(1, 7):
        kept, more = reduced(rerolled(top, new), left - 1)
        for value, p in _parried_law(kept, left - 1, policy):
            law[value + more] += p / 6
    return tuple(law.items())


@functools.cache
def value_law(count: int, parried: int, policy: ParryPolicy) -> tuple[tuple[int, float], ...]:
    """The law of highest + criticals - fumbles of ``count`` dice after the opponent's ``parried`` re-rolls.

    The dice are held in their forms for the re-rolls to come (games.duel.parry.form): their highest dice, which
    those re-rolls can reach, and what the others add to the worth, which no re-roll changes."""
    rerolls = parried if policy is not ParryPolicy.NEVER else 0
    by_top: dict[Faces, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for (top, offset), p in _rolled(count, rerolls):
        by_top[top][offset] += p
    law: dict[int, float] = defaultdict(float)
    for top, offsets in by_top.items():
        check()  # past its deadline, the calculation gives way to Monte Carlo
        parried_law = _parried_law(top, rerolls, policy)
        for offset, p_offset in offsets.items():
            for value, p in parried_law:
                law[value + offset] += p_offset * p
    return tuple(law.items())


@functools.cache
def _damage_law(damage: Damage, unsaved: int, wounds_left: int) -> tuple[tuple[int, float], ...]:
    """Wounds taken from ``unsaved`` wounds of ``damage`` each, capped at ``wounds_left``."""
    each = list(damage.outcomes())
    law: dict[int, float] = {0: 1.0}
    for _ in range(unsaved):
        following: dict[int, float] = defaultdict(float)
        for total, p in law.items():
            if total >= wounds_left:
                following[total] += p
                continue
            for value in each:
                following[min(wounds_left, total + value)] += p / len(each)
        law = following
    return tuple(law.items())


@functools.cache
def wounds_law(
    winner: ModelGroup, loser: ModelGroup, wounds_left: int, hits: int, table: str
) -> tuple[tuple[int, float], ...]:
    """The law of the wounds ``hits`` hits of ``winner`` take off ``loser`` (the referee's weapon choice)."""
    strike = choose_weapon(winner, loser.profile, wounds_left, table)
    need = to_wound(strike.strength, loser.profile.t)
    if need is None:
        return ((0, 1.0),)
    save = loser.profile.sv
    save_need = None if save is None else save - strike.save_modifier
    p_saved = 0.0 if save_need is None or save_need > 6 else (7 - max(1, save_need)) / 6
    law: dict[int, float] = defaultdict(float)
    for wounds, p_w in enumerate(binomial(hits, (7 - need) / 6)):
        for saved, p_s in enumerate(binomial(wounds, p_saved)):
            unsaved = wounds - saved
            if not unsaved:
                law[0] += p_w * p_s
                continue
            for taken, p_t in _damage_law(strike.damage, unsaved, wounds_left):
                law[taken] += p_w * p_s * p_t
    return tuple(law.items())


def _fighters(side: Side) -> list[ModelGroup]:
    return [group for group in side.groups for _ in range(group.count)]


class Solver:
    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> None:
        check_sides(attacker, defender)  # what the referee refuses has no odds either
        self.table = str(options["strength_save_table"])
        # Decision 10's other reading: a model breaking off that kills all its opponents does not escape.
        self.kill_stays = options.get("breaking_off_kill") == "follow_up"
        self.attackers, self.defenders = _fighters(attacker), _fighters(defender)

    def round(
        self, number: int, first: ModelGroup, second: ModelGroup, first_bonus: int, second_bonus: int
    ) -> dict[tuple[str, int], float]:
        """The law of (winner "first"/"second"/"none", hits) of combat round ``number``."""
        parries = {}
        for key, group in (("first", first), ("second", second)):
            parries[key] = 0 if group.has(BREAKING_OFF) else group.parries
        both = min(parries.values())
        dice = {
            "first": first.profile.a + (len(first.close_combat_weapons) >= 2) + first_bonus,
            "second": second.profile.a + (len(second.close_combat_weapons) >= 2) + second_bonus,
        }
        # Each side's dice are re-rolled by the other's usable parries, with the other's policy.
        first_law = value_law(dice["first"], parries["second"] - both, second.parry)
        second_law = value_law(dice["second"], parries["first"] - both, first.parry)
        base = {}
        for key, group in (("first", first), ("second", second)):
            ws = 0 if group.has(BREAKING_OFF) else group.profile.ws
            base[key] = ws + situational(group.flags_against(number))[0]
        law: dict[tuple[str, int], float] = defaultdict(float)
        for v1, p1 in first_law:
            for v2, p2 in second_law:
                difference = (v1 + base["first"]) - (v2 + base["second"])
                if difference:
                    law[("first" if difference > 0 else "second", abs(difference))] += p1 * p2
                elif first.profile.i != second.profile.i:
                    law[("first" if first.profile.i > second.profile.i else "second", 1)] += p1 * p2
                else:
                    law[("none", 0)] += p1 * p2
        return law

    def solve(self) -> Odds:
        lone_is_attacker = len(self.attackers) == 1
        lone, many = (self.attackers[0], self.defenders) if lone_is_attacker else (self.defenders[0], self.attackers)
        # State: (lone's wounds left, wounds the lone model inflicted, wounds its foes inflicted, foes slain,
        # a foe broke off, how many foes fought).
        State = tuple[int, int, int, int, bool, int]
        states: dict[State, float] = {(lone.profile.w, 0, 0, 0, False, 0): 1.0}
        for number, foe in enumerate(many, start=1):
            bonus = number - 1
            following: dict[State, float] = defaultdict(float)
            first, second = (lone, foe) if lone_is_attacker else (foe, lone)
            bonuses = (0, bonus) if lone_is_attacker else (bonus, 0)
            fought_round = self.round(number, first, second, *bonuses)  # the same law whatever came before
            # This round's wounds laws by (the foe won, hits, wounds left), so the models are hashed once a law.
            taken_laws: dict[tuple[bool, int, int], tuple[tuple[int, float], ...]] = {}
            for (lone_w, by_lone, by_foes, slain, escaped, fought), p_state in states.items():
                check()  # past its deadline, the calculation gives way to Monte Carlo
                if lone_w <= 0:
                    following[(lone_w, by_lone, by_foes, slain, escaped, fought)] += p_state
                    continue
                for (winner, hits), p_round in fought_round.items():
                    chance = p_state * p_round
                    foe_wins = winner == ("second" if lone_is_attacker else "first")
                    if winner == "none":
                        outcomes: tuple[tuple[int, float], ...] = ((0, 1.0),)
                    else:
                        known = taken_laws.get((foe_wins, hits, lone_w))
                        if known is None:
                            known = taken_laws[(foe_wins, hits, lone_w)] = (
                                wounds_law(foe, lone, lone_w, hits, self.table)
                                if foe_wins
                                else wounds_law(lone, foe, foe.profile.w, hits, self.table)
                            )
                        outcomes = known
                    for taken, p_taken in outcomes:
                        if foe_wins:  # the foe stands: if it was breaking off, it gets away (unless it slew all)
                            gets_away = foe.has(BREAKING_OFF) and not (self.kill_stays and taken >= lone_w)
                            key = (lone_w - taken, by_lone, by_foes + taken, slain, escaped or gets_away,
                                   fought + 1)  # fmt: skip
                        else:
                            foe_dead = taken >= foe.profile.w
                            foe_escapes = foe.has(BREAKING_OFF) and not foe_dead
                            key = (lone_w, by_lone + taken, by_foes, slain + foe_dead, escaped or foe_escapes,
                                   fought + 1)  # fmt: skip
                        following[key] += chance * p_taken
            states = following
        return self.odds(states, lone, lone_is_attacker, len(many))

    def odds(self, states: Mapping[tuple[int, int, int, int, bool, int], float], lone: ModelGroup,
             lone_is_attacker: bool, foes: int) -> Odds:  # fmt: skip
        winners: dict[str, float] = defaultdict(float)
        outcomes: dict[str, float] = defaultdict(float)
        a_lost: dict[int, float] = defaultdict(float)
        d_lost: dict[int, float] = defaultdict(float)
        broke = 0.0
        for (lone_w, by_lone, by_foes, slain, foe_escaped, _fought), p in states.items():
            check()  # past its deadline, the calculation gives way to Monte Carlo
            lone_dead = lone_w <= 0
            lone_escaped = lone.has(BREAKING_OFF) and not lone_dead and not (self.kill_stays and slain == foes)
            a_inflicted, d_inflicted = (by_lone, by_foes) if lone_is_attacker else (by_foes, by_lone)
            winner = "attacker" if a_inflicted > d_inflicted else "defender" if d_inflicted > a_inflicted else "draw"
            if lone_dead or slain:
                outcome = Outcome.KILLED
            elif lone_escaped or foe_escaped:
                outcome = Outcome.BROKE_OFF
            elif a_inflicted or d_inflicted:
                outcome = Outcome.WOUNDED
            else:
                outcome = Outcome.STALEMATE
            lone_lost, many_lost = int(lone_dead), slain
            a, d = (lone_lost, many_lost) if lone_is_attacker else (many_lost, lone_lost)
            winners[winner] += p
            outcomes[outcome] += p
            a_lost[a] += p
            d_lost[d] += p
            # The loser breaks if it has nobody left standing or it broke off (its squad is then Broken).
            if winner != "draw":
                loser_is_lone = (winner == "defender") == lone_is_attacker
                if loser_is_lone:
                    broke += p * (lone_dead or lone_escaped)
                else:
                    broke += p * (slain == foes or foe_escaped)
        return exact_odds(
            GAME_ID, winners, outcomes, distribution(a_lost, 1.0), distribution(d_lost, 1.0), breaks=broke,
            note="Exact: every roll of the referee's hand-to-hand phase taken as its probability distribution.",
        )  # fmt: skip


def exact(attacker: Side, defender: Side, options: Mapping[str, OptionValue]) -> Odds:
    return Solver(attacker, defender, options).solve()


__all__ = ["exact", "value_law", "wounds_law"]
