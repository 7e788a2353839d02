"""ruff (lint and format) and mypy (strict on rules_core) stay clean: CI runs them through the test suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint_is_clean() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean_and_strict_on_rules_core() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
