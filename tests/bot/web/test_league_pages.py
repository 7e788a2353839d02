"""A league's pages over a real store: served only for a league whose server opted in (else the one 404 page, at
once when it opts out), the standings exactly as /league standings computes them (the same store call, the same
snapshot), the rating chart as SVG, paged matches, seasons, a player's history, the JSON and CSV twins, and players
shown by their cached names, else as "a player", an erased one as the store's pseudonym, a name never markup."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.leagues.chart import legend_labels
from bot.leagues.export import matches_csv, standings_csv
from bot.server_settings.cache import SettingsCache
from bot.storage import Store
from bot.web.app import SETTINGS, make_app
from bot.web.config import WebConfig
from bot.web.leagues import CHARTS, PAGE_SIZE, labels
from rules_core import resolve
from tests.bot.storage.conftest import migrated_postgresql
from tests.bot.web.conftest import Serve
from tests.bot.web.league_data import (
    ANN,
    BOB,
    CID,
    DEE,
    GUILD,
    ORGANISER,
    OTHER_GUILD,
    START,
    actor,
    opt_in,
    seed_league,
    table_rows,
)

TWINS = ("", ".json", "/ratings.svg", "/matches.csv", "/standings.csv", f"/players/{ANN}", f"/players/{ANN}.json")


async def not_found(client: object, path: str) -> None:
    response = await client.get(path)  # type: ignore[attr-defined]
    assert response.status == 404, path
    assert "<h1>Not found</h1>" in await response.text(), path


async def test_an_unknown_league_or_one_not_published_is_not_found(store: Store, serve: Serve) -> None:
    hidden = await seed_league(store, public=False)
    client = await serve()
    for suffix in TWINS:
        await not_found(client, f"/l/{hidden.league}{suffix}")
        await not_found(client, f"/l/999{suffix}")
    for path in ("/l/abc", "/l/-1", f"/l/{hidden.league}x", "/l/99999999999999999999"):
        await not_found(client, path)


async def test_only_ascii_digits_are_a_number_in_an_address(store: Store, serve: Serve) -> None:
    """A "²" passes str.isdigit() but not int() (it answered 500), and "٣" (an Arabic-Indic 3) was read as 3."""
    seeded = await seed_league(store)
    client = await serve()
    three = "%D9%A3"  # ٣
    assert seeded.league < 10
    for path in ("/l/%C2%B2", f"/l/{three}", f"/l/{three}.json", f"/l/%EF%BC%91{seeded.league}",  # fullwidth 1
                 f"/l/{seeded.league}?page=%C2%B2", f"/l/{seeded.league}?page=%D9%A1",
                 f"/l/{seeded.league}?season=%C2%B9", f"/l/{seeded.league}.json?season=%D9%A1",
                 f"/l/{seeded.league}/ratings.svg?season=%C2%B9", f"/l/{seeded.league}/players/{ANN}?page=%C2%B2",
                 f"/l/{seeded.league}?page=+1", f"/l/{seeded.league}?page=1_0", "/l/1_0", "/l/0"):  # fmt: skip
        await not_found(client, path)
    assert (await client.get(f"/l/{seeded.league}?page=1&season=1")).status == 200


async def test_a_server_that_opts_out_is_not_served_after_one_refresh(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    for suffix in TWINS:
        assert (await client.get(f"/l/{seeded.league}{suffix}")).status == 200, suffix
    await opt_in(store, GUILD, "off")
    await client.app[SETTINGS].refresh(store)  # what the poll does every second
    for suffix in TWINS:
        await not_found(client, f"/l/{seeded.league}{suffix}")


async def test_another_servers_league_is_not_served_because_one_server_opted_in(store: Store, serve: Serve) -> None:
    public = await seed_league(store)
    other = await seed_league(store, guild=OTHER_GUILD, public=False, name="Elsewhere")
    client = await serve()
    assert (await client.get(f"/l/{public.league}")).status == 200
    for suffix in TWINS:
        await not_found(client, f"/l/{other.league}{suffix}")
    # A player of the public league is not found through the other league's address, and nobody is through a
    # league they never played in.
    await not_found(client, f"/l/{public.league}/players/{ORGANISER}")
    await not_found(client, f"/l/{public.league}/players/900000000000000000")


async def test_the_standings_are_what_league_standings_computes(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    # The same call /league standings makes (cogs/leagues/_cog.py), after the page built the snapshot: served from it.
    table = await store.leagues.standings(seeded.league, actor=actor(ANN))
    assert table.cached
    names = await labels(store, GUILD, [row.player for row in table.rows])
    expected = [[str(r.rank), names[r.player], str(r.points), str(r.played), f"{r.won}-{r.drawn}-{r.lost}",
                 f"{r.rating:.0f}"] for r in table.rows]  # fmt: skip
    assert table_rows(page, "standings") == expected
    assert [row[1] for row in expected] == ["Ann the Bold", "a player (1)", "a player (2)", "Bob"]
    assert "Autumn Crusade" in page and "40k" in page and "Season</dt><dd>1 (open)" in page
    for user in (ANN, BOB, CID, DEE):
        assert f'href="/l/{seeded.league}/players/{user}"' in page
        assert user not in page.replace(f"/players/{user}", "")  # an id only in a link, never shown


async def test_the_matches_with_status_and_the_chart_with_its_summary(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    rows = table_rows(page, "matches")
    assert [row[0] for row in rows] == [f"#{n} 2026-03-01" for n in (4, 3, 2, 1)]  # newest first
    assert rows[0][1:] == ["Bob beat a player (1)", "pending"]
    assert rows[3][1:] == ["Ann the Bold beat Bob (3-1)", "confirmed"]
    assert rows[2][1] == "a player (2) drew with a player (1)"
    assert 'alt="Elo ratings over the season of the top 4 players: Ann the Bold leads at 1531; ratings range from ' \
           '1484 to 1531."' in page  # fmt: skip
    assert f'src="/l/{seeded.league}/ratings.svg?season=1"' in page
    svg = await client.get(f"/l/{seeded.league}/ratings.svg")
    assert svg.status == 200 and svg.content_type == "image/svg+xml"
    body = await svg.read()
    assert body.startswith(b"<?xml") and b"<svg" in body
    # The bot's chart (title, legend: chart_title, legend_labels), its texts drawn as paths and named in comments.
    texts = [" ".join(t.split()) for t in re.findall(r"<!-- (.*?) -->", body.decode(), re.DOTALL)]
    assert "Autumn Crusade, season 1: ratings" in " ".join(texts)  # wrapped to fit a phone
    assert (
        [t for t in texts if t[:2] in ("1.", "2.", "3.", "4.")]
        == legend_labels(
            (await store.leagues.standings(seeded.league, actor=actor(ANN))).rows,
            await labels(store, GUILD, [ANN, DEE, CID, BOB]),
        )
        == ["1. Ann the Bold", "2. a player (1)", "3. a player (2)", "4. Bob"]
    )
    assert list(client.app[CHARTS]._charts) == [
        (seeded.league, 1, (await store.leagues.get(1, actor=actor(ANN))).version)
    ]
    assert await (await client.get(f"/l/{seeded.league}/ratings.svg")).read() == body  # from the cache
    assert "/c/" not in page  # no match lists a combat here


async def test_unnamed_players_are_numbered_alike_on_the_page_the_chart_and_the_json(
    store: Store, serve: Serve
) -> None:
    """Two players without a cached name were both "a player": two legend lines and table rows nobody could tell
    apart. They are numbered in the order the standings show them, the same label everywhere."""
    seeded = await seed_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    names = [row[1] for row in table_rows(page, "standings")]
    assert names == ["Ann the Bold", "a player (1)", "a player (2)", "Bob"]
    data = json.loads(await (await client.get(f"/l/{seeded.league}.json")).text())
    assert [row["name"] for row in data["standings"]] == names
    assert [row["player"] for row in data["standings"]] == [ANN, DEE, CID, BOB]
    svg = (await (await client.get(f"/l/{seeded.league}/ratings.svg")).read()).decode()
    texts = [" ".join(t.split()) for t in re.findall(r"<!-- (.*?) -->", svg, re.DOTALL)]
    assert [t for t in texts if t[:2] in ("1.", "2.", "3.", "4.")] == [f"{n}. {name}" for n, name in
                                                                      enumerate(names, start=1)]  # fmt: skip
    assert table_rows(page, "matches")[2][1] == "a player (2) drew with a player (1)"
    player = json.loads(await (await client.get(f"/l/{seeded.league}/players/{CID}.json")).text())
    assert player["player"]["name"] == "a player (2)"
    text = await (await client.get(f"/l/{seeded.league}/matches.csv")).text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["player_name"] for row in rows if row["player"] == CID} == {"a player (2)"}


async def test_a_void_or_disputed_match_shows_its_status(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    boss = actor(ORGANISER, manager=True)
    await store.matches.void(2, actor=boss, reason="Entered twice", at=START + timedelta(hours=6))
    await store.matches.dispute(4, actor=actor(DEE), reason="It was a draw", at=START + timedelta(hours=6))
    client = await serve()
    rows = table_rows(await (await client.get(f"/l/{seeded.league}")).text(), "matches")
    assert {row[0].split()[0]: row[2] for row in rows} == {
        "#4": "disputed",
        "#3": "confirmed",
        "#2": "void",
        "#1": "confirmed",
    }


async def test_the_json_twin_has_a_stable_shape(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    response = await client.get(f"/l/{seeded.league}.json")
    assert response.content_type == "application/json"
    data = json.loads(await response.text())
    assert set(data) == {"league", "season", "season_open", "seasons", "standings", "matches"}
    assert data["league"] == {"id": seeded.league, "name": "Autumn Crusade", "game": "40k", "season": 1,
                              "season_open": True, "require_agreed": False}  # fmt: skip
    assert data["seasons"] == [1] and data["season"] == 1
    assert data["standings"][0] == {"rank": 1, "player": ANN, "name": "Ann the Bold", "played": 2, "won": 2,
                                    "drawn": 0, "lost": 0, "points": 6, "rating": 1531.3}  # fmt: skip
    assert {k: v for k, v in data["matches"].items() if k != "items"} == {"page": 1, "pages": 1, "total": 4,
                                                                           "page_size": PAGE_SIZE}  # fmt: skip
    assert data["matches"]["items"][-1] == {
        "id": 1, "season": 1, "status": "confirmed", "date": "2026-03-01", "reported_at": "2026-03-01T19:00:00+00:00",
        "player": ANN, "player_name": "Ann the Bold", "opponent": BOB, "opponent_name": "Bob", "result": "win",
        "verb": "beat", "score": "3-1", "combats": [],
    }  # fmt: skip


async def test_the_csv_twins_are_the_exports_as_attachments(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    assert (
        f'href="/l/{seeded.league}/matches.csv"' in page and f'href="/l/{seeded.league}/standings.csv?season=1"' in page
    )
    matches = await client.get(f"/l/{seeded.league}/matches.csv")
    standings = await client.get(f"/l/{seeded.league}/standings.csv")
    assert matches.headers["Content-Disposition"] == f'attachment; filename="league-{seeded.league}-matches.csv"'
    assert standings.headers["Content-Disposition"] == (
        f'attachment; filename="league-{seeded.league}-season-1-standings.csv"'
    )
    assert matches.content_type == standings.content_type == "text/csv"
    table = await store.leagues.standings(seeded.league, actor=actor(ANN))
    played = await store.matches.in_league(seeded.league, actor=actor(ANN))
    players = [row.player for row in table.rows] + [p for m in played for p in (m.reporter, m.opponent)]
    names = await labels(store, GUILD, players)  # the standings first: unnamed players numbered as the page does
    assert await matches.text() == matches_csv(played, names, public=True)
    assert await standings.text() == standings_csv(table.rows, names)
    rows = list(csv.DictReader(io.StringIO(await standings.text())))
    assert [row["name"] for row in rows] == ["Ann the Bold", "a player (1)", "a player (2)", "Bob"]


async def test_the_public_matches_csv_has_no_organiser_id_and_no_notes(store: Store, serve: Serve) -> None:
    """The web's copy drops what no page shows (the organiser's Discord id, the free-text notes); the exports of
    /league export and `referee league export` keep them."""
    seeded = await seed_league(store)
    await store.matches.enter(seeded.league, actor=actor(ORGANISER, manager=True), player=CID, opponent=BOB,
                              result="win", notes="lives at 12 Elm St", at=START + timedelta(hours=6))  # fmt: skip
    client = await serve()
    text = await (await client.get(f"/l/{seeded.league}/matches.csv")).text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 5 and "notes" not in rows[0] and "decided_by" not in rows[0]
    assert ORGANISER not in text and "Elm St" not in text
    assert rows[-1]["player"] == CID and "decided_at" in rows[0]
    played = await store.matches.in_league(seeded.league, actor=actor(ANN))
    full = matches_csv(played, {})
    assert ORGANISER in full and "Elm St" in full  # the exports keep them


async def test_league_pages_do_not_claim_their_results_were_rolled(store: Store, serve: Serve) -> None:
    """Results are entered by hand in a league: the combat pages' footer (real dice, re-run from a seed) is theirs."""
    seeded = await seed_league(store)
    client = await serve()
    for path in (f"/l/{seeded.league}", f"/l/{seeded.league}/players/{ANN}", "/", "/l/999"):
        body = await (await client.get(path)).text()
        footer = body[body.index('<footer class="site">') :]
        assert "real dice" not in footer and "seed" not in footer, path
        assert "Tabletop referee" in footer, path


async def test_seasons_default_to_the_current_one_and_keep_the_old(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    boss = actor(ORGANISER, manager=True)
    await store.matches.void(4, actor=boss, reason="Never played", at=START + timedelta(hours=7))
    await store.leagues.start_season(seeded.league, actor=boss, at=START + timedelta(days=1))
    await store.matches.enter(seeded.league, actor=boss, player=DEE, opponent=BOB, result="win",
                              at=START + timedelta(days=1, hours=1))  # fmt: skip
    client = await serve()
    current = await (await client.get(f"/l/{seeded.league}")).text()
    assert "Season</dt><dd>2 (open)" in current
    assert table_rows(current, "standings")[0][:3] == ["1", "a player (1)", "3"]
    assert [row[0].split()[0] for row in table_rows(current, "matches")] == ["#5"]
    assert f'href="/l/{seeded.league}?season=1"' in current
    old = await (await client.get(f"/l/{seeded.league}?season=1")).text()
    assert "Season</dt><dd>1 (ended)" in old
    assert table_rows(old, "standings")[0][:3] == ["1", "Ann the Bold", "6"]
    assert [row[0].split()[0] for row in table_rows(old, "matches")] == ["#4", "#3", "#2", "#1"]
    assert json.loads(await (await client.get(f"/l/{seeded.league}.json?season=1")).text())["seasons"] == [1, 2]
    for query in ("?season=3", "?season=0", "?season=x", "?page=2", "?page=0"):
        await not_found(client, f"/l/{seeded.league}{query}")


async def test_a_players_history_and_standing(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}/players/{ANN}")).text()
    assert "<h1>Ann the Bold in Autumn Crusade</h1>" in page
    assert "<dt>Rank</dt><dd>1</dd>" in page and "<dt>Points</dt><dd>6</dd>" in page
    assert [row[1] for row in table_rows(page, "matches")] == [
        "Ann the Bold beat a player (2)",
        "Ann the Bold beat Bob (3-1)",
    ]
    data = json.loads(await (await client.get(f"/l/{seeded.league}/players/{ANN}.json")).text())
    assert data["player"] == {"id": ANN, "name": "Ann the Bold"} and data["standing"]["rank"] == 1
    assert [m["id"] for m in data["matches"]["items"]] == [3, 1]
    await not_found(client, f"/l/{seeded.league}/players/{ORGANISER}")  # never played in it


async def test_an_erased_user_is_shown_as_their_pseudonym(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    await store.privacy.delete(user=BOB)
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    [alias] = [row[1] for row in table_rows(page, "standings") if row[1].startswith("deleted-")]
    assert BOB not in page and "Bob" not in page
    assert f"Ann the Bold beat {alias} (3-1)" in [row[1] for row in table_rows(page, "matches")]
    assert (await client.get(f"/l/{seeded.league}/players/{alias}")).status == 200
    await not_found(client, f"/l/{seeded.league}/players/{BOB}")
    assert BOB not in await (await client.get(f"/l/{seeded.league}/matches.csv")).text()


async def test_a_name_is_never_markup(store: Store, serve: Serve) -> None:
    seeded = await seed_league(store)
    await store.leagues.remember_names(GUILD, {CID: "<script>alert('x')</script>"}, at=START)
    client = await serve()
    for path in (f"/l/{seeded.league}", f"/l/{seeded.league}/players/{CID}"):
        page = await (await client.get(path)).text()
        assert "<script>" not in page and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page, path


@pytest.fixture(params=("sqlite", "postgresql"))
async def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A store on each backend (PostgreSQL: TEST_DATABASE_URL, emptied and upgraded as tests/bot/storage does)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"
    if request.param == "postgresql":
        url = await migrated_postgresql()
    opened = await Store.open(url)
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_long_list_of_matches_is_paged_on_both_backends(any_store: Store) -> None:
    store = any_store
    seeded = await seed_league(store)
    boss = actor(ORGANISER, manager=True)
    for index in range(PAGE_SIZE + 3):  # 57 matches in all
        await store.matches.enter(seeded.league, actor=boss, player=CID, opponent=ANN, result="loss",
                                  at=START + timedelta(days=1, minutes=index))  # fmt: skip
    settings = SettingsCache()
    await settings.load(store)
    client = TestClient(TestServer(make_app(store, settings, WebConfig(_env_file=None))))  # type: ignore[call-arg]
    await client.start_server()
    try:
        first = await (await client.get(f"/l/{seeded.league}")).text()
        ids = [int(row[0].split()[0][1:]) for row in table_rows(first, "matches")]
        assert len(ids) == PAGE_SIZE and ids[0] == PAGE_SIZE + 7 and ids == sorted(ids, reverse=True)
        assert f'href="/l/{seeded.league}?season=1&amp;page=2"' in first and "page 1 of 2" in first
        second = await (await client.get(f"/l/{seeded.league}?page=2")).text()
        assert [row[0].split()[0] for row in table_rows(second, "matches")] == [
            "#7",
            "#6",
            "#5",
            "#4",
            "#3",
            "#2",
            "#1",
        ]
        table = await store.leagues.standings(seeded.league, actor=actor(ANN))
        assert table.cached and table_rows(first, "standings")[0][:3] == [
            "1",
            "Ann the Bold",
            str(table.rows[0].points),
        ]
        await not_found(client, f"/l/{seeded.league}?page=3")
        # Past what the id column holds (a 32-bit integer on PostgreSQL), up to 18 digits: not found, never a 500.
        for big in ("2147483648", "999999999999", "999999999999999999"):
            await not_found(client, f"/l/{big}")
            await not_found(client, f"/l/{big}.json")
        await not_found(client, f"/l/{seeded.league}?page=999999999999999999")
    finally:
        await client.close()


async def test_a_table_read_once_is_never_shown_after_an_erasure_or_a_reused_league_id(
    store: Store, serve: Serve
) -> None:
    seeded = await seed_league(store)
    client = await serve()
    for _ in range(2):  # computed and saved, then read from the snapshot (and kept read in memory)
        before = await (await client.get(f"/l/{seeded.league}")).text()
    assert "Bob" in before and (await store.leagues.standings(seeded.league, actor=actor(ANN))).cached
    await store.privacy.delete(user=BOB)
    for _ in range(2):
        after = await (await client.get(f"/l/{seeded.league}")).text()
    assert "Bob" not in after and any(row[1].startswith("deleted-") for row in table_rows(after, "standings"))
    # The server's data deleted, and a new league made the same way: SQLite gives it the same id and version.
    await store.privacy.delete(guild=GUILD)
    again = await seed_league(store, name="Spring Crusade")
    boss = actor(ORGANISER, manager=True)
    await store.matches.enter(again.league, actor=boss, player=DEE, opponent=ANN, result="win",
                              at=START + timedelta(hours=9))  # fmt: skip
    assert (again.league, (await store.leagues.get(again.league, actor=boss)).version) == (seeded.league, 9)
    await client.app[SETTINGS].refresh(store)
    for _ in range(2):  # computed, then read from its own snapshot, never the deleted league's
        rows = table_rows(await (await client.get(f"/l/{again.league}")).text(), "standings")
    assert [(row[1], row[2]) for row in rows] == [("Ann the Bold", "6"), ("a player (1)", "4"), ("a player (2)", "1"),
                                                  ("Bob", "0")]  # fmt: skip


async def test_a_new_league_without_players_or_games(store: Store, serve: Serve) -> None:
    created = await store.leagues.create(GUILD, "Empty", "40k", actor=actor(ORGANISER, manager=True), at=START)
    await opt_in(store)
    client = await serve()
    page = await (await client.get(f"/l/{created.id}")).text()
    assert table_rows(page, "standings") == [["Nobody has joined yet."]]
    assert table_rows(page, "matches") == [["No matches yet."]]
    assert 'alt="Rating chart: no confirmed games yet."' in page
    assert (await client.get(f"/l/{created.id}/ratings.svg")).status == 200
    data = json.loads(await (await client.get(f"/l/{created.id}.json")).text())
    assert data["standings"] == [] and data["matches"]["items"] == [] and data["matches"]["pages"] == 1


async def test_a_matchs_public_combats_link_to_their_pages_by_slug_and_its_private_ones_do_not(
    store: Store, serve: Serve
) -> None:
    """A match lists its combats by record id; the page links a public combat of the league's server by its
    unguessable slug (never /c/{id}), and names a private one (its players may list it) without a link."""
    seeded = await seed_league(store)
    report = resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=7)
    public = await store.records.add(report, requested_by=ANN, opponent=CID, guild_id=GUILD, private=False)
    hidden = await store.records.add(report, requested_by=ANN, opponent=CID, guild_id=GUILD, private=True)
    await store.matches.report(seeded.league, actor=actor(ANN), opponent=DEE, result="win", combats=[public, hidden])
    client = await serve()
    page = await (await client.get(f"/l/{seeded.league}")).text()
    slug = (await store.records.get(public, actor=actor(ANN))).slug
    assert f'href="/c/{slug}"' in page
    assert page.count('href="/c/') == 1  # the private one: named, not linked
    assert f"#{hidden}" in page
    data = json.loads(await (await client.get(f"/l/{seeded.league}.json")).text())
    listed = next(m for m in data["matches"]["items"] if m["combats"])
    assert listed["combats"] == [{"id": public, "link": f"/c/{slug}", "agreed": False},
                                 {"id": hidden, "link": None, "agreed": False}]  # fmt: skip
    assert (await client.get(f"/c/{slug}")).status == 200  # the link opens the combat's page
