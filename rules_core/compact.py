"""One short line a step: what the result message lists, with the full dice one tap away.

A step of the full report reads over several lines (who strikes with what, every die, every note); on a phone the
channel shows each step as one line instead (``"Initiative 4: Marines ×10 → Orks: 11 hits, 7 wounds, 3 saved: 4 Ork
Boy slain"``). What a step says in one line is the game's: :meth:`rules_core.registry.Game.step_line`, whose
default is :func:`step_line` here, built from any game's rolls and events alone. A game's own version may reuse
the pieces (:func:`roll_brief`, :func:`casualties`, :func:`clause`).

The lines are plain text (the renderers escape and format them). Events of kind ``policy`` (how the referee made
a player's choice: which models die, a tied save) never appear in a line: they are the "Why?" of a result
(:func:`policy_notes`).
"""

from __future__ import annotations

import re

from rules_core.report import Event, Roll, Step

LINE = 110  # characters of one step's line at most: two or three lines on a phone, one on a desktop
LEADING = frozenset({"strike", "allocation", "policy"})  # never a step's one line: the detail and the why
_ASIDE = re.compile(r"\s*\([^()]*\)")  # "(WS4 vs WS4)", "(A2, +1 two Close Combat weapons)"


def cut_words(text: str, limit: int) -> str:
    """``text`` at most ``limit`` characters, cut between words and ending in '…' when cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:") + "…"


def clause(text: str, limit: int = LINE) -> str:
    """The first clause of a note (up to its first full stop or semicolon), without its asides in parentheses, at
    most ``limit`` characters."""
    first = re.split(r"(?<=[.!?;])\s", _ASIDE.sub("", text).strip(), maxsplit=1)[0].rstrip(";")
    return cut_words(_ASIDE.sub("", first).rstrip(".").strip(), limit)


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many if many is not None else one + 's')}"


def roll_brief(roll: Roll) -> str:
    """A roll in a few words: ``to hit 11/20``, ``Leadership 7: passed``, ``regroup 4``."""
    purpose = _ASIDE.sub("", roll.purpose).strip()
    if roll.combine == "each" and roll.target is not None:
        return f"{purpose} {roll.successes}/{len(roll.dice)}"
    if roll.combine == "each":
        return f"{purpose} {' '.join(map(str, roll.dice))}" if len(roll.dice) <= 6 else f"{purpose} ×{len(roll.dice)}"
    total = sum(roll.dice) if roll.combine == "sum" else max(roll.dice, default=0)
    if roll.target is None:
        return f"{purpose} {total}"
    return f"{purpose} {total}: {'passed' if roll.successes else 'failed'}"


def casualties(step: Step, verb: str = "removed") -> list[str]:
    """The step's casualty events, ``"3 Ork Boy removed"`` each (a casualty with a note says it in its note)."""
    lost: dict[str, int] = {}
    for ev in step.events:
        if ev.kind == "casualty" and isinstance(ev.get("models"), int):
            unit = str(ev.get("unit"))
            lost[unit] = lost.get(unit, 0) + int(ev.get("models"))
    return [f"{models} {unit} {verb}" for unit, models in lost.items()]


def first_note(step: Step, skip: frozenset[str] = LEADING) -> Event | None:
    """The step's first event with a note that is not detail or policy."""
    return next((ev for ev in step.events if ev.kind not in skip and ev.get("note")), None)


def step_line(step: Step) -> str:
    """Any game's step in one line: its title, then its rolls in brief and its casualties; a step without dice
    says its first note's first sentence. The default of :meth:`rules_core.registry.Game.step_line`."""
    per_die = [roll for roll in step.rolls if roll.combine == "each"]
    noted = first_note(step)
    if not per_die and noted is not None:
        body = clause(str(noted.get("note")))  # a morale test, a result roll, a step of words: its note says it
    else:
        body = fitted(step.title, shared_prefix(list(map(roll_brief, step.rolls))), casualties(step))
    return join(step.title, body)


def shared_prefix(briefs: list[str]) -> list[str]:
    """Rolls of one kind said once: ``to hit: Tactical 2/4, Rhino 1/2`` (not ``..., to hit: Rhino 1/2``)."""
    shown: list[str] = []
    previous = None
    for brief in briefs:
        kind, colon, rest = brief.partition(": ")
        shown.append(rest if colon and kind == previous else brief)
        previous = kind if colon else None
    return shown


def fitted(title: str, rolls: list[str], outcome: list[str]) -> str:
    """The rolls in brief, then what came of them (``outcome``, always kept): as many rolls as the line holds, the
    rest said as '…'."""
    tail = f": {', '.join(outcome)}" if outcome and rolls else ", ".join(outcome)
    room = LINE - len(title) - 2 - len(tail)
    shown: list[str] = []
    for number, brief in enumerate(rolls):
        more = ", …" if number < len(rolls) - 1 else ""
        if len(", ".join([*shown, brief])) + len(more) > room:
            shown.append("…")
            break
        shown.append(brief)
    return ", ".join(shown) + tail


def join(title: str, body: str) -> str:
    """A step's title and what it says, as one line of at most :data:`LINE` characters."""
    return cut_words(f"{title}: {body}" if body else title, LINE)


def policy_notes(steps: tuple[Step, ...]) -> list[str]:
    """Each distinct ``policy`` note of a report's steps, in order: why the referee chose as it did."""
    return list(dict.fromkeys(str(ev.get("note")) for step in steps for ev in step.events
                              if ev.kind == "policy" and ev.get("note")))  # fmt: skip
