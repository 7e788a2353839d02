"""The tests' own ``running_bot`` helper: a bot that cannot start (its setup fails, a schema mismatch say) fails
the test at once with its own error, instead of a 15-second wait for a readiness that cannot come."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.app import RefereeBot
from tests.e2e.conftest import running_bot
from tests.e2e.fake_discord import FakeDiscord


class SchemaMismatchError(Exception):
    pass


async def test_a_setup_that_fails_fails_running_bot_with_its_error(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(_self: RefereeBot) -> None:
        raise SchemaMismatchError("the database's schema is newer than this referee")

    monkeypatch.setattr(RefereeBot, "setup_hook", broken)
    with pytest.raises(SchemaMismatchError, match="schema is newer"):  # not a TimeoutError 15 s later
        async with running_bot(fake, f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}"):
            pytest.fail("the bot never started, so the test's body never runs")
