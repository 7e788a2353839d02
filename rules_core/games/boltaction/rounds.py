"""A round of close quarters: the attackers strike and the survivors strike back, or both at once (from a
defensive position and in every later round); then the round's result."""

from __future__ import annotations

from rules_core.games.boltaction.damage import roll_damage, take_casualties
from rules_core.games.boltaction.state import ATTACKER, DEFENDER, Fight, UnitState
from rules_core.report import Event, SideName, Step, event


def fight_round(fight: Fight, number: int, simultaneous: bool) -> dict[SideName, int]:
    """One round's strikes and casualties; the casualties each side caused."""
    a, d = fight.attacker, fight.defender
    caused = {ATTACKER: 0, DEFENDER: 0}
    if simultaneous:
        a_fighters, d_fighters = list(a.men), list(d.men)
        a_damage = roll_damage(fight, d, len(a_fighters), tough=sum(m.tough for m in a_fighters))
        d_damage = roll_damage(fight, a, len(d_fighters), tough=sum(m.tough for m in d_fighters))
        events: list[Event] = [
            event(
                "simultaneous",
                note="Both sides fight at the same time: every man strikes, the fallen too, "
                "and casualties are removed afterwards.",
            ),
        ]
        caused[ATTACKER] = take_casualties(a, d, a_damage, events)
        caused[DEFENDER] = take_casualties(d, a, d_damage, events)
        fight.steps.append(
            Step(f"Round {number}: both sides strike at once", (*a_damage.rolls, *d_damage.rolls), tuple(events))
        )
        return caused
    for striker, target in ((a, d), (d, a)):
        if not striker.alive:
            continue
        damage = roll_damage(fight, target, striker.alive, tough=sum(m.tough for m in striker.men))
        events = []
        caused[striker.side] = take_casualties(striker, target, damage, events)
        verb = "strike" if striker is a else "strike back"
        fight.steps.append(Step(f"Round {number}: {striker.name} {verb}", damage.rolls, tuple(events)))
    return caused


def round_result(
    fight: Fight, number: int, caused: dict[SideName, int], verdict: str, winner: UnitState | None
) -> None:
    fight.steps.append(
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
