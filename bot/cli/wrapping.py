"""Lines that fit the terminal (``COLUMNS=80`` included): a long line is wrapped at the console's width with its
continuation indented under its own start, so a token's or an option's help stays one visual block, and it is
broken only between words (``6.9%`` or ``--charge-distance`` is never split). A line of items joined by `` · ``
(the odds) breaks only between items (``1: 36.5%`` stays together). A word longer than the room is kept whole.

What is meant to be copied (a spec, an example command) is not wrapped here: it is printed on a line of its own,
unbroken, so that it pastes whole (the terminal only shows it over several rows)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

ITEMS = " · "


def spans(plain: str, first: int, rest: int) -> list[tuple[int, int]]:
    """Where to cut ``plain`` into lines of at most ``first`` then ``rest`` characters: (start, end) of each,
    cut between items where ``plain`` holds several, else between words; the separator at a cut is dropped, but an
    item separator's dot stays at the end of its line."""
    separator = ITEMS if ITEMS in plain else " "
    tail = len(separator.rstrip())  # what a cut leaves at the end of its line: " ·" between items, else nothing
    cuts: list[tuple[int, int]] = []
    start = 0
    end = 0  # the end of the last piece that fits on the current line
    position = 0
    for piece in plain.split(separator):
        piece_end = position + len(piece)
        room = (first if not cuts else rest) - tail
        if end > start and piece_end - start > room:
            cuts.append((start, end + tail))
            start = position
        end = piece_end
        position = piece_end + len(separator)
    cuts.append((start, len(plain)))
    return cuts


def print_wrapped(console: Console, line: str | Text, *, hanging: int = 2) -> None:
    """``line`` (rich markup, or Text) at the console's width: its leading spaces kept on its first line, and
    ``hanging`` more on the lines it continues on."""
    text = Text.from_markup(line) if isinstance(line, str) else line
    plain = text.plain
    indent = len(plain) - len(plain.lstrip(" "))
    body = text[indent:]
    width = console.width
    parts = spans(body.plain, max(width - indent, 20), max(width - indent - hanging, 20))
    for number, (start, end) in enumerate(parts):
        lead = indent if number == 0 else indent + hanging
        console.print(Text(" " * lead) + body[start:end], soft_wrap=True)


__all__ = ["print_wrapped", "spans"]
