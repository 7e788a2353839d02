"""What the `referee` command imports, never how long it takes (bench/bench_cli.py times it).

Each check runs the real entry point in a new process and reads ``sys.modules`` as it exits: ``referee help``
loads neither the storage stack nor Discord, the odds' libraries or Alembic; a recorded assault loads the storage
but no Discord, no odds' libraries, and Alembic only while the schema is behind; ``referee odds`` loads no
Discord and no storage; and its result is written out
before the storage stack is imported. The garbage collector, paused while modules load, is on again at exit. The
lazily loaded commands are listed with their own help.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from bot.cli import LAZY, cli
from bot.cli.common import LazyCommand
from bot.storage.db import head_revision, scripts_head
from rules_core import get_game
from tests.waits import scaled

ATTACKER = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
DEFENDER = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
ASSAULT = ("assault", "40k", "--attacker", ATTACKER, "--defender", DEFENDER, "--seed", "7")
NEVER = {"discord", "aiohttp", "numpy", "matplotlib"}  # the bot's and the odds' libraries: never for a ruling
STORAGE = {"sqlalchemy", "aiosqlite", "alembic", "bot.storage", "bot.recording"}
ROOT = Path(__file__).resolve().parents[2]

# The console script's work, then the modules loaded, as JSON, on a file of their own (stdout is the command's).
# An import hook writes a mark on stdout when SQLAlchemy is first asked for, to show what was printed before it.
PROBE = """
import atexit, gc, json, os, sys

class Mark:
    done = False

    def find_spec(self, name, path=None, target=None):
        if name == "sqlalchemy" and not self.done:
            self.done = True
            sys.stdout.flush()
            sys.stdout.write("<<storage imported>>")
            sys.stdout.flush()
        return None

sys.meta_path.insert(0, Mark())
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write(json.dumps([gc.isenabled(), sorted(sys.modules)])))
from bot.cli import main
main()
"""


def run(tmp_path: Path, *args: str) -> tuple[set[str], str, str]:
    """(top-level, bot.* and SQLAlchemy dialect modules loaded, stdout, stderr) of ``referee ARGS`` in a new process."""
    out_file = tmp_path / "modules.json"
    env = dict(os.environ, MODULES_OUT=str(out_file), PYTHONPATH=str(ROOT), COLUMNS="100")
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=scaled(120), check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    collecting, modules = json.loads(out_file.read_text())
    assert collecting, "the garbage collector was left paused"
    names = {name.split(".")[0] for name in modules} | {name for name in modules if name.startswith("bot.")}
    names |= {name for name in modules if name.startswith("sqlalchemy.dialects.")}
    return names, result.stdout, result.stderr


@pytest.mark.parametrize("args", [("help",), ("--help",), ("help", "40k"), ("games",), ("assault", "--help")])
def test_help_loads_no_storage_no_discord_and_no_odds_libraries(tmp_path: Path, args: tuple[str, ...]) -> None:
    names, out, _ = run(tmp_path, *args)
    assert out.strip()
    assert "<<storage imported>>" not in out
    assert not names & (NEVER | STORAGE), sorted(names & (NEVER | STORAGE))


def test_an_assault_shows_its_result_before_the_storage_is_imported_and_alembic_only_while_behind(
    tmp_path: Path,
) -> None:
    names, out, err = run(tmp_path, *ASSAULT)  # a new SQLite file: migrated first
    assert "alembic" in names
    assert "Recorded as #1" in err

    names, out, err = run(tmp_path, *ASSAULT)  # the schema is current now
    assert not names & (NEVER | {"alembic"}), sorted(names & (NEVER | {"alembic"}))
    assert {"sqlalchemy", "bot.storage"} <= names
    assert "sqlalchemy.dialects.postgresql" not in names, "SQLAlchemy's PostgreSQL dialect loaded on SQLite"
    assert "Recorded as #2" in err
    result, mark, rest = out.partition("<<storage imported>>")
    assert mark, "the storage stack was never imported"
    assert "seed 7" in result
    assert rest == "", f"printed after the storage was imported: {rest[:200]!r}"

    names, out, _ = run(tmp_path, *ASSAULT[:-2], "--json", "--seed", "7")
    assert json.loads(out.partition("<<storage imported>>")[0])["seed"] == 7
    assert out.endswith("<<storage imported>>")


@pytest.mark.parametrize("game", ["duel", "40k"])
def test_odds_in_the_terminal_load_no_discord_and_no_storage(tmp_path: Path, game: str) -> None:
    example = get_game(game)
    names, out, _ = run(tmp_path, "odds", game, "--attacker", example.example_attacker, "--defender",
                        example.example_defender, "--trials", "200", "--seed", "1")  # fmt: skip
    assert "Attacker wins" in out
    assert not names & {"discord", "aiohttp", *STORAGE}, sorted(names & {"discord", "aiohttp", *STORAGE})


def test_the_schema_head_the_store_checks_without_alembic_is_alembics() -> None:
    assert head_revision() == scripts_head()


def test_every_lazy_command_is_listed_with_its_own_help() -> None:
    ctx = click.Context(cli, info_name="referee")
    for group, name, target, help_text in LAZY:
        lazy = LazyCommand(target, help_text)
        command = lazy.load()
        assert command.name == name
        assert command.help is not None
        assert " ".join(command.help.partition("\n\n")[0].split()) == help_text
        assert not command.hidden and not command.short_help and not command.deprecated
        stand_in = lazy.stand_in(name)
        for width in range(10, 160):
            assert stand_in.get_short_help_str(width) == command.get_short_help_str(width), (name, width)
        assert group.get_command(ctx, name) is command  # loaded on use, and kept
        assert name in group.commands and name not in group.lazy
