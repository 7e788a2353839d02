"""`referee settings show|export --guild ID` offline: a server's settings in effect and its whole audit, in terminal
words (no slash command), as text, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.recording import with_store
from bot.server_settings.model import CHANNEL, SERVER, USER, VISIBILITY, house_key
from bot.storage import Store
from tests.bot.test_cli import referee

GUILD, OTHER = "900000000000000001", "900000000000000002"
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def filled() -> None:
    async def fill(store: Store) -> None:
        rule = house_key("epic", "result_dice")
        await store.settings.set(SERVER, GUILD, GUILD, rule, "sum", "811", at=T0)
        await store.settings.set(SERVER, GUILD, GUILD, rule, "highest", "822", at=T0 + timedelta(minutes=1))
        await store.settings.set(CHANNEL, "77", GUILD, VISIBILITY, "private", "811", at=T0 + timedelta(minutes=2))
        await store.settings.set(SERVER, GUILD, GUILD, "results_channel", "78", "811", at=T0 + timedelta(minutes=3))
        await store.settings.clear(SERVER, GUILD, GUILD, rule, "811", at=T0 + timedelta(minutes=4))
        await store.settings.set(SERVER, OTHER, OTHER, VISIBILITY, "private", "899", at=T0)  # another server
        await store.settings.set(USER, "811", None, "steps", "full", "811", at=T0)  # a player's own

    with_store(fill)


def test_show_lists_the_settings_in_effect_and_every_change_oldest_first(
    filled: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = referee("settings", "show", "--guild", GUILD, capsys=capsys)
    assert code == 0
    assert out.splitlines() == [
        f"Settings of guild {GUILD}",
        "The server:",
        "  results channel (a copy of each public result): channel 78",
        "In channel 77 (overrides the server):",
        "  results: private by default",
        "Changes, oldest first (5):",
        "  #1 2026-11-01 12:00 by 811: Epic house rule result dice: unset → sum (whole server)",
        "  #2 2026-11-01 12:01 by 822: Epic house rule result dice: sum → highest (whole server)",
        "  #3 2026-11-01 12:02 by 811: visibility: unset → private (channel 77)",
        "  #4 2026-11-01 12:03 by 811: results channel: unset → channel 78 (whole server)",
        "  #5 2026-11-01 12:04 by 811: Epic house rule result dice: highest → unset (whole server)",
    ]
    assert "/" not in out.replace("/settings", "")  # no slash command in the terminal
    code, out, _ = referee("settings", "show", "--guild", "123", capsys=capsys)
    assert code == 0 and out.strip() == (
        "No settings for guild 123: the bot's defaults apply (its managers change them in Discord)."
    )


def test_export_as_json_and_as_csv(filled: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("settings", "export", "--guild", GUILD, capsys=capsys)
    data = json.loads(out)
    assert code == 0 and [row["key"] for row in data["settings"]] == ["visibility", "results_channel"]
    assert [(c["before"], c["after"], c["actor"]) for c in data["settings_changes"]][:2] == [
        (None, "sum", "811"), ("sum", "highest", "822"),
    ]  # fmt: skip
    target = tmp_path / "settings.csv"
    code, out, _ = referee("settings", "export", "--guild", GUILD, "--format", "csv", "--output", str(target),
                           capsys=capsys)  # fmt: skip
    assert code == 0 and out.strip() == f"Wrote 2 settings and 5 changes to {target}."
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [row["record"] for row in rows] == ["setting"] * 2 + ["change"] * 5
    assert (rows[2]["actor"], rows[2]["key"], rows[2]["before"], rows[2]["after"]) == (
        "811", house_key("epic", "result_dice"), "", '"sum"',
    )  # fmt: skip
    assert rows[0]["scope_id"] == "77" and rows[0]["after"] == '"private"'


def test_a_guild_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("settings", "show", capsys=capsys)
    assert code == 2 and "--guild" in err
