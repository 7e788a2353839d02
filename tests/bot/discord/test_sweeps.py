"""bot/discord/sweeps.py: the periodic sweeps' loop (the league's, the challenges'): a failure is logged and the
next run tries again; a clean stop waits for a sweep in progress, at most its grace, and starts none after."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.discord.sweeps import Sweeper
from tests.waits import scaled


async def test_a_failing_sweep_is_logged_and_the_next_run_tries_again(caplog: pytest.LogCaptureFixture) -> None:
    runs: list[int] = []

    async def work() -> None:
        runs.append(len(runs))
        if len(runs) == 1:
            raise RuntimeError("a bug in the sweep")

    sweeper = Sweeper("test sweep", work, seconds=0.01, grace=1.0)
    with caplog.at_level(logging.ERROR, logger="referee.bot"):
        sweeper.start()

        async def three_runs() -> None:
            while len(runs) < 3:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(three_runs(), scaled(5))
        await sweeper.stop()
    assert len(runs) >= 3  # went on after the failure
    assert [r.getMessage() for r in caplog.records] == ["the test sweep failed; retrying in 0.01 s"]


async def test_a_sweep_failing_while_the_database_restarts_logs_one_line_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs: list[int] = []

    async def work() -> None:
        runs.append(len(runs))
        if len(runs) == 1:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")

    sweeper = Sweeper("test sweep", work, seconds=0.01, grace=1.0)
    with caplog.at_level(logging.WARNING, logger="referee.bot"):
        sweeper.start()
        for _ in range(500):
            if len(runs) >= 3:
                break
            await asyncio.sleep(0.01)
        await sweeper.stop()
    assert len(runs) >= 3
    (line,) = caplog.records
    assert line.levelno == logging.WARNING and line.exc_info is None, line
    assert line.getMessage() == ("the test sweep failed ([Errno 111] Connect call failed ('127.0.0.1', 5432)); "
                                 "retrying in 0.01 s")  # fmt: skip


async def test_stop_waits_for_a_sweep_in_progress_and_starts_none_after() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    finished: list[bool] = []

    async def work() -> None:
        started.set()
        await release.wait()
        finished.append(True)

    sweeper = Sweeper("test sweep", work, seconds=0.01, grace=5.0)
    sweeper.start()
    await asyncio.wait_for(started.wait(), scaled(5))
    stopping = asyncio.create_task(sweeper.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # waiting for the sweep in progress
    release.set()
    await asyncio.wait_for(stopping, scaled(5))
    assert finished == [True]
    await asyncio.sleep(0.05)
    assert finished == [True] and not sweeper.loop.is_running()


async def test_stop_gives_up_waiting_after_its_grace() -> None:
    started = asyncio.Event()

    async def work() -> None:
        started.set()
        await asyncio.sleep(60)

    sweeper = Sweeper("test sweep", work, seconds=0.01, grace=0.05)
    sweeper.start()
    await asyncio.wait_for(started.wait(), scaled(5))
    await asyncio.wait_for(sweeper.stop(), min(scaled(5), 30))  # never the sweep's 60 s, however loaded
    await asyncio.sleep(0)
    assert not sweeper.loop.is_running()
