"""A combat's web page (GET /c/{slug}): server time and round trip over loopback, median and p99.

Run: PYTHONPATH=. .venv/bin/python bench/bench_web_combat.py [--requests 300] [--records 10000] [--url URL]
SQLite always (a temporary file); PostgreSQL too when --url, BENCH_DATABASE_URL or TEST_DATABASE_URL is set (that
database is emptied first: give the bench one of its own). The store holds ``--records`` other combats (the slug
lookup is one indexed query among them) and one realistic 40K assault of several units, public in a server that
publishes its pages; the page is asked for ``--requests`` times after a warm-up. Server time is measured by a
middleware around everything the app does (rate limit, headers, query, rendering); the round trip adds aiohttp's
HTTP on loopback. Target (issue 22): a combat page in 50 ms median or less.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_storage import fill, fresh
from bot.access import OPERATOR
from bot.server_settings.cache import SettingsCache
from bot.server_settings.model import SERVER, WEB
from bot.storage import Store
from bot.web.app import make_app
from bot.web.config import WebConfig
from bot.web.security import Handler
from rules_core import resolve

GUILD = "800000000000000001"
ATTACKER = ("9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ ; 1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+ | "
            "5x Assault Marine: WS4 S4 T4 W1 I4 A2 Ld8 Sv3+")  # fmt: skip
DEFENDER = "19x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def measure(url: str, label: str, requests: int, records: int) -> dict[str, Any]:
    store = await Store.open(url)
    try:
        await fill(store, records)
        report = resolve("40k", ATTACKER, DEFENDER, seed=2, charge_distance=5)
        record_id = await store.records.add(report, requested_by="800000000000000002", opponent="800000000000000003",
                                            guild_id=GUILD, channel_id="1")  # fmt: skip
        await store.settings.set(SERVER, GUILD, GUILD, WEB, "public", "800000000000000002")
        stored = await store.records.by_slug((await store.records.get(record_id, actor=OPERATOR)).slug)
        assert stored is not None
        settings = SettingsCache()
        await settings.load(store)
        app = make_app(store, settings, WebConfig(_env_file=None, web_rate=1_000_000))  # type: ignore[call-arg]
        server_ms: list[float] = []

        @web.middleware
        async def timed(request: web.Request, handler: Handler) -> web.StreamResponse:
            start = time.perf_counter()
            try:
                return await handler(request)
            finally:
                server_ms.append((time.perf_counter() - start) * 1000)

        app.middlewares.insert(0, timed)
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            path = f"/c/{stored.slug}"
            for _ in range(20):  # warm-up: templates compiled, connections open
                answer = await client.get(path)
                assert answer.status == 200, answer.status
                size = len(await answer.read())
            server_ms.clear()
            trips = []
            for _ in range(requests):
                start = time.perf_counter()
                answer = await client.get(path)
                await answer.read()
                trips.append((time.perf_counter() - start) * 1000)
        finally:
            await client.close()
    finally:
        await store.close()
    figures = {"backend": label, "median": statistics.median(server_ms), "p99": percentile(server_ms, 0.99),
               "trip_median": statistics.median(trips), "trip_p99": percentile(trips, 0.99), "bytes": size,
               "dice": sum(len(roll.dice) for step in report.steps for roll in step.rolls)}  # fmt: skip
    print(f"{label:10} server median {figures['median']:6.2f} ms  p99 {figures['p99']:6.2f} ms  | round trip "
          f"median {figures['trip_median']:6.2f} ms  p99 {figures['trip_p99']:6.2f} ms  | page {size:,} bytes, "
          f"{figures['dice']} dice, {requests} requests")  # fmt: skip
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--records", type=int, default=10_000, help="other combats in the store")
    parser.add_argument("--url", default=os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL"))
    args = parser.parse_args()
    print(f"GET /c/{{slug}}: a 40K assault of 3 units against 2, among {args.records:,} other combats "
          "(target: 50 ms median)")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        await measure(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", "SQLite", args.requests, args.records)
    if args.url:
        await fresh(args.url)
        await measure(args.url, "PostgreSQL", args.requests, args.records)


if __name__ == "__main__":
    asyncio.run(main())
