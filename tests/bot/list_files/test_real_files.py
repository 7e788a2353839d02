"""Each real list file in ../shared/rosters and each hand-made one reads into its neutral tree, exactly as the
file's own profiles say: facts found by reading the files, per file."""

from __future__ import annotations

import json

import pytest

from bot.list_files import BATTLESCRIBE_ROS, BATTLESCRIBE_ROSZ, NEW_RECRUIT_JSON, ListFile, Selection, read_list_file
from tests.bot.list_files.shared_rosters import HAND_MADE, REAL, rosters_folder

HH1 = ("ca571888-56a9-c58e-ddaf-54f4713538bc", "Warhammer 30,000 - The Horus Heresy")
HH2 = ("28d4-bd2e-4858-ece6", "(HH V2) Horus Heresy (2022)")

# file: list name, game system id, name, revision, source format, units and models at the force's top level
HEADERS = {
    "Berserker Assault.rosz": ("New Roster", *HH1, "135", BATTLESCRIBE_ROSZ, 6),
    "Chogorian Brotherhood - Outflank  Hit and Run.rosz": ("New Roster", *HH1, "135", BATTLESCRIBE_ROSZ, 19),
    "Dedicated Transport Squad Costs.ros": (
        "Validation Test", "28d4-bd2e-4858-ece6", "Horus Heresy (2022)", "102", BATTLESCRIBE_ROS, 1),
    "HH2 - Dark Angels.rosz": ("Dark Angels", *HH2, "84", BATTLESCRIBE_ROSZ, 16),
    "HH_Test.ros": ("HH_Test", *HH1, "114", BATTLESCRIBE_ROS, 12),
    "Necron 1845.rosz": (
        "New Roster", "e1ebd931-a209-3ce4-87b4-d9918d25530b", "Warhammer 40,000 7th Edition", "15", BATTLESCRIBE_ROSZ,
        7),
    "OgrynChainaxeFix.rosz": ("1500pts July Doubles", *HH2, "65", BATTLESCRIBE_ROSZ, 9),
    "empire.json": (
        "empire", "6d8e-38d9-3c69-febf", "Warhammer Fantasy Battle 6th edition", "9", NEW_RECRUIT_JSON, 13),
    "empire.rosz": (
        "empire", "6d8e-38d9-3c69-febf", "Warhammer Fantasy Battle 6th edition", "9", BATTLESCRIBE_ROSZ, 13),
    "hand-made/40k2-duel.rosz": (
        "Duel", "9ea8-c89d-9104-ed03", "Warhammer 40k 2nd Edition", "25", BATTLESCRIBE_ROSZ, 1),
    "hand-made/40k3-marines-vs-orks.ros": (
        "Marines vs Orks", "96e2-b781-50d7-3d18", "Warhammer 40k 3rd Edition", "12", BATTLESCRIBE_ROS, 5),
    "hand-made/boltaction-germans.json": (
        "Grenadiers", "d373-d979-116c-5487", "Bolt Action 2.0", "10", NEW_RECRUIT_JSON, 4),
    "hand-made/epic-old-layout.rosz": (
        "Assault Wave", "8f10-ee06-8dc1-beb6", "Epic Armageddon", "7", BATTLESCRIBE_ROSZ, 1),
    "hand-made/epic-steel-legion.ros": (
        "Steel Legion", "8f10-ee06-8dc1-beb6", "Epic Armageddon", "38", BATTLESCRIBE_ROS, 2),
}  # fmt: skip


def read(name: str) -> ListFile:
    return read_list_file((rosters_folder() / name).read_bytes())


def find(roster: ListFile, name: str, type_: str | None = None) -> Selection:
    return next(s for s in roster.selections() if s.name == name and type_ in (None, s.type))


def models(selection: Selection) -> list[tuple[str, int]]:
    return [(child.name, child.number) for child in selection.walk() if child.type == "model"]


def test_every_file_is_listed() -> None:
    assert set(HEADERS) == {*REAL, *HAND_MADE}


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_each_file_reads_its_game_system_and_its_units(name: str) -> None:
    roster = read(name)
    list_name, system_id, system_name, revision, source, top_units = HEADERS[name]
    assert (roster.name, roster.game_system_id, roster.game_system_name) == (list_name, system_id, system_name)
    assert (roster.game_system_revision, roster.source_format) == (revision, source)
    on_top = [s for force in roster.forces for s in force.selections if s.type in {"unit", "model"}]
    assert len(on_top) == top_units


def test_the_new_layout_reads_units_models_and_profiles_as_written() -> None:
    squad = find(read("Berserker Assault.rosz"), "Assault Squad, Legion (Compulsory)")
    assert models(squad) == [("Assault Sergeant, Legion", 1), ("Assault Space Marines, Legion", 9)]
    sergeant = find(read("Berserker Assault.rosz"), "Assault Sergeant, Legion").profiles[0]
    assert (sergeant.name, sergeant.type_name) == ("Legion Assault Sergeant", "Unit")
    assert sergeant.characteristics == (
        ("Unit Type", "Jump Infantry (Character)"), ("WS", "4"), ("BS", "4"), ("S", "4"), ("T", "4"), ("W", "1"),
        ("I", "4"), ("A", "2"), ("LD", "9"), ("Save", "3+"),
    )  # fmt: skip
    assert models(find(read("HH_Test.ros"), "Thallax Cohort")) == [("Thallax", 3)]
    assert read("HH_Test.ros").forces[0].name == "Crusade"  # written " Crusade"
    qin_xa = find(read("Chogorian Brotherhood - Outflank  Hit and Run.rosz"), "Qin Xa", "unit")
    assert qin_xa.profiles[0].value("A") == "5" and qin_xa.profiles[0].value("Save") == "2+"


def test_new_recruit_xml_keeps_an_empty_characteristic_and_a_nested_transport() -> None:
    roster = read("Dedicated Transport Squad Costs.ros")
    assert roster.generated_by == "https://newrecruit.eu"
    squad = find(roster, "Tactical Support Squad")
    assert [child.name for child in squad.selections if child.type == "unit"] == ["Rhino Transport"]
    assert models(squad) == [("Legion Tactical Support Sergeant", 1), ("Legionaries (collective)", 4)]
    legionary = find(roster, "Legionaries (collective)").profiles[0]
    assert legionary.value("T") == "" and legionary.value("Move") == "7" and legionary.value("Ld") == "7"
    rhino = find(roster, "Rhino Transport").profiles[0]
    assert (rhino.type_name, rhino.value("Front"), rhino.value("Transport Capacity")) == ("Vehicle", "11", "12")


def test_a_type_name_written_with_a_leading_space_is_read_stripped() -> None:
    roster = read("OgrynChainaxeFix.rosz")
    brute = find(roster, "IM - Ogryn Brute Squad")
    assert models(brute) == [("1) Ogryn Brute", 4), ("2) Ogryn Boss", 1)]
    profile = next(p for s in brute.walk() for p in s.profiles if p.name == "Ogryn Brute (Carapace Armour)")
    assert profile.type_name == "Unit"  # the file says " Unit"
    assert (profile.value("Move"), profile.value("S"), profile.value("A")) == ("7", "5", "4")
    type_names = {p.type_name for s in roster.selections() for p in s.profiles}
    assert {"Unit", "Vehicle"} <= type_names and not any(name.startswith(" ") for name in type_names)


def test_the_old_layout_reads_units_under_categories_and_value_attributes() -> None:
    roster = read("Necron 1845.rosz")
    assert roster.battlescribe_version == "1.15"
    assert models(find(roster, "Lychguards")) == [("Lychguard", 10)]
    lychguard = next(p for s in find(roster, "Lychguards").walk() for p in s.profiles if p.name == "Lychguard")
    assert lychguard.type_name == "Unit" and lychguard.value("WS") == "4" and lychguard.value("Save") == "3+"
    epic = read("hand-made/epic-old-layout.rosz")
    assault = find(epic, "Assault", "unit")
    assert assault.categories == ("Formations",) and assault.costs[0].value == "175.0"
    assert [(s.name, s.type, s.number) for s in assault.selections] == [
        ("Assault Squad", "unit", 4), ("Vindicator", "model", 2)]  # fmt: skip
    vindicator = find(epic, "Vindicator").profiles[0]
    assert vindicator.value("Unit Notes") == ""  # the file writes no value= at all
    assert vindicator.value("Notes") == "Ignore Cover" and vindicator.value("Firepower") == "AP3+/AT4+"


def test_new_recruit_json_reads_text_values_and_json_numbers_like_its_rosz() -> None:
    from_json, from_rosz = read("empire.json"), read("empire.rosz")
    assert from_json.forces == from_rosz.forces
    assert from_json.battlescribe_version == "2.03"  # a JSON number in the file
    count = find(from_json, "Elector Count").profiles[0]
    assert (count.type_name, count.characteristics[:3]) == ("Profile", (("Mv", "4"), ("WS", "5"), ("BS", "5")))
    germans = read("hand-made/boltaction-germans.json")
    veterans = find(germans, "Heer Veteran Grenadier Squad")
    assert models(veterans)[0] == ("Veteran NCO", 1)
    quality = next(p for s in veterans.walk() for p in s.profiles if p.type_name == "Unit Quality")
    assert (quality.name, quality.characteristics) == ("Veteran", (("Morale", "10"),))
    assert find(germans, "Theatre Selector").type == "unit"


def test_the_hand_made_lists_read_their_counts_and_joined_cells() -> None:
    orks = read("hand-made/40k3-marines-vs-orks.ros")
    assert [force.catalogue_name for force in orks.forces] == ["Space Marines (1999)", "Orks (1999)"]
    assert models(find(orks, "Space Marine Tactical Squad")) == [
        ("Veteran Space Marine Sergeant", 1),
        ("Space Marine", 9),
    ]
    assert find(orks, "Librarian").profiles[0].value("Sv") == "3+"
    legion = read("hand-made/epic-steel-legion.ros")
    company = find(legion, "Mechanised Infantry Company")
    assert models(company) == [("7x Chimera", 1), ("3x Leman Russ", 1)]
    infantry = find(legion, "Infantry Squad")
    assert infantry.number == 12 and infantry.profiles[0].value("Armour") == "-"
    assert infantry.profiles[0].value("Weapons") == "Lasguns<BR><BR>Autocannon"
    duel = read("hand-made/40k2-duel.rosz")
    captain = find(duel, "Space Marine Captain")
    assert captain.profiles[0].characteristics[:3] == (("Unit Type", "Captain"), ("M", "4"), ("WS", "7"))
    armour = [p for s in captain.walk() for p in s.profiles if p.type_name == "Armour"]
    assert armour and armour[0].name == "Power Armour"


@pytest.mark.parametrize("name", HAND_MADE)
def test_the_hand_made_lists_hold_the_stats_their_expected_json_names(name: str) -> None:
    """expected.json (written beside the hand-made files, checked there by verify.py) names, for every group of
    every unit, the profile and the raw characteristics it comes from: the tree holds each of them exactly."""
    expected = json.loads((rosters_folder() / "hand-made" / "expected.json").read_text(encoding="utf-8"))
    roster = read(name)
    profiles = [p for s in roster.selections() for p in s.profiles]
    groups = [group for unit in expected["files"][name.removeprefix("hand-made/")]["units"] for group in unit["groups"]]
    assert groups
    for group in groups:
        stats = {key: value for key, value in group["stats"].items() if key != "Saving Throw"}  # the Armour profile's
        found = [p for p in profiles if p.name == group["profile"] and all(p.value(k) == v for k, v in stats.items())]
        assert found, (group["profile"], stats)
        if "Saving Throw" in group["stats"]:
            armour = [p.value("Saving Throw") for p in profiles if p.type_name == "Armour"]
            assert group["stats"]["Saving Throw"] in armour
