"""Median time to import a 40K army list once read (bot/list_import: finding the game, walking the units, the
mapping, each unit checked by the 40K parser) and to check the roster it saves, for a 200-unit list: the hand-made
3rd-edition list beside the checkout (../shared/rosters/hand-made, 5 units) repeated 40 times, and the largest
40K-shaped real list read with --game 40k. bench_list_files.py measures the reading; the two add up to the import.

Run: PYTHONPATH=. .venv/bin/python bench/bench_list_import.py [--runs N]
Target (issue 35): a 200-unit list imports in under a second, one core.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms, pin_to_one_core
from bot.list_files import ListFile, read_list_file
from bot.list_import import import_list
from bot.rosters import check_roster

ROOT = Path(__file__).resolve().parents[1]


def rosters_folder() -> Path | None:
    for ancestor in ROOT.parents:
        if (ancestor / "shared" / "rosters").is_dir():
            return ancestor / "shared" / "rosters"
    return None


def imported(list_file: ListFile, game: str | None) -> int:
    result = import_list(list_file, game)
    written = result.written()
    spec = " | ".join(unit.spec for unit in written if unit.spec is not None)
    check_roster(result.game, "bench", spec, "", [unit.slug for unit in written])
    return len(result.units)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    pin_to_one_core()
    folder = rosters_folder()
    if folder is None:
        print("../shared/rosters is absent: nothing to measure")
        return
    hand_made = read_list_file((folder / "hand-made" / "40k3-marines-vs-orks.ros").read_bytes())
    big = replace(hand_made, forces=hand_made.forces * 40)
    real = read_list_file((folder / "Chogorian Brotherhood - Outflank  Hit and Run.rosz").read_bytes())
    for label, list_file, game in (
        ("hand-made list x40", big, None),
        ("Chogorian Brotherhood (--game 40k)", real, "40k"),
    ):
        units = imported(list_file, game)
        median, p90 = median_ms(lambda _seed, f=list_file, g=game: imported(f, g), args.runs)
        print(f"{label}: {units} units: median {median:.1f} ms, p90 {p90:.1f} ms")


if __name__ == "__main__":
    main()
