"""docs/ADDING_A_GAME.md, followed to the letter: a sixth game added to a copy of the project is served everywhere.

The example game (a tavern arm-wrestle, ``tests/adding_a_game/files/``, laid out as in the project) is added to a
copy of the project exactly as the guide says: the files its table lists, where it lists them, and the one line it
names, in the one file it names. Nothing else in the copy changes (checked). Then, in subprocesses that import the
copy and nothing else (``PYTHONPATH``; ``bot.shipped_data`` is the copy's ``data/``, through the link bot/shipped_data):

- the ``referee`` CLI fights it and prints the summary in the game's own words, and ``help``, ``samples`` and
  ``odds`` (Monte Carlo and exact) answer for it;
- the Discord side serves it (``discord_probe.py``, run with the e2e fixtures: the real bot and discord.py against
  the fake Discord): a slash command with the options generated from its declaration, its outcome words, /odds and
  /help;
- the project's own checks that walk every registered game (data files, names, payloads, renderers, counts, purity)
  pass with it, and so do its own tests.

So the test fails when the guide is not enough: a file it forgets, a shared module that still needs an edit, a
hook that bot/ or cogs/ do not ask.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules_core import all_games
from tests.waits import scaled

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "ADDING_A_GAME.md"
EXAMPLE = Path(__file__).resolve().parent / "adding_a_game"
FILES = EXAMPLE / "files"
GAME_ID = "armwrestle"
IGNORED = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "__pycache__", ".*_cache", "*.db")
# The project's checks that walk every registered game, and the example game's own tests (copied in with it).
CHECKS = (
    f"tests/rules_core/test_{GAME_ID}.py",
    "tests/e2e/test_walkthrough_probe.py",
    "tests/bot/test_data.py",
    "tests/bot/test_game_names.py",
    "tests/bot/test_read_counts.py",
    "tests/bot/test_render_embeds.py",
    "tests/bot/test_cli_rosters.py::test_every_game_ships_at_least_two_sample_rosters_that_import_as_they_are",
    "tests/cogs/test_command_payloads.py",
    "tests/e2e/test_tools_and_privacy.py::test_help_overview_and_every_game",
    "tests/rules_core/test_purity.py",
    "tests/rules_core/test_spec_counts.py",
    "tests/rules_core/test_odds_hooks.py",
)


def guide_section(heading: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def guide_files() -> list[tuple[str, bool]]:
    """The guide's table of the files a new game adds: (path pattern with ``<id>``, whether every game needs it)."""
    rows = re.findall(r"^\| `([^`]+)` \|.*\| (yes|optional) \|$", guide_section("What a new game adds"), re.M)
    return [(pattern, needed == "yes") for pattern, needed in rows]


def guide_registration() -> str:
    """The one line the guide says a new game adds to rules_core/games/__init__.py."""
    (line,) = re.findall(r"^from rules_core\.games import <id> as <id>$", guide_section("The one line it edits"), re.M)
    return line.replace("<id>", GAME_ID)


def example_files() -> list[str]:
    return sorted(
        path.relative_to(FILES).as_posix()
        for path in FILES.rglob("*")
        if path.is_file()
        and path.name != "ruff.toml"
        and not any(part.startswith((".", "__pycache__")) for part in path.parts)
    )


def listing(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for top in ("rules_core", "bot", "cogs", "data", "docs", "tests")
        for path in (root / top).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_guide_lists_every_file_the_example_adds_and_each_file_it_needs() -> None:
    table = guide_files()
    assert table, "the guide's table of files is missing"
    files = example_files()
    for path in files:
        assert any(fnmatch.fnmatch(path, pattern.replace("<id>", GAME_ID)) for pattern, _ in table), path
    for pattern, needed in table:
        if needed:
            assert any(fnmatch.fnmatch(path, pattern.replace("<id>", GAME_ID)) for path in files), pattern


def test_every_path_the_guide_names_exists() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rules_core|bot|cogs|data|docs|tests|bench)/[\w./*<>-]*)`", text))
    assert named
    for path in sorted(named):
        pattern = re.sub(r"\*+", "*", path.replace("<id>", "*"))  # any game's file of that kind
        found = list(ROOT.glob(pattern)) or (pattern.endswith("/") and (ROOT / pattern).is_dir())
        assert found, f"docs/ADDING_A_GAME.md names {path}, which does not exist"


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project with the example game added as the guide says, and nothing else changed."""
    root = tmp_path_factory.mktemp("walkthrough") / "project"
    for name in ("rules_core", "bot", "cogs", "data", "docs", "tests"):
        shutil.copytree(ROOT / name, root / name, ignore=IGNORED, symlinks=True)  # bot/shipped_data stays a link
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, root / name)
    before = listing(root)
    for path in example_files():  # every one of them a new file, where the guide's table puts it
        target = root / path
        assert not target.exists(), f"{path} would be an edit, not a new file"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FILES / path, target)
    registry = root / "rules_core" / "games" / "__init__.py"
    lines = registry.read_text(encoding="utf-8").splitlines()
    registrations = [line for line in lines if line.startswith("from rules_core.games import ")]
    assert registrations, "rules_core/games/__init__.py registers no game the way the guide says"
    later = [line for line in registrations if line > guide_registration()]  # in alphabetical order, as it says
    at = lines.index(later[0]) if later else lines.index(registrations[-1]) + 1
    lines.insert(at, guide_registration())
    registry.write_text("\n".join(lines) + "\n", encoding="utf-8")
    after = listing(root)
    changed = sorted(path for path in before if before[path] != after[path])
    assert changed == ["rules_core/games/__init__.py"], changed
    assert sorted(set(after) - set(before)) == example_files()
    # The walk-through's Discord probe runs there with the e2e fixtures (an instrument, not part of the game).
    shutil.copy(EXAMPLE / "discord_probe.py", root / "tests" / "e2e" / "test_walkthrough_probe.py")
    return root


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{copy.parent / 'walkthrough.db'}"
    return subprocess.run(
        [sys.executable, *args], check=False, cwd=copy, env=env, capture_output=True, text=True, timeout=scaled(300)
    )


def referee(copy: Path, *args: str) -> str:
    done = run(copy, "-m", "bot.cli", *args)
    assert done.returncode == 0, f"referee {' '.join(args)}: {done.stderr}"
    return " ".join(done.stdout.split())


def test_the_copy_is_what_the_subprocesses_import(copy: Path) -> None:
    done = run(copy, "-c", "import bot, bot.shipped_data as d, rules_core; print(rules_core.__file__, bot.__file__); "
                           "print(d.__path__[0])")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert all(Path(path).resolve().is_relative_to(copy.resolve()) for path in done.stdout.split()), done.stdout


def test_the_cli_fights_explains_and_gives_the_odds_of_the_new_game(copy: Path) -> None:
    strong, weak = "Champion: S6 southpaw", "Weakling: S1"  # 7+1+1..6 always beats 1+1..6: a certain outcome
    out = referee(copy, GAME_ID, "--attacker", strong, "--defender", weak, "--seed", "1", "--bouts", "3")
    assert "Champion beats Weakling; Weakling was pinned to the table" in out  # its outcome words, through the hook
    assert "Read attacker: 1× Champion" in out
    assert re.search(r"Champion: nothing to remove; 1 model left, \d+ bouts? wrestled", out), out  # its own key
    assert "Weakling: remove 1 Weakling; wiped out" in out  # the default table summary: the game has no hook
    out = referee(copy, "aw", "--attacker", "3x Dockers: S4", "--defender", "3x Smiths: S4", "--seed", "1",
                  "--bouts", "1", "--ties", "both_out", "--home-bench")  # fmt: skip
    assert " beat" in out or "Draw between" in out
    out = referee(copy, "help", GAME_ID)
    assert "Tavern arm-wrestle" in out and "--home-bench" in out and "referee docs armwrestle" in out
    out = referee(copy, "samples", "arm-wrestle")
    assert "dockers:" in out and "3x Smiths: S4" in out
    out = referee(copy, "odds", GAME_ID, "--attacker", strong, "--defender", weak, "--method", "monte-carlo",
                  "--trials", "200")  # fmt: skip
    assert "Tavern arm-wrestle: odds (Monte Carlo, 200 trials" in out and "Attacker wins 100.0%" in out
    out = referee(copy, "odds", GAME_ID, "--attacker", "3x Dockers: S4", "--defender", "3x Smiths: S4")
    assert "Tavern arm-wrestle: odds (exact)" in out  # the game's own solver, through its hook
    referee(copy, "roster", "import", "data/rosters/armwrestle.yaml")
    out = referee(copy, GAME_ID, "--attacker", "@harbour-team", "--defender", "@forge-team", "--seed", "2", "--json")
    assert '"game": "armwrestle"' in out and "4x Smiths: S4" in out


def test_the_new_game_passes_mypy_strict_as_rules_core_does(copy: Path) -> None:
    done = run(copy, "-m", "mypy", "--cache-dir", str(copy.parent / "mypy_cache"), f"rules_core/games/{GAME_ID}")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_projects_own_checks_and_the_discord_side_serve_the_new_game(copy: Path) -> None:
    # The checks parametrized by game run for the new game only (the suite runs them for the others).
    others = " or ".join(game.id for game in all_games())
    done = run(copy, "-m", "pytest", "-n", "0", "-v", "-x", "-p", "no:cacheprovider", "-m", "not slow",
               "-k", f"{GAME_ID} or not ({others})", *CHECKS)  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    ran = re.findall(r"^(\S+) PASSED", done.stdout, re.M)
    for check in CHECKS:  # each file ran, and each check parametrized by game ran for the new one
        assert any(name.startswith(check) for name in ran), check
    assert sum(GAME_ID in name for name in ran) >= 20, ran
