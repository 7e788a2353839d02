"""The import rules of the layout (the contracts under [tool.importlinter] in pyproject.toml), checked by
import-linter: rules_core imports nothing of bot/ or cogs/; bot's services, storage, league domain and renderers
import neither front end; the league domain imports no storage; cogs import bot, never the other way; cogs never
import each other; no package's modules import each other in a cycle (imports under TYPE_CHECKING excluded)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import-linter's own command, run by this interpreter (its console script may not be on PATH)
LINT_IMPORTS = [sys.executable, "-c", "import sys, importlinter.cli as c; sys.exit(c.lint_imports_command())"]


def lint_imports(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*LINT_IMPORTS, "--no-cache", *arguments], cwd=ROOT, capture_output=True, text=True,
                          check=False)  # fmt: skip


def test_the_import_contracts_are_kept() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout
    assert "Contracts: 8 kept, 0 broken." in result.stdout  # every contract ran


def test_a_broken_contract_is_reported(tmp_path: Path) -> None:
    """The checker itself can fail: a contract the code breaks (the CLI imports storage) is reported."""
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["rules_core", "bot", "cogs"]\n\n'
        '[[tool.importlinter.contracts]]\nname = "planted"\ntype = "forbidden"\n'
        'source_modules = ["bot.cli"]\nforbidden_modules = ["bot.storage"]\n'
    )
    result = lint_imports("--config", str(config))
    assert result.returncode != 0
    assert "planted BROKEN" in result.stdout
