"""Dice sources. The only module in rules_core that may import ``random``.

Every resolver takes its dice source as an argument:

* :class:`SeededDice` in production: a private ``random.Random`` seeded from
  ``secrets`` (or from a given seed), so a resolution can be replayed exactly.
* :class:`ScriptedDice` in tests: hands out the faces it was given, and fails
  when the code asks for more dice than scripted, or (at :meth:`finish`) for
  fewer.

Nothing here touches the global ``random`` generator.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from rules_core.errors import DiceError, example

MAX_SEED = 2**53 - 1  # exactly representable in JSON consumers that use doubles


def new_seed() -> int:
    """A fresh seed from the operating system's secure generator."""
    return secrets.randbelow(MAX_SEED + 1)


@runtime_checkable
class DiceSource(Protocol):
    """What a resolver needs from dice: D6 faces, the seed to report, and a check at the end."""

    seed: int

    def d6(self, count: int) -> list[int]:
        """Roll ``count`` six-sided dice."""
        ...

    def finish(self) -> None:
        """Called once when a resolution is complete."""
        ...


class SeededDice:
    """Honest dice from a private Mersenne Twister seeded with ``seed``.

    ``random()`` is used rather than ``randrange`` because its output for a given
    seed has been stable across every CPython 3 release, which replay relies on;
    the bias of ``int(random() * 6)`` is below 2**-50 per face.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = new_seed()
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise DiceError(
                f"The seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}.",
                token=str(seed),
                example=example(seed=12345),
            )
        self.seed = seed
        self._random = random.Random(seed)

    def d6(self, count: int) -> list[int]:
        draw = self._random.random
        return [int(draw() * 6) + 1 for _ in range(count)]

    def finish(self) -> None:
        return None


class ScriptedDice:
    """Dice that hand out exactly the faces given, for tests.

    Asking for more dice than remain raises :class:`DiceError` at once; dice
    left over when the resolver calls :meth:`finish` raise too, so a test fails
    when the code rolls too few dice as well as too many.
    """

    __slots__ = ("_faces", "_position", "seed")

    def __init__(self, faces: Iterable[int], seed: int = 0) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise DiceError(f"A scripted D6 face must be 1 to 6, not {face!r}.", token=str(face))
        self._position = 0
        self.seed = seed

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._position

    def d6(self, count: int) -> list[int]:
        if count > self.remaining:
            raise DiceError(
                f"The code asked for {count} dice but only {self.remaining} of the "
                f"{len(self._faces)} scripted remain (position {self._position}).",
            )
        faces = self._faces[self._position : self._position + count]
        self._position += count
        return faces

    def finish(self) -> None:
        if self.remaining:
            raise DiceError(
                f"{self.remaining} scripted dice were never rolled: "
                f"{self._faces[self._position :]} (the code rolled {self._position}).",
            )
