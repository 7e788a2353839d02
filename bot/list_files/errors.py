"""The one error an army list file can give, and the bounds it is read under (with their reasons)."""

from __future__ import annotations

# A list is untrusted input (an upload from anyone): every bound is far above what a real list needs.
MAX_FILE_BYTES = 2 * 1024 * 1024  # the file, and a .rosz's member once unpacked; the largest real .ros is 470 KB
MAX_DEPTH = 64  # nested XML elements or JSON levels; real lists nest 16 deep at most (selections of selections)
MAX_SELECTIONS = 10_000  # every selection, upgrades included; a real 19-unit list has 213, a 200-unit list ~2,000
MAX_UNITS = 1_000  # selections of type "unit": five times the largest army the referee is asked to import (200)
MAX_MODELS = 10_000  # the sum of the "number" of model selections
MAX_NUMBER = 1_000  # one selection's "number" (an Epic company or a horde counts tens, never thousands)


class ListFileError(ValueError):
    """An army list file that cannot be read: ``str(error)`` is one line a player can act on."""


def shown(text: object, limit: int = 60) -> str:
    """A piece of the file quoted in a message: one line, cut to ``limit`` characters, in quotes."""
    line = " ".join(str(text).split())
    return repr(line if len(line) <= limit else line[: limit - 1] + "…")


def whole_number(raw: object, where: str) -> int:
    """A selection's "number", as XML text or a JSON number, within 0..MAX_NUMBER."""
    text = raw if isinstance(raw, str) else None
    if isinstance(raw, int) and not isinstance(raw, bool):
        text = str(raw)
    if isinstance(raw, float) and raw.is_integer():
        text = str(int(raw))
    if text is not None and text.strip().isdigit() and len(text.strip()) <= 7 and int(text) <= MAX_NUMBER:
        return int(text)
    raise ListFileError(
        f"{where} has number {shown(raw)}: a selection's number is a whole number from 0 to {MAX_NUMBER}, e.g. 10."
    )


class Budget:
    """Counts what one file holds as it is read, and stops it at the first bound it passes."""

    def __init__(self) -> None:
        self.selections = self.units = self.models = 0

    def count(self, type_: str, number: int, depth: int) -> None:
        if depth > MAX_DEPTH // 2:
            raise ListFileError(
                f"The list nests selections more than {MAX_DEPTH // 2} deep; real lists nest a few levels. "
                "Export it again from the app."
            )
        self.selections += 1
        self.units += type_ == "unit"
        self.models += number if type_ == "model" else 0
        for counted, limit, what in (
            (self.selections, MAX_SELECTIONS, "selections"),
            (self.units, MAX_UNITS, "units"),
            (self.models, MAX_MODELS, "models"),
        ):
            if counted > limit:
                raise ListFileError(f"The list holds more than {limit:,} {what}; the referee reads up to {limit:,}.")
