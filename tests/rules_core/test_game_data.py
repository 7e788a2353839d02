"""A game that reads a data table works in rules_core when given the table, and says in one line what it needs
when it is not (rules_core does no I/O: bot/ reads the files and binds them)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules_core import SpecError, get_game, resolve

DATA = Path(__file__).resolve().parents[2] / "data"


def test_the_duel_without_its_weapon_table_names_the_table_it_needs_in_one_line() -> None:
    duel = get_game("duel")
    with pytest.raises(SpecError) as error:
        resolve("duel", duel.example_attacker, duel.example_defender, seed=1)
    line = error.value.one_line()
    assert "\n" not in line
    assert f"the duel's weapon table ({duel.data_files['weapons']}), which was not given" in line
    assert "with_data()" in line and "discord" not in line.lower() and "referee " not in line


def test_the_duel_given_its_weapon_table_resolves_its_own_example() -> None:
    duel = get_game("duel")
    table = {name: yaml.safe_load((DATA / path).read_text(encoding="utf-8")) for name, path in duel.data_files.items()}
    report = resolve(duel.with_data(table), duel.example_attacker, duel.example_defender, seed=1)
    assert report.game == "duel" and "chainsword" in report.inputs.attacker
