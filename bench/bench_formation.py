"""Median time of one 10-unit vs 10-unit formation assault with supporting fire, for Epic and Reikhammer.

Run: .venv/bin/python bench/bench_formation.py [--runs N]
Target (issue 3): median under 1 ms per resolution (parse, fight, full Report).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from timing import median_ms, pin_to_one_core

from rules_core import resolve

CASES = {
    "epic": {
        "attacker": "6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=2 ; 2x Rhino: CC6+ FF6+ Sv5+ AV ff=2 ; "
        "1x Captain: CC3+ FF5+ Sv4+ INF extra-attacks=1 macro-weapon inspiring ; "
        "1x Dreadnought: CC4+ FF4+ Sv4+ AV reinforced-armour",
        "defender": "6x Boyz: CC4+ FF6+ Sv6+ INF contact=4 ff=2 cover=5+ ; "
        "2x Nobz: CC3+ FF5+ Sv6+ INF extra-attacks=1 macro-weapon ; 1x Gargant: CC3+ FF4+ Sv4+ WE DC=2 ff=1 ; "
        "1x Warboss: CC3+ FF5+ Sv4+ INF invulnerable contact=0",
        "options": {
            "attacker_support": "4x Devastator: FF3+ | 1x Warhound Titan: FF3+ WE DC=3",
            "defender_support": "4x Big Gunz: FF5+",
            "defender_blast_markers": 2,
        },
    },
    "reikhammer": {
        "attacker": "6x Line Infantry: CC4 FF3 Sv5+ INF contact=4 ff=2 ; 2x Field Gun: CC1 FF4 Sv6+ LV ff=2 ; "
        "1x Captain: CC5 FF3 Sv4+ INF extra-attacks=1 ; 1x Steam Tank: CC3 FF4 Sv3+ WE DC=3 reinforced-armour",
        "defender": "6x Spearmen: CC4 FF1 Sv6+ INF contact=4 ff=2 cover=5+ ; 2x Archers: CC2 FF4 Sv6+ INF ff=2 ; "
        "2x Knights: CC5 FF- Sv3+ LV extra-attacks=1",
        "options": {
            "attacker_support": "4x Handgunners: FF3 | 2x Mortars: FF2",
            "defender_support": "4x Crossbowmen: FF3",
            "defender_shock": 2,
        },
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3000)
    args = parser.parse_args()
    pin_to_one_core()
    print(f"10-unit vs 10-unit formation assaults with supporting fire, {args.runs} resolutions each, one core "
          "(target < 1 ms):")  # fmt: skip
    for game, case in CASES.items():

        def resolution(seed: int, game: str = game, case: dict = case) -> object:  # type: ignore[type-arg]
            return resolve(game, case["attacker"], case["defender"], seed=seed, **case["options"])

        works: list[tuple[str, Callable[[int], object]]] = [
            (f"{game}: parse, fight, full Report", resolution),
            ("  + compact JSON (as stored)", lambda seed, r=resolution: r(seed).to_json(indent=None)),  # type: ignore[misc]
        ]
        for label, work in works:
            median, p90 = median_ms(work, args.runs)
            print(f"  {label:<40} median {median:.3f} ms   p90 {p90:.3f} ms")


if __name__ == "__main__":
    main()
