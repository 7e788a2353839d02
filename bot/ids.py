"""The one bound on ids (records, leagues, matches, challenges, seasons), shared by every front end and the store.

The tables hold ids as 32-bit integers on PostgreSQL: a larger number is no id at all. The slash options declare this
range (Discord refuses more as it is typed), the web pages and text options (``league:#7``, ``combats:12, 15``)
read ids through :func:`id_in_text`, and the store binds any number beyond it as one no row has
(``bot.storage.models.Id``), so an id out of range is "not found" on PostgreSQL exactly as on SQLite.
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


def is_digits(text: str) -> bool:
    """Whether ``text`` is written in ASCII digits alone (a number, however large), as a player writes an id."""
    return text.isascii() and text.isdigit()
