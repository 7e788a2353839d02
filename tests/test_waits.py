"""tests/waits.py: every wait of the tests is scaled by one factor, 1 on an idle machine, the load per core on a
loaded one, or TEST_TIME_FACTOR; a bad TEST_TIME_FACTOR is refused with an example. No test here times anything:
the load average is set, never measured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import waits

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def load(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The one-minute load average ``os.getloadavg`` reports, on a machine of two cores, unset TEST_TIME_FACTOR."""
    now = [0.0]
    monkeypatch.delenv(waits.VARIABLE, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (now[0], now[0], now[0]))
    monkeypatch.setattr(waits, "cores", lambda: 2)
    return now


@pytest.mark.parametrize(("average", "factor"), [(0.0, 1.0), (1.5, 1.0), (2.0, 1.0), (5.0, 2.5), (40.0, waits.MOST)])
def test_the_factor_follows_the_load_per_core_from_1_to_its_cap(
    load: list[float], average: float, factor: float
) -> None:
    load[0] = average
    assert waits.factor() == factor
    assert waits.scaled(10) == 10 * factor


def test_the_load_is_read_when_each_wait_starts(load: list[float]) -> None:
    assert waits.scaled(10) == 10  # idle: a broken test fails as fast as before
    load[0] = 6.0  # other work starts beside the suite
    assert waits.scaled(10) == 30


@pytest.mark.parametrize("value", ["1", "3", "2.5", " 100 "])
def test_test_time_factor_fixes_the_factor_whatever_the_load(
    load: list[float], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    load[0] = 40.0
    monkeypatch.setenv(waits.VARIABLE, value)
    assert waits.factor() == float(value)
    assert waits.describe() == f"waits scaled by {float(value):g} (TEST_TIME_FACTOR)"


@pytest.mark.parametrize("value", ["fast", "0", "0.5", "-2", "101", "nan", "inf", "3s"])
def test_a_bad_test_time_factor_names_itself_and_shows_an_example(
    load: list[float], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(waits.VARIABLE, value)
    with pytest.raises(waits.BadFactor) as refused:
        waits.factor()
    assert str(refused.value) == (
        f"TEST_TIME_FACTOR is a number from 1 to 100, not '{value}'. Example: TEST_TIME_FACTOR=3 (every wait three "
        "times as long), or leave it unset to follow the load"
    )


def test_pytest_refuses_a_bad_test_time_factor_before_any_test() -> None:
    env = {**os.environ, waits.VARIABLE: "fast"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "tests/test_waits.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=waits.scaled(120), check=False)  # fmt: skip
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "TEST_TIME_FACTOR is a number from 1 to 100, not 'fast'. Example: TEST_TIME_FACTOR=3" in done.stderr
    assert "passed" not in done.stdout


def test_the_header_says_how_waits_are_scaled(load: list[float]) -> None:
    load[0] = 3.0
    assert waits.describe() == (
        "waits scaled by the load (now 1.50: load average per core, 1 to 10; TEST_TIME_FACTOR fixes it)"
    )


async def test_eventually_returns_once_the_check_holds_sync_or_async(load: list[float]) -> None:
    calls: list[int] = []

    def third_time() -> bool:
        calls.append(1)
        return len(calls) >= 3

    await waits.eventually(third_time, "three calls", every=0)
    assert len(calls) == 3

    async def at_once() -> bool:
        return True

    await waits.eventually(at_once, "at once")


async def test_eventually_says_what_never_happened(load: list[float]) -> None:
    with pytest.raises(AssertionError, match=r"^never happened: the moon turned blue$"):
        await waits.eventually(lambda: False, "the moon turned blue", timeout=0, every=0)


@pytest.mark.parametrize(
    ("factor", "given", "shown"), [("3", [], "timeout: 1800.0s"), ("3", ["--timeout", "5"], "timeout: 5.0s")]
)
def test_each_tests_hang_guard_is_scaled_unless_given(factor: str, given: list[str], shown: str) -> None:
    """pyproject.toml's 600 s for any one test, times the factor; --timeout (or PYTEST_TIMEOUT) as given."""
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_TIMEOUT"} | {waits.VARIABLE: factor}
    command = [sys.executable, "-m", "pytest", "-n", "0", "--co", "tests/test_waits.py", *given]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=waits.scaled(120),
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert shown in done.stdout.splitlines()
