"""Storage speed: records written per second, and the median `history` query with 100,000 stored combats.

Run: .venv/bin/python bench/bench_storage.py [--rows 100000] [--writes 1000]
SQLite always (a temporary file); PostgreSQL too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set. The
PostgreSQL database is emptied first: give the bench one of its own.
Target (issue 6): median history query under 50 ms with 100,000 combats, on both backends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, text

from bot.storage import Store
from bot.storage.db import create_engine, upgrade
from bot.storage.models import Base, CombatRecord
from rules_core import resolve

BATCH = 5000


async def fresh(url: str) -> None:
    engine = create_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)
        await connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    await upgrade(engine)
    await engine.dispose()


async def fill(store: Store, rows: int) -> None:
    """Bulk rows shaped like real records (a real report's JSON), spread over users, guilds and games."""
    report = resolve(
        "40k", "10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", seed=1
    )
    body = report.to_json(indent=None)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    games = ("40k", "duel", "boltaction", "epic", "reikhammer")
    async with store.engine.begin() as connection:
        for first in range(0, rows, BATCH):
            await connection.execute(
                insert(CombatRecord),
                [
                    {
                        "game": games[n % 5], "attacker_spec": report.inputs.attacker,
                        "defender_spec": report.inputs.defender, "options_json": "{}", "seed": n,
                        "engine_version": report.engine_version, "report_json": body, "outcome": "held",
                        "winner": "attacker", "requested_by": f"user{n % 500}", "opponent": None,
                        "guild_id": f"guild{n % 20}", "channel_id": "c", "created_at": start + timedelta(seconds=n),
                    }
                    for n in range(first, min(rows, first + BATCH))
                ],
            )  # fmt: skip


async def timed(work, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for n in range(runs):
        begin = time.perf_counter()
        await work(n)
        times.append(time.perf_counter() - begin)
    return statistics.median(times) * 1000


async def bench(label: str, url: str, rows: int, writes: int) -> None:
    await fresh(url)
    store = await Store.open(url)
    reports = [
        resolve("duel", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "B: WS3 S3 T3 W1 I3 A1 Sv-", seed=n) for n in range(writes)
    ]
    begin = time.perf_counter()
    for report in reports:
        await store.records.add(report, requested_by="bench")
    sequential = writes / (time.perf_counter() - begin)
    begin = time.perf_counter()
    await asyncio.gather(*(store.records.add(report, requested_by="bench") for report in reports[:200]))
    concurrent = 200 / (time.perf_counter() - begin)
    await fill(store, rows - writes - 200)
    total = await store.engine.connect()
    count = (await total.execute(text("SELECT count(*) FROM combat_records"))).scalar_one()
    await total.close()
    print(f"{label}: {count:,} combat records stored")
    print(f"  writes, one at a time (one transaction each)   {sequential:8.0f} records/s")
    print(f"  writes, 200 at once                            {concurrent:8.0f} records/s")
    queries = {
        "history (newest 20)": lambda _n: store.records.history(),
        "history --user (one of 500 users)": lambda n: store.records.history(requested_by=f"user{n % 500}"),
        "history --guild (one of 20 guilds)": lambda n: store.records.history(guild_id=f"guild{n % 20}"),
        "history --game duel --hide-voided": lambda _n: store.records.history(game="duel", include_voided=False),
        "history --before (paging deep)": lambda n: store.records.history(before_id=1000 + n * 97),
    }
    for name, query in queries.items():
        await query(0)  # warm the caches
        print(f"  {name:<46} median {await timed(query, 200):6.2f} ms")
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--writes", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench("SQLite", f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", args.rows, args.writes))
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    if url:
        asyncio.run(bench("PostgreSQL", url, args.rows, args.writes))
    else:
        print("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a database of its own)")


if __name__ == "__main__":
    main()
