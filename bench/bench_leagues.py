"""League standings at size: a league of 200 players and 10,000 confirmed matches.

Run: .venv/bin/python bench/bench_leagues.py [--players 200] [--matches 10000] [--runs 15]
SQLite always (a temporary file); PostgreSQL too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (that
database is emptied first: give the bench one of its own). Prints medians of:
  - the computation alone (points, Elo, tie-breakers) over the 10,000 matches, in memory;
  - a full recompute through the store after a change (load every confirmed match, compute, save the snapshot);
  - the standings a command shows when nothing changed since (served from the snapshot).
Targets (issue 8): full recompute under 0.5 s; the standings command under 50 ms at that size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_storage import fresh  # one way to empty a database for a bench
from bot.access import OPERATOR, Actor
from bot.leagues.model import pair_key
from bot.leagues.standings import MatchResult, Points, compute
from bot.storage import Store
from bot.storage.models import League, LeagueMatch, LeaguePlayer

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def fill(store: Store, players: int, matches: int, *, guild: str = "bench-guild") -> int:
    """A league of ``guild`` with ``players`` (ids 800000000000000000 on) and ``matches`` confirmed games, inserted in
    bulk through the store's own tables; its id. (bench/bench_web.py seeds its league with this too.)"""
    organiser = Actor("800000000000099999", guild=guild, manager=True)  # a manager of that server
    league = await store.leagues.create(guild, "Bench League", "40k", actor=organiser, at=T0)
    names = [f"{800000000000000000 + n}" for n in range(players)]
    chance = random.Random(8)
    rows = []
    for number in range(matches):
        one, other = chance.sample(names, 2)
        at = T0 + timedelta(minutes=number)
        rows.append({"league_id": league.id, "season": 1, "reporter_id": one, "opponent_id": other,
                     "result": chance.choice(("win", "win", "draw", "loss")), "score": None, "combats": "",
                     "notes": "", "status": "confirmed", "source": "report", "pair_key": pair_key(one, other),
                     "created_by": one, "created_at": at, "confirm_by": at + timedelta(hours=72),
                     "decided_by": other, "decided_at": at + timedelta(hours=1)})  # fmt: skip
    async with store.sessions.begin() as session:
        await session.execute(
            insert(LeaguePlayer),
            [
                {"league_id": league.id, "user_id": name, "joined_at": T0 + timedelta(seconds=n)}
                for n, name in enumerate(names)
            ],
        )
        for start in range(0, len(rows), 2000):
            await session.execute(insert(LeagueMatch), rows[start : start + 2000])
    return league.id


async def median_ms(work: Callable[[], Awaitable[object]], runs: int) -> float:
    await work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def measure(url: str, label: str, players: int, matches: int, runs: int) -> None:
    store = await Store.open(url)
    try:
        league_id = await fill(store, players, matches)

        async def changed_then_standings() -> object:
            async with store.sessions.begin() as session:  # what any confirmation or correction does
                await session.execute(update(League).where(League.id == league_id).values(version=League.version + 1))
            return await store.leagues.standings(league_id, actor=OPERATOR)

        async def standings() -> object:
            return await store.leagues.standings(league_id, actor=OPERATOR)

        async with store.sessions() as session:
            query = select(
                LeagueMatch.id,
                LeagueMatch.created_at,
                LeagueMatch.reporter_id,
                LeagueMatch.opponent_id,
                LeagueMatch.result,
            ).where(LeagueMatch.league_id == league_id)
            played = (await session.execute(query)).all()
        results = [MatchResult(i, at, one, other, result) for i, at, one, other, result in played]
        order = [f"{800000000000000000 + n}" for n in range(players)]

        async def pure() -> object:
            return compute(order, results, Points())

        print(f"{label}, {players} players, {matches} confirmed matches ({runs} runs each):")
        print(f"  compute alone (points, Elo, tie-breakers)              median {await median_ms(pure, runs):8.1f} ms")
        recompute = await median_ms(changed_then_standings, runs)
        print(f"  full recompute after a change (load + compute + save) median {recompute:8.1f} ms   (target < 500 ms)")
        cached = await median_ms(standings, runs * 4)
        print(f"  standings with nothing changed (the snapshot)          median {cached:8.1f} ms   (target < 50 ms)")
        rows = (await store.leagues.standings(league_id, actor=OPERATOR)).rows
        assert len(rows) == players
        assert sum(row.played for row in rows) == 2 * matches
    finally:
        await store.close()


async def main(players: int, matches: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        await measure(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}", "SQLite", players, matches, runs)
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    if url:
        await fresh(url)
        await measure(url, "PostgreSQL", players, matches, runs)
    else:
        print("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a database the bench may empty)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    asyncio.run(main(args.players, args.matches, args.runs))
