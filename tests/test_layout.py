"""Each concern in one place: checks over the source of bot/ and cogs/ (and rules_core where it says so).

- colours are named once, in bot/render/colours.py;
- the spec grammar's separators are split by rules_core.spec only;
- no game id or alias is written as a string literal in bot/, cogs/ or rules_core outside the game's own package:
  shared code takes its games from the registry (``all_games()``, ``get_game``, the report's game);
- no module in bot/ or cogs/ is over 400 lines, and none in rules_core over 500 (the engine's steps, one module
  each), unless the first paragraph of its docstring says why ("Long because ...").

Each check is a function of the source text, and is itself tested on a planted offence, so a check that has
stopped finding anything fails here rather than passing in silence.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from rules_core import all_games

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


REGISTRATION = "rules_core/games/__init__.py"  # imports each game's package: the one line a new game edits


def shipped_names() -> dict[str, str]:
    """Every id and alias of the shipped games (lower case) -> the package that owns it (``rules_core/games/wh40k``).

    Games a test registers on the fly are left out: their names are not the shipped code's business.
    """
    names = {}
    for game in all_games():
        module = type(game).__module__
        if not module.startswith("rules_core.games."):
            continue
        package = "/".join(module.split(".")[:3])
        for name in (game.id, *game.aliases):
            names[name.lower()] = package
    return names


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _name_words(names: Iterable[str]) -> re.Pattern[str]:
    # A name as code writes it, inside a longer text: "game:40k", "--game 40k", "game: 40k" (any name), and a name
    # with a digit anywhere as a whole word ("@roster for wh40k"). Written as registered (lower case): prose that
    # names a game by its title ("a 40K combat", "Epic: Armageddon") is words, not an id.
    ordered = sorted(names, key=len, reverse=True)
    any_name = "|".join(re.escape(name) for name in ordered)
    with_digit = "|".join(re.escape(name) for name in ordered if any(c.isdigit() for c in name))
    return re.compile(rf"(?:\bgame[:=]\s*|--game[ =])({any_name})(?![\w-])|(?<![\w-])({with_digit})(?![\w-])")


def game_literals(source: str, names: Mapping[str, str], *, package: str = "") -> list[str]:
    """The string literals of a module's source (docstrings aside) that write a game's id or alias: a literal that
    is a name (in any case), or a text that holds one as code writes it. ``package``: the module's own game
    package, whose own names are its to write."""
    words = _name_words(names)
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in docstrings:
            continue
        text = node.value
        whole = [text.strip()] if text.strip().lower() in names else []
        written = dict.fromkeys([*whole, *(match.group(1) or match.group(2) for match in words.finditer(text))])
        found += [
            (node.lineno, node.col_offset, f"{node.lineno}: {name!r} in {text[:80]!r}")
            for name in written
            if names[name.lower()] != package
        ]
    return [said for *_, said in sorted(found)]


def own_package(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:3]) if parts[:2] == ["rules_core", "games"] and len(parts) > 3 else ""


def test_the_game_literal_check_finds_a_planted_id() -> None:
    names = {"40k": "rules_core/games/wh40k", "wh40k": "rules_core/games/wh40k", "duel": "rules_core/games/duel"}
    planted = '''"""A docstring may say 40k, duel and game:40k."""

if report.game != "40K":  # a comment may say "duel"
    hint = f"referee roster save x --game 40k --spec {spec}"
example = "/league create name:Autumn Crusade game:duel"
words = "Fight the next round of a 40K combat: a duel."
'''
    assert game_literals(planted, names) == [
        "3: '40K' in '40K'",
        "4: '40k' in 'referee roster save x --game 40k --spec '",
        "5: 'duel' in '/league create name:Autumn Crusade game:duel'",
    ]
    assert game_literals(planted, names, package="rules_core/games/wh40k") == [
        "5: 'duel' in '/league create name:Autumn Crusade game:duel'"
    ]
    assert game_literals('path = "rules_core/games/wh40k2/x"\nwho = "wh40k"\n', names) == ["2: 'wh40k' in 'wh40k'"]


def test_no_game_id_is_written_outside_its_own_package() -> None:
    names = shipped_names()
    assert {"40k", "duel", "epic"} <= set(names), "the check must know the shipped games"
    offences = {}
    for path in sources("bot", "cogs", "rules_core"):
        where = relative(path)
        if where == REGISTRATION:
            continue
        found = game_literals(path.read_text(encoding="utf-8"), names, package=own_package(where))
        if found:
            offences[where] = found
    assert offences == {}, (
        "shared code names no game: take the game at hand, or all_games()[0] for an example: " + repr(offences)
    )


MAX_LINES = 400
MAX_ENGINE_LINES = 500  # rules_core: a game's step, or a shared concern, read whole


def too_long(source: str, limit: int = MAX_LINES) -> bool:
    """A module over ``limit`` lines whose docstring's first paragraph gives no reason ("Long because ...")."""
    if len(source.splitlines()) <= limit:
        return False
    first = (ast.get_docstring(ast.parse(source)) or "").split("\n\n", 1)[0]
    return not any(line.strip().startswith("Long because") for line in first.splitlines())


def test_the_length_check_finds_a_planted_long_module() -> None:
    body = "x = 1\n" * 401
    assert too_long('"""A module."""\n' + body)
    assert too_long('"""A module.\n\nLong because it is."""\n' + body), "the reason belongs in the first paragraph"
    assert not too_long('"""A module.\nLong because one table is best read whole."""\n' + body)
    assert not too_long('"""A module."""\n' + "x = 1\n" * 300)


def test_no_module_is_long_without_its_reason() -> None:
    long = [relative(path) for path in sources("bot", "cogs") if too_long(path.read_text(encoding="utf-8"))]
    long += [
        relative(path)
        for path in sources("rules_core")
        if too_long(path.read_text(encoding="utf-8"), limit=MAX_ENGINE_LINES)
    ]
    assert long == [], f"split these, or say why at the top of each (a line starting 'Long because'): {long}"
