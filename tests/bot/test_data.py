"""Every shipped data file matches its schema, and every sample is a valid spec of its game."""

from __future__ import annotations

import pytest
import yaml

from bot.data import Catalogue, DataFileError, catalogue, load_samples, parse_sample_file, read_data_file, sample_files
from rules_core import UnknownGameError, all_games, get_game
from rules_core.games.duel.weapons import WeaponError, parse_weapon_table


def test_there_are_sample_files_for_the_games_available() -> None:
    games = {get_game(f.game).id for f in load_samples()}
    assert "40k" in games


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_each_sample_file_matches_its_schema_and_parses(path) -> None:  # type: ignore[no-untyped-def]
    sample_file = parse_sample_file(path.read_text(encoding="utf-8"), name=path.name)
    game = catalogue().game(sample_file.game)
    assert len(sample_file.samples) >= 2
    for sample in sample_file.samples:
        game.parse_side(sample.spec)


@pytest.mark.parametrize(
    "text",
    [
        "just a string",
        "schema: referee-samples/2\ngame: 40k\nunits: {a: {description: x, spec: y}}",
        "schema: referee-samples/1\nunits: {a: {description: x, spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {description: '', spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {description: x, spec: y}}\nextra: 1",
    ],
)
def test_the_schema_check_rejects_broken_files(text: str) -> None:
    with pytest.raises(DataFileError):
        parse_sample_file(text, name="broken.yaml")


def test_every_game_binds_its_data_files() -> None:
    duel = catalogue().game("duel")
    assert duel.data_files
    assert "chainsword" in duel.parse_side("A: WS4 S4 T4 W1 I4 A1 Sv3+ chainsword").groups[0].weapons[0].name
    assert catalogue().game("40k") is get_game("40k")  # a game with no data files is itself


def test_the_catalogue_is_bound_once_and_answers_to_every_name_of_a_game() -> None:
    bound = catalogue()
    assert catalogue() is bound  # built once per process
    duel = bound.game("duel")
    assert all(bound.game(name) is duel for name in ("hand-to-hand", "/duel", "DUEL", get_game("duel"), duel))
    assert [game.id for game in bound.games()] == [game.id for game in all_games()]
    assert bound.parsed_side("duel", duel.example_attacker) is bound.parsed_side("duel", duel.example_attacker)
    fresh = Catalogue.build()  # another catalogue binds its own copies
    assert fresh.game("duel") is not duel and fresh.game("40k") is bound.game("40k")
    with pytest.raises(UnknownGameError):
        bound.game("assault")  # the command of several games names none of them


def test_the_weapon_table_matches_its_schema() -> None:
    armoury = parse_weapon_table(read_data_file("weapons/duel.yaml"), name="weapons/duel.yaml")
    for name in ("sword", "chainsword", "power-sword", "power-axe", "power-fist", "knife", "club", "laspistol",
                 "bolt-pistol", "plasma-pistol"):  # fmt: skip
        assert armoury.get(name) is not None, name
    assert armoury.source
    fist = armoury.get("power-fist")
    assert fist is not None and (fist.strength, fist.save_modifier, fist.close_combat) == (8, -5, True)
    assert all(weapon.close_combat for weapon in armoury.weapons.values() if weapon.parry)


TABLE = "schema: referee-weapons/1\ngame: duel\nweapons:\n"


@pytest.mark.parametrize(
    "text",
    [
        "- a list",
        "schema: referee-weapons/2\nweapons: {knife: {strength: user, damage: 1, parry: false, close_combat: true}}",
        TABLE + "  {}",
        TABLE + "  Knife: {strength: user, damage: 1, parry: false, close_combat: true}",
        TABLE + "  knife: {strength: 11, damage: 1, parry: false, close_combat: true}",
        TABLE + "  knife: {strength: user+x, damage: 1, parry: false, close_combat: true}",
        TABLE + "  knife: {strength: user, damage: D4, parry: false, close_combat: true}",
        TABLE + "  knife: {strength: user, damage: 1, save_modifier: 1, parry: false, close_combat: true}",
        TABLE + "  knife: {strength: user, damage: 1, parry: maybe, close_combat: true}",
        TABLE + "  knife: {strength: user, damage: 1, parry: false}",
        TABLE + "  knife: {strength: user, damage: 1, parry: false, close_combat: true, reach: 2}",
        TABLE + "  knife: {strength: user, damage: 1, parry: false, close_combat: true}\nextra: 1",
    ],
)
def test_the_weapon_schema_check_rejects_broken_tables(text: str) -> None:
    with pytest.raises(WeaponError):
        parse_weapon_table(yaml.safe_load(text), name="broken.yaml")
