"""The league pages mark each combat both players agreed to (issue 24) and say when the league requires it: the
page, its JSON twin, the matches CSV and a player's page; in Chromium at phone and desktop widths, accessible, and
photographed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from bot.storage import Store
from tests.bot.leagues.agreed_records import agreed_combat, lone_combat
from tests.bot.web.browser import DESKTOP, PHONE, WebBrowser, served
from tests.bot.web.conftest import Serve
from tests.bot.web.league_data import ANN, BOB, CID, GUILD, ORGANISER, actor, opt_in


async def strict_league(store: Store) -> tuple[int, int, int]:
    """A league requiring agreed combats: Ann beat Bob with an agreed combat (confirmed); Cid's entry lists none.
    Then the organiser turns the requirement off, and Bob reports a win over Cid with a lone combat (pending).
    The league, the agreed combat and the lone one."""
    boss = actor(ORGANISER, manager=True)
    league = await store.leagues.create(GUILD, "Remote Crusade", "40k", actor=boss, require_agreed=True)
    for player in (ANN, BOB, CID):
        await store.leagues.join(league.id, actor=actor(player))
    agreed = await agreed_combat(store, BOB, ANN, GUILD)
    reported = await store.matches.report(league.id, actor=actor(ANN), opponent=BOB, result="win", combats=[agreed])
    await store.matches.confirm(reported.match.id, actor=actor(BOB))
    await store.matches.enter(league.id, actor=boss, player=ANN, opponent=CID, result="draw")
    await store.leagues.remember_names(GUILD, {ANN: "Ann", BOB: "Bob", CID: "Cid"})
    await opt_in(store)
    return league.id, agreed, await lone_combat(store, BOB, GUILD)


async def test_the_page_marks_agreed_combats_and_says_the_league_requires_them(store: Store, serve: Serve) -> None:
    league, agreed, lone = await strict_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{league}")).text()
    assert "Only combats both players agreed to count" in page
    assert page.count("✔ agreed") == 1
    data = json.loads(await (await client.get(f"/l/{league}.json")).text())
    assert data["league"]["require_agreed"] is True
    listed = [c for m in data["matches"]["items"] for c in m["combats"]]
    assert [(c["id"], c["agreed"]) for c in listed] == [(agreed, True)]

    await store.leagues.update_settings(league, actor=actor(ORGANISER, manager=True), require_agreed=False)
    await store.matches.report(league, actor=actor(BOB), opponent=CID, result="win", combats=[lone])
    page = await (await client.get(f"/l/{league}")).text()
    assert "Only combats both players agreed to count" not in page
    assert page.count("✔ agreed") == 1  # the agreed combat still marked; the lone one not
    player = await (await client.get(f"/l/{league}/players/{BOB}")).text()
    assert player.count("✔ agreed") == 1
    rows = list(csv.DictReader(io.StringIO(await (await client.get(f"/l/{league}/matches.csv")).text())))
    assert [(r["combats"], r["agreed_combats"]) for r in rows] == [(f"#{agreed}", f"#{agreed}"), ("", ""),
                                                                   (f"#{lone}", "")]  # fmt: skip


async def test_the_mark_in_a_browser_at_both_widths(store: Store, web_browser: WebBrowser, tmp_path: Path) -> None:
    league, agreed, _ = await strict_league(store)
    with served(store.url) as site:
        for width in (PHONE, DESKTOP):
            web_browser.visit(f"{site}/l/{league}", width)
            assert web_browser.axe() == [] and web_browser.structure() == [], width
            assert f"combat {agreed} ✔ agreed" in web_browser.text()  # a public combat: linked, and marked
            overflow = web_browser.driver.execute_script(
                "return [document.documentElement.scrollWidth, ...[...document.querySelectorAll('.table-wrap')]"
                ".map(d => d.scrollWidth - d.clientWidth)]"
            )
            assert overflow == [width, 0, 0]  # the page and both tables fit: the mark is never cut off
            assert web_browser.photograph(tmp_path / f"league-agreed-web-{width}.png", width) > 0
