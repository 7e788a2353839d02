"""A league's pages in headless Chromium: the standings the page shows, axe-core (no serious or critical
violation) and the structure rules in light and dark mode at phone and desktop widths, and screenshots of both
widths (docs/web/league-phone.png is the phone one, regenerated with UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.storage import Store
from tests.bot.web.browser import DESKTOP, PHONE, WebBrowser, served
from tests.bot.web.league_data import ANN, seed_league

DOCS = Path(__file__).resolve().parents[3] / "docs" / "web"


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_the_league_pages_are_accessible_in_both_schemes(
    store: Store, web_browser: WebBrowser, dark: bool
) -> None:
    seeded = await seed_league(store)
    with served(store.url) as site:
        for path in (f"/l/{seeded.league}", f"/l/{seeded.league}/players/{ANN}"):
            for width in (PHONE, DESKTOP):
                web_browser.visit(site + path, width, dark=dark)
                assert web_browser.axe() == [], (path, width)
                assert web_browser.structure() == [], (path, width)


async def test_the_page_shows_the_standings_and_the_chart(
    store: Store, web_browser: WebBrowser, tmp_path: Path
) -> None:
    seeded = await seed_league(store)
    with served(store.url) as site:
        web_browser.visit(f"{site}/l/{seeded.league}", PHONE)
        text = web_browser.text()
        assert "Autumn Crusade" in text and "Standings" in text
        rows = web_browser.driver.execute_script(
            "return [...document.querySelectorAll('table.standings tbody tr')]"
            ".map(tr => [...tr.cells].map(c => c.innerText.trim()))"
        )
        assert rows == [
            ["1", "Ann the Bold", "6", "2", "2-0-0", "1531"],
            ["2", "a player (1)", "1", "1", "0-1-0", "1500"],
            ["3", "a player (2)", "1", "2", "0-1-1", "1485"],
            ["4", "Bob", "0", "1", "0-0-1", "1484"],
        ]
        chart = web_browser.driver.execute_script(
            "const img = document.querySelector('img.chart'); return [img.complete, img.naturalWidth, img.width]"
        )
        assert chart[0] and chart[1] > 0 and 0 < chart[2] <= PHONE  # the SVG loaded, and fits the phone
        overflow = web_browser.driver.execute_script(
            "return [document.documentElement.scrollWidth, ...[...document.querySelectorAll('.table-wrap')]"
            ".map(d => d.scrollWidth - d.clientWidth)]"
        )
        assert overflow == [PHONE, 0, 0]  # the page and both tables fit a phone: nothing scrolls sideways
        phone = tmp_path / "league-phone.png"
        desktop = tmp_path / "league-desktop.png"
        assert web_browser.photograph(phone, PHONE) > 0
        web_browser.visit(f"{site}/l/{seeded.league}", DESKTOP)
        assert web_browser.photograph(desktop, DESKTOP) > 0
        if os.environ.get("UPDATE_SCREENSHOTS"):
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(phone, DOCS / "league-phone.png")
            shutil.copyfile(desktop, tmp_path.parent / "league-desktop.png")


async def test_a_crumb_keeps_the_spaces_of_a_name_with_underscores_visible(
    store: Store, web_browser: WebBrowser
) -> None:
    """``__Big__ _tilt_ League``: an underline on the crumb merges its underscores and spaces into one line (the
    spaces vanish), so the breadcrumb's links are not underlined (the page's other links still are)."""
    seeded = await seed_league(store, name="__Big__ _tilt_ League")
    with served(store.url) as site:
        for path in (f"/l/{seeded.league}", f"/l/{seeded.league}/players/{ANN}"):
            for width in (PHONE, DESKTOP):
                web_browser.visit(site + path, width)
                crumbs = web_browser.driver.execute_script(
                    "return [...document.querySelectorAll('nav.crumbs a')]"
                    ".map(a => [a.innerText, getComputedStyle(a).textDecorationLine])"
                )
                named = [line for text, line in crumbs if text == "__Big__ _tilt_ League"]
                assert named and all(line == "none" for line in named), (path, width, crumbs)
                others = web_browser.driver.execute_script(
                    "return [...document.querySelectorAll('main a')].map(a => getComputedStyle(a).textDecorationLine)"
                )
                assert "underline" in others, (path, others)
