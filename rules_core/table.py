"""What the players do at the table after a resolution, read from its report: what each side removes, the moves to
make, and what to roll or decide next (``Game.table_summary``; the front ends word the winner and the players).

Everything here reads a :class:`Report` and never changes it: the stored report JSON is the same with or without
it. The helpers are shared by the games' hooks (a game words its own removals and moves, with its own nouns).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

from rules_core.errors import RefereeError
from rules_core.report import Report, SideName
from rules_core.spec import group_head, split_units

NEXT_STEP_TITLE = "What happens next"  # the step title every game gives its closing instructions


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What a player acts on at the table after a resolution, in words for either front end (no Markdown).

    ``removals``: what the attacker and the defender remove, each a phrase after "remove" ("2 Tactical Marines and
    the Sergeant"), empty when that side removes nothing; wounds to mark on a model left standing follow as
    "; mark 1 wound on the Nob" (or are the whole phrase, "mark 1 wound on the Nob"); ``destroyed``: which sides
    are wiped out (the summary says so instead of a count); ``moves``: every move to make, once each, with its
    distance where the report has it ('Ork Boy falls back 7"'); ``next_step``: what to roll or decide next ("Fight
    round 2 next turn"), empty for nothing; ``left``: the word for what a side has left, one and many (empty: the
    game's ``losses_count``); ``notes``: lines said after the sides' lines (what each formation of a side of
    several ends with); ``parts``: what a spec's '|' separates, when a side has several (empty: "units");
    ``fates``: each of the loser's units with what befell it (an outcome word of the
    game's ``loser_fates``: "held", "fell_back", "destroyed"), given only when they differ (the outcome word then
    says it for none of them), in the order of the loser's units; ``added``: words said after the attacker's and
    the defender's tallies, about what they leave out (" (+2 in the sweeping advance, not counted)").
    """

    removals: tuple[str, str] = ("", "")
    destroyed: tuple[bool, bool] = (False, False)
    moves: tuple[str, ...] = ()
    next_step: str = ""
    left: tuple[str, str] = ("", "")
    notes: tuple[str, ...] = ()
    parts: str = ""
    fates: tuple[tuple[str, str], ...] = ()
    added: tuple[str, str] = ("", "")

    def removal(self, side: SideName | str) -> str:
        return self.removals[0 if side == SideName.ATTACKER else 1]

    def is_destroyed(self, side: SideName | str) -> bool:
        return self.destroyed[0 if side == SideName.ATTACKER else 1]


def plural(name: str, count: int) -> str:
    """``name`` for ``count`` models, in English: "Tactical Marine" -> "Tactical Marines", "Ork Boyz" stays.

    A name that already reads as a plural or a mass (ends in s, z or x) is kept; "man" becomes "men", a consonant's
    "y" becomes "ies"."""
    if count == 1 or not name:
        return name
    lower = name.lower()
    if lower.endswith(("s", "z", "x")):
        return name
    if lower.endswith("man"):
        return name[:-2] + "en"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return name[:-1] + "ies"
    return name + "s"


def counted(name: str, count: int) -> str:
    """'3 Ork Boys', 'the Sergeant' (the only model of its kind: ``count`` 1 of a group of one is named)."""
    return f"{count} {plural(name, count)}"


def join_words(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [item for item in items if item]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def unit_names(text: str) -> list[str]:
    """The names of a side's units as its spec gives them: each unit's first group ("Tactical Marine")."""
    names: list[str] = []
    try:
        for unit in split_units(text):
            names.append(group_head(unit)[1])
    except RefereeError:
        return []
    return names


def side_name(report: Report, side: SideName | str, most: int = 1) -> str:
    """A side named by its units, for a headline: "Tactical Marine", "Ork Boy and Gretchin", "Ork Mob, Ork Nobz and
    6 more units"; the role ("the attacker") when the inputs do not read."""
    text = report.inputs.attacker if side == SideName.ATTACKER else report.inputs.defender
    names = unit_names(text)
    if not names:
        return f"the {side}"
    if len(names) <= most + 1:
        return join_words(names)
    return f"{', '.join(names[:most])} and {len(names) - most} more units"


def reads_plural(name: str) -> bool:
    """Whether a unit's name reads as a plural ("Grenadiers", "Ork Boyz", "Marines and Scouts"), for its verb."""
    last = name.lower().rstrip()
    return " and " in last or (last.endswith(("s", "z")) and not last.endswith("ss"))


def casualties_by_unit(report: Report, side: SideName | str) -> dict[str, int]:
    """The models (or units: a formation game's ``units``) each unit of ``side`` lost, from its casualty events, in
    the order first lost; a casualty event without a unit counts under the empty name."""
    lost: dict[str, int] = {}
    for step in report.steps:
        for ev in step.events:
            if ev.kind != "casualty" or ev.get("side") != str(side):
                continue
            count = ev.get("models", ev.get("units", 0))
            if isinstance(count, int) and count > 0:
                unit = str(ev.get("unit") or "")
                lost[unit] = lost.get(unit, 0) + count
    return lost


def default_removal(report: Report, side: SideName | str, noun: str = "models") -> str:
    """What ``side`` removes read from its casualty events ("3 Ork Boys, 1 Nob"), or from the result's ``lost``
    when the report has none ("3 models"); empty when it lost nothing."""
    by_unit = casualties_by_unit(report, side)
    named = [counted(unit, count) for unit, count in by_unit.items() if unit]
    unnamed = by_unit.get("", 0)
    if unnamed:
        named.append(f"{unnamed} {noun if unnamed != 1 else noun.removesuffix('s')}")
    if named:
        return join_words(named)
    lost = report.result.side(SideName(str(side))).lost
    return f"{lost} {noun if lost != 1 else noun.removesuffix('s')}" if lost else ""


def next_step_notes(report: Report) -> str:
    """The notes of the report's closing step ("What happens next"), joined: a game's own instructions, unparsed."""
    for step in reversed(report.steps):
        if step.title == NEXT_STEP_TITLE:
            return " ".join(str(ev.get("note")) for ev in step.events if ev.get("note"))
    return ""


def default_table_summary(report: Report, noun: str = "models") -> TableSummary:
    """The summary a game with no hook of its own gets: the removals from its casualty events (or ``lost``), the
    sides left with nothing, and its "What happens next" notes as the next step (no moves: they are in the notes)."""
    sides = (SideName.ATTACKER, SideName.DEFENDER)
    return TableSummary(
        removals=(default_removal(report, sides[0], noun), default_removal(report, sides[1], noun)),
        destroyed=wiped_out(report),
        next_step=next_step_notes(report),
    )


def wiped_out(report: Report) -> tuple[bool, bool]:
    """Whether the attacker and the defender have nothing left (and had something to lose)."""
    result = report.result
    return (
        result.attacker.remaining == 0 and result.attacker.lost > 0,
        result.defender.remaining == 0 and result.defender.lost > 0,
    )


class EndStates:
    """The fights a game resolved most recently, by their report: what a ``table_summary`` would otherwise re-run the
    report's dice to read (which group's models fell). A bot shows a result, and again with its record id, moments
    after resolving it; both read the fight's end from here, and only an older report (a replay) is re-run.

    Keyed by the report object itself (identity, checked: an id is reused once its object is gone), bounded, and
    safe across threads (odds are worked out in a worker thread). A cache, not state: the summary is the same either
    way (tests/rules_core/test_table_summary.py checks it)."""

    __slots__ = ("_fights", "_lock", "_size")

    def __init__(self, size: int = 64) -> None:
        self._fights: dict[int, tuple[Report, object]] = {}
        self._lock = threading.Lock()
        self._size = size

    def remember(self, report: Report, fight: object) -> None:
        with self._lock:
            self._fights[id(report)] = (report, fight)
            while len(self._fights) > self._size:
                del self._fights[next(iter(self._fights))]

    def get(self, report: Report) -> object | None:
        with self._lock:
            found = self._fights.get(id(report))
        return found[1] if found is not None and found[0] is report else None


class ReplayDice:
    """The dice a report's rolls record, handed out in the order they were first rolled (each roll's faces before
    any re-roll, then its re-rolls), for a game that re-runs its own report to read what the report does not hold
    (which group's models fell). The game compares the re-run report with the original before trusting it."""

    __slots__ = ("_faces", "seed")

    def __init__(self, report: Report) -> None:
        faces: list[int] = []
        for step in report.steps:
            for roll in step.rolls:
                first = list(roll.dice)
                for reroll in reversed(roll.rerolls):
                    first[reroll.index] = reroll.before
                faces += first
                faces += [reroll.after for reroll in roll.rerolls]
        self._faces = faces
        self.seed = report.seed

    def d6(self, count: int) -> list[int]:
        if count > len(self._faces):
            raise ValueError("the report's dice are exhausted")  # not the same procedure: the caller falls back
        taken, self._faces = self._faces[:count], self._faces[count:]
        return taken

    def finish(self) -> None:
        return None
