"""One log record, one line: every value a record carries (a visitor's address path, a unit's name, a reason typed in
Discord) is written with its control characters escaped, so nobody can forge a log line (a newline and a fake
timestamp in a web address) or colour a terminal. A traceback keeps its own lines; its exceptions' messages are
escaped too. Both the bot and ``referee web`` log through :func:`configure`."""

from __future__ import annotations

import logging
import re
import traceback
from types import TracebackType

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators: what can end a line or move the cursor.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def escaped(text: str) -> str:
    """``text`` with each control character written as its Python escape (``\\n``, ``\\x00``, ``\\u2028``)."""
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (no address, id or name the referee serves does)."""
    return _CONTROL.search(text) is not None


class OneLine(logging.Formatter):
    """A formatter whose message (the format with its values) is one line, whatever the values hold."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escaped(record.message)
        return super().formatMessage(record)

    def formatException(self, ei: ExcInfo) -> str:
        text = super().formatException(ei)
        error, seen = ei[1], set()
        while error is not None and id(error) not in seen:  # the exception and those it was raised from
            seen.add(id(error))
            said = "".join(traceback.format_exception_only(type(error), error)).rstrip("\n")
            text = text.replace(said, escaped(said))
            error = error.__cause__ or error.__context__
        return text


def configure(level: str | int) -> None:
    """The process's logging: ``level`` and up, one escaped line a record (a traceback below its line)."""
    logging.basicConfig(level=level, format=FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(OneLine(FORMAT))


__all__ = ["FORMAT", "OneLine", "configure", "escaped", "has_control"]
