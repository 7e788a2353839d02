"""How many interactions a second one `referee bot` process sustains, and two, recording on PostgreSQL.

Run: TEST_DATABASE_URL=postgresql+asyncpg://... PYTHONPATH=. .venv/bin/python bench/bench_scale.py [--quick]
     (or --url; the database is EMPTIED and migrated first: never point it at one whose records you want)

Two configurations of the real ``referee bot``, each process in its own operating-system process
(tests/e2e/processes.py), each configuration with its own fake Discord: one process running both shards of two,
and two processes with one shard each, all on one PostgreSQL. Both run at once and are loaded in turn at each
rate (the other one idle), so a noisy moment of the machine falls on both alike. The load is open
loop, as players make it: interactions sent at a fixed rate R, whether or not the earlier ones were answered, for
a few seconds (the first ones a warm-up, not timed), over many servers on every shard and many users (each user at
most one interaction in 10 seconds: the per-user limit, 6 in 30 seconds, is never hit); mostly the 20-vs-20 40K
assault of bench/bench_bot.py, the rest duels. A first answer is timed from the INTERACTION_CREATE sent on the
gateway to the fake Discord receiving the callback that holds the result. R is stepped up until the p99 first
answer passes 250 ms, or answers are lost, twice in a row at one rate (a rate that fails is tried once more: one
noisy moment of a shared machine is not the limit). Each step prints median and p99, answered and recorded (rows in
combat_records), PostgreSQL's commits and inserted rows a second (pg_stat_database, over the step; a backend
flushes its counters up to ten seconds after its last work, so a step's figure is close, not exact), the CPU time
the bot processes spent per interaction (/proc), the share of a core this process used, and the load average.
The sustained figure of a configuration is the highest R whose p99 stays within 250 ms with nothing lost.

Where the time goes: the fake Discord (the gateway that sends, the REST routes that receive) and the load run in
this benchmark's process; the bot processes and PostgreSQL run beside it. On a 2-core machine they all share the
same two cores, so the fake Discord's own work is counted against the bot: the figures are a floor, not a ceiling
(a bot process on its own core, and PostgreSQL on its own machine, do better). The fake Discord stays here because
it is the load: the gateway that sends each interaction is where the clock starts, and the REST route that
receives the callback is where it stops, so one clock times both; its share of a core is printed with each step
(a few per cent), small beside the bots'. The bot's CPU per interaction is the figure that carries to other
machines: one process is one core, so it bounds what a process can do anywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET_P99_MS = 250.0
SHARD_COUNT = 2
ATTACKER = "20x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"  # bench/bench_bot.py's assault
DEFENDER = "20x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
DUEL_ATTACKER = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
DUEL_DEFENDER = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife"
ASSAULT_SHARE = 0.7  # the rest are duels
USER_GAP_S = 10.0  # each user sends at most one interaction in this many seconds (3 in 30 s; the limit is 6)
DEFAULT_RATES = (25, 50, 100, 150, 200, 300, 400, 500, 600)
QUICK_RATES = (25, 100, 200)


@dataclass
class Step:
    rate: int
    sent: int
    answered: int
    recorded: int
    median_ms: float
    p99_ms: float
    commits_per_s: float
    inserts_per_s: float
    achieved_rate: float  # what this process managed to send (below R: the load generator itself was starved)
    bot_cpu_ms: float  # CPU time the bot processes spent, per interaction (nan where /proc is not there)
    harness_cpu: float  # share of one core this process (the fake Discord and the load) used over the step
    load: float  # the machine's 1-minute load average at the end of the step

    @property
    def held(self) -> bool:
        return self.p99_ms <= TARGET_P99_MS and self.answered == self.sent and self.recorded == self.sent


def interaction(guild_id: int, user_id: int, chooser: random.Random) -> dict[str, Any]:
    from tests.e2e.fake_discord import command_interaction

    if chooser.random() < ASSAULT_SHARE:
        options = [{"type": 3, "name": "attacker", "value": ATTACKER},
                   {"type": 3, "name": "defender", "value": DEFENDER},
                   {"type": 10, "name": "charge_distance", "value": 4.0}]  # fmt: skip
        return command_interaction("assault", options, subcommand="40k", user_id=user_id, guild_id=guild_id)
    options = [{"type": 3, "name": "attacker", "value": DUEL_ATTACKER},
               {"type": 3, "name": "defender", "value": DUEL_DEFENDER}]  # fmt: skip
    return command_interaction("duel", options, user_id=user_id, guild_id=guild_id)


async def empty_and_migrate(url: str) -> None:
    """Emptied as the tests empty theirs, then migrated as production is (`referee db upgrade`)."""
    from tests.bot.storage.conftest import empty_and_migrate as emptied_and_migrated

    await emptied_and_migrated(url)


class Database:
    """The counters the benchmark reads: rows in combat_records, and pg_stat_database's for this database."""

    def __init__(self, url: str) -> None:
        from bot.storage.db import create_engine

        self.engine = create_engine(url)

    async def counts(self) -> tuple[int, int, int]:
        """(combat records, transactions committed, rows inserted)."""
        from sqlalchemy import text

        async with self.engine.connect() as connection:
            records = (await connection.execute(text("SELECT count(*) FROM combat_records"))).scalar_one()
            commits, inserts = (
                await connection.execute(
                    text("SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = current_database()")
                )
            ).one()
            await connection.execute(text("SELECT pg_stat_clear_snapshot()"))
        return int(records), int(commits), int(inserts)

    async def close(self) -> None:
        await self.engine.dispose()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes so far (Linux's /proc; nan elsewhere)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def percentiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return float("nan"), float("nan")
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Setup:
    """One configuration: its own fake Discord (the same servers) and ``processes`` bot processes (each its shard
    ids), all on the one database."""

    def __init__(self, label: str, url: str, processes: list[list[int]], servers_per_shard: int, folder: Path) -> None:
        from tests.e2e.fake_discord import FakeDiscord, guild_on

        self.label, self.url, self.processes, self.folder = label, url, processes, folder
        shards = range(SHARD_COUNT)
        self.guilds = [guild_on(shard, SHARD_COUNT, n) for n in range(servers_per_shard) for shard in shards]
        self.fake = FakeDiscord(tuple(self.guilds))
        self.users = itertools.count(700000000000000000 + 10**15 * len(processes))
        self.pids: list[int] = []
        self.steps: list[Step] = []
        self.stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Setup:
        from tests.e2e.processes import BotProcess, bot_processes

        await self.fake.start()
        self.stack.push_async_callback(self.fake.stop)
        name = f"{len(self.processes)}proc"
        bots = [BotProcess(self.fake, self.url, shards, SHARD_COUNT,
                           self.folder / f"{name}-{'-'.join(map(str, shards))}.log")
                for shards in self.processes]  # fmt: skip
        await self.stack.enter_async_context(bot_processes(bots))
        self.pids = [bot.pid for bot in bots if bot.pid is not None]
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.stack.aclose()

    @property
    def done(self) -> bool:
        """Two steps in a row failed (a rate is tried again once: one noisy moment of a shared machine is not the
        limit)."""
        return len(self.steps) >= 2 and not (self.steps[-1].held or self.steps[-2].held)

    async def step(self, database: Database, rate: int, *, warmup: float, seconds: float, seed: int) -> Step:
        """Send ``rate`` interactions a second for ``warmup`` + ``seconds``; time the first answers after the
        warm-up, then wait for every answer and record (a lost one only so long)."""
        fake = self.fake
        chooser = random.Random(seed)
        pool = [next(self.users) for _ in range(max(1, int(rate * USER_GAP_S) + 1))]  # round robin
        before = await database.counts()
        bot_cpu, own_cpu = cpu_seconds(self.pids), time.process_time()
        began = time.perf_counter()
        total = int(rate * (warmup + seconds))
        sent: list[tuple[str, float, bool]] = []  # (token, when sent, timed)
        for number in range(total):
            delay = began + number / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            payload = interaction(chooser.choice(self.guilds), pool[number % len(pool)], chooser)
            at = time.perf_counter()
            await fake.interaction(payload)
            sent.append((payload["token"], at, number >= rate * warmup))
        finished_sending = time.perf_counter()
        deadline = time.perf_counter() + 15
        while time.perf_counter() < deadline and any(len(fake.answers.get(token, ())) < 2 for token, _, _ in sent):
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.5)  # let each PostgreSQL backend flush its statistics
        after = await database.counts()
        elapsed = time.perf_counter() - began
        bot_cpu, own_cpu = cpu_seconds(self.pids) - bot_cpu, time.process_time() - own_cpu
        latencies = [(fake.answers[token][0].received - at) * 1000 for token, at, timed in sent
                     if timed and fake.answers.get(token)]  # fmt: skip
        answered = sum(1 for token, _, _ in sent if fake.answers.get(token))
        fake.forget()
        median, p99 = percentiles(latencies)
        step = Step(rate, total, answered, after[0] - before[0], median, p99, (after[1] - before[1]) / elapsed,
                    (after[2] - before[2]) / elapsed, total / (finished_sending - began), bot_cpu * 1000 / total,
                    own_cpu / elapsed, os.getloadavg()[0])  # fmt: skip
        self.steps.append(step)
        return step


def show(label: str, step: Step) -> None:
    short = "" if step.achieved_rate >= 0.97 * step.rate else f"  (sent only {step.achieved_rate:.0f}/s)"
    print(f"  {label:<14} R {step.rate:4d}/s  median {step.median_ms:7.1f} ms  p99 {step.p99_ms:7.1f} ms  "
          f"answered {step.answered:5d}/{step.sent:<5d} recorded {step.recorded:5d}  PostgreSQL "
          f"{step.commits_per_s:5.1f} commits/s {step.inserts_per_s:6.1f} rows/s  bot CPU {step.bot_cpu_ms:5.2f} "
          f"ms/interaction  harness {step.harness_cpu:4.0%} of a core  load {step.load:4.1f}{short}",
          flush=True)  # fmt: skip


def sustained(steps: list[Step]) -> Step | None:
    held = [step for step in steps if step.held]
    return held[-1] if held else None


async def main(url: str, *, quick: bool, rates: list[int] | None, servers_per_shard: int) -> None:
    warmup, seconds = (1.0, 4.0) if quick else (2.0, 8.0)
    chosen = rates or list(QUICK_RATES if quick else DEFAULT_RATES)
    layouts = {"1 proc": [[0, 1]], "2 procs": [[0], [1]]}
    print(f"Open-loop load on {servers_per_shard * SHARD_COUNT} servers over {SHARD_COUNT} shards, "
          f"{ASSAULT_SHARE:.0%} 20v20 40K assaults and the rest duels, {warmup:g} s warm-up + {seconds:g} s timed a "
          f"step; first answer = INTERACTION_CREATE sent -> callback received; target p99 <= {TARGET_P99_MS:g} ms.\n"
          f"1 proc: one bot process running shards 0 and 1 of 2; 2 procs: two processes, shard 0 and shard 1. Both "
          f"run at once on one PostgreSQL, loaded in turn at each rate (the idle one waits), so a noisy moment of the "
          f"machine falls on both alike. {os.cpu_count()} cores shared by this process (the fake Discords and the "
          f"load), the bots and PostgreSQL.", flush=True)  # fmt: skip
    await empty_and_migrate(url)
    database = Database(url)
    try:
        with tempfile.TemporaryDirectory() as folder:
            setups = [Setup(label, url, processes, servers_per_shard, Path(folder))
                      for label, processes in layouts.items()]  # fmt: skip
            async with contextlib.AsyncExitStack() as stack:
                for setup in setups:
                    await stack.enter_async_context(setup)
                for setup in setups:  # warm every process up (its first commands import and cache)
                    await setup.step(database, 5, warmup=0, seconds=3, seed=0)
                    setup.steps.clear()
                for number, rate in enumerate(chosen, 1):
                    for setup in setups:
                        for attempt in range(2):  # a rate that fails is tried once more
                            if setup.done or (attempt and setup.steps[-1].held):
                                break
                            step = await setup.step(database, rate, warmup=warmup, seconds=seconds, seed=number)
                            show(setup.label + (" again" if attempt else ""), step)
                    if all(setup.done for setup in setups):
                        break
    finally:
        await database.close()
    print(
        "Sustained (highest R with p99 <= 250 ms, every interaction answered and recorded, at the first or second try):"
    )
    for setup in setups:
        step = sustained(setup.steps)
        if step is None:
            print(f"  {setup.label}: not even the lowest rate")
        else:
            # Held at the highest rate tried: the limit is higher still, not known (--rates to go further).
            at_least = "at least " if step.rate == chosen[-1] else ""
            print(f"  {setup.label}: {at_least}{step.rate}/s (p99 {step.p99_ms:.0f} ms; PostgreSQL "
                  f"{step.commits_per_s:.0f} commits/s, {step.inserts_per_s:.0f} rows inserted/s; the bots' CPU "
                  f"{step.bot_cpu_ms:.2f} ms an interaction)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL", ""),
                        help="a PostgreSQL database to EMPTY and use (default: TEST_DATABASE_URL)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="a 1-minute smoke run: shorter steps, fewer rates")
    parser.add_argument("--rates", type=lambda text: [int(part) for part in text.split(",")], default=None,
                        help="the rates to step through, e.g. 10,20,40 (default: 25 to 600)")  # fmt: skip
    parser.add_argument("--servers-per-shard", type=int, default=50)
    args = parser.parse_args()
    if not args.url.startswith("postgresql"):
        parser.error("a PostgreSQL URL is needed: set TEST_DATABASE_URL or give --url (the database is emptied)")
    sys.path.insert(0, str(ROOT))  # the fake Discord and the bot processes live with the end-to-end tests
    asyncio.run(main(args.url, quick=args.quick, rates=args.rates, servers_per_shard=args.servers_per_shard))
