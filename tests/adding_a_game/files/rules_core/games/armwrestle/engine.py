"""The arm-wrestle: bouts of D6 + strength, the loser of each bout out, until a team is out or time is called."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_core.dice import DiceSource
from rules_core.games.armwrestle.spec import Team, format_team
from rules_core.report import Event, FrozenMap, Inputs, Report, Result, SideResult, Step, Winner, event
from rules_core.rolling import roll_unchecked

GAME_ID = "armwrestle"


def bonuses(attacker: Team, defender: Team, options: Mapping[str, Any]) -> tuple[int, int]:
    """What each side adds to its die beside its strength: a southpaw's +1, the home bench's +1."""
    attacker_bonus = int(attacker.southpaw and not defender.southpaw)
    defender_bonus = int(defender.southpaw and not attacker.southpaw) + int(bool(options["home_bench"]))
    return attacker.strength + attacker_bonus, defender.strength + defender_bonus


def resolve(attacker: Team, defender: Team, options: Mapping[str, Any], dice: DiceSource) -> Report:
    attacker_add, defender_add = bonuses(attacker, defender, options)
    left = {"attacker": attacker.count, "defender": defender.count}
    names = {"attacker": attacker.name, "defender": defender.name}
    steps: list[Step] = []
    bouts = 0
    while bouts < int(options["bouts"]) and left["attacker"] and left["defender"]:
        bouts += 1
        pulls = (roll_unchecked(dice, "attacker's pull", 1), roll_unchecked(dice, "defender's pull", 1))
        totals = {"attacker": pulls[0].dice[0] + attacker_add, "defender": pulls[1].dice[0] + defender_add}
        if totals["attacker"] == totals["defender"]:
            out = ["attacker", "defender"] if options["ties"] == "both_out" else []
            winner = "tie"
        else:
            winner = max(totals, key=totals.__getitem__)
            out = ["defender" if winner == "attacker" else "attacker"]
        said = f"{attacker.name} pulls {totals['attacker']}, {defender.name} {totals['defender']}"  # dice + bonuses
        events: list[Event] = [event("bout", winner=winner, note=said, **totals)]
        for side in out:
            left[side] -= 1
            events.append(event("casualty", side=side, unit=names[side], models=1))
        steps.append(Step(f"Bout {bouts}: {attacker.name} against {defender.name}", pulls, tuple(events)))
    lost = {side: (attacker if side == "attacker" else defender).count - left[side] for side in left}
    if not left["attacker"] and not left["defender"]:
        outcome, won = "both_out", Winner.DRAW
    elif not left["attacker"] or not left["defender"]:
        outcome, won = "pinned", Winner.ATTACKER if left["attacker"] else Winner.DEFENDER
    elif lost["attacker"] == lost["defender"]:
        outcome, won = "time_called", Winner.DRAW
    else:
        outcome, won = "on_points", Winner.ATTACKER if lost["attacker"] < lost["defender"] else Winner.DEFENDER
    sides = {side: SideResult(lost[side], left[side], FrozenMap(bouts=bouts)) for side in left}
    return Report(
        game=GAME_ID,
        seed=dice.seed,
        inputs=Inputs(format_team(attacker), format_team(defender), FrozenMap(options)),
        steps=tuple(steps),
        result=Result(outcome, won, sides["attacker"], sides["defender"]),
    )
