"""40K lists to rosters (issue 35): the hand-made 3rd-edition list imports to what hand-made/expected.json says,
lists for other game systems are refused unless --game 40k names a game with their stat line, every name of the
mapping is a name of the community's 40K data, and every spec written parses and survives export and re-import."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bot.list_files import Force, ListFile, Profile, Selection, read_list_file
from bot.list_import import ListImportError, import_list, mapping_for
from bot.rosters import check_roster, dump_roster_file, parse_roster_file
from bot.storage.rosters import SavedRoster
from tests.bot.list_files.shared_rosters import REAL, rosters_folder

HAND_MADE_40K = "40k3-marines-vs-orks.ros"
# The real files whose units have the 40K stat line (WS BS S T W I A Ld Sv): later 40K editions and the Horus Heresy.
FORTY_K_SHAPED = tuple(name for name in REAL if not name.startswith("empire"))


def read(name: str):
    return read_list_file((rosters_folder() / name).read_bytes())


def expected(name: str) -> dict:
    return json.loads((rosters_folder() / "hand-made" / "expected.json").read_text(encoding="utf-8"))["files"][name]


def test_the_hand_made_40k_list_imports_to_what_expected_json_says():
    want = expected(HAND_MADE_40K)
    imported = import_list(read(f"hand-made/{HAND_MADE_40K}"))
    assert imported.game == want["game"] == "40k"
    assert imported.warning == ""
    assert imported.system == f"{want['game_system']['name']} (revision {want['game_system']['revision']})"
    assert [unit.name for unit in imported.units] == [unit["name"] for unit in want["units"]]
    for unit, wanted in zip(imported.units, want["units"], strict=True):
        assert unit.needs == [], unit.name
        assert unit.models == wanted["models"], unit.name
        assert len(unit.groups) == len(wanted["groups"]), unit.name
        for group, wanted_group in zip(unit.groups, wanted["groups"], strict=True):
            assert group.count == wanted_group["count"]
            assert group.name in (wanted_group["name"], *wanted_group.get("name_aliases", ()))
            stats = {key: value for key, value in wanted_group["stats"].items() if key != "BS"}
            assert dict(group.stats) == stats, group.name
            required = set(wanted_group["keywords"])
            allowed = required | set(wanted_group.get("optional_keywords", ()))
            assert required <= set(group.tokens) <= allowed, (group.name, group.tokens)
        ignored = {note.item for note in unit.ignored}
        assert {item["item"] for item in wanted["ignored"]} <= ignored, unit.name
    names = [unit.slug for unit in imported.units]
    assert names == ["space-marine-tactical-squad", "assault-squad", "librarian", "slugga-boyz", "warboss"]


@pytest.mark.parametrize("name", FORTY_K_SHAPED)
def test_a_40k_shaped_list_is_refused_naming_its_system_and_imports_with_game_40k_and_a_warning(name):
    list_file = read(name)
    with pytest.raises(ListImportError) as refused:
        import_list(list_file)
    assert list_file.game_system_name in refused.value.message
    assert "--game 40k" in str(refused.value)
    imported = import_list(list_file, "40k")
    assert list_file.game_system_name in imported.warning and "rules differ" in imported.warning
    if name != "Dedicated Transport Squad Costs.ros":  # its one unit's T is empty (the next test)
        assert imported.written(), name
    for unit in imported.units:  # nothing silent: each unit is written, left out with why, or needs the player
        assert (unit.spec is not None) or unit.left_out or unit.needs, unit.name


def test_a_list_with_no_40k_stat_line_is_refused_even_with_game_40k():
    with pytest.raises(ListImportError, match="no 40k stat line"):
        import_list(read("empire.json"), "40k")


def test_vehicles_are_left_out_with_why_and_duplicate_names_are_numbered():
    imported = import_list(read("Necron 1845.rosz"), "40k")
    by_slug = {unit.slug: unit for unit in imported.units}
    assert {"immortals", "immortals-2", "necron-warriors", "necron-warriors-2"} <= set(by_slug)
    monolith = by_slug["necron-monolith"]
    assert monolith.spec is None and "vehicle" in monolith.left_out


def test_an_empty_stat_needs_the_player_and_is_not_guessed():
    imported = import_list(read("Dedicated Transport Squad Costs.ros"), "40k")
    (unit,) = imported.units
    assert unit.spec is None
    assert any("T of Legionary" in note.item and "empty" in note.why for note in unit.needs)


def test_every_name_the_40k_mapping_knows_is_a_name_of_the_community_40k_data():
    catalogue = rosters_folder() / "catalogues" / "40k"
    names: set[str] = set()
    for file, column in (("entries.tsv", 2), ("profiles.tsv", 2), ("rules.tsv", 1)):
        for line in (catalogue / file).read_text(encoding="utf-8").splitlines()[1:]:
            cells = line.split("\t")
            if len(cells) > column:
                names.add(cells[column])
    unknown = [name for name in mapping_for("40k").names() if name not in names]
    assert unknown == []


@pytest.mark.parametrize("name", [f"hand-made/{HAND_MADE_40K}", *FORTY_K_SHAPED])
def test_every_spec_written_parses_and_survives_export_and_re_import(name):
    list_file = read(name)
    imported = import_list(list_file, "40k")
    for unit in imported.written():
        spec = unit.spec
        assert spec is not None
        roster = check_roster("40k", "imported", spec)
        now = datetime.now(UTC)
        saved = SavedRoster("local", roster.game, roster.name, roster.spec, roster.description, None, now, now)
        (again,) = parse_roster_file(dump_roster_file([saved]))
        assert again.spec == spec


def _marine(name: str = "Space Marine", number: int = 5, save: str = "3+", *wargear: Selection) -> Selection:
    stats = (("WS", "4"), ("BS", "4"), ("S", "4"), ("T", "4"), ("W", "1"), ("I", "4"), ("A", "1"), ("Ld", "8"))
    return Selection(name, "model", number, (Profile(name, "Unit", (*stats, ("Sv", save))),), selections=wargear)


def _list(*units: Selection) -> ListFile:
    system = mapping_for("40k").systems[0]
    force = Force("Standard", "Space Marines (1999)", units)
    return ListFile("Made", system[0], system[1], "12", "battlescribe-ros", "2.03", "", (force,))


def test_a_default_the_player_turned_off_is_not_written_and_unknowns_need_the_player():
    warscythe = Profile("Warscythe", "Weapon", (("Range", "Melee"), ("S", "+2"), ("AP", "1")))
    squad = Selection("Assault Squad", "unit", 1, rules=("Jump Packs",), selections=(
        Selection("Remove Jump Packs", "upgrade", 1),
        _marine("Veteran Sergeant", 1, "3+", Selection("Warscythe", "upgrade", 1, (warscythe,))),
        _marine(),
    ))  # fmt: skip
    odd = Selection("Odd Squad", "unit", 1, selections=(_marine("Odd Marine", 5, "3"),))
    imported = import_list(_list(squad, odd))
    assault, odd_unit = imported.units
    assert assault.spec is not None and "jump-pack" not in assault.spec
    assert [note.item for note in assault.needs] == ["Warscythe"]
    assert odd_unit.spec is None
    assert odd_unit.needs[0].item == "Sv of Odd Marine" and "'3', not a save such as 3+" in odd_unit.needs[0].why
