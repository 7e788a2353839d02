"""One walk over a report's steps, shared by the text renderers: each renderer is a stringifier of its nodes.

A step reads in one order everywhere: its leading events first (who strikes with what, where the hits fall: they
read best before the dice), then its rolls, then its other events (an event with a note shows the note; a casualty
without one says what was removed; any other event shows nothing). :class:`Stringifier` walks a step in that
order once; a renderer (``bot.render.terminal``, ``bot.render.markdown``) says how each kind of node looks, one
method per kind, as avrae/d20's stringifiers do.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, TypeVar

from rules_core.report import Event, Roll, Step

LEADING = frozenset({"strike", "allocation"})  # who attacks with what / where hits fall: read before the dice

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Face:
    """One die of a roll as shown: its face, whether it is read on its own against the roll's target (``per_die``)
    and then whether it succeeded, and the face it was re-rolled from (None when it was not re-rolled)."""

    value: int
    per_die: bool
    success: bool
    before: int | None


def roll_text(roll: Roll) -> tuple[str, str]:
    """(what was needed, how it came out) for one roll, in plain words."""
    need = "" if roll.target is None else f"{roll.target.value}{'+' if roll.target.op == '>=' else ' or less'}"
    if roll.combine == "each" and roll.target is None:
        outcome = "rolled"  # dice read for their value (damage dice): the events say what they meant
    elif roll.combine == "each":
        outcome = f"{roll.successes} success{'es' if roll.successes != 1 else ''}"
    else:
        total = sum(roll.dice) if roll.combine == "sum" else max(roll.dice)
        word = "total" if roll.combine == "sum" else "highest"
        outcome = f"{word} {total}"
        if roll.target is not None:
            outcome += ": " + ("passed" if roll.successes else "failed")
    return need, outcome


def faces(roll: Roll) -> list[Face]:
    """The dice of a roll in the order rolled, each with what a renderer needs to mark it."""
    rerolled = {r.index: r.before for r in roll.rerolls}
    per_die = roll.combine == "each" and roll.target is not None
    return [
        Face(face, per_die, per_die and roll.success[index], rerolled.get(index))
        for index, face in enumerate(roll.dice)
    ]


SUCCESS = "✔"  # the marks of a roll's dice: they read in plain text, on any screen, without colour
FAILURE = "✘"
LISTED = 24  # dice of one group listed one by one: more are counted by face ("6 (×12)"), so a line stays readable


@dataclass(frozen=True, slots=True)
class Group:
    """Dice of a roll shown together: its successes (``mark`` ✔) or failures (✘), highest face first; or, for dice
    read for their value or total (no mark), all of them in the order rolled."""

    mark: str
    faces: tuple[Face, ...]

    def counts(self) -> list[tuple[int, int]] | None:
        """(face, how many) highest first when the group is too long to list, else None."""
        if len(self.faces) <= LISTED:
            return None
        found: dict[int, int] = {}
        for face in self.faces:
            found[face.value] = found.get(face.value, 0) + 1
        return sorted(found.items(), reverse=True)


def grouped(shown: list[Face]) -> list[Group]:
    """A roll's dice grouped by success, each group sorted by face: ``✔ 6 6 5 4 · ✘ 3 2 1 1``; an empty group
    is left out. Dice not read one by one keep the order they were rolled in (a 2D6 total reads as rolled)."""
    if not shown or not shown[0].per_die:
        return [Group("", tuple(shown))]
    order = sorted(shown, key=lambda face: face.value, reverse=True)
    found = [Group(SUCCESS, tuple(f for f in order if f.success)),
             Group(FAILURE, tuple(f for f in order if not f.success))]  # fmt: skip
    return [group for group in found if group.faces]


def face_text(face: Face) -> str:
    """One die as plain text: its face, or ``2→5`` for a re-rolled one."""
    return str(face.value) if face.before is None else f"{face.before}→{face.value}"


def group_text(group: Group) -> str:
    """A group of dice as plain text: ``✔ 6 6 5``, or ``✔ 6 (×14) 5 (×12)`` when counted."""
    counts = group.counts()
    dice = (" ".join(face_text(face) for face in group.faces) if counts is None
            else " ".join(f"{value} (×{count})" for value, count in counts))  # fmt: skip
    return f"{group.mark} {dice}" if group.mark else dice


def dice_text(shown: list[Face]) -> str:
    """All of a roll's dice as plain text, grouped and marked: ``✔ 6 6 5 4 · ✘ 3 2 1 1``."""
    return " · ".join(group_text(group) for group in grouped(shown))


class Stringifier(ABC, Generic[T]):
    """Walks a step's nodes in the one order; a subclass renders each kind of node as a ``T``."""

    def step(self, step: Step) -> list[T]:
        """The step's lines in reading order (its title is the renderer's frame, not a line)."""
        lines: list[T] = []
        for ev in step.events:
            if ev.kind in LEADING:
                shown = self.leading(ev)
                if shown is not None:
                    lines.append(shown)
        for roll in step.rolls:
            need, outcome = roll_text(roll)
            lines.append(self.roll(roll, need, outcome, faces(roll)))
        for ev in step.events:
            if ev.kind in LEADING:
                continue
            if ev.get("note"):
                lines.append(self.note(ev))
            elif ev.kind == "casualty":
                lines.append(self.casualty(ev))
        return lines

    @abstractmethod
    def leading(self, event: Event) -> T | None:
        """A leading event (a strike, an allocation); None shows nothing."""

    @abstractmethod
    def roll(self, roll: Roll, need: str, outcome: str, faces: list[Face]) -> T:
        """A roll: its purpose, what it needed, its dice and how it came out."""

    @abstractmethod
    def note(self, event: Event) -> T:
        """An event that carries a note (shown as ``str(event.get("note"))``)."""

    @abstractmethod
    def casualty(self, event: Event) -> T:
        """A casualty event without a note: which unit lost how many models."""
