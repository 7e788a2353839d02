"""Combat pages in headless Chromium, served by a real `referee web` server: the page shows every die of its report
(read back from the page, roll by roll), verify says identical and then altered once the row is edited, and a long
40K fight and a duel pass axe-core (no serious or critical violation) and the structure rules, light and dark, at
phone and desktop widths. The phone screenshot of the duel is docs/web/combat-phone.png."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from sqlalchemy import text

from bot.access import OPERATOR
from bot.server_settings.model import SERVER, WEB
from bot.storage import Store
from rules_core import resolve
from rules_core.report import Report
from tests.bot.web.browser import DESKTOP, PHONE, WebBrowser, served
from tests.e2e.conftest import long_fight

GUILD = "100"
DOCS = Path(__file__).parents[3] / "docs" / "web"
_TAIL = re.compile(r"\(\d+ (?:die|dice)\)\s*$")


def a_duel() -> Report:
    return resolve("duel", "Sir Roland: WS5 S4 T4 W2 I5 A2 Sv3+", "Black Knight: WS5 S4 T4 W2 I4 A2 Sv3+", seed=11)


def a_long_fight() -> Report:
    attackers, defenders = long_fight()
    return resolve("40k", attackers, defenders, seed=5, charge_distance=3)


async def published(store: Store, report: Report, **more: str) -> str:
    """The record's slug, stored as a public combat of a server that publishes its pages."""
    record_id = await store.records.add(report, requested_by="111", opponent="222", guild_id=GUILD, **more)
    await store.settings.set(SERVER, GUILD, GUILD, WEB, "public", "1")
    return (await store.records.get(record_id, actor=OPERATOR)).slug


def shown_dice(web_browser: WebBrowser) -> list[list[int]]:
    """Every roll's dice as the page shows them, in page order (a re-rolled die as the face it ended on)."""
    cells = [cell.text for cell in web_browser.driver.find_elements(By.CSS_SELECTOR, "td.dice")]
    faces = []
    for cell in cells:
        body = _TAIL.sub("", cell).replace("✔", " ").replace("✘", " ").replace("·", " ")
        faces.append(sorted(int(word.split("→")[-1]) for word in body.split()))
    return faces


@pytest.mark.parametrize("fight", ["duel", "long 40K"])
async def test_the_page_shows_every_die_of_its_report(store: Store, web_browser: WebBrowser, fight: str) -> None:
    report = a_duel() if fight == "duel" else a_long_fight()
    slug = await published(store, report)
    with served(store.url) as site:
        web_browser.visit(f"{site}/c/{slug}", DESKTOP)
        assert [sorted(roll.dice) for step in report.steps for roll in step.rolls] == shown_dice(web_browser)
        page = web_browser.text()
        assert report.engine_version in page and str(report.seed) in page
        for step in report.steps:
            assert step.title in page


async def test_verify_says_identical_then_altered_after_the_row_is_edited(
    store: Store, web_browser: WebBrowser
) -> None:
    report = a_duel()
    slug = await published(store, report)
    with served(store.url) as site:
        web_browser.visit(f"{site}/c/{slug}", PHONE)
        web_browser.driver.find_element(By.LINK_TEXT, "Verify this record").click()
        assert "Verify: Identical" in web_browser.text()
        data = json.loads(report.to_json(indent=None))
        data["seed"] += 1
        async with store.engine.begin() as connection:
            await connection.execute(text("UPDATE combat_records SET report_json = :r WHERE slug = :s"),
                                     {"r": json.dumps(data), "s": slug})  # fmt: skip
        web_browser.visit(f"{site}/c/{slug}/verify", PHONE)
        page = web_browser.text()
        assert "Verify: Altered" in page and "it has been altered" in page


# Every word of the facts lists (dl.facts dd) whose letters the browser laid out on more than one line.
SPLIT_WORDS = """
const split = [];
for (const dd of document.querySelectorAll("dl.facts dd")) {
  const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/[A-Za-z]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) split.push(m[0]);
    }
  }
}
return split;
"""


async def test_no_word_of_the_facts_is_split_on_a_phone(store: Store, web_browser: WebBrowser, tmp_path: Path) -> None:
    """``word-break: break-all`` split words ("wounde d") on the verify page at 390 px: a word breaks only when it
    cannot fit a line on its own (``overflow-wrap: anywhere``)."""
    slug = await published(store, a_duel())  # "40K 2nd edition duel: wounded" wraps at 390 px
    with served(store.url) as site:
        for path in (f"/c/{slug}", f"/c/{slug}/verify"):
            web_browser.visit(site + path, PHONE)
            assert web_browser.driver.execute_script(SPLIT_WORDS) == [], path
        web_browser.photograph(tmp_path / "verify-phone.png", PHONE)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_combat_pages_are_accessible_in_both_schemes(
    store: Store, web_browser: WebBrowser, tmp_path: Path, dark: bool
) -> None:
    duel = await published(store, a_duel())
    long = await published(store, a_long_fight())
    record = await store.records.by_slug(duel)
    assert record is not None
    await store.records.add_note(record.id, "void", actor=OPERATOR, reason="Played with the wrong weapon <oops>")
    with served(store.url) as site:
        for path in (f"/c/{duel}", f"/c/{duel}/verify", f"/c/{long}"):
            for width in (PHONE, DESKTOP):
                web_browser.visit(site + path, width, dark=dark)
                assert web_browser.axe() == [], (path, width)
                assert web_browser.structure() == [], (path, width)
        web_browser.visit(f"{site}/c/{duel}", PHONE, dark=dark)
        assert "<oops>" in web_browser.text()  # shown as typed, never as markup
        scheme = "dark" if dark else "light"
        for width, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
            assert web_browser.photograph(tmp_path / f"combat-{name}-{scheme}.png", width) > 0
        if not dark and os.environ.get("UPDATE_SCREENSHOTS"):
            DOCS.mkdir(exist_ok=True)
            web_browser.photograph(DOCS / "combat-phone.png", PHONE)
