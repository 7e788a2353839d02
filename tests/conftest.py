"""Every test gets its own SQLite store: nothing a test records lands in a referee.db of the working directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'referee.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    return url
