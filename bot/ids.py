"""The one bound on ids (records, leagues, matches, challenges, seasons), shared by every front end and the store.

The tables hold ids as 32-bit integers on PostgreSQL: a larger number is no id at all. The slash options declare this
range (Discord refuses more as it is typed), the web pages and text options (``league:#7``, ``combats:12, 15``)
read ids through :func:`id_in_text`, and the store binds any number beyond it as one no row has
(``bot.storage.id_column.Id``), so an id out of range is "not found" on PostgreSQL exactly as on SQLite.
"""

from __future__ import annotations

import re

ID_MAX = 2**31 - 1
_DIGITS = re.compile(r"[0-9]{1,18}")  # ASCII digits only: str.isdigit() takes "²" (int() refuses) and "٣" (3)


def id_in_text(text: str) -> int | None:
    """``text`` as an id (ASCII digits, 1 to ``ID_MAX``), or None when it is no id."""
    if _DIGITS.fullmatch(text) is None or not 0 < int(text) <= ID_MAX:
        return None
    return int(text)


def id_value(text: str) -> int:
    """The number an id written in ASCII digits stands for; a longer one than any bound (Python reads at most
    4,300 digits) stands for one past the bound, which no row has."""
    return int(text) if len(text) <= 18 else ID_MAX + 1


def looks_like_a_number(text: str) -> bool:
    """Whether ``text`` is meant as a number: digits of any script ("7", "²", "٣"), maybe signed ("-3")."""
    unsigned = text[1:] if text[:1] in "+-" else text
    return unsigned.isdigit()


def why_not_an_id(text: str) -> str | None:
    """Why ``text`` (meant as an id) cannot be one, in words for any front end; None when it is written as one.
    A number in ASCII digits beyond the bound is written as an id: the store finds no such row, and says "There is
    no ...", as for any id that does not exist."""
    if text.isascii() and text.isdigit():
        return None if text.strip("0") else f"{text!r} is no id: ids start at 1"  # no int(): 5,000 digits fail
    return f"{text!r} is not a whole number written in the digits 0 to 9"
