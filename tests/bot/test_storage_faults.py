"""Real storage faults through the real `referee` command, on both backends: one line, exit 3, nothing lost.

The faults are real, and hold when the tests run as root (as in CI, where folder permissions stop nothing): a
database path under a regular file, a SQLite URL opened read-only (``?mode=ro``), a child process whose file-size
limit (``RLIMIT_FSIZE``) is the database's size (a full disk), a PostgreSQL port that refuses connections, a
PostgreSQL database nobody upgraded. And processes that start together: six combats and a `referee history`
started at once on a new SQLite file all succeed; two `referee db upgrade` at once on an empty PostgreSQL database
both succeed.

Whole processes (``python -m bot.cli``) where stderr must be exactly one line, or where the fault is the
process's own (its file-size limit, its race); the command-by-command matrix runs in this process (``main``), to
stay fast, on the same real faults.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.access import OPERATOR
from bot.storage import Store
from bot.storage.db import create_engine, current_revision, head_revision, upgrade
from tests.bot.storage.conftest import NO_SERVER, reset_postgresql
from tests.bot.test_cli import referee
from tests.waits import scaled

# A thread that dies under the one line (aiosqlite's "Event loop is closed") fails the test that caused it.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

DUEL = ("duel", "--attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "--defender", "B: WS3 S3 T3 W1 I3 A1 Sv-")
ROSTER = ("--game", "duel", "--spec", "Knight: WS5 S4 T4 W2 I5 A2 Sv3+")
REFUSED = "postgresql+asyncpg://referee:secret@127.0.0.1:1/referee"  # nothing listens on port 1
# Every command that uses the store, reading or writing (record #1 and the roster 'knight' exist).
READS = [
    ("history",), ("replay", "1"), ("verify", "1"), ("roster", "list"), ("roster", "show", "knight", "--game", "duel"),
    ("roster", "export"), ("league", "list"), ("league", "standings", "Summer"), ("data", "export"),
]  # fmt: skip
WRITES = [
    ("void", "1", "--reason", "a mistake"), ("annotate", "1", "--note", "seen"), ("roster", "save", "squire", *ROSTER),
    ("roster", "delete", "knight", "--game", "duel"), ("data", "delete", "--yes"), ("db", "upgrade"),
]  # fmt: skip


def run(*args: str, url: str, cwd: Path | None = None, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    """``referee ARGS`` as its own process on the database at ``url`` (with a file-size limit, if given)."""
    limit: Callable[[], None] | None = None
    if fsize is not None:
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))  # noqa: E731
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=scaled(180), preexec_fn=limit, check=False)  # fmt: skip


def one_line(stderr: str) -> str:
    """The only line of ``stderr``: what failed and what to do, with no traceback and no warning after it."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def contents(export: str) -> dict[str, object]:
    """What ``referee data export`` printed, without the moment of the export."""
    exported = json.loads(export)
    del exported["exported_at"]
    return dict(exported)


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Path]:
    """A SQLite file holding record #1 and the roster 'knight'; checked unchanged (the same export) afterwards."""
    path = tmp_path / "kept.db"
    monkeypatch.setenv("DATABASE_URL", sqlite_url(path))
    assert referee(*DUEL, "--seed", "7", capsys=capsys)[0] == 0
    assert referee("roster", "save", "knight", *ROSTER, capsys=capsys)[0] == 0
    before = referee("data", "export", capsys=capsys)[1]
    yield path
    monkeypatch.setenv("DATABASE_URL", sqlite_url(path))
    after = referee("data", "export", capsys=capsys)[1]
    assert contents(after) == contents(before)  # nothing stored was lost or changed


@pytest.mark.parametrize("args", READS + WRITES, ids=" ".join)
def test_a_database_under_a_regular_file_is_one_line_and_exit_3(
    args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "not-a-folder").write_text("a file")
    monkeypatch.setenv("DATABASE_URL", sqlite_url(tmp_path / "not-a-folder" / "referee.db"))
    code, _, err = referee(*args, capsys=capsys)
    line = one_line(err)
    assert code == 3, err
    assert line.startswith(f"error: Cannot open the SQLite file {tmp_path}/not-a-folder/referee.db:"), line
    assert "not-a-folder is a file, not a folder" in line and "Set DATABASE_URL" in line


@pytest.mark.parametrize("args", READS + WRITES, ids=" ".join)
def test_a_refused_postgresql_port_is_one_line_and_exit_3(
    args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", REFUSED)
    code, _, err = referee(*args, capsys=capsys)
    line = one_line(err)
    assert code == 3, err
    assert line.startswith("error: Cannot reach the PostgreSQL database referee at 127.0.0.1:1 ("), line
    assert "secret" not in line  # never the password
    assert "Start the database server, or correct the host and port in DATABASE_URL." in line


@pytest.mark.parametrize("args", WRITES[:-1], ids=" ".join)
def test_a_read_only_sqlite_url_refuses_writes_in_one_line_and_keeps_everything(
    args: tuple[str, ...], stored: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///file:{stored}?mode=ro&uri=true")
    code, _, err = referee(*args, capsys=capsys)
    line = one_line(err)
    assert code == 3, err
    assert line.startswith(f"error: Cannot write to the SQLite file {stored}: it is read-only"), line


def test_a_read_only_sqlite_url_still_reads(
    stored: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///file:{stored}?mode=ro&uri=true")
    code, out, err = referee("replay", "1", capsys=capsys)
    assert (code, err) == (0, "")
    assert "#1" in out


def test_a_combat_on_a_read_only_database_shows_its_result_and_one_warning_line(stored: Path) -> None:
    result = run(*DUEL, "--seed", "3", url=f"sqlite+aiosqlite:///file:{stored}?mode=ro&uri=true")
    assert result.returncode == 0
    assert "A" in result.stdout and result.stdout.strip()  # the result is shown
    line = one_line(result.stderr)
    assert line.startswith("warning: not recorded, but the result above stands. Cannot write to the SQLite file"), line


@pytest.mark.parametrize(
    "args", [DUEL, ("annotate", "1", "--note", "x" * 900), ("roster", "save", "squire", *ROSTER), ("history",)],
    ids=lambda args: " ".join(args[:2]),
)  # fmt: skip
def test_a_full_disk_is_one_line_and_loses_nothing(args: tuple[str, ...], stored: Path) -> None:
    # Smaller than one page of the write-ahead log: the first write fails, as on a full disk (EFBIG, not a signal:
    # Python ignores SIGXFSZ).
    result = run(*args, url=sqlite_url(stored), fsize=4000)
    line = one_line(result.stderr)
    if args == DUEL:
        assert result.returncode == 0 and result.stdout.strip()
        assert line.startswith("warning: not recorded, but the result above stands. Cannot write to"), line
    else:
        assert result.returncode == 3, result.stderr
        assert line.startswith(f"error: Cannot write to the SQLite file {stored}: the disk is full"), line
    assert "free some space" in line


def test_a_postgresql_database_never_upgraded_says_to_run_db_upgrade(capsys: pytest.CaptureFixture[str]) -> None:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(NO_SERVER)
    asyncio.run(reset_postgresql(url))
    result = run("history", url=url)
    line = one_line(result.stderr)
    assert result.returncode == 3
    assert line.endswith("has no referee tables yet: run 'referee db upgrade' once."), line
    assert "error: The PostgreSQL database " in line and "referee:" not in line  # no user or password


@pytest.mark.parametrize("trial", range(3))
def test_six_combats_and_a_history_started_together_on_a_new_file_all_succeed(trial: int, tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "new.db")
    with ThreadPoolExecutor(7) as pool:
        combats = [pool.submit(run, *DUEL, "--seed", str(n), url=url, cwd=tmp_path) for n in range(6)]
        history = pool.submit(run, "history", url=url, cwd=tmp_path)
        results = [future.result() for future in combats]
        listed = history.result()
    for result in results:
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith("Recorded as #"), result.stderr
    assert sorted(int(r.stderr.split("#")[1].split(":")[0]) for r in results) == [1, 2, 3, 4, 5, 6]
    assert (listed.returncode, listed.stderr) == (0, "")

    async def count() -> int:
        store = await Store.open(url)
        try:
            return len(await store.records.history(actor=OPERATOR, limit=50))
        finally:
            await store.close()

    assert asyncio.run(count()) == 6


@pytest.mark.parametrize("trial", range(3))
def test_two_db_upgrades_at_once_on_an_empty_postgresql_database_both_succeed(trial: int) -> None:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(NO_SERVER)
    asyncio.run(reset_postgresql(url))
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: run("db", "upgrade", url=url), range(2)))
    for result in results:
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert "is at the latest schema" in result.stdout

    async def revision() -> str | None:
        engine = create_engine(url)
        try:
            await upgrade(engine)  # a third, alone: nothing left to do
            return await current_revision(engine)
        finally:
            await engine.dispose()

    assert asyncio.run(revision()) == head_revision()
