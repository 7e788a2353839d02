"""How a group's head (the text before its colon) is read: its count and its name (see docs/specs.md).

The count of a group is read the ways players write it, all meaning 10 models
named "Tactical Marine": ``10x Tactical Marine``, ``10 x Tactical Marine``,
``10X ...``, ``10× ...``, ``10 Tactical Marine``, ``Tactical Marine x10``,
``Tactical Marine X10``, ``Tactical Marine x 10``, ``Tactical Marine ×10``.
No count is one model. Decisions, so that no group is ever read as a different
number of models than meant:

- a bare number at the start is always the count (``88 Gunners`` is 88 models
  named "Gunners"); a name that really begins with a number is written after
  an explicit count: ``1x 88 Gunners``. Names such as ``2nd Platoon`` (no
  space after the digits) and ``Squad 7`` (a number at the end with no ``x``)
  are names;
- two counts in one group (``10x Marine x10``), a count inside a name
  (``Marine x10 Veteran``, ``Marine (x10)``), a count run into the name
  (``10xMarine``) and, with no count given, a number in brackets after the
  name (``Ork Boyz (20)``: 20 models, or a name?) are refused, with the ways
  to write it;
- the canonical form always writes ``Nx name``, so it re-reads the same.
"""

from __future__ import annotations

import functools
import re
from typing import NoReturn

from rules_core.errors import SpecError

# The count of a group, written the ways players write it (see the module docstring):
# "10x Name", "10 x Name", "10X Name", "10× Name" (an explicit leading count; the name may then begin with a number),
_EXPLICIT_COUNT = re.compile(r"^(\d+)\s*(?:[xX]\s+|×\s*)(.*)$", re.DOTALL)
# "10 Name" (a bare leading number is always the count),
_BARE_COUNT = re.compile(r"^(\d+)\s+(.*)$", re.DOTALL)
# "Name x10", "Name X10", "Name x 10", "Name ×10", "Name×10".
_TRAILING_COUNT = re.compile(r"^(.*?)(?:\s+[xX]\s*|\s*×\s*)(\d+)$", re.DOTALL)
# A count left inside a name ("Marine x10 Veteran", "Marine (x10)", "x10 Marine") is refused, never read as a name.
_HIDDEN_COUNT = re.compile(r"(?:^|(?<=[\s(]))(?:\d+\s*[xX×]|[xX×]\s*\d+)(?=$|[\s)])")
# "Ork Boyz (20)": a number in brackets after the name may be a count; refused unless a count is given too.
_BRACKETED_NUMBER = re.compile(r"^(.*?)\s*\((\d+)\)$", re.DOTALL)
_COUNT_ONLY = re.compile(r"^(?:\d+\s*[xX×]?|[xX×]?\s*\d+)?$")
# "10xMarine": a count run into the name.
_RUN_IN_COUNT = re.compile(r"^(\d+)[xX×](\S.*)$", re.DOTALL)


def _refuse_count(message: str, token: str, example: str) -> NoReturn:
    raise SpecError(message, token=token, example=example)


@functools.lru_cache(maxsize=4096)  # the same group heads come again and again; a refusal raises and is not cached
def read_head(head: str, *, example: str) -> tuple[str | None, str]:
    """(the count as written or None, the name) of a group's head: the text before its colon."""
    head = head.strip()
    if _COUNT_ONLY.match(head):
        raise SpecError(f"The group '{head}' has no name before its colon.", token=head, example=example)
    count_text: str | None = None
    name = head
    explicit = _EXPLICIT_COUNT.match(head)
    run_in = _RUN_IN_COUNT.match(head)
    bare = _BARE_COUNT.match(head)
    if explicit is not None:
        count_text, name = explicit.group(1), explicit.group(2).strip()
    elif run_in is not None:
        count, rest = run_in.groups()
        _refuse_count(
            f"'{head}' runs a count into the name: write '{count}x {rest.strip()}' for {count} models, or, for one "
            f"model whose name begins with a number, '1x {head}'.",
            head,
            example,
        )
    elif bare is not None:
        count_text, name = bare.group(1), bare.group(2).strip()
    trailing = _TRAILING_COUNT.match(name)
    if trailing is not None:
        if count_text is not None:
            _refuse_count(
                f"'{head}' gives two counts ({count_text} and {trailing.group(2)}): give the number of models once, "
                f"as '{trailing.group(2)}x {trailing.group(1).strip()}' or '{trailing.group(1).strip()} "
                f"x{trailing.group(2)}'.",
                head,
                example,
            )
        count_text, name = trailing.group(2), trailing.group(1).strip()
    bracketed = _BRACKETED_NUMBER.match(name)
    if bracketed is not None and count_text is None:
        base, number = bracketed.groups()
        _refuse_count(
            f"'{head}': is {number} the number of models? Write '{base} x{number}' for {number} models, or give the "
            f"count first ('1x {head}') when the number is part of the name.",
            head,
            example,
        )
    hidden = _HIDDEN_COUNT.search(name)
    if hidden is not None:
        _refuse_count(
            f"'{head}' has a count ('{hidden.group(0).strip()}') inside its name: write the count at the start "
            "('10x Name') or at the end ('Name x10'), once.",
            head,
            example,
        )
    return count_text, name


def bare_count_hint(text: str, count_text: str, name: str) -> str:
    """For ``1944 Volunteers: ...`` read as a count: how to write a name that begins with a number."""
    if not re.match(rf"^\s*{count_text}\s+(?![x×]\s)", text, re.IGNORECASE):
        return ""
    return f" If '{count_text} {name}' is a name, give the count first: 1x {count_text} {name}."
