"""Every script in bench/ is import-safe: importing it (as a test, a linter or a reader's REPL would) runs no
benchmark, prints nothing and starts nothing; only running it as a script does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.waits import scaled

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))

IMPORT_EACH = """
import importlib.util, sys
for path in sys.argv[1:]:
    name = "bench_import_check_" + path.rsplit("/", 1)[-1].removesuffix(".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
"""


def test_every_bench_script_can_be_imported_without_running() -> None:
    assert any(path.name == "bench_scale.py" for path in SCRIPTS)
    # bench/ on the path, as when a script is run: some import their sibling timing.py.
    env = {"PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", IMPORT_EACH, *map(str, SCRIPTS)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=scaled(120), check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "", "a bench script did something on import:\n" + result.stdout


def test_the_challenge_bench_quick_run_prints_each_case_with_its_ratio() -> None:
    """bench_challenges.py --quick drives real challenges (posted, accepted, declined, changed) through the bot and
    the fake Discord on SQLite, and prints p50, p99 and the ratio to the floor for each, alone and in bursts."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_challenges.py"), "--quick"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=scaled(300), check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "SQLite" in lines[0]
    for mode in (" one at a time:", " bursts of 10:"):
        block = lines[lines.index(mode) + 1 : lines.index(mode) + 7]
        assert block[0].lstrip().startswith("floor") and "p50" in block[0] and "x" not in block[0].split("ms")[-1]
        cases = ["post a challenge", "Accept, last acceptance", "until the result is edited in", "Decline",
                 "Change my side form sent"]  # fmt: skip
        for case, line in zip(cases, block[1:], strict=True):
            assert case in line and "p50" in line and "p99" in line and "p99 / floor p99" in line, line
