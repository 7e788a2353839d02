"""``referee roster import LIST.rosz``: a BattleScribe / New Recruit army list saved as one roster (issue 35).

The list is read (bot.list_files), its units written for their game (bot.list_import), every unit shown with its
spec as read, what was ignored and what needs the player, then saved as one roster named after the list, whole or
not at all (``--dry-run`` only shows).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.cli.wrapping import print_wrapped
from bot.list_files import ListFileError, read_list_file
from bot.list_files.errors import MAX_FILE_BYTES
from bot.list_import import ImportedList, ImportedUnit, import_list, slug
from bot.recording import with_store
from bot.rosters import RosterError, check_roster
from bot.storage import LOCAL_USER
from bot.storage.rosters import RosterExists

_ZIP = b"PK\x03\x04"
_BOM = b"\xef\xbb\xbf"


def is_list_file(head: bytes) -> bool:
    """Whether a file's first bytes are an army list's (a zip, XML, JSON or UTF-16 text) rather than a YAML roster
    file: told apart by content, never by the file's name."""
    body = head.removeprefix(_BOM).lstrip()
    return head.startswith((_ZIP, b"\xff\xfe", b"\xfe\xff")) or body.startswith((b"<", b"{", b"["))


def import_list_path(path: Path, *, game: str | None, name: str | None, dry_run: bool, replace: bool) -> None:
    """Read, show and (unless ``dry_run``) save the list at ``path`` as one roster."""
    with path.open("rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)  # past the bound is enough to refuse it, whatever the file's size
    try:
        imported = import_list(read_list_file(data), game)
    except ListFileError as error:
        raise RosterError(f"{path.name}: {error}", token=path.name) from None
    roster_name = name if name is not None else slug(imported.name or path.stem)
    show(imported, roster_name, path.name)
    written = imported.written()
    if not written:
        raise RosterError(f"{path.name}: no unit of the list can be fought as it is (see above), so nothing was "
                          "saved. Write the units by hand with 'referee roster save'.", token=path.name)  # fmt: skip
    description = f"Imported from {imported.name or path.name} ({imported.system})"
    spec = " | ".join(unit.spec for unit in written if unit.spec is not None)
    roster = check_roster(imported.game, roster_name, spec, description, [unit.slug for unit in written])
    if dry_run:
        say(f"Dry run: nothing was saved. Without --dry-run this saves the {imported.game} roster '{roster_name}' "
            f"with {len(written)} unit{'s' if len(written) != 1 else ''}.")  # fmt: skip
        return
    try:
        with_store(lambda store: store.rosters.save_many(LOCAL_USER, [roster], replace=replace))
    except RosterExists as error:
        raise RosterExists(f"{error.message} Nothing was imported; 'referee roster import {path} --replace' "
                           f"overwrites it, or --name another-name saves the list beside it.") from None  # fmt: skip
    first = written[0]
    say(f"Saved the {imported.game} roster '{roster_name}' with {len(written)} unit{'s' if len(written) != 1 else ''}"
        f". Use a unit as @{roster_name}/{first.slug} (or @{roster_name}/1), e.g. 'referee assault "
        f"{imported.game} --attacker @{roster_name}/{first.slug} ...'.")  # fmt: skip


def show(imported: ImportedList, roster_name: str, file_name: str) -> None:
    say(f"{file_name}: '{imported.name}', a list for {imported.system}, read as {imported.game} (roster "
        f"'{roster_name}').")  # fmt: skip
    if imported.warning:
        say(f"Warning: {imported.warning}")
    position = 0
    for unit in imported.units:
        if unit.spec is not None:
            position += 1
        show_unit(unit, position if unit.spec is not None else None)


def show_unit(unit: ImportedUnit, position: int | None) -> None:
    if unit.left_out:
        say(f"  left out: {unit.name} - {unit.left_out}")
        return
    head = f"  {position}. {unit.slug}" if position is not None else f"  not saved: {unit.slug}"
    if unit.spec is None:
        say(f"{head} ({unit.models} model{'s' if unit.models != 1 else ''}): (cannot be written: see needs you)")
    else:
        say(f"{head} ({unit.models} model{'s' if unit.models != 1 else ''}):")
        # The spec on a line of its own, never wrapped: a player copies it whole (as `referee samples` prints them).
        Console(highlight=False).print(Text(f"    {unit.spec}", style="cyan"), soft_wrap=True)
    for note in unit.needs:
        say(f"      needs you: {note}")
    ignored = dict.fromkeys(f"{note.item} ({note.why})" for note in unit.ignored)  # once each, in the list's order
    if ignored:
        say("      ignored: " + "; ".join(ignored))


def say(line: str) -> None:
    print_wrapped(Console(highlight=False), Text(line))
