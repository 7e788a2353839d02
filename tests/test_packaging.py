"""A plain (non-editable) install carries every package and data/; the package list misses nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_declared() -> None:
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("rules_core", "bot", "cogs")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= declared, f"add {sorted(found - declared)} to [tool.setuptools] packages"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)], check=True)
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_carries_the_data_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for data_file in (ROOT / "data").rglob("*.yaml"):
        assert "referee_data/" + data_file.relative_to(ROOT / "data").as_posix() in names
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
        "print(len(bot.data.game_with_data('duel').armoury.names)); "
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
