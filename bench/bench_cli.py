"""How fast the `referee` command starts: whole processes, timed from their start, beside two floors.

Run: PYTHONPATH=. .venv/bin/python bench/bench_cli.py [--runs 40]
Each round runs every case once, in turn (so a noisy moment of the machine falls on all of them alike), as a new
process of this Python, pinned to one core; the figures are medians (and 90th percentiles) over the rounds:

- ``python -c pass``: the floor of any Python process;
- the import floor: a script that only imports what a recorded assault cannot do without (SQLAlchemy's asyncio
  extension, aiosqlite, click, rich and rules_core);
- ``referee help``;
- ``referee assault 40k`` (10 v 12, a fresh seed each run) recorded on a SQLite file already at the latest schema:
  the time to the first byte of its result on stdout (a pipe), and the time until the process has exited, its
  record written.

Bytecode is written and reused (PYTHONDONTWRITEBYTECODE is dropped for the children, as an installed package
has its .pyc files), and every case runs once before the timed rounds. The CPU time each process used (user and
system) is printed beside its wall time: on a machine busy with other work it is the steadier figure.
Targets (issue 19): `referee help` at most 200 ms; the assault's result shown within 250 ms of starting; the whole
recorded run at most 1.25x the import floor.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.timing import pin_to_one_core  # noqa: E402

ATTACKER = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
DEFENDER = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
IMPORT_FLOOR = "import sqlalchemy.ext.asyncio, aiosqlite, click, rich.console, rules_core"
REFEREE = "from bot.cli import main; main()"  # what the console script `referee` runs


@dataclass
class Case:
    name: str
    args: list[str]
    first_byte: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def run(self, env: dict[str, str], seed: int) -> None:
        args = [arg.replace("{seed}", str(seed)) for arg in self.args]
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter_ns()
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=env["BENCH_DIR"])
        assert process.stdout is not None
        first = process.stdout.read(1)
        shown = time.perf_counter_ns()
        _, err = process.communicate()
        end = time.perf_counter_ns()
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu.append((now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime) * 1000)
        if process.returncode != 0:
            raise SystemExit(f"{self.name} failed ({process.returncode}): {err.decode()[-2000:]}")
        if first:
            self.first_byte.append((shown - start) / 1e6)
        self.total.append((end - start) / 1e6)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed rounds (each runs every case once)")
    runs = parser.parse_args().runs
    pin_to_one_core()
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as folder:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            PYTHONPATH=str(ROOT),
            DATABASE_URL=f"sqlite+aiosqlite:///{Path(folder) / 'referee.db'}",
            BENCH_DIR=folder,
            COLUMNS="100",
        )
        cases = [
            Case("python -c pass", [python, "-c", "pass"]),
            Case("import floor", [python, "-c", IMPORT_FLOOR]),
            Case("referee help", [python, "-c", REFEREE, "help"]),
            Case("referee assault 40k", [python, "-c", REFEREE, "assault", "40k", "--attacker", ATTACKER,
                                         "--defender", DEFENDER, "--charge-distance", "4", "--seed", "{seed}"]),
        ]  # fmt: skip
        for case in cases:  # warm-up: bytecode written, the database created at the latest schema
            case.run(env, 0)
            case.first_byte.clear()
            case.total.clear()
            case.cpu.clear()
        for seed in range(1, runs + 1):
            for case in cases:
                case.run(env, seed)

    print(f"{runs} runs of each, medians (90th percentile) in ms, {sys.executable}")
    for case in cases:
        shown = ""
        if case is cases[3]:
            shown = f"result shown {statistics.median(case.first_byte):4.0f} ({percentile(case.first_byte, 0.9):4.0f}),"
        print(
            f"  {case.name:<20} {shown:<29} exited {statistics.median(case.total):4.0f} "
            f"({percentile(case.total, 0.9):4.0f}); CPU {statistics.median(case.cpu):4.0f}"
        )
    bare, floor, help_case, assault = (statistics.median(case.total) for case in cases)
    shown = statistics.median(cases[3].first_byte)
    print("Targets:")
    print(f"  referee help {help_case:.0f} ms <= 200 ms: {verdict(help_case, 200)}")
    print(f"  assault result shown {shown:.0f} ms <= 250 ms: {verdict(shown, 250)}")
    print(f"  recorded assault {assault:.0f} ms = {assault / floor:.2f}x the import floor ({floor:.0f} ms) <= 1.25x: "
          f"{verdict(assault, 1.25 * floor)}")  # fmt: skip
    print(f"  (python -c pass: {bare:.0f} ms; referee help is {help_case / bare:.1f}x it)")
    cpu_floor, cpu_assault = statistics.median(cases[1].cpu), statistics.median(cases[3].cpu)
    print(f"  CPU time (steadier on a busy machine): recorded assault {cpu_assault / cpu_floor:.2f}x the import floor")


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else f"MISSED by {value - target:.0f} ms"


if __name__ == "__main__":
    main()
