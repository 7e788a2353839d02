"""Fuzz: the real list files' bytes flipped, deleted, inserted and cut off (raw, and inside a .rosz's member) give
a tree or a ListFileError, never another exception. Derandomized and without an example database, so CI runs the
same 200 examples every time."""

from __future__ import annotations

import functools
import io
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.list_files import ListFileError, read_list_file
from tests.bot.list_files.generated import rosz
from tests.bot.list_files.shared_rosters import HAND_MADE, REAL, rosters_folder

# Pieces of the formats themselves, so that mutations reach past the first parse error now and then.
TOKENS = (b"<", b">", b"/>", b'"', b"&", b"&amp;", b"]]>", b"<!DOCTYPE r>", b'number="x"', b'number="99999"',
          b"<selection>", b"</selection>", b"{", b"}", b"[", b"]", b",", b":", b'"$text":[]', b'"number":-1',
          b"\x00", b"\xff", b"\xef\xbb\xbf", b"PK\x03\x04")  # fmt: skip


@functools.cache
def originals() -> dict[str, bytes]:
    folder = rosters_folder()
    return {name: (folder / name).read_bytes() for name in (*REAL, *HAND_MADE)}


def unzipped(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(archive.namelist()[0])


# Values put in place of an attribute's (XML) or a key's (JSON): the file stays well-formed and reaches the readers.
XML_VALUES = (b"x", b"", b"-1", b"1.5", b"99999", b" ", b"&lt;", b"\xc3\xa9")
JSON_VALUES = (b'"x"', b"[]", b"{}", b"null", b"-1", b"1e400", b"true", b'"99999"', b"[{}]", b'{"a":[]}')
KEYS = (b"number", b"name", b"type", b"typeName", b"value", b"$text", b"gameSystemName", b"characteristics",
        b"selections", b"profiles", b"forces", b"roster", b"rules", b"costs", b"categories")  # fmt: skip

value_mutation = st.tuples(st.just("value"), st.floats(0, 1), st.tuples(st.integers(0, 9), st.sampled_from(KEYS)))
byte_mutation = st.one_of(
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(0, 255)),
    st.tuples(st.just("delete"), st.floats(0, 1), st.integers(1, 64)),
    st.tuples(
        st.just("insert"), st.floats(0, 1), st.one_of(st.sampled_from(TOKENS), st.binary(min_size=1, max_size=8))
    ),
    st.tuples(st.just("truncate"), st.floats(0, 1), st.none()),
)


def replace_value(buffer: bytearray, at: int, choice: int, key: bytes) -> None:
    """The value of the first ``key`` attribute (XML) or key (JSON) at or after ``at`` (else the first in the file)
    replaced by one of the values above."""
    for marker, values in ((b" " + key + b'="', XML_VALUES), (b'"' + key + b'":', JSON_VALUES)):
        found = buffer.find(marker, at)
        found = buffer.find(marker) if found < 0 else found
        if found < 0:
            continue
        start = found + len(marker)
        if values is XML_VALUES:
            end = buffer.find(b'"', start)
        else:
            ends = [i for i in (buffer.find(b",", start), buffer.find(b"}", start)) if i >= 0]
            end = min(ends, default=len(buffer))
        if end >= 0:
            buffer[start:end] = values[choice % len(values)]
        return


def mutate(data: bytes, mutations: list[tuple[str, float, object]]) -> bytes:
    buffer = bytearray(data)
    for kind, where, what in mutations:
        at = min(int(where * len(buffer)), max(len(buffer) - 1, 0))
        if kind == "flip" and buffer:
            buffer[at] ^= int(what) or 1  # type: ignore[call-overload]
        elif kind == "delete":
            del buffer[at : at + int(what)]  # type: ignore[call-overload]
        elif kind == "insert":
            buffer[at:at] = what  # type: ignore[assignment]
        elif kind == "value":
            replace_value(buffer, at, *what)  # type: ignore[misc]
        elif kind == "truncate":
            del buffer[at:]
    return bytes(buffer)


@settings(max_examples=200, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
@given(
    name=st.sampled_from(sorted((*REAL, *HAND_MADE))),
    inside=st.booleans(),
    mutations=st.tuples(st.lists(value_mutation, max_size=3), st.lists(byte_mutation, max_size=2)).map(
        lambda pair: [*pair[0], *pair[1]]
    ),
)
def test_mutated_real_files_give_a_tree_or_a_list_file_error(
    name: str, inside: bool, mutations: list[tuple[str, float, object]]
) -> None:
    data = originals()[name]
    if not mutations:
        mutations = [("truncate", 0.5, None)]
    if inside and name.endswith(".rosz"):  # mutate the roster itself, then zip it again
        data = rosz((name.removeprefix("hand-made/").removesuffix("z"), mutate(unzipped(data), mutations)))
    else:
        data = mutate(data, mutations)
    message = ""
    try:
        read_list_file(data)
    except ListFileError as error:
        message = str(error)
    assert "\n" not in message
