"""tests/conftest.py's check that no SQLite connection outlives the test that opened it (its aiosqlite thread would
die with "Event loop is closed" under a later test), run on a planted leak and on a test that closes its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.waits import scaled

ROOT = Path(__file__).resolve().parents[1]
PLANTED = """
import aiosqlite

KEPT = []


async def test_leaves_a_connection_open():
    KEPT.append(await aiosqlite.connect(":memory:"))


async def test_closes_its_connection():
    async with aiosqlite.connect(":memory:") as connection:
        await connection.execute("SELECT 1")


async def test_then_closes_the_one_left_open():  # or this process would wait for its thread at exit
    await KEPT.pop().close()
"""


def test_a_connection_left_open_fails_the_test_that_opened_it(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text(PLANTED, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-o", "asyncio_mode=auto", "-q",
                           "-p", "no:cacheprovider", str(planted)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=scaled(120), check=False)  # fmt: skip
    out = done.stdout
    assert "3 passed, 1 error" in out  # the leak fails at its teardown, the others pass, out + done.stderr
    assert "ERROR at teardown of test_leaves_a_connection_open" in out, out
    assert "a SQLite connection opened by this test is still open after it" in out
