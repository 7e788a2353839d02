"""What a per-user rate limit shared through PostgreSQL would cost the first answer (issue 23).

Run: PYTHONPATH=. .venv/bin/python bench/bench_rate_limit.py --database-url postgresql+asyncpg://u:p@host/db
     [--single 300] [--bursts 10]
(``--database-url`` defaults to ``BENCH_DATABASE_URL``; the database is migrated to the latest schema, and the
bench adds its own table, ``bench_rate_limit``, emptied at each run: give it a database of its own.)

The real bot, recording on that PostgreSQL database, answers the 40K 20-vs-20 assault of bench/bench_bot.py
through the fake Discord on loopback, one at a time and in bursts of 50, each from a new user (nobody is ever
refused: the cost of the check is measured, not a refusal). Two checks take turns, round by round, so a noisy
moment of the machine falls on both alike:

- **in memory**: the limit the bot ships (bot/discord/cooldown.py, one per process);
- **shared, the bot's pool**: the same command with that check swapped, on this bench's bot only, for one that
  counts the use in PostgreSQL, one statement on the bot's own pool (the store's engine, autocommit) before the
  command runs: an ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` on a table keyed by user (a fixed 30-second
  window per user, the window and the clock PostgreSQL's own, so every process agrees);
- **shared, a pool of its own**: the same statement on a second pool of 50 connections kept open, so that a
  burst never waits for connections to be opened: what the round trip itself costs.

Latency runs from the INTERACTION_CREATE sent on the gateway to the callback holding the result arriving at the
fake Discord. It prints p50 and p99 of each, and what a shared check adds; and the statement alone, timed on
each pool with the bot idle, one at a time and 50 at once (the bot's pool keeps 10 connections and opens up to
20 more for a burst, closing them after: bot/storage/db.py). The choice it informs, with its numbers, is in
bot/discord/cooldown.py and docs/deploy.md ("Rate limits across processes").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake Discord lives with the end-to-end tests

import discord  # noqa: E402
from discord import app_commands  # noqa: E402
from sqlalchemy import text  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine  # noqa: E402

from bench.bench_bot import assault, percentiles, timed  # noqa: E402
from bench.discord_harness import running_bot  # noqa: E402
from bot.discord.app import RefereeBot  # noqa: E402
from bot.storage.db import create_engine, upgrade  # noqa: E402

RATE, PER = 6, 30.0  # the combat commands' limit (cogs/combat/_cog.py: COOLDOWN)
TABLE = """CREATE TABLE IF NOT EXISTS bench_rate_limit (
    user_id BIGINT PRIMARY KEY, window_start TIMESTAMPTZ NOT NULL, uses INTEGER NOT NULL)"""
# One statement: the user's use counted in the current window (a new window once the last is PER seconds old);
# the count and the seconds left in the window come back. now() is the statement's own transaction's start.
HIT = text("""
INSERT INTO bench_rate_limit AS used (user_id, window_start, uses) VALUES (:user, now(), 1)
ON CONFLICT (user_id) DO UPDATE SET
    window_start = CASE WHEN used.window_start <= now() - make_interval(secs => :per)
                        THEN now() ELSE used.window_start END,
    uses = CASE WHEN used.window_start <= now() - make_interval(secs => :per) THEN 1 ELSE used.uses + 1 END
RETURNING used.uses, EXTRACT(EPOCH FROM used.window_start + make_interval(secs => :per) - now())
""")


class SharedRateLimit:
    """At most ``rate`` uses per user in a ``per``-second window, counted in PostgreSQL (every process agrees)."""

    def __init__(self, engine: AsyncEngine, rate: int, per: float) -> None:
        self.engine = engine.execution_options(isolation_level="AUTOCOMMIT")  # the same pool, no BEGIN/COMMIT
        self.rate = rate
        self.per = per

    async def hit(self, user: int) -> float | None:
        """Count one use; None if allowed, else the seconds until the window ends."""
        async with self.engine.connect() as connection:
            uses, left = (await connection.execute(HIT, {"user": user, "per": self.per})).one()
        return None if uses <= self.rate else max(0.0, float(left))


def shared_check(limit: SharedRateLimit) -> Callable[[discord.Interaction[Any]], Awaitable[bool]]:
    """The shared limit as a discord.py check (the same refusal as bot/discord/cooldown.py's)."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        retry_after = await limit.hit(interaction.user.id)
        if retry_after is None:
            return True
        raise app_commands.CommandOnCooldown(app_commands.Cooldown(limit.rate, limit.per), retry_after)

    return predicate


def the_assault(bot: RefereeBot) -> app_commands.Command[Any, ..., Any]:
    group = bot.tree.get_command("assault")
    assert isinstance(group, app_commands.Group)
    command = group.get_command("40k")
    assert isinstance(command, app_commands.Command)
    return command


async def prepare_database(url: str) -> None:
    engine = create_engine(url)
    try:
        await upgrade(engine)
        async with engine.begin() as connection:
            await connection.execute(text(TABLE))
            await connection.execute(text("TRUNCATE bench_rate_limit"))
    finally:
        await engine.dispose()


async def statement_alone(limit: SharedRateLimit, users: Any, size: int, rounds: int) -> list[float]:
    """The shared check's statement by itself, ``size`` at once, ``rounds`` times (ms each)."""

    async def one(user: int) -> float:
        start = time.perf_counter()
        await limit.hit(user)
        return (time.perf_counter() - start) * 1000

    spent: list[float] = []
    for _ in range(rounds):
        spent += await asyncio.gather(*(one(next(users)) for _ in range(size)))
    return spent


MEMORY, SHARED, OWN_POOL = "in memory (per process)", "shared, the bot's pool", "shared, a pool of 50 of its own"


async def main(url: str, single: int, bursts: int) -> None:
    await prepare_database(url)
    # A pool that never opens a connection in a burst: what the statement costs when connections are not short.
    own_engine = create_async_engine(url, pool_size=50, max_overflow=0)
    async with running_bot(database_url=url) as (fake, bot):
        command = the_assault(bot)
        in_memory = list(command.checks)
        kept = [check for check in in_memory if "per_user_check" not in check.__qualname__]
        assert len(kept) == len(in_memory) - 1, "the combat command's per-user check was not found"
        limits = {
            SHARED: SharedRateLimit(bot.store.engine, RATE, PER),
            OWN_POOL: SharedRateLimit(own_engine, RATE, PER),
        }
        checks = {MEMORY: in_memory} | {label: [*kept, shared_check(limit)] for label, limit in limits.items()}
        users = iter(range(700000000000000000, 800000000000000000))
        await statement_alone(limits[OWN_POOL], users, 50, 1)  # its 50 connections opened
        for chosen in checks.values():  # warm up each: the pool's connections, the statement's plan
            command.checks = chosen
            await timed(fake, bot, [assault(next(users)) for _ in range(20)], 1)
        results: dict[str, list[float]] = {}
        for mode, size, rounds in (("one at a time", 1, single), ("bursts of 50", 50, bursts)):
            measured: dict[str, list[float]] = {label: [] for label in checks}
            for _ in range(rounds):
                for label, chosen in checks.items():
                    command.checks = chosen
                    answers = await timed(fake, bot, [assault(next(users)) for _ in range(size)], 1)
                    measured[label] += [shown for shown, _ in answers]
            for label in checks:
                results[f"{label}, {mode}"] = measured[label]
        command.checks = in_memory
        alone = {
            f"{label}, {mode}": await statement_alone(limit, users, size, rounds)
            for label, limit in limits.items()
            for mode, size, rounds in (("one at a time", 1, 300), ("50 at once", 50, 10))
        }
    await own_engine.dispose()
    print(f"First answer of the 40K 20 v 20 assault, recording on PostgreSQL, through the fake Discord on loopback "
          f"({single} alone and {bursts} bursts of 50 for each check):")  # fmt: skip
    for label, values in results.items():
        p50, p99 = percentiles(values)
        print(f"  {label + ',':<56} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms")
    print("What the shared check adds to the first answer:")
    for label in limits:
        for mode in ("one at a time", "bursts of 50"):
            memory = percentiles(results[f"{MEMORY}, {mode}"])
            shared = percentiles(results[f"{label}, {mode}"])
            print(f"  {label + ', ' + mode:<56} p50 {shared[0] - memory[0]:+7.1f} ms   "
                  f"p99 {shared[1] - memory[1]:+7.1f} ms   (p99 {shared[1] / memory[1]:.2f}x)")  # fmt: skip
    print("Its statement alone, the bot idle:")
    for label, spent in alone.items():
        p50, p99 = percentiles(spent)
        print(f"  {label:<56} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--single", type=int, default=300)
    parser.add_argument("--bursts", type=int, default=10)
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        parser.error("give a PostgreSQL database: --database-url postgresql+asyncpg://... (or BENCH_DATABASE_URL)")
    asyncio.run(main(args.database_url, args.single, args.bursts))
