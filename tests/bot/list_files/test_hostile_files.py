"""Hostile and malformed list files: each gives one ListFileError whose one line names the problem; no entity is
expanded, nothing is fetched or written to disk, and a zip is read under its cap whatever its header says."""

from __future__ import annotations

import json
import re
import struct

import pytest

from bot.list_files import ListFileError, read_list_file
from bot.list_files.errors import MAX_DEPTH, MAX_FILE_BYTES, MAX_MODELS, MAX_SELECTIONS, MAX_UNITS
from tests.bot.list_files.generated import roster, rosz, selection
from tests.bot.list_files.shared_rosters import rosters_folder


def refused(data: bytes) -> str:
    with pytest.raises(ListFileError) as caught:
        read_list_file(data)
    message = str(caught.value)
    assert "\n" not in message and message.strip() == message and len(message) < 240, message
    return message


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE roster [\n<!ENTITY lol "lol">\n'
    + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1 or "") + ";") * 10}">\n' for i in range(1, 10))
    + ']>\n<roster name="&lol9;"/>\n'
).encode()


def test_an_entity_declaration_is_refused_not_expanded() -> None:
    assert "DTD or entities" in refused(BILLION_LAUGHS)


def test_an_external_entity_is_refused_not_fetched() -> None:
    data = b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster name="&x;"/>'
    assert "DTD or entities" in refused(data)
    assert "DTD or entities" in refused(b'<!DOCTYPE roster SYSTEM "http://example.com/x.dtd"><roster/>')


def deflated_zeros(size: int) -> bytes:
    return rosz(("bomb.ros", b"<roster>" + b" " * size + b"</roster>"))


def test_a_zip_whose_member_says_it_is_huge_is_refused() -> None:
    assert refused(deflated_zeros(MAX_FILE_BYTES * 5)) == (
        "This .rosz's roster unpacks to more than 2 MB; the referee reads up to 2 MB."
    )


def lie_about_size(archive: bytes, size: int) -> bytes:
    """The archive with its member's uncompressed size rewritten to ``size`` in both headers."""
    data = bytearray(archive)
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, local + 22, size)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, size)
    return bytes(data)


def test_a_zip_bomb_whose_header_says_small_is_stopped_at_the_header_size() -> None:
    bomb = lie_about_size(deflated_zeros(MAX_FILE_BYTES * 20), 1000)
    assert len(bomb) < MAX_FILE_BYTES // 10  # 40 MB of spaces in a small upload
    assert refused(bomb).startswith("This .rosz is damaged (")


def test_a_zip_holding_two_files_or_none_is_refused() -> None:
    two = rosz(("a.ros", roster("").encode()), ("b.ros", roster("").encode()))
    assert refused(two) == "This .rosz holds 2 files; a BattleScribe roster holds one .ros."
    assert refused(rosz()) == "This .rosz holds 0 files; a BattleScribe roster holds one .ros."
    assert "not a BattleScribe roster (XML)" in refused(rosz(("photo.png", b"\x89PNG\r\n")))


def test_what_is_neither_zip_nor_xml_nor_json_is_named() -> None:
    assert refused(b"\x89PNG\r\n\x1a\n....").startswith("This file is not a BattleScribe roster (.ros or .rosz)")
    assert refused(b"name: my army\nunits: []\n").startswith("This file is not a BattleScribe roster")
    assert (
        refused(b" \n ")
        == "The file is empty; send a BattleScribe roster (.ros or .rosz) or a New Recruit list (.json)."
    )
    assert refused(b" " * (MAX_FILE_BYTES + 1)) == "The file is 2.0 MB; the referee reads lists up to 2 MB."
    assert refused('<roster name="x"/>'.encode("utf-16")) == (
        "This file is saved as UTF-16; the apps write UTF-8: export the list again from the app."
    )
    assert "not a <roster>" in refused(b'<?xml version="1.0"?><catalogue name="Orks"/>')


def test_truncated_xml_names_the_line_and_the_unclosed_element() -> None:
    text = (rosters_folder() / "HH_Test.ros").read_bytes()
    message = refused(text[: len(text) // 2])
    assert re.fullmatch(r"Line \d+: the XML is cut off \(unclosed '\w+'\)\.", message), message
    assert refused(b"<roster><forces>\n<force>\n") == "Line 3: the XML is cut off (unclosed 'force')."
    assert refused(b"<roster><forces></roster>").startswith("Line 1, column 18: the XML is not well-formed (mismatched")


def test_json_of_the_wrong_shape_says_what_a_new_recruit_list_is() -> None:
    shape = 'a New Recruit list is {"roster": {"name": ..., "forces": [...]}}.'
    assert refused(b"[1, 2]") == "The JSON holds no roster; " + shape
    assert refused(b'{"roster": []}') == "The JSON holds no roster; " + shape
    assert refused(b'{"roster": {"forces": {"a": 1}}}').endswith("not a list of objects; " + shape)
    bad_name = {"roster": {"forces": [{"selections": [{"name": ["x"], "number": 1}]}]}}
    assert "not text" in refused(json.dumps(bad_name).encode())
    bad_number = {"roster": {"forces": [{"selections": [{"name": "Boyz", "number": "ten"}]}]}}
    assert refused(json.dumps(bad_number).encode()) == (
        "Selection 'Boyz' has number 'ten': a selection's number is a whole number from 0 to 1000, e.g. 10."
    )
    assert (
        refused(b'{"roster": {"name": "x",}}')
        == "Line 1: the JSON is not well-formed (Expecting property name enclosed in double quotes)."
    )


def nested(depth: int) -> str:
    inner = ""
    for level in range(depth):
        inner = selection(f"Level {level}", inner=f"<selections>{inner}</selections>" if inner else "")
    return inner


def test_over_deep_nesting_is_refused() -> None:
    assert read_list_file(roster(nested(8)).encode()).forces[0].selections[0].name == "Level 7"
    message = refused(roster(nested(MAX_DEPTH)).encode())
    assert message.startswith(f"The XML nests elements more than {MAX_DEPTH} deep")
    assert "nests arrays and objects too deep to read" in refused(b"[" * 100_000)
    deep: dict[str, object] = {"name": "Bottom", "number": 1}
    for _ in range(MAX_DEPTH):
        deep = {"name": "Wrapper", "number": 1, "selections": [deep]}
    document = {"roster": {"forces": [{"selections": [deep]}]}}
    assert refused(json.dumps(document).encode()).startswith("The list nests selections more than 32 deep")


def test_too_many_selections_units_or_models_are_refused() -> None:
    many = roster(selection("Option") * (MAX_SELECTIONS + 1)).encode()
    assert len(many) < MAX_FILE_BYTES
    assert refused(many) == "The list holds more than 10,000 selections; the referee reads up to 10,000."
    units = roster(selection("Squad", "unit") * (MAX_UNITS + 1)).encode()
    assert refused(units) == "The list holds more than 1,000 units; the referee reads up to 1,000."
    horde = roster(selection("Boy", "model", 1000) * (MAX_MODELS // 1000 + 1)).encode()
    assert refused(horde) == "The list holds more than 10,000 models; the referee reads up to 10,000."
    assert "has number '5000'" in refused(roster(selection("Boy", "model", 5000)).encode())
    assert read_list_file(roster(selection("Boy", "model", 1000) * 10).encode()).forces[0].selections[9].number == 1000


def test_a_rosz_member_that_is_not_deflate_data_is_damaged() -> None:
    archive = bytearray(rosz(("list.ros", roster(selection("Squad", "unit")).encode())))
    start = archive.index(b"PK\x03\x04") + 30 + len(b"list.ros")
    archive[start : start + 8] = b"\xff" * 8
    assert refused(bytes(archive)).startswith("This .rosz is damaged (")
