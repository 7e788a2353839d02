"""The next round of a 40K combat that goes on: the survivors, where they stand, and the options that carry over.

A continued combat is fought again next turn with the survivors the report lists (its ``continues`` event). The
charge turn's facts do not carry over, and each unit keeps the last round's positions, capped by the models left,
unless the player gives them (``rules_core.games.wh40k.positions``).
"""

from __future__ import annotations

from typing import Any

from rules_core.games.wh40k.positions import POSITIONS_EXAMPLE, apply_positions
from rules_core.games.wh40k.spec import format_side, parse_side
from rules_core.registry import NextRound
from rules_core.report import Report

# Facts of the charge turn that no later round has: a continued combat drops them (no charge, no cover advantage).
CHARGE_ONLY: dict[str, Any] = {
    "charge_distance": None,
    "difficult_terrain": False,
    "shot_this_turn": False,
    "defender_in_cover": False,
    "defender_falling_back": False,  # a unit that regrouped when charged fights on normally
}

# Engine versions whose "continues" event put every survivor in base contact (positions were not kept yet).
ALL_ENGAGED_ENGINES = frozenset({"0.1.0"})

POSITIONS_HELP = (
    f'Per unit, models in base contact:within 2" for the next round, e.g. "{POSITIONS_EXAMPLE}" '
    "(default: last round's, capped by the models left)."
)


def next_round(report: Report, *, attacker_positions: str | None, defender_positions: str | None) -> NextRound:
    """The next round's inputs from a report whose combat goes on (it holds a ``continues`` event).

    Each side's units keep the last round's positions, capped by the models left (the survivors the report
    lists), unless the player gives them (``Ork Boy=6:4 | Nob=1``: in base contact, within 2"); ``positions``
    says which applied, in words for either front end.
    """
    step = next(ev for step in report.steps for ev in step.events if ev.kind == "continues")
    options = {**dict(report.to_dict()["inputs"]["options"]), **CHARGE_ONLY, "round": step.get("next_round")}
    options = {name: value for name, value in options.items() if value is not None}
    # Records of the engines before positions were kept list every survivor in base contact.
    default = (
        "every model in base contact, as the record lists them"
        if report.engine_version in ALL_ENGAGED_ENGINES
        else "last round's, capped by the models left"
    )
    sides: list[str] = []
    said: list[str] = []
    for name, text, given in (
        ("attacker", str(step.get("attacker_survivors")), attacker_positions),
        ("defender", str(step.get("defender_survivors")), defender_positions),
    ):
        placed, changed = apply_positions(parse_side(text), given, side_name=name)
        sides.append(format_side(placed) if changed else text)
        if not changed:
            said.append(f"{name}: {default}")
        else:
            others = f" (the other units: {default})" if len(changed) < len(placed.units) else ""
            said.append(f"{name}: as given, " + "; ".join(changed) + others)
    positions = f"Positions for round {step.get('next_round')}: " + "; ".join(said) + "."
    return NextRound(sides[0], sides[1], options, positions)
