"""Issue 34, found by attacking: a combat the web pages do not show (private, from direct messages, of a server that
does not publish) is refused before its report or its history is loaded, so its 404 costs what an unknown slug's
does. Tested by what is loaded, never by timing: the report is parsed and the history read only for a page shown."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Store
from bot.storage import records as stored_records
from rules_core.report import Report
from tests.bot.web.conftest import Serve
from tests.bot.web.test_combat_pages import ANN, BOB, GUILD, a_fight, page, publish

OTHER = "900000000000000888"  # a server that publishes nothing


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every report parsed and every record history read, as they happen."""
    seen: list[str] = []
    parse, history = Report.from_json, stored_records._stored

    def parsed(text: str) -> Report:
        seen.append("report")
        return parse(text)

    async def read(session: Any, row: Any) -> Any:
        seen.append("history")
        return await history(session, row)

    monkeypatch.setattr(Report, "from_json", staticmethod(parsed))
    monkeypatch.setattr(stored_records, "_stored", read)
    return seen


async def test_a_hidden_combat_never_loads_its_report_or_history(store: Store, serve: Serve, loads: list[str]) -> None:
    report = a_fight()
    await publish(store)
    private = await store.records.add(report, requested_by=ANN, opponent=BOB, guild_id=GUILD, private=True)
    direct = await store.records.add(report, requested_by=ANN, opponent=BOB, guild_id=None, private=False)
    unpublished = await store.records.add(report, requested_by=ANN, opponent=BOB, guild_id=OTHER, private=False)
    shown = await store.records.add(report, requested_by=ANN, opponent=BOB, guild_id=GUILD, private=False)
    slugs = {n: (await store.records.get(n, actor=_operator())).slug for n in (private, direct, unpublished, shown)}
    client = await serve()
    loads.clear()
    for hidden in (private, direct, unpublished):
        for suffix in ("", ".json", "/verify"):
            status, _ = await page(client, f"/c/{slugs[hidden]}{suffix}")
            assert status == 404, (hidden, suffix)
    assert loads == []  # refused on what the row says of who may see it, before anything else is read
    status, _ = await page(client, f"/c/{slugs[shown]}")
    assert status == 200 and "report" in loads and "history" in loads


def _operator() -> Any:
    from bot.access import OPERATOR

    return OPERATOR
