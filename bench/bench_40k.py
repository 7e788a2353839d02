"""Median time of one 20-vs-20 40K assault with weapons mixed in, full report (JSON) included, on one core.

Run: .venv/bin/python bench/bench_40k.py [--runs N]
Target (issue 2): median under 1 ms per resolution.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from timing import median_ms, pin_to_one_core

from rules_core import resolve

ATTACKER = (
    "9x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades supporting=2 ; "
    "1x Sergeant: WS4 S4 T4 W1 I4 A2 Ld9 Sv3+ power-fist frag-grenades dies-last | "
    "5x Terminator: WS4 S4 T4 W1 I4 A2 Ld9 Sv2+ Inv5+ lightning-claws | "
    "4x Genestealer: WS6 S4 T4 W1 I6 A2 Ld10 Sv5+ rending vs=2 | "
    "1x Librarian: WS5 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+ force-weapon independent-character"
)
# One combat (decision 22): 4 Wyches fight the Genestealers and 1 the Terminators. Until issue 33 all 5 fought the
# Genestealers (vs=3), a second combat the referee then totalled with the first; it now refuses that.
DEFENDER = (
    "14x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ heavy-ccw two-weapons supporting=4 ; "
    "1x Nob: WS4 S4 T4 W2 I3 A3 Ld7 Sv6+ power-fist dies-last | "
    "5x Wych: WS4 S3 T3 W1 I6 A1 Ld8 Sv6+ poisoned two-weapons vs=3:4,2:1"
)


def resolution(seed: int) -> object:
    return resolve("40k", ATTACKER, DEFENDER, seed=seed, charge_distance=4, defender_in_cover=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3000)
    args = parser.parse_args()
    pin_to_one_core()
    cases: list[tuple[str, Callable[[int], object]]] = [
        ("resolution: parse, fight, full Report", resolution),
        ("  + compact JSON (as stored)", lambda seed: resolution(seed).to_json(indent=None)),  # type: ignore[attr-defined]
        ("  + indented JSON (referee --json)", lambda seed: resolution(seed).to_json()),  # type: ignore[attr-defined]
    ]
    print(f"40k 20-vs-20 assault with weapons mixed in, {args.runs} resolutions each, one core (target < 1 ms):")
    for label, work in cases:
        median, p90 = median_ms(work, args.runs)
        print(f"  {label:<40} median {median:.3f} ms   p90 {p90:.3f} ms")


if __name__ == "__main__":
    main()
