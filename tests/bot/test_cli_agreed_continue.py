"""Issue 34, from earlier notes: the terminal's `referee assault continue` of a record both players agreed to (a
challenge) does not roll its next round at once: it must be agreed again, so the terminal refuses, in its own words,
saying what to do, and records nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.bot.test_cli import referee
from tests.bot.test_cli_records import HELD, sqlite_path


@pytest.mark.parametrize("by", ["discord", "terminal"])
def test_an_agreed_record_is_not_continued_at_once(
    by: str, private_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    referee(*HELD, capsys=capsys)
    agreed = json.dumps({"challenge_id": 4, "by": by, "challenger": "1", "opponent": "2"})
    with sqlite3.connect(sqlite_path(private_database)) as connection:
        connection.execute("UPDATE combat_records SET agreed_json = ? WHERE id = 1", (agreed,))
    code, out, err = referee("assault", "continue", "1", capsys=capsys)
    assert code == 2, (out, err)
    assert "agreed by both" in err and "Nothing was rolled" in err, err
    assert "/assault" not in err and "record:" not in err  # terminal words only
    assert ("in Discord" in err) == (by == "discord") and ("'referee challenge" in err) == (by == "terminal")
    with sqlite3.connect(sqlite_path(private_database)) as connection:
        assert connection.execute("SELECT count(*) FROM combat_records").fetchone()[0] == 1
