"""40K at the table: which models each side removes, group by group ("2 Tactical Marines and the Sergeant"), every
move with its distance (fall back, consolidate, pile in), and what comes next (``Game.table_summary``).

The report counts casualties per unit; which group's models fell is the owner's casualty order applied as the fight
went. Rather than store more (the report JSON must not change), the hook re-runs the fight on the report's own dice
(:class:`~rules_core.table.ReplayDice`) and reads the groups as they stand at the end; it trusts that only when the
re-run gives the identical report, and otherwise falls back on the casualty events per unit.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.errors import RefereeError
from rules_core.games.wh40k.engine import ENDS, Assault
from rules_core.games.wh40k.spec import parse_side
from rules_core.options import OptionSpec, validate_options
from rules_core.report import Event, Report, SideName, thaw
from rules_core.spec import reading_canonical
from rules_core.table import (
    ReplayDice,
    TableSummary,
    counted,
    default_removal,
    join_words,
    wiped_out,
)


def table_summary(report: Report, options: tuple[OptionSpec, ...]) -> TableSummary:
    sides = (SideName.ATTACKER, SideName.DEFENDER)
    groups = _groups_at_end(report, options)
    swept = _swept(report)
    cut = swept[2] if swept is not None else {}
    removals = tuple(
        _removal(groups[side], cut if swept and side is swept[0] else {})
        if groups is not None
        else default_removal(report, side)
        for side in sides
    )
    # A unit that fell back and was then cut down by the sweeping advance makes no move and has nothing to regroup.
    gone = {(side, label) for side in sides for label, found in (groups or {}).get(side, []) if not _alive(found)}
    gone |= {(side, str(ev.get("unit"))) for side, out in zip(sides, wiped_out(report), strict=True) if out
             for step in report.steps for ev in step.events if ev.get("side") == side}  # fmt: skip
    said = groups is not None and swept is not None and len(groups[swept[0]]) > 1  # by _removal, on each unit
    removed, added = _with_sweep(swept, list(removals), said=said)
    return TableSummary(
        removals=(removed[0], removed[1]),
        destroyed=wiped_out(report),
        moves=_moves(report, gone),
        next_step=_next(report, gone),
        fates=_fates(report, groups),
        added=(added[0], added[1]),
    )


def _with_sweep(
    swept: tuple[SideName, int, dict[str, int]] | None, removals: list[str], *, said: bool
) -> tuple[list[str], list[str]]:
    """The removals with the models the sweeping advance cut down said (``said``: already on each unit of a side of
    several, by ``_removal``; an older record's fallback names the units), and the words after each side's tallies
    saying what the sweep added (its wounds do not count for the result, which the tallies are)."""
    added = ["", ""]
    if swept is None:
        return removals, added
    victim, wounds, models = swept
    striker = 0 if victim is SideName.DEFENDER else 1
    if wounds:
        added[striker] = f" (+{wounds} in the sweeping advance, not counted)"
    if models and not said:
        removed, mark, marks = removals[1 - striker].partition("; mark ")
        whose = "" if len(models) == 1 else ": " + join_words([counted(unit, n) for unit, n in models.items()])
        removals[1 - striker] = f"{removed} ({sum(models.values())} of them{whose} {CUT_DOWN}){mark}{marks}"
    return removals, added


CUT_DOWN = "cut down in the sweeping advance"


def _swept(report: Report) -> tuple[SideName, int, dict[str, int]] | None:
    """The side cut down in sweeping advances, the wounds taken off its models there and the models each of its
    units lost there (none of them count for the result, which came before); None when nobody struck in a sweeping
    advance."""
    victim: SideName | None = None
    wounds = 0
    models: dict[str, int] = {}
    for step in report.steps:
        if not step.title.startswith("Sweeping advance: ") or "→" not in step.title:
            continue
        for ev in step.events:
            if ev.kind == "strike":
                victim = SideName(str(ev.get("side"))).other
            elif ev.kind == "wounds" and ev.get("side") == victim:
                wounds += int(ev.get("inflicted") or 0)
            elif ev.kind == "casualty" and ev.get("side") == victim and int(ev.get("models") or 0):
                unit = str(ev.get("unit"))
                models[unit] = models.get(unit, 0) + int(ev.get("models") or 0)
    return None if victim is None else (victim, wounds, models)


def _fates(report: Report, groups: dict[SideName, Groups] | None) -> tuple[tuple[str, str], ...]:
    """Each losing unit's own fate (held, fell back, destroyed) when they differ: "Ork held, Grot was destroyed",
    never "Ork and Grot held their ground" over a table line that removes every Grot."""
    winner = str(report.result.winner)
    if winner not in (SideName.ATTACKER, SideName.DEFENDER):
        return ()
    losing = SideName(winner).other
    tested = {str(ev.get("unit")): bool(ev.get("passed")) for ev in _events(report, "morale", losing)}
    fled = {str(ev.get("unit")) for ev in _events(report, "fall_back", losing)}
    if groups is not None:  # the units as they stand at the end
        units = [(label, _alive(found) > 0) for label, found in groups[losing]]
    else:  # an older record: a unit that took no morale test had no model left to take it
        units = [(label, True) for label in tested]
        units += [(label, False) for label in dict.fromkeys(_labels(report, losing)) if label not in tested]
    fates = tuple(
        (label, "destroyed" if not alive else "fell_back" if label in fled else "held") for label, alive in units
    )
    return fates if len({fate for _, fate in fates}) > 1 else ()


def _events(report: Report, kind: str, side: SideName) -> list[Event]:
    return [ev for step in report.steps for ev in step.events if ev.kind == kind and ev.get("side") == side]


def _labels(report: Report, side: SideName) -> list[str]:
    """The side's units as the report names them (who fights whom)."""
    return [str(ev.get("unit")) for ev in _events(report, "fighting", side)]


def _alive(groups: list[tuple[str, int, int, int]]) -> int:
    return sum(left for _, _, left, _ in groups)


MOST_NAMED = 6  # groups named in one unit's removals; the rest are counted

# unit label -> its groups as (name, models at the start, models left, wounds lost by a living wounded model)
Groups = list[tuple[str, list[tuple[str, int, int, int]]]]


def _groups_at_end(report: Report, options: tuple[OptionSpec, ...]) -> dict[SideName, Groups] | None:
    """Each side's units and groups as they stand after the fight, re-run on the report's dice; None when the re-run
    is not the same fight (an older engine's record, a report built by hand)."""
    fight = ENDS.get(report)
    if isinstance(fight, Assault):  # just resolved: its end as it stands
        return _groups_of(fight)
    given = thaw(report.inputs.options)
    if not isinstance(given, Mapping):
        return None
    try:
        with reading_canonical():
            attacker, defender = parse_side(report.inputs.attacker), parse_side(report.inputs.defender)
        fight = Assault(attacker, defender, validate_options(options, given), ReplayDice(report))
        again = fight.run()
    except (RefereeError, ValueError, KeyError, TypeError):
        return None
    if again != report:
        return None
    return _groups_of(fight)


def _groups_of(fight: Assault) -> dict[SideName, Groups]:
    found: dict[SideName, Groups] = {}
    for side in SideName:
        found[side] = [
            (
                state.label,
                [
                    (
                        g.group.name,
                        g.group.count,
                        g.alive(),
                        max((g.full_wounds - w for w in g.wounds if w > 0), default=0),
                    )
                    for g in state.groups
                ],
            )
            for state in fight.units[side]
        ]
    return found


def _removal(units: Groups, cut: Mapping[str, int]) -> str:
    """'2 Tactical Marines and the Sergeant' (one unit); with several units, each named: '3 from Ork Mob 1, all 6 from
    Ork Mob 3; Tactical Squad: 2 Tactical Marines and the Sergeant', with the models each unit lost in the sweeping
    advance (``cut``) said on it: 'all 10 from Ork (5 of them cut down in the sweeping advance)'."""
    parts: list[str] = []
    for label, groups in units:
        swept = f" ({cut[label]} of them {CUT_DOWN})" if len(units) > 1 and cut.get(label) else ""
        if len(units) > 1 and len(groups) == 1 and groups[0][0] == label:  # a unit of one group, named as it
            _, start, left, hurt = groups[0]
            if start > left:
                parts.append(f"{'all ' if not left else ''}{start - left} from {label}{swept}")
            if left and hurt:
                parts.append(f"mark {hurt} wound{'s' if hurt != 1 else ''} on a model of {label}")
            continue
        dead = [
            ("the " + name) if start == 1 else counted(name, start - left)
            for name, start, left, _ in groups
            if start > left
        ]
        marks = [
            f"{hurt} wound{'s' if hurt != 1 else ''} on {'the' if start == 1 else 'a'} {name}"
            for name, start, left, hurt in groups
            if left and hurt
        ]
        if len(dead) > MOST_NAMED:  # a unit of many small groups: a phone line, not a roll call
            rest = [start - left for _, start, left, _ in groups if start > left][MOST_NAMED - 1 :]
            dead = [*dead[: MOST_NAMED - 1], f"{sum(rest)} more from {len(rest)} other groups"]
        text = join_words(dead)
        text += swept if text else ""
        if marks:
            text = (text + "; " if text else "") + "mark " + join_words(marks)
        if text:
            parts.append(text if len(units) == 1 else f"{label}: {text}")
    return ", ".join(parts) if all(" from " in part for part in parts) else "; ".join(parts)


def _same_distance(events: list[Event], verb: str) -> list[str]:
    """One phrase per distance: 'Ork Boy and Gretchin fall back 7"' (never one sentence per unit)."""
    by_distance: dict[float, list[str]] = {}
    for ev in events:
        by_distance.setdefault(float(ev.get("distance") or 0), []).append(str(ev.get("unit")))
    phrases = []
    for distance, units in by_distance.items():
        singular, many = verb.split("|")
        phrases.append(f'{join_words(units)} {singular if len(units) == 1 else many} {distance:g}"')
    return phrases


def _fled(report: Report, gone: set[tuple[SideName, str]]) -> list[Event]:
    """The fall-back events of units still standing at the end (one cut down as it fled makes no move)."""
    return [
        ev
        for step in report.steps
        for ev in step.events
        if ev.kind == "fall_back" and (SideName(str(ev.get("side"))), str(ev.get("unit"))) not in gone
    ]


def _moves(report: Report, gone: set[tuple[SideName, str]]) -> tuple[str, ...]:
    found: dict[str, list[Event]] = {}
    for step in report.steps:
        for ev in step.events:
            found.setdefault(ev.kind, []).append(ev)
    moves: list[str] = []
    moves += _same_distance(_fled(report, gone), "falls back|fall back")
    moves += _same_distance(found.get("consolidate", []), "may consolidate up to|may consolidate up to")
    moves += [
        phrase + " to base contact"
        for phrase in _same_distance(found.get("pile_in", []), "piles in up to|pile in up to")
    ]
    return tuple(moves)


def _next(report: Report, gone: set[tuple[SideName, str]]) -> str:
    if report.result.outcome == "no_charge":
        missed = next((ev for step in report.steps for ev in step.events if ev.kind == "not_joined"), None)
        return "No combat this turn." if missed is None else str(missed.get("note"))
    # Each fled unit keeps falling back as many D6 a turn as it fell back with now (3D6 for bikes and jump packs),
    # whether or not the rest of the fight goes on without it.
    by_dice: dict[int, list[str]] = {}
    for ev in _fled(report, gone):
        by_dice.setdefault(int(ev.get("dice") or 2), []).append(str(ev.get("unit")))
    clauses = []
    for dice, fled in by_dice.items():
        one = len(fled) == 1
        clauses.append(f'{join_words(fled)} {"falls" if one else "fall"} back {dice}D6" a turn until '
                       f"{'it regroups' if one else 'they regroup'} (Ld test)")  # fmt: skip
    goes_on = next((ev for step in report.steps for ev in step.events if ev.kind == "continues"), None)
    if goes_on is not None:
        clauses.insert(0, f"Fight round {goes_on.get('next_round')} next turn (no charge bonus)")
    return "; ".join(clauses) + "." if clauses else "The combat is over."
