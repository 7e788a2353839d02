"""Exact Bolt Action odds, checked two ways: against an independent oracle built on icepool (to 1e-9, on 50 random
scenarios), and against the referee itself (20,000 seeded resolutions, chi-square)."""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import icepool
import pytest

from rules_core import get_game
from rules_core.games.boltaction.spec import FANATICS, Unit, parse_unit
from rules_core.games.boltaction.state import (
    BASE_TO_HIT,
    ROUGH_MOVE,
    RUN_MOVE,
    SURPRISE_RANGE,
    Man,
    UnitState,
    unit_men,
)
from rules_core.odds import odds
from rules_core.options import validate_options
from rules_core.report import SideName
from tests.rules_core.checks import assert_referee_agrees

GAME = get_game("boltaction")
ORACLE_ROUNDS = 8  # the oracle stops here; what is still fighting bounds the difference allowed

# --- the oracle: the engine's own men and removal, icepool's dice -------------------------------------------------

Men = tuple[tuple[str, bool], ...]


def men_of(unit: Unit) -> Men:
    return tuple((man.role, man.tough) for man in unit_men(unit))


def removed(unit: Unit, men: Men, casualties: int, exceptional: int) -> Men:
    state = UnitState(unit, SideName.ATTACKER, [Man(role, tough) for role, tough in men], 0)
    state.remove(casualties, exceptional)
    return tuple((man.role, man.tough) for man in state.men)


def law(die: icepool.Die[Any]) -> dict[Any, float]:
    total = die.denominator()
    return {outcome: quantity / total for outcome, quantity in die.items()}


@functools.cache
def pool(count: int, value: int) -> icepool.Die[Any]:
    if count == 0:
        return icepool.Die([icepool.Vector((0, 0))])
    return count @ icepool.d6.map(lambda face: icepool.Vector((int(face >= value), int(face == 6))))


def damage_law(unit: Unit, target: Men, attacks: int, tough: int) -> dict[tuple[int, int], float]:
    return _damage_law(unit.quality.damage_value, len(target), sum(role != "man" for role, _ in target), attacks, tough)


@functools.cache
def _damage_law(value: int, standing: int, leaders: int, attacks: int, tough: int) -> dict[tuple[int, int], float]:
    sixes_again = icepool.d6.map(lambda face: int(face == 6))

    def after(t: Any, p: Any) -> Any:
        casualties, sixes = t[0] + p[0], t[1] + p[1]
        extra = min(t[0], standing - casualties) if tough and t[0] else 0

        def final(x: Any) -> Any:
            applied = min(casualties + x[0], standing)
            all_sixes = sixes + x[1]
            if leaders and all_sixes:
                return (all_sixes @ sixes_again).map(lambda k: (applied, min(k, leaders, applied)))
            return (applied, 0)

        return pool(extra, value).map(final)

    return law(icepool.map(after, pool(tough, value), pool(attacks - tough, value)))


def oracle(attacker: Unit, defender: Unit, options: Mapping[str, Any]) -> tuple[dict[Any, float], float]:
    """{(winner, attacker lost, defender lost, outcome): p}, and the mass still fighting after ORACLE_ROUNDS."""
    a0, d0 = men_of(attacker), men_of(defender)
    ends: dict[Any, float] = defaultdict(float)

    def end(winner: str, a: Men, d: Men, p: float, outcome: str = "destroyed") -> None:
        ends[(winner, len(a0) - len(a), len(d0) - len(d), outcome)] += p

    distance = options["distance"]
    if distance is not None and distance > (ROUGH_MOVE if options["rough_ground"] else RUN_MOVE):
        end("none", a0, d0, 1.0, "failed_to_contact")
        return ends, 0.0
    fighting: dict[tuple[Men, Men], float] = defaultdict(float)
    close = options["rough_ground"] if distance is None else distance <= SURPRISE_RANGE  # rough ground: 6" reach
    reacts = not (options["target_has_acted"] or (close and not options["ambush"]) or options["out_of_arc"]
                  or not options["reaction_shots"])  # fmt: skip
    if not reacts:
        fighting[(a0, d0)] = 1.0
    else:
        inexperienced = -1 if defender.quality.value == "inexperienced" else 0
        need = BASE_TO_HIT - (-1 - defender.pins + inexperienced + options["reaction_modifiers"])
        shots = options["reaction_shots"]
        if need <= 6:
            hits = law(shots @ icepool.d6.map(lambda face: int(face >= max(2, need))))
        elif need <= 9:
            hits = law((shots @ icepool.d6.map(lambda face: int(face == 6))).map(
                lambda sixes: sixes @ icepool.d6.map(lambda face: int(face >= need - 3))))  # fmt: skip
        else:
            hits = {0: 1.0}
        two_d6 = law(2 @ icepool.d6)
        for count, p_hits in hits.items():
            if not count:
                fighting[(a0, d0)] += p_hits
                continue
            for (casualties, picks), p in damage_law(attacker, a0, count, 0).items():
                a = removed(attacker, a0, casualties, picks)
                if not a:
                    end("defender", (), d0, p_hits * p, "shot_down")
                elif options["morale_check"] and len(a) * 2 <= len(a0) and not attacker.has(FANATICS):
                    passes = sum(
                        q for total, q in two_d6.items() if total <= attacker.quality.morale - attacker.pins - 1
                    )
                    fighting[(a, d0)] += p_hits * p * passes
                    end("defender", (), d0, p_hits * p * (1 - passes), "failed_morale")
                else:
                    fighting[(a, d0)] += p_hits * p
    simultaneous = bool(options["rough_ground"] or options["defended_obstacle"])
    for _ in range(ORACLE_ROUNDS):
        following: dict[tuple[Men, Men], float] = defaultdict(float)
        for (a, d), p_state in fighting.items():
            outcomes: list[tuple[Men, Men, int, int, float]] = []
            a_tough, d_tough = sum(t for _, t in a), sum(t for _, t in d)
            if simultaneous:
                for (c1, e1), p1 in damage_law(defender, d, len(a), a_tough).items():
                    for (c2, e2), p2 in damage_law(attacker, a, len(d), d_tough).items():
                        d2, a2 = removed(defender, d, c1, e1), removed(attacker, a, c2, e2)
                        outcomes.append((a2, d2, len(d) - len(d2), len(a) - len(a2), p1 * p2))
            else:
                for (c1, e1), p1 in damage_law(defender, d, len(a), a_tough).items():
                    d2 = removed(defender, d, c1, e1)
                    if not d2:
                        outcomes.append((a, d2, len(d), 0, p1))
                        continue
                    for (c2, e2), p2 in damage_law(attacker, a, len(d2), sum(t for _, t in d2)).items():
                        a2 = removed(attacker, a, c2, e2)
                        outcomes.append((a2, d2, len(d) - len(d2), len(a) - len(a2), p1 * p2))
            for a2, d2, by_a, by_d, p in outcomes:
                chance = p_state * p
                if not a2 and not d2:
                    end("draw", a2, d2, chance, "both_destroyed")
                    continue
                if not a2 or not d2:
                    winner = "defender" if not a2 else "attacker"
                elif by_a != by_d:
                    winner = "attacker" if by_a > by_d else "defender"
                else:
                    following[(a2, d2)] += chance
                    continue
                loser_unit, loser = (defender, d2) if winner == "attacker" else (attacker, a2)
                if loser and loser_unit.has(FANATICS):
                    following[(a2, d2)] += chance
                    continue
                end(winner, a2 if winner == "attacker" else (), d2 if winner == "defender" else (), chance)
        fighting, simultaneous = following, True
    return ends, sum(fighting.values())


def random_unit(chance: random.Random) -> str:
    count = chance.randint(1, 9)
    tokens = [chance.choice(("inexperienced", "regular", "veteran"))]
    if chance.random() < 0.4:
        tokens.append("nco")
    if chance.random() < 0.25 and count > 1:
        tokens.append("officer")
    if chance.random() < 0.2:
        tokens.append("tough-fighters")
    if chance.random() < 0.15:
        tokens.append("fanatics")
    if chance.random() < 0.4:
        tokens.append(f"smg={chance.randint(1, count)}")
    if chance.random() < 0.3:
        tokens.append(f"pins={chance.randint(1, 3)}")
    return f"{count}x Unit: {' '.join(tokens)}"


def random_options(chance: random.Random) -> dict[str, Any]:
    rough = chance.random() < 0.25
    defended = chance.random() < 0.2 and not rough  # the two exclude each other (decision 9), the draws kept
    return {
        "distance": chance.choice((None, 3.0, 5.5, 8.0, 11.0, 13.0)),
        "rough_ground": rough,
        "defended_obstacle": defended,
        "target_has_acted": chance.random() < 0.1,
        "ambush": chance.random() < 0.2,
        "reaction_shots": chance.choice((0, 3, 6, 10)),
        "reaction_modifiers": chance.choice((0, 0, -1, -3, -5, 1)),
        "out_of_arc": chance.random() < 0.1,
        "morale_check": chance.random() < 0.7,
    }


def exact_table(attacker: str, defender: str, options: Mapping[str, Any]) -> dict[str, Any]:
    result = odds("boltaction", attacker, defender, **options)
    return {"attacker": result.p_attacker_wins, "defender": result.p_defender_wins, "draw": result.p_draw,
            "none": result.p_no_winner, "a_lost": result.attacker_losses, "d_lost": result.defender_losses,
            "outcomes": dict(result.outcomes)}  # fmt: skip


@pytest.mark.parametrize("scenario", range(50))
def test_the_exact_odds_agree_with_an_icepool_oracle(scenario: int) -> None:
    chance = random.Random(1000 + scenario)
    attacker, defender = random_unit(chance), random_unit(chance)
    options = validate_options(GAME.options, random_options(chance))
    ends, still_fighting = oracle(parse_unit(attacker), parse_unit(defender), options)
    exact = exact_table(attacker, defender, options)
    tolerance = 1e-9 + still_fighting
    winners: dict[str, float] = defaultdict(float)
    outcomes: dict[str, float] = defaultdict(float)
    a_lost: dict[int, float] = defaultdict(float)
    d_lost: dict[int, float] = defaultdict(float)
    for (winner, a, d, outcome), p in ends.items():
        winners[winner] += p
        outcomes[outcome] += p
        a_lost[a] += p
        d_lost[d] += p
    for outcome in {*outcomes, *exact["outcomes"]}:
        got = exact["outcomes"].get(outcome, 0.0)
        assert got == pytest.approx(outcomes[outcome], abs=tolerance), (attacker, defender, options, outcome)
    for winner in ("attacker", "defender", "none"):
        assert exact[winner] == pytest.approx(winners[winner], abs=tolerance), (attacker, defender, options, winner)
    for count in range(max(len(exact["a_lost"]), max(a_lost, default=0) + 1)):
        got = exact["a_lost"][count] if count < len(exact["a_lost"]) else 0.0
        assert got == pytest.approx(a_lost[count], abs=tolerance), (attacker, defender, options, count)
    for count in range(max(len(exact["d_lost"]), max(d_lost, default=0) + 1)):
        got = exact["d_lost"][count] if count < len(exact["d_lost"]) else 0.0
        assert got == pytest.approx(d_lost[count], abs=tolerance), (attacker, defender, options, count)


CHI_SQUARE_CASES = [
    ("8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco", {"reaction_shots": 10, "distance": 9.0}),
    ("6x Volksgrenadiers: inexperienced smg=2 nco", "5x Rangers: veteran tough-fighters",
     {"rough_ground": True, "distance": 5.0}),
    ("12x Conscripts: inexperienced fanatics officer", "7x Paras: veteran smg=3 nco",
     {"reaction_shots": 7, "distance": 10.0, "reaction_modifiers": -1}),
    ("6x Banzai: regular fanatics", "10x Rifles: regular", {"reaction_shots": 12, "distance": 10.0}),  # no check
    ("8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco", {"reaction_shots": 10, "rough_ground": True}),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("attacker", "defender", "given"), CHI_SQUARE_CASES)
def test_the_referee_rolls_what_the_exact_odds_predict(attacker: str, defender: str, given: dict[str, Any]) -> None:
    assert_referee_agrees(GAME, attacker, defender, given, losses=True)


def test_rough_ground_without_a_distance_has_the_odds_of_an_assault_from_6_inches() -> None:
    attacker, defender = "8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco"
    unsaid = odds("boltaction", attacker, defender, rough_ground=True, reaction_shots=10)
    six = odds("boltaction", attacker, defender, rough_ground=True, reaction_shots=10, distance=6.0)
    assert unsaid.p_attacker_wins == pytest.approx(six.p_attacker_wins, abs=1e-12)
    assert unsaid.outcomes == pytest.approx(six.outcomes, abs=1e-12)


def test_fanatics_never_fail_a_morale_check_under_reaction_fire() -> None:
    result = odds("boltaction", "6x Banzai: regular fanatics", "10x Rifles: regular", distance=10.0, reaction_shots=12)
    assert result.outcomes.get("failed_morale", 0.0) == 0.0
    assert result.outcomes["shot_down"] > 0.0
