"""Odds speed: the exact solvers (40K, Bolt Action, duel), the vectorised 40K Monte Carlo, Monte Carlo through the
referee (the fallback for the rest), /odds end to end, and the bounds of issues 19 and 33.

Run: PYTHONPATH=. .venv/bin/python bench/bench_odds.py [--runs 20] [--trials 2000] [--bounds-only]
Prints medians on one core. Issue 9's targets, for the 40K 20-v-20 assault: exact under 5 ms; Monte Carlo of
100,000 trials under 0.25 s; /odds through the fake Discord under 1 s with the chart. Issue 19's: the inputs that
crashed or ran unbounded answer within the default time limit (5 s) and under 200 MB of peak memory, each
measured in a child process of its own (its wall time around ``odds()``, and ``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import pin_to_one_core
from bot.data import catalogue
from rules_core.odds import odds
from rules_core.odds.montecarlo import monte_carlo
from rules_core.options import validate_options

BOLT = [
    ("8 veterans v 10 regulars, 10 reaction shots", "8x Grenadiers: veteran smg=2 nco", "10x Rifles: regular nco",
     {"reaction_shots": 10, "distance": 9.0}),
    ("30 v 30 regulars, defensive position", "30x Conscripts: regular nco officer", "30x Rifles: regular nco smg=3",
     {"rough_ground": True, "distance": 5.0}),
]  # fmt: skip
DUELS = [
    ("captain v warboss, power sword parrying", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+ power-sword",
     "Warboss: WS5 S5 T5 W3 I4 A4 Sv4+ power-fist"),
    ("captain v 3 ork boys (multiple combat)", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+ chainsword",
     "3x Ork Boy: WS4 S3 T4 W1 I2 A2 Sv6+ club"),
]  # fmt: skip
FORMATIONS = [
    ("epic", "6 Tactical v 8 Boyz in cover, up to 5 rounds", "6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=2",
     "8x Boyz: CC4+ FF6+ Sv6+ INF cover=5+", {}),
    ("epic", "Warhound + 6 Tactical v 13 Orks + support", "1x Warhound: CC4+ FF3+ Sv5+ WE DC=3 macro-weapon; 6x "
     "Tactical: CC4+ FF4+ Sv4+ INF contact=3 ff=3", "10x Boyz: CC4+ FF6+ Sv6+ INF; 3x Nobz: CC3+ FF5+ Sv5+ INF "
     "invulnerable", {"defender_support": "4x Big Gun: FF5+"}),
    ("reikhammer", "8 Line + guns v 5 Grenadiers + support", "6x Line Infantry: CC4 FF3 Sv5+ INF contact=4 ff=2; 2x "
     "Field Gun: CC1 FF4 Sv6+ LV ff=2", "5x Grenadiers: CC4 FF3 Sv4+ INF", {"defender_support": "4x Handgunners: FF3"}),
]  # fmt: skip
ASSAULT = ("20x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades", "20x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+")


def median_ms(work: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(runs: int, trials: int) -> None:
    pin_to_one_core()
    game = catalogue().game("boltaction")
    print(f"Exact odds, Bolt Action close quarters ({runs} runs each):")
    for label, attacker, defender, options in BOLT:
        odds(game, attacker, defender, **options)  # warm the caches of dice laws once, as a running bot has them
        cold = median_ms(lambda a=attacker, d=defender, o=options: _fresh(a, d, o), max(3, runs // 4))
        warm = median_ms(lambda a=attacker, d=defender, o=options: odds(game, a, d, **o), runs)
        print(f"  {label:<46} median {warm:8.1f} ms   (first time, caches cold: {cold:.1f} ms)")
    duel = catalogue().game("duel")
    print(f"Exact odds, 2nd edition duel ({runs} runs each):")
    for label, attacker, defender in DUELS:
        odds(duel, attacker, defender)
        warm = median_ms(lambda a=attacker, d=defender: odds(duel, a, d), runs)
        print(f"  {label:<46} median {warm:8.1f} ms")
    print(f"Exact odds, Epic and Reikhammer formation assaults ({max(3, runs // 4)} runs each):")
    for game_id, label, attacker, defender, options in FORMATIONS:
        formation = catalogue().game(game_id)
        taken = median_ms(lambda f=formation, a=attacker, d=defender, o=options: odds(f, a, d, **o), max(3, runs // 4))
        print(f"  {game_id:<10} {label:<46} median {taken:8.1f} ms")
    wh40k = catalogue().game("40k")
    a_side, d_side = wh40k.parse_side(ASSAULT[0]), wh40k.parse_side(ASSAULT[1])
    odds(wh40k, a_side, d_side, charge_distance=4.0)
    warm = median_ms(lambda: odds(wh40k, a_side, d_side, charge_distance=4.0), runs * 5)
    cold = median_ms(lambda: _fresh_40k(a_side, d_side), runs)
    print(f"Exact odds, 40K 20 v 20 assault (strikes, casualties, result, morale, sweep; {runs * 5} runs):\n"
          f"  median {warm:.2f} ms   (dice laws not cached yet: {cold:.2f} ms)   (target < 5 ms)")  # fmt: skip
    sampled = median_ms(lambda: odds(wh40k, a_side, d_side, method="monte-carlo", trials=100_000,
                                     charge_distance=4.0), max(5, runs // 2))  # fmt: skip
    print(f"Monte Carlo, vectorised, 40K 20 v 20 assault, 100,000 trials: median {sampled / 1000:.3f} s   "
          "(target < 0.25 s)")  # fmt: skip
    start = time.perf_counter()
    monte_carlo(wh40k, a_side, d_side, validate_options(wh40k.options, {"charge_distance": 4.0}), trials=trials)
    seconds = time.perf_counter() - start
    per_trial = seconds / trials
    print(
        f"Monte Carlo through the referee (the fallback: several units a side), 40K 20 v 20: {trials} trials "
        f"in {seconds:.2f} s ({per_trial * 1000:.2f} ms a trial; 100,000 would take ~{per_trial * 1e5:.0f} s)"
    )
    import asyncio

    asyncio.run(through_discord(max(5, runs // 2)))


async def through_discord(runs: int) -> None:
    """/odds end to end: INTERACTION_CREATE on the gateway to the edit with the chart reaching Discord."""
    from bench.discord_harness import running_bot
    from tests.e2e.fake_discord import command_interaction

    _, attacker, defender, options = BOLT[0]
    cases = [
        ("40k", "40K 20 v 20 assault", [{"type": 3, "name": "attacker", "value": ASSAULT[0]},
                                        {"type": 3, "name": "defender", "value": ASSAULT[1]},
                                        {"type": 10, "name": "charge_distance", "value": 4.0}]),
        ("boltaction", "Bolt Action 8 v 10", [{"type": 3, "name": "attacker", "value": attacker},
                                              {"type": 3, "name": "defender", "value": defender},
                                              {"type": 4, "name": "reaction_shots", "value": options["reaction_shots"]},
                                              {"type": 10, "name": "distance", "value": options["distance"]}]),
    ]  # fmt: skip
    async with running_bot() as (fake, _):
        users = iter(range(800000000000000000, 900000000000000000))
        for game, label, values in cases:
            times = []
            for _ in range(runs):
                payload = command_interaction("odds", values, subcommand=game, user_id=next(users))
                start = time.perf_counter()
                await fake.interaction(payload)
                calls = await fake.wait_answers(payload["token"], 2, 60)
                times.append((calls[1].received - start) * 1000)
                fake.forget()
            print(f"/odds {game} ({label}) through the fake Discord (exact, with the chart), {runs} runs: "
                  f"median {statistics.median(times):.0f} ms, first {times[0]:.0f} ms (target < 1000 ms)")  # fmt: skip
        await loop_stalls(fake, command_interaction, next(users))


async def loop_stalls(fake: Any, command_interaction: Any, user: int) -> None:
    """How long the event loop goes unserved while /odds computes (off the loop, in a worker thread): a ticker
    asks to wake every millisecond, and its longest overshoot is the longest stall anyone else's command sees."""
    import asyncio

    values = [{"type": 3, "name": "attacker", "value": ASSAULT[0] + " | 1x Captain: WS5 S4 T4 W2 I5 A3 Ld10 Sv3+"},
              {"type": 3, "name": "defender", "value": ASSAULT[1]}]  # fmt: skip
    payload = command_interaction("odds", values, subcommand="40k", user_id=user)
    stalls: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append((time.perf_counter() - before) * 1000 - 1)

    ticking = asyncio.create_task(ticker())
    start = time.perf_counter()
    await fake.interaction(payload)
    await fake.wait_answers(payload["token"], 2, 120)
    seconds = time.perf_counter() - start
    done.set()
    await ticking
    stalls.sort()
    print(f"Event loop while /odds 40k computes Monte Carlo through the referee ({seconds:.1f} s, 5,000 trials): "
          f"longest stall {stalls[-1]:.1f} ms, p99 {stalls[int(len(stalls) * 0.99)]:.1f} ms "
          "(target: a few tens of ms)")  # fmt: skip


LARGE = "WS10 S10 T10 W10 I10 A10 Ld10 Sv2+"
BOUNDS = [
    ("40K 25 v 25 large models, rending v Inv3+", "40k", f"25x Big: {LARGE} rending lightning-claws",
     f"25x Big: {LARGE} Inv3+", {"round": 2}),
    ("40K 200 v 200 large models (crashed)", "40k", f"200x Big: {LARGE} rending lightning-claws",
     f"200x Big: {LARGE} Inv3+", {"round": 2}),
    ("40K 50 units of 4 a side (was 45 s)", "40k",
     " | ".join(f"4x Marine{i}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" for i in range(50)),
     " | ".join(f"4x Ork{i}: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+" for i in range(50)), {}),
    ("Epic 50 v 50 stands (was 30 s)", "epic", " ; ".join(f"10x Tac{i}: CC4+ FF4+ Sv4+ INF" for i in range(5)),
     " ; ".join(f"10x Boyz{i}: CC4+ FF6+ Sv6+ INF" for i in range(5)), {}),
    # Issue 33: the tenth opponent rolls 20 dice against six parries (was 12.6 s).
    ("Duel 1 v 10, six parries (was 12.6 s)", "duel", f"Champion: WS6 S4 T4 W10 I6 A10 Sv3+ {' '.join(['sword'] * 6)}",
     "10x Ork Boy: WS4 S3 T4 W1 I2 A10 Sv6+ club knife", {}),
]  # fmt: skip
CHILD = """
import json, resource, sys, time
from bot.data import catalogue
from rules_core.odds import odds
game, attacker, defender, options, extra = json.loads(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
answer = odds(catalogue().game(game), attacker, defender, **options, **extra)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps([seconds, answer.method, answer.trials, before / 1024, peak / 1024]))
"""


def bounds(runs: int) -> None:
    """Issue 19's bad cases, each in a child process of its own, with the default time limit and with a fixed
    number of trials as tests run them."""
    import json
    import os
    import subprocess

    print(f"Bounded odds, default time limit (5 s), {runs} runs each in a child process (medians):")
    for label, game, attacker, defender, options in BOUNDS:
        for extra in ({}, {"trials": 1000}):
            rows = []
            for _ in range(runs):
                argument = json.dumps([game, attacker, defender, options, extra])
                done = subprocess.run([sys.executable, "-c", CHILD, argument], capture_output=True, text=True,
                                      check=True, env={**os.environ, "PYTHONPATH": "."})  # fmt: skip
                rows.append(json.loads(done.stdout))
            seconds = statistics.median(row[0] for row in rows)
            trials = statistics.median(row[2] or 0 for row in rows)
            base = statistics.median(row[3] for row in rows)
            peak = statistics.median(row[4] for row in rows)
            how = "--trials 1000" if extra else "time limit 5 s"
            print(
                f"  {label:<44} {how:<15} {seconds:6.2f} s  {rows[0][1]:<11} {trials:>8,.0f} trials  "
                f"peak {peak:5.0f} MB (after imports {base:4.0f} MB)"
            )


def _fresh_40k(attacker: object, defender: object) -> None:
    from rules_core.odds import laws

    laws.binomial.cache_clear()
    odds("40k", attacker, defender, charge_distance=4.0)


def _fresh(attacker: str, defender: str, options: dict[str, object]) -> None:
    from rules_core.games.boltaction import odds as boltaction
    from rules_core.odds import laws

    boltaction._dice.cache_clear()
    laws.binomial.cache_clear()
    boltaction.damage.cache_clear()
    odds("boltaction", attacker, defender, **options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--bounds-only", action="store_true", help="Only the bounded cases (issues 19 and 33).")
    parser.add_argument("--bounds-runs", type=int, default=3)
    args = parser.parse_args()
    if not args.bounds_only:
        main(args.runs, args.trials)
    bounds(args.bounds_runs)
