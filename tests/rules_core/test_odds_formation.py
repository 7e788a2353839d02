"""Exact formation-assault odds (Epic: Armageddon and Reikhammer), checked two ways: an independent oracle on
icepool (every unit's damage capacity kept one by one, allocation, saves and the result's modifiers re-derived
from the games' documented decisions, each unit's unsaved hits as icepool dice) to 1e-9 on 50 random scenarios
per game, and 20,000 seeded referee resolutions per case by chi-square."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import icepool
import pytest

from rules_core.errors import SpecError
from rules_core.games.formation.engine import check_positions
from rules_core.games.formation.spec import Formation, Position, Support
from rules_core.odds import OddsError, odds
from rules_core.options import validate_options
from rules_core.registry import get_game
from tests.rules_core.checks import assert_agrees_with_oracle, assert_referee_agrees

D6 = icepool.d6
Law = dict[Any, float]


def law(die: icepool.Die[Any]) -> Law:
    total = die.denominator()
    return {outcome: quantity / total for outcome, quantity in die.items()}


def convolve(first: Law, second: Law) -> Law:
    out: Law = defaultdict(float)
    for a, p in first.items():
        for b, q in second.items():
            out[a + b] += p * q
    return out


class Army:
    """One side as the documented decisions describe it: its units in allocation order, each with its DC."""

    def __init__(self, formation: Formation, *, name: str, game: str, options: Mapping[str, Any],
                 support: Support | None) -> None:  # fmt: skip
        self.name, self.game, self.options, self.support = name, game, options, support
        self.groups = formation.groups
        self.units: list[tuple[int, Position]] = [
            (index, position) for position in Position for index, group in enumerate(self.groups)
            for _ in range(group.at(position))
        ]  # fmt: skip
        self.start = tuple(self.groups[index].dc for index, _ in self.units)
        marker = "blast_markers" if game == "epic" else "shock"
        self.markers = options[f"{name}_{marker}"]
        # Broken when the players say so, or when its markers are at least its units (a war engine: its DC).
        self.broken = options[f"{name}_broken"] or self.markers >= sum(self.start)
        under = options.get("save_direction") == "under"
        self.save_hit = (lambda value: value >= D6) if under else (lambda value: value <= D6)

    def engaged(self, state: tuple[int, ...]) -> list[int]:
        return [k for k, (_, position) in enumerate(self.units) if state[k] > 0 and position is not Position.OUT]

    def alive(self, state: tuple[int, ...]) -> list[int]:
        return [k for k in range(len(self.units)) if state[k] > 0]

    def attack(self, group: Any, dice: int, value: int) -> Law:
        hit = (value <= D6) if self.game == "epic" else (value >= D6)
        scored = hit.map(lambda success: 1 if success else 0)
        return law((dice * (1 + group.extra_attacks)) @ scored) if dice else {0: 1.0}

    def in_contact(self, state: tuple[int, ...]) -> bool:
        return any(state[k] > 0 and position is Position.CONTACT for k, (_, position) in enumerate(self.units))

    def hits(self, state: tuple[int, ...], contact_lost: bool = False) -> tuple[Law, Law]:
        """(normal, macro) hit laws of this side's attacks; units in contact whose partners all died use FF."""
        normal: Law = {0: 1.0}
        macro: Law = {0: 1.0}
        for index, group in enumerate(self.groups):
            contact_value = group.ff if contact_lost else group.cc
            in_range = None if "no-line-of-fire" in group.specials else group.ff  # within 4 tiles, no line of fire
            for position, value in ((Position.CONTACT, contact_value), (Position.IN_RANGE, in_range)):
                count = sum(1 for k in self.engaged(state) if self.units[k] == (index, position))
                if count and value is not None:
                    scored = self.attack(group, count, value)
                    if "macro-weapon" in group.specials:
                        macro = convolve(macro, scored)
                    else:
                        normal = convolve(normal, scored)
        return normal, macro

    def able(self, state: tuple[int, ...], contact_lost: bool) -> list[int]:
        """Reikhammer's "directly involved": engaged units in a position to attack (a value for where they are)."""
        found = []
        for k in self.engaged(state):
            group = self.groups[self.units[k][0]]
            if self.units[k][1] is Position.CONTACT:
                value = group.ff if contact_lost else group.cc
            else:
                value = None if "no-line-of-fire" in group.specials else group.ff
            if value is not None:
                found.append(k)
        return found

    def support_hits(self) -> tuple[Law, Law] | None:
        if self.support is None:
            return None
        normal: Law = {0: 1.0}
        macro: Law = {0: 1.0}
        for formation in self.support.formations:
            for group in formation.groups:
                if group.in_range and group.ff is not None:
                    scored = self.attack(group, group.in_range, group.ff)
                    if "macro-weapon" in group.specials:
                        macro = convolve(macro, scored)
                    else:
                        normal = convolve(normal, scored)
        return normal, macro

    def unsaved_die(self, index: int, *, macro: bool) -> Any:
        """One hit on a unit of group ``index``: 1 when it gets through every save."""
        group = self.groups[index]
        seconds = []
        if group.cover is not None and self.name == "defender" and group.unit_type.value == "INF":
            seconds.append(self.save_hit(group.cover))
        if "invulnerable" in group.specials:
            seconds.append(D6 >= 6)
        second = max(seconds, key=lambda die: law(die).get(True, 0.0), default=None)
        after_armour = 1 if second is None else second.map(lambda saved: 0 if saved else 1)
        reinforced = "reinforced-armour" in group.specials
        if group.save is None or (macro and not (reinforced and self.options["reinforced_vs_macro"] == "save")):
            return after_armour
        armour = self.save_hit(group.save)
        if reinforced and not macro:  # a macro-weapon hit's save is never re-rolled
            armour = armour.map(lambda saved: True if saved else self.save_hit(group.save))
        return armour.map(lambda saved: 0 if saved else after_armour)

    def spread(self, state: tuple[int, ...], targets: list[int], hits: int, *, one_pass: bool = False) -> list[int]:
        """Hits per unit: front to back, each unit up to its DC a pass, pass after pass."""
        taken = [0] * len(self.units)
        left = hits
        while left and targets:
            for k in targets:
                share = min(state[k], left)
                taken[k] += share
                left -= share
                if not left:
                    break
            if one_pass:
                break
        return taken

    def land(self, state: tuple[int, ...], normal: int, macro: int, targets: list[int] | None = None) -> Law:
        """{(state after, damage dealt): p}."""
        targets = self.engaged(state) if targets is None else targets
        if not targets:
            return {(state, 0): 1.0}
        first = self.spread(state, targets, normal)
        second = self.spread(state, targets, macro)
        outcomes: Law = {(state, 0): 1.0}
        for k in targets:
            if not first[k] and not second[k]:
                continue
            index = self.units[k][0]
            unsaved: Law = {0: 1.0}
            if first[k]:
                unsaved = convolve(unsaved, law(first[k] @ icepool.Die([self.unsaved_die(index, macro=False)])))
            if second[k]:
                unsaved = convolve(unsaved, law(second[k] @ icepool.Die([self.unsaved_die(index, macro=True)])))
            following: Law = defaultdict(float)
            for (current, dealt), p in outcomes.items():
                for count, q in unsaved.items():
                    damage = min(current[k], count)
                    changed = list(current)
                    changed[k] -= damage
                    following[(tuple(changed), dealt + damage)] += p * q
            outcomes = following
        return outcomes

    def strength(self, state: tuple[int, ...]) -> int:
        return sum(state)

    def bonus(self, state: tuple[int, ...], kills: int, enemy: Army, enemy_state: tuple[int, ...]) -> int:
        mine, theirs = self.strength(state), enemy.strength(enemy_state)
        bonus = kills
        double = self.options.get("double_means", "more_than" if self.game == "epic" else "at_least")
        if mine > theirs:
            bonus += 1 + int(mine > 2 * theirs if double == "more_than" else mine >= 2 * theirs)
        my_markers = mine if self.broken else self.markers
        their_markers = theirs if enemy.broken else enemy.markers
        bonus += int(my_markers == 0) + int(my_markers < their_markers)
        if self.game == "epic":
            bonus += sum(1 for k in self.engaged(state) if "inspiring" in self.groups[self.units[k][0]].specials)
            if self.support is not None:
                bonus += sum(group.in_range for formation in self.support.formations for group in formation.groups
                             if "inspiring" in group.specials)  # fmt: skip
        return bonus


def oracle(game: str, attacker: Formation, defender: Formation, options: Mapping[str, Any]) -> Law:
    """{(winner, outcome, attacker lost, defender lost, loser breaks): p}."""
    parse = get_game(game)
    support = [None if options[f"{s}_support"] is None else parse.parse_support(s, options[f"{s}_support"])  # type: ignore[attr-defined]
               for s in ("attacker", "defender")]  # fmt: skip
    armies = (Army(attacker, name="attacker", game=game, options=options, support=support[0]),
              Army(defender, name="defender", game=game, options=options, support=support[1]))  # fmt: skip
    ends: Law = defaultdict(float)

    def finish(winner: str, a: tuple[int, ...], d: tuple[int, ...], p: float) -> None:
        if winner == "draw":
            outcome = "both_destroyed" if not any(a) and not any(d) else "tied"
        else:
            loser = 1 if winner == "attacker" else 0
            if armies[loser].broken:
                a, d = (a, tuple(0 for _ in d)) if loser else (tuple(0 for _ in a), d)
            outcome = "broken" if any((a, d)[loser]) else "destroyed"
            if not any(a) and not any(d):
                outcome = "both_destroyed"
        lost = (sum(1 for dc in a if not dc), sum(1 for dc in d if not dc))
        ends[(winner, outcome, lost[0], lost[1], winner in ("attacker", "defender"))] += p

    if not armies[0].engaged(armies[0].start):
        ends[("none", "no_assault", 0, 0, False)] = 1.0
        return ends

    def exchange(dist: Law, fixed: tuple[tuple[Law, Law] | None, ...] | None, number: int = 1) -> Law:
        out: Law = defaultdict(float)
        later = number > 1 and options["lost_contact"] == "ff"
        for (a, d, ka, kd), p in dist.items():
            lost = (later and armies[0].in_contact(a) and not armies[1].in_contact(d),
                    later and armies[1].in_contact(d) and not armies[0].in_contact(a))  # fmt: skip
            laws = [armies[0].hits(a, lost[0]), armies[1].hits(d, lost[1])] if fixed is None else list(fixed)
            aims: list[list[int] | None] = [None, None]
            if fixed is not None and game == "reikhammer":  # support fires only at units in a position to attack
                for target, state in ((0, a), (1, d)):
                    able = armies[target].able(state, lost[target])
                    if not able:
                        laws[1 - target] = None
                    if options.get("support_targets", "attackers") == "attackers":
                        aims[target] = able
            landed = []
            for target, state in ((1, d), (0, a)):
                shots = laws[1 - target]
                result: Law = defaultdict(float)
                if shots is None:
                    result[(state, 0)] = 1.0
                else:
                    for normal, p1 in shots[0].items():
                        for macro, p2 in shots[1].items():
                            for key, q in armies[target].land(state, normal, macro, aims[target]).items():
                                result[key] += p1 * p2 * q
                landed.append(result)
            for (d2, dealt_a), q in landed[0].items():
                for (a2, dealt_d), r in landed[1].items():
                    out[(a2, d2, ka + dealt_a, kd + dealt_d)] += p * q * r
        return out

    def settle(dist: Law, after_support: bool = False) -> Law:
        """After the attacks: every defender or every engaged attacker gone; after supporting fire (which never
        stalls the attack): a side wiped out."""
        going: Law = {}
        for (a, d, ka, kd), p in dist.items():
            if not any(d):
                both = options.get("both_wiped_out", "draw" if game == "epic" else "defender")
                finish("attacker" if any(a) else both, a, d, p)
            elif not any(a) if after_support else not armies[0].engaged(a):
                finish("defender", a, d, p)
            else:
                going[(a, d, ka, kd)] = p
        return going

    roll = law(icepool.highest(D6, D6) if options["result_dice"] == "highest" else 2 @ D6)
    support_laws = (armies[0].support_hits(), armies[1].support_hits())
    dist: Law = {(armies[0].start, armies[1].start, 0, 0): 1.0}
    for number in range(1, options["max_rounds"] + 1):
        dist = settle(exchange(dist, None, number))
        if any(s is not None for s in support) and dist:
            dist = settle(exchange(dist, support_laws, number), after_support=True)
        tied: Law = defaultdict(float)
        for (a, d, ka, kd), p in dist.items():
            bonus = (armies[0].bonus(a, ka, armies[1], d), armies[1].bonus(d, kd, armies[0], a))
            for ra, q in roll.items():
                for rd, r in roll.items():
                    difference = (ra + bonus[0]) - (rd + bonus[1])
                    if not difference:
                        tied[(a, d, ka, kd)] += p * q * r
                        continue
                    loser = 1 if difference > 0 else 0
                    state = (a, d)[loser]
                    taken = armies[loser].spread(state, armies[loser].alive(state), abs(difference), one_pass=True)
                    after = tuple(dc - hit for dc, hit in zip(state, taken, strict=True))
                    finish("attacker" if loser else "defender", a if loser else after, after if loser else d, p * q * r)
        if number == options["max_rounds"]:
            for (a, d, _, _), p in tied.items():
                finish("draw", a, d, p)
            tied = defaultdict(float)
        dist = tied
    return ends


def random_group(chance: random.Random, game: str, name: str, *, supporting: bool = False) -> str:
    plus = "+" if game == "epic" else ""
    kind = chance.choice(("INF", "INF", "LV", "AV", "WE"))
    count = 1 if kind == "WE" else chance.randint(1, 3)
    value = (lambda: chance.randint(3, 6)) if game == "epic" else (lambda: chance.randint(1, 5))
    save = chance.choice(("3+", "4+", "5+", "6+", "-"))
    words = [f"{count}x {name}: CC{value()}{plus} FF{chance.choice((str(value()) + plus, '-'))} Sv{save} {kind}"]
    if supporting:
        return f"{count}x {name}: FF{value()}{plus}" + (" macro-weapon" if chance.random() < 0.2 else "")
    if kind == "WE":
        words.append(f"DC={chance.randint(2, 3)}")
    for special in ("macro-weapon", "reinforced-armour", "invulnerable") + (("inspiring",) if game == "epic" else ()):
        if chance.random() < 0.15:
            words.append(special)
    if game == "reikhammer" and chance.random() < 0.15:
        words.append("no-line-of-fire")
    if kind == "INF" and chance.random() < 0.3:
        words.append(f"cover={chance.randint(3, 5)}{plus}")
    if chance.random() < 0.2:
        words.append("extra-attacks=1")
    if chance.random() < 0.5:
        contact = chance.randint(0, count)
        ff = chance.randint(0, count - contact)
        words.append(f"contact={contact} ff={ff}")
    return " ".join(words)


def random_scenario(chance: random.Random, game: str) -> tuple[str, str, dict[str, Any]]:
    sides = ["; ".join(random_group(chance, game, f"{prefix}{n}") for n in range(chance.choice((1, 2))))
             for prefix in ("Raider", "Holder")]  # fmt: skip
    marker = "blast_markers" if game == "epic" else "shock"
    options: dict[str, Any] = {"result_dice": chance.choice(("highest", "sum")), "max_rounds": chance.randint(1, 3)}
    for side in ("attacker", "defender"):
        options[f"{side}_{marker}"] = chance.choice((0, 0, 1, 2))
        options[f"{side}_broken"] = chance.random() < 0.15
        if chance.random() < 0.25:
            options[f"{side}_support"] = random_group(chance, game, f"Gun{side}", supporting=True)
    if chance.random() < 0.2:
        options["lost_contact"] = "countercharge"
    if chance.random() < 0.2:
        options["both_wiped_out"] = chance.choice(("draw", "defender"))
    if chance.random() < 0.2:
        options["reinforced_vs_macro"] = "no_save"
    if game == "reikhammer":
        options["save_direction"] = chance.choice(("over", "under"))
        options["double_means"] = chance.choice(("at_least", "more_than"))
        if chance.random() < 0.3:
            options["support_targets"] = "engaged"
    return sides[0], sides[1], options


def compare(game: str, attacker: str, defender: str, given: dict[str, Any]) -> None:
    rules = get_game(game)
    options = validate_options(rules.options, given)
    a_side, d_side = rules.parse_side(attacker), rules.parse_side(defender)
    exact = odds(game, a_side, d_side, method="exact", **given)
    assert_agrees_with_oracle(exact, oracle(game, a_side, d_side, options), (game, attacker, defender, given))


@pytest.mark.parametrize("game", ["epic", "reikhammer"])
@pytest.mark.parametrize("scenario", range(50))
def test_the_exact_odds_agree_with_an_icepool_oracle(game: str, scenario: int) -> None:
    chance = random.Random(f"{game}-{scenario}")
    while True:  # draw again until both sides' positions can be true together (base contact is mutual)
        attacker, defender, given = random_scenario(chance, game)
        rules = get_game(game)
        try:
            check_positions(rules.rules, rules.parse_side(attacker), rules.parse_side(defender))  # type: ignore[attr-defined]
        except SpecError:
            continue
        break
    compare(game, attacker, defender, given)


CORNERS = [
    ("epic", "1x Titan: CC3+ FF3+ Sv4+ WE DC=3 macro-weapon reinforced-armour; 2x Guard: CC5+ FF5+ Sv6+ INF",
     "3x Boyz: CC4+ FF6+ Sv6+ INF cover=4+ invulnerable contact=2 ff=1", {"max_rounds": 3, "result_dice": "sum"}),
    ("epic", "2x Tactical: CC4+ FF4+ Sv4+ INF inspiring", "1x Gargant: CC3+ FF4+ Sv4+ WE DC=3",
     {"defender_broken": True, "attacker_blast_markers": 2, "defender_support": "2x Big Gun: FF5+ macro-weapon"}),
    ("reikhammer", "3x Line: CC4 FF3 Sv5 INF contact=1 ff=1", "2x Grenadier: CC4 FF3 Sv4 INF cover=3",
     {"save_direction": "under", "double_means": "more_than", "attacker_support": "2x Handgunners: FF3"}),
    # Issue 33: supporting fire that kills every engaged attacker does not stall the assault (the result is rolled
    # for the units left out of the fight), and Reikhammer units within 4 tiles with no line of fire.
    ("epic", "1x A: CC4+ FF4+ Sv- INF contact=1 ; 3x B: CC4+ FF4+ Sv- INF contact=0 ff=0",
     "2x D: CC6+ FF6+ Sv- INF contact=1 ff=0", {"defender_support": "3x S: FF4+", "max_rounds": 3}),
    ("reikhammer", "1x A: CC4 FF4 Sv- INF contact=1 ; 2x B: CC4 FF4 Sv5+ INF ff=2 no-line-of-fire ; 1x C: CC3 FF3 Sv- "
     "INF contact=0 ff=0", "2x D: CC3 FF4 Sv- INF contact=1 ff=1", {"defender_support": "2x S: FF3", "max_rounds": 2}),
    # Review: Reikhammer's supporting fire only at units in a position to attack (none: it cannot fire), or, with
    # support_targets=engaged, landing on every directly engaged unit.
    ("reikhammer", "2x A: CC4 FF4 Sv- INF contact=0 ff=2", "1x E: CC4 FF4 Sv- INF ff=1 no-line-of-fire ; 1x F: CC4 "
     "FF- Sv- INF ff=1 ; 1x D: CC4 FF4 Sv5+ INF ff=1", {"attacker_support": "2x S: FF4", "max_rounds": 3}),
    ("reikhammer", "2x A: CC4 FF4 Sv- INF contact=0 ff=2", "1x E: CC4 FF4 Sv- INF ff=1 no-line-of-fire ; 1x F: CC4 "
     "FF- Sv- INF ff=1 ; 1x D: CC4 FF4 Sv5+ INF ff=1", {"attacker_support": "2x S: FF4", "support_targets": "engaged"}),
    ("reikhammer", "2x A: CC4 FF4 Sv- INF contact=1 ff=1", "2x E: CC- FF4 Sv- INF contact=1 ff=1 no-line-of-fire",
     {"attacker_support": "2x S: FF4", "defender_support": "1x T: FF3", "max_rounds": 3}),
]  # fmt: skip


@pytest.mark.parametrize(("game", "attacker", "defender", "given"), CORNERS)
def test_the_exact_odds_agree_with_the_oracle_in_the_corners(game: str, attacker: str, defender: str,
                                                             given: dict[str, Any]) -> None:  # fmt: skip
    compare(game, attacker, defender, given)


CHI_SQUARE_CASES = [
    ("epic", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=2", "8x Boyz: CC4+ FF6+ Sv6+ INF cover=5+", {}),
    ("epic", "1x Warhound: CC4+ FF3+ Sv5+ WE DC=3 macro-weapon; 2x Tactical: CC4+ FF4+ Sv4+ INF",
     "4x Boyz: CC4+ FF6+ Sv6+ INF; 2x Nobz: CC3+ FF5+ Sv5+ INF invulnerable", {"result_dice": "sum"}),
    ("reikhammer", "6x Line Infantry: CC4 FF3 Sv5+ INF contact=4 ff=2; 2x Field Gun: CC1 FF4 Sv6+ LV ff=2",
     "5x Grenadiers: CC4 FF3 Sv4+ INF", {"defender_support": "4x Handgunners: FF3", "save_direction": "under"}),
    # Issue 16's rulings: Broken by Blast markers (4 on 4 units), reinforced armour saving against macro-weapons,
    # and units whose contact partners all died fighting with FF in later rounds.
    ("epic", "1x Titan: CC3+ FF3+ Sv4+ WE DC=2 macro-weapon; 2x Guard: CC5+ FF5+ Sv6+ INF contact=1 ff=1",
     "2x Land Raider: CC6+ FF4+ Sv4+ AV reinforced-armour; 2x Boyz: CC4+ FF6+ Sv6+ INF",
     {"defender_blast_markers": 4}),
    # Both formations wiped out often: Reikhammer gives it to the defender.
    ("reikhammer", "2x Knight: CC4 FF2 Sv- INF", "2x Pikemen: CC4 FF2 Sv- INF contact=1 ff=1", {"max_rounds": 3}),
    # Issue 33: supporting fire never stalls the attack; units within 4 tiles with no line of fire.
    ("reikhammer", "1x A: CC4 FF4 Sv- INF contact=1 ; 2x B: CC4 FF4 Sv5+ INF ff=2 no-line-of-fire ; 1x C: CC3 FF3 Sv- "
     "INF contact=0 ff=0", "2x D: CC3 FF4 Sv- INF contact=1 ff=1", {"defender_support": "2x S: FF3"}),
    # Issue 33: a side of two formations, each with its own Shock (the result counts them together).
    ("reikhammer", "3x A: CC4 FF3 Sv5+ INF shock=1 | 2x B: CC3 FF4 Sv- INF shock=2", "4x D: CC4 FF3 Sv5+ INF",
     {"defender_shock": 1}),
    # Review: Reikhammer's supporting fire only at enemy units in a position to attack.
    ("reikhammer", "2x A: CC4 FF4 Sv- INF contact=0 ff=2", "1x E: CC4 FF4 Sv- INF ff=1 no-line-of-fire ; 1x F: CC4 "
     "FF- Sv- INF ff=1 ; 1x D: CC4 FF4 Sv5+ INF ff=1", {"attacker_support": "2x S: FF4"}),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("game", "attacker", "defender", "given"), CHI_SQUARE_CASES)
def test_the_referee_rolls_what_the_exact_odds_predict(game: str, attacker: str, defender: str,
                                                       given: dict[str, Any]) -> None:  # fmt: skip
    assert_referee_agrees(get_game(game), attacker, defender, given, losses=True)


def test_formations_too_big_for_the_exact_solver_fall_back_to_monte_carlo_and_say_so() -> None:
    big = "20x Tactical: CC4+ FF4+ Sv4+ INF contact=10 ff=10"
    horde = "30x Boyz: CC4+ FF6+ Sv6+ INF contact=15 ff=15"
    answer = odds("epic", big, horde, trials=300)
    assert answer.method == "monte-carlo" and "pairs of formation states" in answer.notes[-1]
    with pytest.raises(OddsError, match="pairs of formation states"):
        odds("epic", big, horde, method="exact")
