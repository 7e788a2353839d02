"""The league page at size: GET /l/{id} for a league of 200 players and 10,000 confirmed matches.

Run: PYTHONPATH=. .venv/bin/python bench/bench_web.py [--players 200] [--matches 10000] [--runs 40] [--url URL]
SQLite always (a temporary file); PostgreSQL too with --url, or BENCH_DATABASE_URL / TEST_DATABASE_URL (that
database is emptied first: give the bench one of its own). The league is seeded in bulk through the store's own
tables (players, their cached names, the matches, the server's opt-in), then the pages are served by the real
aiohttp application on loopback and timed from the request to the last byte of the answer:
  - cold: the league has just changed (its version moved on, as any confirmation does), so the request computes
    the standings again and saves the snapshot, as the first /league standings after a change does;
  - warm: nothing changed since, so the page is served from the snapshot;
  - a far page of matches (?page=150) warm, and the rating chart (SVG) drawn (cold) and from memory (warm).
Target (issue 22): warm median at most 100 ms. Prints medians and 99th percentiles; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import insert, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_leagues import fill as fill_league  # one seeding of a big league for the benches
from bench.bench_storage import fresh  # one way to empty a database for a bench
from bot.server_settings.cache import SettingsCache
from bot.server_settings.model import SERVER, WEB
from bot.storage import Store
from bot.storage.models import DisplayName, League
from bot.web.app import make_app
from bot.web.config import WebConfig

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GUILD = "700000000000000001"


async def fill(store: Store, players: int, matches: int) -> int:
    """The league of bench/bench_leagues.py (``matches`` confirmed games in bulk), its players' names cached, and
    its server opted in to the web pages."""
    league_id = await fill_league(store, players, matches, guild=GUILD)
    ids = [f"{800000000000000000 + n}" for n in range(players)]
    async with store.sessions.begin() as session:
        await session.execute(insert(DisplayName), [{"guild_id": GUILD, "user_id": user, "name": f"Player {n}",
                                                     "fetched_at": T0} for n, user in enumerate(ids)])  # fmt: skip
    await store.settings.set(SERVER, GUILD, GUILD, WEB, "public", "800000000000099999")
    return league_id


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):7.1f} ms   p99 {p99:7.1f} ms"


async def timed(work: Callable[[], Awaitable[object]], runs: int, before: Callable[[], Awaitable[object]]) -> str:
    times = []
    for _ in range(runs):
        await before()
        start = time.perf_counter()
        await work()
        times.append((time.perf_counter() - start) * 1000)
    return summary(times)


async def measure(url: str, label: str, players: int, matches: int, runs: int) -> None:
    store = await Store.open(url)
    settings = SettingsCache()
    try:
        league_id = await fill(store, players, matches)
        await settings.load(store)
        config = WebConfig(_env_file=None, web_rate=1_000_000)  # type: ignore[call-arg]  # the bench is one address
        client: TestClient[Any, Any] = TestClient(TestServer(make_app(store, settings, config)))
        await client.start_server()

        async def get(path: str) -> None:
            response = await client.get(path)
            await response.read()
            if response.status != 200:
                raise SystemExit(f"{path}: {response.status}")

        async def change() -> None:
            async with store.sessions.begin() as session:  # what any confirmation or correction does
                await session.execute(update(League).where(League.id == league_id).values(version=League.version + 1))

        async def nothing() -> None:
            return None

        page = f"/l/{league_id}"
        try:
            await get(page)  # the first request of a fresh process: imports, templates, connections
            print(f"{label}, {players} players, {matches} confirmed matches, {runs} requests each:")
            print(f"  GET {page} cold (after a change: standings computed, snapshot saved)  "
                  f"{await timed(lambda: get(page), runs, change)}")  # fmt: skip
            await get(page)
            print(f"  GET {page} warm (from the snapshot)                                   "
                  f"{await timed(lambda: get(page), runs * 4, nothing)}   (target: median <= 100 ms)")  # fmt: skip
            far = f"{page}?page={matches // 50 - 50}"
            print(f"  GET {far} warm                                             "
                  f"{await timed(lambda: get(far), runs, nothing)}")  # fmt: skip
            chart = f"{page}/ratings.svg"
            print(f"  GET {chart} cold (drawn)                                  "
                  f"{await timed(lambda: get(chart), max(3, runs // 8), change)}")  # fmt: skip
            print(f"  GET {chart} warm (from memory)                            "
                  f"{await timed(lambda: get(chart), runs, nothing)}")  # fmt: skip
        finally:
            await client.close()
    finally:
        await store.close()


async def main(players: int, matches: int, runs: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        await measure(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", "SQLite", players, matches, runs)
    url = url or os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    if url:
        await fresh(url)
        await measure(url, "PostgreSQL", players, matches, runs)
    else:
        print("PostgreSQL: skipped (--url, BENCH_DATABASE_URL or TEST_DATABASE_URL: a database the bench may empty)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--url", default=None, help="a PostgreSQL (or other) database the bench may empty")
    args = parser.parse_args()
    asyncio.run(main(args.players, args.matches, args.runs, args.url))
