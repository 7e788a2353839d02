"""Continuing a 40K combat that goes on: the checks and the next round's inputs, shared by the CLI and the bot."""

from __future__ import annotations

from typing import Any

from bot.storage.records import StoredCombat
from rules_core import RefereeError
from rules_core.games.wh40k.positions import apply_positions
from rules_core.games.wh40k.spec import format_side, parse_side

# Facts of the charge turn that no later round has: a continued combat drops them (no charge, no cover advantage).
CHARGE_ONLY = {
    "charge_distance": None,
    "difficult_terrain": False,
    "shot_this_turn": False,
    "defender_in_cover": False,
    "defender_falling_back": False,  # a unit that regrouped when charged fights on normally
}

# Engine versions whose "continues" event put every survivor in base contact (positions were not kept yet).
ALL_ENGAGED_ENGINES = frozenset({"0.1.0"})

POSITIONS_HELP = (
    'Per unit, models in base contact:within 2" for the next round, e.g. "Ork Boy=6:4 | Nob=1" '
    "(default: last round's, capped by the models left)."
)


def next_round(
    stored: StoredCombat,
    continued_by: int | None,
    *,
    attacker_positions: str | None = None,
    defender_positions: str | None = None,
) -> tuple[str, str, dict[str, Any], str]:
    """(attacker, defender, options, positions) of the next round, or a RefereeError saying why there is none.

    Each side's units keep the last round's positions, capped by the models left (the survivors the report
    lists), unless the player gives them (``Ork Boy=6:4 | Nob=1``: in base contact, within 2"); ``positions``
    says which applied, in words for either front end.
    """
    report = stored.report
    record_id = stored.id
    going_on = [ev for step in report.steps for ev in step.events if ev.kind == "continues"]
    if report.game != "40k":
        raise RefereeError(
            f"Record #{record_id} is a {report.game} combat; only 40K assaults carry on into later rounds.",
            token=str(record_id),
        )
    if not going_on:
        raise RefereeError(
            f"Record #{record_id}'s combat is over ({report.result.outcome.replace('_', ' ')}): there is no next "
            "round.",
            token=str(record_id),
        )
    if stored.voided:
        raise RefereeError(f"Record #{record_id} is void: its combat cannot go on.", token=str(record_id))
    if continued_by is not None:
        raise RefereeError(
            f"Record #{record_id}'s combat has already been continued as #{continued_by}: continue #{continued_by} "
            "instead.",
            token=str(record_id),
        )  # no example: a whole command differs per front end, and the sentence says what to do
    step = going_on[0]
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
    return sides[0], sides[1], options, positions
