"""How fast a challenge answers (issue 24): interaction-to-answer latency through the real bot and the fake Discord.

Run: PYTHONPATH=. .venv/bin/python bench/bench_challenges.py [--quick] [--single 600] [--bursts 20] [--burst-size 25]
     [--database-url postgresql+asyncpg://u:p@host/db]
The store is a temporary SQLite file unless ``--database-url`` names a PostgreSQL database (emptied, then migrated
to the latest schema as ``referee db upgrade`` does: give one nobody else uses).

Measured, on loopback, from the INTERACTION_CREATE sent on the gateway to the moment the request carrying the first
answer arrives at the fake Discord (the callback, deferred or not; Discord's limit for it is 3 s):
- posting a challenge: a 20-vs-20 40K assault with ``opponent:`` and ``agree:True`` (the callback shows it);
- Accept, the last acceptance (the opponent's), which resolves and records: its deferral, and also until the edit
  that shows the result in place of the challenge;
- Decline (its deferral) and a Change my side form submission (its deferral; the edit and the ping follow).
Alongside, the floor bench_bot.py uses (a trivial command that defers, then edits in a fixed embed; the time to its
edit), taking turns with each of the above, so a noisy moment of the machine falls on both. Each case is sent one
at a time and in bursts (25 challenges accepted at once, ...), each when the bot has finished the one before; every
challenge is between two members of its own. Printed: p50 and p99 of each, and the ratio of each p99 to the floor's.
Challenges pressed are posted first, untimed apart from their own posting (counted under "post").

The defaults take about a minute on a quiet machine; ``--quick`` a few seconds.

Measured (2 cores, medians of three runs of ``--single 300 --bursts 10``; docs/challenges.md "How fast"), p99:
alone, every first answer within 6 ms (the floor's 1.4-1.6 ms) and the result shown within 14 ms; in bursts of 25, the
presses' deferrals within 21 ms (the floor's 25-28 ms), a challenge posted within 224 ms on SQLite and 142 ms on
PostgreSQL (5-9x the floor: it is answered with the challenge itself, after reading, rolling and storing it), the
result edited in within 418 ms (SQLite) and 255 ms (PostgreSQL). All far inside Discord's 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake Discord lives with the end-to-end tests

from bench.bench_bot import ATTACKER, DEFENDER, add_floor, floor  # noqa: E402
from bench.discord_harness import running_bot  # noqa: E402
from bot.discord.app import RefereeBot  # noqa: E402
from tests.e2e.fake_discord import (  # noqa: E402
    FakeDiscord,
    command_interaction,
    component_interaction,
    modal_submit_interaction,
    user,
)

CHANGED = "20x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ ; 1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+"
FLOOR = "floor (defer + fixed embed)"
POST = "post a challenge (20 v 20 assault, agree:True)"
ACCEPT = "Accept, last acceptance (deferral)"
ACCEPT_SHOWN = "  (the same, until the result is edited in)"
DECLINE = "Decline (deferral)"
CHANGE = "Change my side form sent (deferral)"


def challenge_command(challenger: int, opponent: int) -> dict[str, Any]:
    options = [{"type": 3, "name": "attacker", "value": ATTACKER}, {"type": 3, "name": "defender", "value": DEFENDER},
               {"type": 10, "name": "charge_distance", "value": 4.0},
               {"type": 6, "name": "opponent", "value": str(opponent)},
               {"type": 5, "name": "agree", "value": True}]  # fmt: skip
    resolved = {"users": {str(opponent): user(opponent, "opponent")}}
    return command_interaction("assault", options, subcommand="40k", resolved=resolved, user_id=challenger)


class Open:
    """A challenge as posted: its number, its message and its buttons, and its opponent."""

    def __init__(self, number: int, message_id: str, components: list[dict[str, Any]], opponent: int) -> None:
        self.number, self.message_id, self.components, self.opponent = number, message_id, components, opponent

    def press(self, action: str) -> dict[str, Any]:
        ids = [c["custom_id"] for row in self.components for c in row["components"]]
        custom_id = next(i for i in ids if i.endswith(f":{action}"))
        return component_interaction(custom_id, self.components, user_id=self.opponent, message_id=self.message_id)

    def change(self) -> dict[str, Any]:
        return modal_submit_interaction(f"referee:chmodal:{self.number}", {"side": CHANGED}, user_id=self.opponent,
                                        message_id=self.message_id)  # fmt: skip


async def settled(bot: RefereeBot) -> None:
    """The bot done with what it was sent (a command's log line; a press has no such count: a few turns)."""
    while bot.started:
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)


async def timed(
    fake: FakeDiscord, bot: RefereeBot, payloads: list[dict[str, Any]], calls: int, shown: int
) -> list[tuple[float, float, list[Any]]]:
    """(ms until the first answer, ms until the ``shown``-th call, the calls) for each interaction, sent at once;
    times are taken when each request arrives at the fake Discord (it shares the bot's event loop)."""

    async def one(payload: dict[str, Any]) -> tuple[float, float, list[Any]]:
        start = time.perf_counter()
        await fake.interaction(payload)
        answers = await fake.wait_answers(payload["token"], calls, 120)
        return (answers[0].received - start) * 1000, (answers[shown - 1].received - start) * 1000, list(answers)

    measured = list(await asyncio.gather(*(one(p) for p in payloads)))
    await settled(bot)
    return measured


async def post(fake: FakeDiscord, bot: RefereeBot, users: Any, size: int) -> tuple[list[float], list[Open]]:
    """``size`` challenges posted at once, each between two new members: the times, and each once its message id is
    stored (just after the answer goes out)."""
    pairs = [(next(users), next(users)) for _ in range(size)]
    payloads = [challenge_command(a, b) for a, b in pairs]
    measured = await timed(fake, bot, payloads, 1, 1)
    opened = []
    for payload, (_, opponent), (_, _, answers) in zip(payloads, pairs, measured, strict=True):
        data = answers[0].payload["data"]
        ids = [c["custom_id"] for row in data["components"] for c in row["components"]]
        number = int(ids[0].split(":")[2])
        for _ in range(2000):
            stored = await bot.store.challenges.get(number)
            if stored is not None and stored.message_id is not None:
                break
            await asyncio.sleep(0.005)
        opened.append(Open(number, fake.responses[payload["token"]], data["components"], opponent))
    return [first for first, _, _ in measured], opened


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def prepare_database(url: str) -> None:
    """Emptied as the tests empty theirs, then migrated as production is (`referee db upgrade`)."""
    from tests.bot.storage.conftest import empty_and_migrate as emptied_and_migrated

    await emptied_and_migrated(url)


async def main(single: int, bursts: int, burst_size: int, database_url: str | None) -> None:
    if database_url:
        await prepare_database(database_url)
    results: dict[str, dict[str, list[float]]] = {}
    async with running_bot(add_floor, database_url=database_url) as (fake, bot):
        users = iter(range(700000000000000000, 800000000000000000))

        async def floor_turn(size: int, into: dict[str, list[float]]) -> None:
            into[FLOOR] += [shown for _, shown, _ in await timed(fake, bot, [floor(next(users)) for _ in range(size)],
                                                                 2, 2)]  # fmt: skip

        async def pressed(size: int, into: dict[str, list[float]], label: str, make: Callable[[Open], Any], *,
                          calls: int, shown_label: str | None = None) -> None:  # fmt: skip
            times, opened = await post(fake, bot, users, size)
            into[POST] += times
            await floor_turn(size, into)
            measured = await timed(fake, bot, [make(o) for o in opened], calls, 2)
            for _, _, answers in measured:  # deferred, then the challenge's message edited (not a refusal)
                deferral, edit = answers[0].payload, answers[1]
                resolved = shown_label is None or "record #" in edit.payload["embeds"][0]["footer"]["text"]
                if deferral["type"] != 6 or edit.method != "PATCH" or not resolved:
                    raise RuntimeError(f"{label}: not answered as a challenge is: {deferral} {edit.payload}")
            into[label] += [first for first, _, _ in measured]
            if shown_label:
                into[shown_label] += [shown for _, shown, _ in measured]
            await floor_turn(size, into)
            fake.forget()  # the fake shares the process: what it keeps would be walked by the garbage collector

        async def round_of(size: int, into: dict[str, list[float]]) -> None:
            await pressed(size, into, ACCEPT, lambda o: o.press("accept"), calls=2, shown_label=ACCEPT_SHOWN)
            await pressed(size, into, DECLINE, lambda o: o.press("decline"), calls=2)
            await pressed(size, into, CHANGE, lambda o: o.change(), calls=3)

        labels = (FLOOR, POST, ACCEPT, ACCEPT_SHOWN, DECLINE, CHANGE)
        await round_of(5, {label: [] for label in labels})  # warm up
        for mode, size, rounds in (("one at a time", 1, single), (f"bursts of {burst_size}", burst_size, bursts)):
            into = results[mode] = {label: [] for label in labels}
            for _ in range(rounds):
                await round_of(size, into)
    where = "PostgreSQL" if database_url else "SQLite"
    print(f"Challenge interaction-to-answer latency through the fake Discord on loopback, {where} "
          f"({single} rounds alone, {bursts} bursts of {burst_size}):")  # fmt: skip
    for mode, measured in results.items():
        print(f" {mode}:")
        floor_p99 = percentiles(measured[FLOOR])[1]
        for label, values in measured.items():
            p50, p99 = percentiles(values)
            ratio = "" if label == FLOOR else f"   p99 / floor p99 {p99 / floor_p99:5.2f}x"
            print(f"  {label:<50} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms{ratio}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--single", type=int, default=600, help="rounds of one at a time (each: every case once)")
    parser.add_argument("--bursts", type=int, default=20, help="rounds of bursts")
    parser.add_argument("--burst-size", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="a short smoke run: 10 rounds alone, 1 burst of 10")
    parser.add_argument("--database-url", default="", help="a PostgreSQL database to empty and use (else SQLite)")
    args = parser.parse_args()
    if args.quick:
        args.single, args.bursts, args.burst_size = 10, 1, 10
    asyncio.run(main(args.single, args.bursts, args.burst_size, args.database_url or None))
