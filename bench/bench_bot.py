"""Interaction-to-response latency of the bot through the fake Discord on loopback (p50 and p99).

Run: .venv/bin/python bench/bench_bot.py [--single 1000] [--bursts 20] [--blocks]
Measures, in the same run and the same process: a 20-vs-20 40K assault with storage (SQLite), and the floor of
this stack, a trivial discord.py command that defers, then edits in a fixed embed. Each is sent alone, one after
another, and in bursts of 50 at once; the two take turns (one floor, one assault, ...), so a noisy moment of the
machine falls on both alike (``--blocks``: all of the floor first, then all of the assault). Each is sent when
the bot has finished the one before. Latency runs from the INTERACTION_CREATE sent on the gateway to the moment
the request carrying the answer arrives at the fake Discord (the callback holding the result, or the edit after a
deferral).
Target (issue 7): p99 of the assault within 1.5x the floor's p99.

The same assault is also sent in a second server whose settings hold house rules for 40K (and other games, and a
channel's own), as a manager would set them (issue 21): the first answer merges them from the bot's settings cache,
never a query. Target: its p99 within 1.5x the floor's too.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake Discord lives with the end-to-end tests

import discord  # noqa: E402
from discord import app_commands  # noqa: E402

from bench.discord_harness import running_bot  # noqa: E402
from bot.discord.app import RefereeBot  # noqa: E402
from bot.server_settings.model import CHANNEL, SERVER, SettingRow, house_key  # noqa: E402
from tests.e2e.fake_discord import OTHER_GUILD_ID, FakeDiscord, channel_of, command_interaction  # noqa: E402

ATTACKER = "20x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
DEFENDER = "20x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"


def assault(user_id: int) -> dict[str, Any]:
    options = [{"type": 3, "name": "attacker", "value": ATTACKER}, {"type": 3, "name": "defender", "value": DEFENDER},
               {"type": 10, "name": "charge_distance", "value": 4.0}]  # fmt: skip
    return command_interaction("assault", options, subcommand="40k", user_id=user_id)


def assault_under_house_rules(user_id: int) -> dict[str, Any]:
    """The same assault in the server whose settings hold house rules (:func:`set_house_rules`)."""
    payload = assault(user_id)
    payload["guild_id"] = str(OTHER_GUILD_ID)
    payload["channel_id"] = payload["channel"]["id"] = str(channel_of(OTHER_GUILD_ID))
    payload["channel"]["guild_id"] = payload["authorizing_integration_owners"]["0"] = str(OTHER_GUILD_ID)
    return payload


def set_house_rules(bot: RefereeBot) -> None:
    """A few house rules for the game under test and others, and a channel's own, in OTHER_GUILD_ID's settings."""
    guild, channel = str(OTHER_GUILD_ID), str(channel_of(OTHER_GUILD_ID))
    rules = [("40k", "morale_modifier", "per_wound"), ("40k", "ws_majority", "over_half"), ("40k", "perils", False),
             ("epic", "result_dice", "sum"), ("reikhammer", "save_direction", "under")]  # fmt: skip
    rows = [SettingRow(SERVER, guild, guild, house_key(*rule[:2]), rule[2]) for rule in rules]
    rows.append(SettingRow(CHANNEL, channel, guild, house_key("40k", "double_one_passes"), True))
    rows.append(SettingRow(CHANNEL, "1", guild, house_key("40k", "ws_majority"), "most"))  # another channel's
    bot.server_settings.replace_guild(guild, rows)


def floor(user_id: int) -> dict[str, Any]:
    return command_interaction("floor", [], user_id=user_id)


async def timed(
    fake: FakeDiscord, bot: RefereeBot, payloads: list[dict[str, Any]], answers: int
) -> list[tuple[float, float]]:
    """(ms until the result reached Discord, ms until the last call did) for each interaction.

    Times are taken when each request arrives at the fake Discord, not when the waiting coroutine next runs: the
    fake and the bot share one event loop here, and the bot's own work after answering would otherwise be counted.
    The result reaches Discord with the ``answers``-th call: the assault's first callback holds it; the floor's
    deferral holds nothing, so its edit (the 2nd call) is when its embed appears.
    """

    async def one(payload: dict[str, Any]) -> tuple[float, float]:
        start = time.perf_counter()
        await fake.interaction(payload)
        calls = await fake.wait_answers(payload["token"], 2, 120)
        return (calls[answers - 1].received - start) * 1000, (calls[1].received - start) * 1000

    measured = list(await asyncio.gather(*(one(p) for p in payloads)))
    # The bot finishes each command after its last call has gone out (it reads the reply, logs its line): let it
    # finish before the next is sent, so that neither kind of command carries the other's tail.
    while bot.started:
        await asyncio.sleep(0)
    fake.forget()  # the fake shares the process: what it keeps would be walked by the bot's garbage collector
    return measured


HOUSE = "the same assault, house rules set"


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def add_floor(bot: RefereeBot) -> None:
    @app_commands.command(name="floor", description="Defer, then edit in a fixed embed.")
    async def floor_command(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(embed=discord.Embed(title="floor", description="fixed"))

    bot.tree.add_command(floor_command)


async def main(single: int, bursts: int, *, blocks: bool) -> None:
    async with running_bot(add_floor) as (fake, bot):
        set_house_rules(bot)
        users = iter(range(700000000000000000, 800000000000000000))
        results: dict[str, list[float]] = {}
        cases = (("floor (defer + fixed embed)", floor, 2), ("40K 20 v 20 assault + storage", assault, 1),
                 (HOUSE, assault_under_house_rules, 1))  # fmt: skip
        for _, make, answers in cases:
            await timed(fake, bot, [make(next(users)) for _ in range(20)], answers)  # warm up
        for mode, size, rounds in (("one at a time", 1, single), ("bursts of 50", 50, bursts)):
            # The two alternate, round by round, so that both meet the same moments of a noisy machine.
            measured: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in cases}
            turns = [case for _ in range(rounds) for case in cases]
            if blocks:  # all the floor's rounds, then all the assault's (the earlier way of this bench)
                turns.sort(key=cases.index)
            for label, make, answers in turns:
                measured[label] += await timed(fake, bot, [make(next(users)) for _ in range(size)], answers)
            for label, kind, _ in cases:
                results[f"{label}, {mode}"] = [shown for shown, _ in measured[label]]
                if kind is assault:
                    results[f"  (the same, until recorded and edited), {mode}"] = [done for _, done in measured[label]]
    print(f"Interaction-to-response latency through the fake Discord on loopback ({single} alone, "
          f"{bursts} bursts of 50):")  # fmt: skip
    for label, values in results.items():
        p50, p99 = percentiles(values)
        print(f"  {label:<58} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms")
    for mode in ("one at a time", "bursts of 50"):
        floor_p99 = percentiles(results[f"floor (defer + fixed embed), {mode}"])[1]
        assault_p99 = percentiles(results[f"40K 20 v 20 assault + storage, {mode}"])[1]
        house_p99 = percentiles(results[f"{HOUSE}, {mode}"])[1]
        print(f"  p99 ratio, assault / floor, {mode:<28} {assault_p99 / floor_p99:5.2f}x (target <= 1.5x)")
        print(f"  p99 ratio, under house rules / floor, {mode:<20} {house_p99 / floor_p99:5.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--single", type=int, default=1000)
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--blocks", action="store_true", help="measure all of the floor, then all of the assault")
    args = parser.parse_args()
    asyncio.run(main(args.single, args.bursts, blocks=args.blocks))
