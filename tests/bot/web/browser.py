"""The web pages in a real browser: Debian's headless Chromium (driven as tests/e2e/discord_view.py drives it),
the pages served by a real `referee web` server running in a thread of its own (the browser blocks the test while
it loads a page, so the server cannot share the test's event loop), axe-core's accessibility check run offline
in the page (selenium-axe-python ships axe-core), and the structure rules docs/web.md promises."""

from __future__ import annotations

import asyncio
import base64
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from selenium_axe_python import Axe

from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.web.app import serving
from bot.web.config import WebConfig
from tests.e2e.discord_view import Browser
from tests.waits import scaled

PHONE, DESKTOP = 390, 1280
SERIOUS = ("serious", "critical")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(url: str, **config: Any) -> Iterator[str]:
    """The pages over the database at ``url``, served from a thread with its own event loop (its settings loaded
    and polled, as `referee web` does); yields the base address."""
    port = free_port()
    ready = threading.Event()
    failed: list[BaseException] = []
    stop: list[asyncio.Event] = []
    loop = asyncio.new_event_loop()

    async def run() -> None:
        store = await Store.open(url)
        settings = SettingsCache()
        await settings.load(store)
        poll = asyncio.create_task(settings.poll(store))
        stop.append(asyncio.Event())
        try:
            web = WebConfig(_env_file=None, database_url=url, web_port=port, **config)  # type: ignore[call-arg]
            async with serving(store, settings, web):
                ready.set()
                await stop[0].wait()
        finally:
            poll.cancel()
            await asyncio.gather(poll, return_exceptions=True)
            await store.close()

    def main() -> None:
        try:
            loop.run_until_complete(run())
        except BaseException as error:  # reported to the test
            failed.append(error)
            ready.set()

    thread = threading.Thread(target=main, name="referee-web-under-test", daemon=True)
    thread.start()
    ready.wait(scaled(30))
    if failed:
        raise failed[0]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(scaled(30))


class WebBrowser:
    """A page of the site at a width, in light or dark mode; its accessibility and structure checked."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.driver = browser.driver

    def visit(self, address: str, width: int = PHONE, *, dark: bool = False) -> None:
        self.browser.resize(width, 900)
        scheme = {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [scheme]})
        self.browser.pace()
        self.driver.get(address)

    def text(self) -> str:
        return str(self.driver.execute_script("return document.body.innerText"))

    def status_title(self) -> str:
        return str(self.driver.title)

    def photograph(self, path: Path, width: int) -> int:
        """The whole page at ``width`` as a PNG; returns its height."""
        self.browser.resize(width, 900)
        height = int(self.driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)"))
        self.browser.resize(width, height)
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        path.write_bytes(base64.b64decode(shot["data"]))
        return height

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's serious and critical violations on the loaded page (WCAG 2 A and AA, and best practices)."""
        self.browser.pace()  # the script timeout axe-core's run gets, from the load now
        axe = Axe(self.driver)
        axe.inject()
        # resultTypes: only the violations are read, so axe lists no passing node (a long fight's page has thousands)
        results = axe.run(options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa",
                                                                           "best-practice"]},
                                   "resultTypes": ["violations"]})  # fmt: skip
        return [v for v in results["violations"] if v.get("impact") in SERIOUS]

    def structure(self) -> list[str]:
        """What the pages promise beyond axe: one banner, main and contentinfo landmark; one h1, headings never
        skipping a level; every table with header cells; every image with alt text; no script at all."""
        script = """
        const problems = [];
        for (const [sel, name] of [["header", "banner"], ["main", "main"], ["footer", "contentinfo"]]) {
          if (document.querySelectorAll("body > " + sel).length !== 1) problems.push("one " + name + " landmark");
        }
        const heads = [...document.querySelectorAll("h1,h2,h3,h4,h5,h6")].map(h => Number(h.tagName[1]));
        if (heads.filter(l => l === 1).length !== 1) problems.push("exactly one h1");
        heads.forEach((level, i) => {
          if (i && level > heads[i - 1] + 1) problems.push("heading skips to h" + level);
        });
        for (const table of document.querySelectorAll("table")) {
          if (!table.querySelector("th")) problems.push("a table without header cells");
        }
        for (const img of document.querySelectorAll("img")) {
          if (!img.getAttribute("alt")) problems.push("an image without alt text: " + img.src);
        }
        if (document.querySelectorAll("script").length) problems.push("a script on the page");
        return problems;
        """
        return list(self.driver.execute_script(script))


__all__ = ["DESKTOP", "PHONE", "WebBrowser", "free_port", "served"]
