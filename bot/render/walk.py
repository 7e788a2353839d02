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
