"""rules_core stays pure: no I/O libraries, and randomness only through its dice module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES_CORE = Path(__file__).resolve().parents[2] / "rules_core"
FORBIDDEN = {"discord", "sqlalchemy", "aiohttp", "asyncio"}
MODULES = sorted(RULES_CORE.rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots.add("__import__")
    return roots


def test_there_are_modules_to_check() -> None:
    assert len(MODULES) >= 8


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(RULES_CORE)))
def test_no_io_libraries(path: Path) -> None:
    assert not imported_roots(path) & (FORBIDDEN | {"__import__"})


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(RULES_CORE)))
def test_only_the_dice_module_imports_random(path: Path) -> None:
    if path.name == "dice.py" and path.parent == RULES_CORE:
        assert "random" in imported_roots(path)
    else:
        assert "random" not in imported_roots(path)


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom sqlalchemy.orm import Session\nfrom random import choice\n")
    assert imported_roots(bad) == {"asyncio", "sqlalchemy", "random"}


def test_the_dice_module_uses_a_private_generator() -> None:
    source = (RULES_CORE / "dice.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    module_level_calls = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "random"
    }
    # Only the constructor of a private generator: never random.random(), random.randint()...
    assert module_level_calls == {"Random"}
