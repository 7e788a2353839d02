"""Median time to read an army list file into its neutral tree (bot/list_files): the largest real file beside the
checkout (../shared/rosters: the one that unpacks to the most, a 470 KB roster in a .rosz) and a generated
200-unit BattleScribe list.

Run: PYTHONPATH=. .venv/bin/python bench/bench_list_files.py [--runs N]
Target (issue 35): a 200-unit list imports in under a second; this is the reading part, one core.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms, pin_to_one_core
from bot.list_files import read_list_file
from tests.bot.list_files.generated import large_roster

ROOT = Path(__file__).resolve().parents[1]


def unpacked_size(path: Path) -> int:
    if path.suffix == ".rosz":
        with zipfile.ZipFile(path) as archive:
            return sum(info.file_size for info in archive.infolist())
    return path.stat().st_size


def largest_real_file() -> Path | None:
    """The biggest list (unpacked) in the nearest ../shared/rosters, or None where that folder is absent."""
    for ancestor in ROOT.parents:
        folder = ancestor / "shared" / "rosters"
        if folder.is_dir():
            files = [*folder.glob("*.ros"), *folder.glob("*.rosz"), *folder.glob("*.json")]
            return max(files, key=unpacked_size)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    pin_to_one_core()
    cases = [("generated 200-unit list (.ros)", large_roster(200))]
    real = largest_real_file()
    if real is None:
        print("../shared/rosters is absent: the real file is not measured")
    else:
        cases.insert(0, (f"largest real file ({real.name})", real.read_bytes()))
    for label, data in cases:
        selections = sum(1 for _ in read_list_file(data).selections())
        median, p90 = median_ms(lambda _seed, data=data: read_list_file(data), args.runs)
        print(f"{label}: {len(data) / 1024:.0f} KB, {selections} selections: median {median:.1f} ms, p90 {p90:.1f} ms")


if __name__ == "__main__":
    main()
