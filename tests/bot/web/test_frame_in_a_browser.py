"""The site's frame in headless Chromium: the home and not-found pages pass axe-core (no serious or critical
violation) and the structure rules, in light and dark mode, at phone and desktop widths."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Store
from tests.bot.web.browser import DESKTOP, PHONE, WebBrowser, served


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_the_frame_is_accessible_in_both_schemes(
    store: Store, web_browser: WebBrowser, tmp_path: Path, dark: bool
) -> None:
    with served(store.url) as site:
        for path in ("/", "/c/no-such-combat"):
            for width in (PHONE, DESKTOP):
                web_browser.visit(site + path, width, dark=dark)
                assert web_browser.axe() == [], (path, width)
                assert web_browser.structure() == [], (path, width)
        web_browser.visit(site + "/c/no-such-combat", PHONE, dark=dark)
        assert "Not found" in web_browser.text()
        assert web_browser.photograph(tmp_path / "not-found.png", PHONE) > 0
