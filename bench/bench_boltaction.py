"""Median time of a 10-vs-10 Bolt Action close quarters with reaction fire.

Run: .venv/bin/python bench/bench_boltaction.py [--runs N]
Target (issue 5): median under 0.5 ms per resolution (parse, reaction fire, every round, full Report).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from timing import median_ms, pin_to_one_core

from rules_core import resolve

ATTACKER = "10x Grenadiers: veteran nco smg=2"
DEFENDER = "10x Rifle Squad: regular nco smg=1"
OPTIONS = {"distance": 9, "reaction_shots": 10}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5000)
    args = parser.parse_args()
    pin_to_one_core()

    def resolution(seed: int) -> object:
        return resolve("boltaction", ATTACKER, DEFENDER, seed=seed, **OPTIONS)

    works: list[tuple[str, Callable[[int], object]]] = [
        ("10 v 10 with reaction fire: parse, fight, Report", resolution),
        ("  + compact JSON (as stored)", lambda seed: resolution(seed).to_json(indent=None)),  # type: ignore[attr-defined]
    ]
    print(f"Bolt Action close quarters, {args.runs} resolutions each, one core (target < 0.5 ms):")
    for label, work in works:
        median, p90 = median_ms(work, args.runs)
        print(f"  {label:<50} median {median:.3f} ms   p90 {p90:.3f} ms")


if __name__ == "__main__":
    main()
