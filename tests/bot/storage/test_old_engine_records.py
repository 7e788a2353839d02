"""Records made by an older engine stay honest after a ruling changes.

``engine_0_1_0/`` holds one report per game exactly as engine 0.1.0 wrote it (before the rules-fidelity pass
changed rulings and bumped ENGINE_VERSION), and ``engine_0_2_0/`` one per game as engine 0.2.0 wrote it, each a
case whose ruling the third fidelity pass (0.3.0) changed: a 40K command holding two separate combats, supporting
fire that killed the last directly engaged attacker (Epic, Reikhammer), fanatics broken by reaction fire, every
Ork told to follow up. Stored today, each must come back byte for byte, still render, and verify as made by
another engine version: never as "altered", which would accuse the players of tampering.
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
OLD_0_2_0 = Path(__file__).parent / "engine_0_2_0"
OLD_ENGINES = {"0.1.0": OLD, "0.2.0": OLD_0_2_0}
OLD_REPORTS = sorted((version, path) for version, folder in OLD_ENGINES.items() for path in folder.glob("*.json"))


@pytest.mark.parametrize("folder", OLD_ENGINES.values(), ids=OLD_ENGINES.keys())
def test_every_game_has_an_old_record(folder: Path) -> None:
    assert {path.stem for path in folder.glob("*.json")} == {"40k", "boltaction", "duel", "epic", "reikhammer"}


@pytest.mark.parametrize(("version", "path"), OLD_REPORTS, ids=lambda item: getattr(item, "stem", item))
async def test_an_old_engines_record_verifies_as_another_engine_never_as_altered(
    store: Store, version: str, path: Path
) -> None:
    written = path.read_text().strip()
    report = Report.from_dict(json.loads(written))
    assert report.engine_version == version != ENGINE_VERSION
    record_id = await store.records.add(report, requested_by="111")
    stored = await store.records.get(record_id, actor=OPERATOR)
    assert stored.report_json == written  # kept byte for byte
    verification = verify(stored)
    assert verification.verdict is Verdict.OTHER_ENGINE
    assert version in verification.message and ENGINE_VERSION in verification.message
    assert "altered" not in verification.message.lower()
    # It still replays in both front ends.
    render_report(stored.report)
    assert report_markdown(stored.report, record_id=record_id)
    assert render_pages(stored.report, record_id=record_id)


async def store_old_40k(url: str, folder: Path = OLD) -> int:
    """An old engine's 40K record (0.1.0's unless told), stored as it was written; its id."""
    async with await Store.open(url) as store:
        return await store.records.add(
            Report.from_dict(json.loads((folder / "40k.json").read_text())), requested_by="x"
        )


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


def test_engine_0_2_0s_two_combat_record_replays_as_stored_and_its_combat_goes_on(
    private_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.2.0 fought two separate combats as one (refused since 0.3.0); its record still replays as it was, verify
    names its engine, and the combat that goes on (Marines and Orks: the Scouts and Grots are gone) continues."""
    record_id = asyncio.run(store_old_40k(private_database, OLD_0_2_0))
    code, out, _ = referee("replay", str(record_id), capsys=capsys)
    assert code == 0 and "engine 0.2.0" in out and "Grot" in out
    code, out, _ = referee("verify", str(record_id), capsys=capsys)
    assert code == 1 and "resolved by engine 0.2.0" in out and "NOT match" not in out
    code, out, err = referee("assault", "continue", str(record_id), "--seed", "1", "--json", capsys=capsys)
    assert code == 0, err
    continued = json.loads(out)
    assert continued["inputs"]["options"]["round"] == 2 and continued["engine_version"] == ENGINE_VERSION
    assert "Marine" in continued["inputs"]["attacker"] and "Scout" not in continued["inputs"]["attacker"]
    assert "last round's, capped by the models left" in err
