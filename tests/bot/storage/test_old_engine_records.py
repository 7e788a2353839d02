"""Records made by an older engine stay honest after a ruling changes.

``engine_0_1_0/`` holds one report per game exactly as engine 0.1.0 wrote it (before the rules-fidelity pass
changed rulings and bumped ENGINE_VERSION). Stored today, each must come back byte for byte, still render, and
verify as made by another engine version: never as "altered", which would accuse the players of tampering.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.access import OPERATOR
from bot.render.embeds import render_pages
from bot.render.markdown import report_markdown
from bot.render.terminal import render_report
from bot.storage import Store
from bot.verification import Verdict, verify
from rules_core import ENGINE_VERSION
from rules_core.report import Report
from tests.bot.test_cli import referee

OLD = Path(__file__).parent / "engine_0_1_0"
OLD_REPORTS = sorted(OLD.glob("*.json"))


def test_every_game_has_an_old_record() -> None:
    assert {path.stem for path in OLD_REPORTS} == {"40k", "boltaction", "duel", "epic", "reikhammer"}


@pytest.mark.parametrize("path", OLD_REPORTS, ids=lambda path: path.stem)
async def test_an_old_engines_record_verifies_as_another_engine_never_as_altered(store: Store, path: Path) -> None:
    written = path.read_text().strip()
    report = Report.from_dict(json.loads(written))
    assert report.engine_version == "0.1.0" != ENGINE_VERSION
    record_id = await store.records.add(report, requested_by="111")
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.report_json == written  # kept byte for byte
    verification = verify(stored)
    assert verification.verdict is Verdict.OTHER_ENGINE
    assert "0.1.0" in verification.message and ENGINE_VERSION in verification.message
    assert "altered" not in verification.message.lower()
    # It still replays in both front ends.
    render_report(stored.report)
    assert report_markdown(stored.report, record_id=record_id)
    assert render_pages(stored.report, record_id=record_id)


async def store_old_40k(url: str) -> int:
    """Engine 0.1.0's 40K record, stored as it was written; its id."""
    async with await Store.open(url) as store:
        return await store.records.add(Report.from_dict(json.loads((OLD / "40k.json").read_text())), requested_by="x")


def test_verify_in_the_terminal_says_which_engine_made_an_old_record(
    private_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record_id = asyncio.run(store_old_40k(private_database))
    code, out, _ = referee("verify", str(record_id), capsys=capsys)
    assert code == 1
    assert "resolved by engine 0.1.0" in out and "NOT match" not in out
    code, out, _ = referee("replay", str(record_id), capsys=capsys)
    assert code == 0 and "engine 0.1.0" in out


def test_an_old_engines_combat_still_continues_and_says_whose_positions_it_took(
    private_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record_id = asyncio.run(
        store_old_40k(private_database)
    )  # engine 0.1.0's 40K record: the defender held, the combat goes on
    code, out, err = referee("assault", "continue", str(record_id), "--seed", "1", "--json", capsys=capsys)
    assert code == 0
    assert "every model in base contact, as the record lists them" in err
    assert json.loads(out)["inputs"]["options"]["round"] == 2
