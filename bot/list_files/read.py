"""An army list file's bytes to its neutral tree: the format found from the content (a zip's magic bytes, else the
first character that is not a space), never from the file's name alone."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

from bot.list_files.errors import MAX_FILE_BYTES, ListFileError, shown
from bot.list_files.json_reader import read_json
from bot.list_files.tree import BATTLESCRIBE_ROS, BATTLESCRIBE_ROSZ, ListFile
from bot.list_files.xml_reader import read_xml

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a member first, or an empty archive
_BOM = b"\xef\xbb\xbf"
_SIZE = f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
_WHAT = "a BattleScribe roster (.ros or .rosz) or a New Recruit list (.json)"


def _body(data: bytes) -> bytes:
    return data.removeprefix(_BOM).lstrip()


def _member(data: bytes) -> bytes:
    """The single member of a .rosz, read into memory under MAX_FILE_BYTES as it inflates (its header may lie)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) != 1:
                raise ListFileError(f"This .rosz holds {len(members)} files; a BattleScribe roster holds one .ros.")
            (member,) = members
            if member.file_size > MAX_FILE_BYTES:
                raise ListFileError(
                    f"This .rosz's roster unpacks to more than {_SIZE}; the referee reads up to {_SIZE}."
                )
            with archive.open(member) as stream:
                content = stream.read(MAX_FILE_BYTES + 1)
    except ListFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError,
            struct.error, IndexError, KeyError, OverflowError) as error:  # fmt: skip
        raise ListFileError(f"This .rosz is damaged ({shown(error)}); export it again from the app.") from None
    if len(content) > MAX_FILE_BYTES:
        raise ListFileError(f"This .rosz's roster unpacks to more than {_SIZE}; the referee reads up to {_SIZE}.")
    if not _body(content).startswith(b"<"):
        raise ListFileError(f"This .rosz holds {shown(member.filename)}, which is not a BattleScribe roster (XML).")
    return content


def read_list_file(data: bytes) -> ListFile:
    """The list in ``data`` (a whole .ros, .rosz or New Recruit .json file), or ListFileError saying in one line
    what is wrong with it."""
    if len(data) > MAX_FILE_BYTES:
        raise ListFileError(f"The file is {len(data) / 1024 / 1024:.1f} MB; the referee reads lists up to {_SIZE}.")
    if data.startswith(_ZIP_MAGIC):
        return read_xml(_member(data), BATTLESCRIBE_ROSZ)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ListFileError("This file is saved as UTF-16; the apps write UTF-8: export the list again from the app.")
    body = _body(data)
    if body.startswith(b"<"):
        return read_xml(data, BATTLESCRIBE_ROS)
    if body.startswith((b"{", b"[")):
        return read_json(data.removeprefix(_BOM))
    if not body:
        raise ListFileError(f"The file is empty; send {_WHAT}.")
    raise ListFileError(f"This file is not {_WHAT}: it starts with {shown(body[:12].decode('utf-8', 'replace'))}.")
