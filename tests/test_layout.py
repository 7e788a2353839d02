"""Each concern in one place: checks over the source of bot/ and cogs/ (and rules_core where it says so).

- colours are named once, in bot/render/colours.py;
- the spec grammar's separators are split by rules_core.spec only.

Each check is a function of the source text, and is itself tested on a planted offence, so a check that has
stopped finding anything fails here rather than passing in silence.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COLOURS_MODULE = "bot/render/colours.py"


def sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


_HEX_INT = re.compile(r"^0[xX][0-9a-fA-F]{6}$")
_HEX_TEXT = re.compile(r"""^[rRbBuU]?(['"])#[0-9a-fA-F]{6}\1$""")


def colour_literals(source: str) -> list[str]:
    """The colour literals of a module's source: ``0xRRGGBB`` numbers and ``'#rrggbb'`` strings."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if (token.type == tokenize.NUMBER and _HEX_INT.match(token.string)) or (
            token.type == tokenize.STRING and _HEX_TEXT.match(token.string)
        ):
            found.append(f"{token.start[0]}: {token.string}")
    return found


def test_the_colour_check_finds_a_planted_colour() -> None:
    assert colour_literals('EMBED = discord.Embed(colour=0x2ECC71)\nBAR = "#c0392b"\n') == [
        "1: 0x2ECC71",
        '2: "#c0392b"',
    ]
    assert colour_literals("MASK = 0xFF\nLIMIT = 0x10000000\n") == []


def test_every_colour_is_named_once_in_the_colours_module() -> None:
    offences = {
        relative(path): found
        for path in sources("bot", "cogs")
        if relative(path) != COLOURS_MODULE and (found := colour_literals(path.read_text(encoding="utf-8")))
    }
    assert offences == {}, f"name these colours in {COLOURS_MODULE} and import them: {offences}"


_SPEC_SPLIT = re.compile(r"""\.(?:split|count|rsplit|partition)\(\s*['"][|;]['"]""")


def spec_splits(source: str) -> list[int]:
    """Lines that split (or count) a spec's units or groups by hand instead of with rules_core.spec."""
    return [number for number, line in enumerate(source.splitlines(), start=1) if _SPEC_SPLIT.search(line)]


@pytest.mark.parametrize("line", ['units = spec.split("|")', "n = spec.count('|') + 1", 'groups = unit.split(";")'])
def test_the_spec_split_check_finds_a_planted_split(line: str) -> None:
    assert spec_splits(f"x = 1\n{line}\n") == [2]


def test_only_the_spec_grammar_splits_specs() -> None:
    offences = {
        relative(path): lines for path in sources("bot", "cogs") if (lines := spec_splits(path.read_text("utf-8")))
    }
    assert offences == {}, f"use rules_core.spec.split_units / split_groups / group_head: {offences}"
