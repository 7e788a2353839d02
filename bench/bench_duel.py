"""Median time of a 1-vs-3 multiple combat in the duel (40K 2nd edition hand-to-hand).

Run: .venv/bin/python bench/bench_duel.py [--runs N]
Target (issue 4): median under 0.2 ms for the combat: the rounds, hits, saves and damage, and the full Report
from parsed sides. Parsing the spec text and the compact JSON are timed beside it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from timing import median_ms, pin_to_one_core

from bot.data import catalogue
from rules_core import SeededDice
from rules_core.options import validate_options

LONE = "Captain: WS6 S4 T4 W3 I6 A3 Sv3+ power-sword bolt-pistol charged"
FOES = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife weapon=choppa/S+1/dmg=1/sv=-1/cc"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5000)
    args = parser.parse_args()
    pin_to_one_core()
    game = catalogue().game("duel")
    options = validate_options(game.options, {})
    attacker, defender = game.parse_side(LONE), game.parse_side(FOES)

    def fight(seed: int) -> object:
        return game.resolve_sides(attacker, defender, options, SeededDice(seed))

    def parse_and_fight(seed: int) -> object:
        return game.resolve_sides(game.parse_side(LONE), game.parse_side(FOES), options, SeededDice(seed))

    works: list[tuple[str, Callable[[int], object]]] = [
        ("1 v 3: fight and full Report (target < 0.2 ms)", fight),
        ("  + parsing both specs", parse_and_fight),
        ("  + compact JSON (as stored)", lambda seed: parse_and_fight(seed).to_json(indent=None)),  # type: ignore[attr-defined]
    ]
    print(f"Duel multiple combat, 1 model against 3, {args.runs} resolutions each, one core:")
    for label, work in works:
        median, p90 = median_ms(work, args.runs)
        print(f"  {label:<48} median {median:.3f} ms   p90 {p90:.3f} ms")


if __name__ == "__main__":
    main()
