"""A plain (non-editable) install carries every package and data/; the packages are found, never listed, so a new
package (a sixth game) ships with no edit to pyproject.toml."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_ROOTS = ("rules_core", "bot", "cogs")


def package_directories(root: Path) -> set[str]:
    return {
        init.parent.relative_to(root).as_posix() for top in PACKAGE_ROOTS for init in (root / top).rglob("__init__.py")
    }


def build_wheel(source: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)], check=True)
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(ROOT, tmp_path_factory.mktemp("wheel"))


def test_the_wheel_carries_every_package_directory(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(path for path in package_directories(ROOT) if f"{path}/__init__.py" not in names)
    assert not missing, f"not found by the package finder: {missing}"


def test_the_package_list_is_not_written_by_hand() -> None:
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert set(packages) == {"find"}, "the packages are found by setuptools' finder, never listed"
    assert not (ROOT / "setup.py").exists()


def test_a_new_package_is_found_with_no_edit(tmp_path: Path) -> None:
    """A copy of the project with one more game package (and nothing else changed) ships it."""
    source = tmp_path / "source"
    ignored = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "__pycache__", ".*_cache")
    shutil.copytree(ROOT, source, ignore=ignored)
    extra = source / "rules_core" / "games" / "discovered_game"
    extra.mkdir()
    (extra / "__init__.py").write_text('"""A game package that no configuration file names."""\n')
    names = set(zipfile.ZipFile(build_wheel(source, tmp_path / "wheel")).namelist())
    assert "rules_core/games/discovered_game/__init__.py" in names
    assert "bot/shipped_data/samples/40k.yaml" in names


def test_the_wheel_carries_the_data_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for data_file in (ROOT / "data").rglob("*.yaml"):
        assert "bot/shipped_data/" + data_file.relative_to(ROOT / "data").as_posix() in names
    assert "rules_core/py.typed" in names
    assert "bot/migrations/script.py.mako" in names
    assert any(name.startswith("bot/migrations/versions/0001_") for name in names)
    assert any(name.endswith("entry_points.txt") for name in names)


def test_an_installed_copy_finds_its_data_away_from_the_source_tree(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)], check=True
    )
    code = (
        "import bot.data, rules_core; print(rules_core.__file__); print(len(bot.data.load_samples())); "
        "print(len(bot.data.catalogue().game('duel').armoury.names)); "
        "import asyncio, bot.storage; "
        "store = asyncio.run(bot.storage.Store.open('sqlite+aiosqlite:///installed.db')); asyncio.run(store.close()); "
        "print((__import__('pathlib').Path('installed.db')).exists())"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {code}"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ},
        check=True,
    )
    module_path, count, weapons, migrated = result.stdout.split()
    assert module_path.startswith(str(target))
    assert int(count) >= 1
    assert int(weapons) >= 10  # the duel's weapon table, read from the installed data package
    assert migrated == "True"  # the migrations ship inside the package and create the SQLite store


# Every pointer the terminal gives to a page (``referee docs TOPIC``) must work from a plain install, away from the
# checkout: the pages ship inside the package (bot/shipped_docs). The help of every command and of every game, and
# the errors that point at a page, are gathered from the installed copy.
POINTERS_SCRIPT = """
import json, sys
from click.testing import CliRunner
import click
from bot.cli import cli
from bot.discord.settings import TOKEN_HELP
from rules_core import all_games

texts = [TOKEN_HELP]
def walk(command, path):
    ctx = click.Context(command, info_name=" ".join(path))
    texts.append(command.get_help(ctx))
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            walk(command.get_command(ctx, name), [*path, name])
walk(cli, ["referee"])
runner = CliRunner()
for game in all_games():
    texts.append(runner.invoke(cli, ["help", game.id]).output)
print(json.dumps(texts))
"""


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("installed") / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)], check=True
    )
    return target


def run_installed(target: Path, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code`` run by this Python with only the installed copy on its path (-I: not the checkout)."""
    return subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {code}"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )


def test_every_pointer_of_the_help_opens_a_shipped_page(installed: Path, tmp_path: Path) -> None:
    gathered = run_installed(installed, POINTERS_SCRIPT, tmp_path)
    assert gathered.returncode == 0, gathered.stderr
    texts = "\n".join(json.loads(gathered.stdout))
    unreachable = sorted(set(re.findall(r"docs/[\w/]+\.md|README", texts)))
    assert not unreachable, f"pointers into a checkout that a plain install has not: {unreachable}"
    topics = set(re.findall(r"referee docs ([\w-]+)", texts))
    assert {"40k", "duel", "epic", "boltaction", "reikhammer", "web", "readme", "privacy"} <= topics
    for topic in sorted(topics):
        shown = run_installed(installed, f"from bot.cli import main; main(['docs', {topic!r}])", tmp_path)
        assert shown.returncode == 0, (topic, shown.stderr)
        assert shown.stdout.startswith("#"), (topic, shown.stdout[:200])
    page = run_installed(installed, "from bot.cli import main; main(['docs', '40k'])", tmp_path).stdout
    assert page == (ROOT / "docs" / "games" / "40k.md").read_text(encoding="utf-8")


def test_the_wheel_carries_the_docs_but_no_web_address(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for page in [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]:
        shipped = "bot/shipped_docs/" + page.relative_to(ROOT).as_posix()
        assert shipped in names, f"{shipped} is not shipped"
    assert "bot/shipped_docs/env.example" in names  # .env.example, for `referee docs env > .env`
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "urls" not in project, "the project has no public home yet: no address in its metadata"
