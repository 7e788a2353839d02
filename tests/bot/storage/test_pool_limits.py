"""The PostgreSQL pool of one process is sized by DATABASE_POOL_SIZE and DATABASE_MAX_OVERFLOW: every process of a
sharded bot has its own, and their sum must fit the server's max_connections (docs/deploy.md)."""

from __future__ import annotations

import os

import pytest

from bot.storage import StorageError
from bot.storage.db import MAX_OVERFLOW, POOL_SIZE, create_engine, pool_limits
from tests.bot.storage.conftest import NO_SERVER


def test_the_defaults_are_ten_kept_and_twenty_in_a_burst() -> None:
    assert pool_limits({}) == (POOL_SIZE, MAX_OVERFLOW) == (10, 20)


def test_a_deployment_can_size_each_process_pool() -> None:
    assert pool_limits({"DATABASE_POOL_SIZE": "4", "DATABASE_MAX_OVERFLOW": "0"}) == (4, 0)
    assert pool_limits({"DATABASE_POOL_SIZE": " 25 "}) == (25, MAX_OVERFLOW)


@pytest.mark.parametrize(
    ("name", "value"),
    [("DATABASE_POOL_SIZE", "0"), ("DATABASE_POOL_SIZE", "ten"), ("DATABASE_MAX_OVERFLOW", "-1"),
     ("DATABASE_POOL_SIZE", "²"), ("DATABASE_MAX_OVERFLOW", "5000")],
)  # fmt: skip
def test_a_wrong_size_is_one_line_naming_the_variable_with_an_example(name: str, value: str) -> None:
    with pytest.raises(StorageError) as refused:
        pool_limits({name: value})
    message = str(refused.value)
    assert message.startswith(f"{name} is a number of connections") and f"'{value}'" in message
    assert f"Example: {name}=" in message


async def test_the_engine_of_a_process_uses_the_sizes_given(monkeypatch: pytest.MonkeyPatch) -> None:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(NO_SERVER)
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    monkeypatch.setenv("DATABASE_MAX_OVERFLOW", "1")
    engine = create_engine(url)
    try:
        assert engine.pool.size() == 3  # type: ignore[attr-defined]
        assert engine.pool._max_overflow == 1  # type: ignore[attr-defined]
    finally:
        await engine.dispose()
