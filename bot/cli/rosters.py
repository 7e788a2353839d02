"""Saved rosters from the terminal: ``referee roster save|show|list|delete|import|export``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.cli.roster_lists import import_list_path, is_list_file
from bot.cli.wrapping import print_wrapped
from bot.recording import with_store
from bot.rosters import (
    MAX_ROSTER_FILE_BYTES,
    RosterError,
    check_roster,
    dump_roster_file,
    parse_roster_file,
    shipped_rosters,
)
from bot.storage import LOCAL_USER, Store
from bot.storage.rosters import RosterExists, RosterInput, RosterNotFound, SavedRoster
from rules_core import get_game
from rules_core.spec import split_units


@click.group("roster")
def roster_group() -> None:
    """Saved rosters: named units for one game, used anywhere a spec goes as @name or @name/unit."""


@roster_group.command("save")
@click.argument("name")
@click.option("--game", required=True, help="The game the units are for (id or alias).")
@click.option("--spec", required=True, help="The units, exactly as after --attacker.")
@click.option("--description", default="", help="A line saying what the roster is.")
def roster_save(name: str, game: str, spec: str, description: str) -> None:
    """Save a roster (checked by the game's parser first); saving a name again replaces it."""
    roster = check_roster(game, name, spec, description)
    saved = with_store(lambda store: store.rosters.save(LOCAL_USER, roster))
    click.echo(f"Saved the {saved.game} roster '{saved.name}'. Use it as @{saved.name} (or @{saved.name}/1 for its "
               "first unit).")  # fmt: skip


@roster_group.command("show")
@click.argument("name")
@click.option("--game", default=None, help="The game the roster is for (needed only when rosters of several games "
              "have that name).")  # fmt: skip
def roster_show(name: str, game: str | None) -> None:
    """Print a roster's units."""
    if game is not None:
        roster = with_store(lambda store: store.rosters.get(LOCAL_USER, get_game(game).id, name))
    else:
        roster = only_roster_named(name)
    click.echo(f"{roster.name} ({roster.game}){': ' + roster.description if roster.description else ''}")
    for number, unit in enumerate(split_units(roster.spec), start=1):
        click.echo(f"  {number}. {unit.strip()}")


@roster_group.command("list")
@click.option("--game", default=None, help="Only this game's rosters.")
def roster_list(game: str | None) -> None:
    """Your saved rosters."""
    game_id = get_game(game).id if game else None
    rosters = with_store(lambda store: store.rosters.visible_to(LOCAL_USER, game=game_id))
    if not rosters:
        click.echo(
            "No saved rosters. 'referee roster import --samples GAME' (or --samples all) imports the samples "
            "'referee samples' shows."
        )
        return
    table = Table("game", "name", "units", "description")
    for roster in rosters:
        table.add_row(roster.game, roster.name, str(len(split_units(roster.spec))), roster.description)
    Console(highlight=False).print(table)


@roster_group.command("delete")
@click.argument("name")
@click.option("--game", required=True, help="The game the roster is for.")
def roster_delete(name: str, game: str) -> None:
    """Delete a saved roster (combat records that used it keep their own copy of the units)."""
    game_id = get_game(game).id
    with_store(lambda store: store.rosters.delete(LOCAL_USER, game_id, name))
    click.echo(f"Deleted the {game_id} roster '{name}'.")


@roster_group.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False), required=False)
@click.option("--samples", "samples_of", default=None, metavar="GAME",
              help="Import the sample rosters shipped for GAME ('all' for every game) instead of a file.")  # fmt: skip
@click.option("--replace", is_flag=True, help="Overwrite rosters of the same name instead of refusing.")
@click.option("--game", default=None, help="An army list only: read it as this game's list (for a list of another "
              "game system with the same stat line, e.g. a later edition).")  # fmt: skip
@click.option("--name", "roster_name", default=None, help="An army list only: the roster's name (default: the "
              "list's name).")  # fmt: skip
@click.option("--dry-run", is_flag=True, help="An army list only: show how it reads, save nothing.")
def roster_import(  # noqa: PLR0917 (click passes every option by name)
    path: str | None, samples_of: str | None, replace: bool, game: str | None, roster_name: str | None, dry_run: bool
) -> None:
    """Import a roster file (schema referee-rosters/1) or a BattleScribe / New Recruit army list (.ros, .rosz,
    .json): every roster in it, or none."""
    if (path is None) == (samples_of is None):
        raise click.UsageError("Give a roster file or an army list, or --samples GAME (or --samples all).")
    if path is not None:
        file = Path(path)
        with file.open("rb") as opened:
            head = opened.read(64)
        if is_list_file(head):
            import_list_path(file, game=game, name=roster_name, dry_run=dry_run, replace=replace)
            return
        if game is not None or roster_name is not None or dry_run:
            raise click.UsageError(f"{file.name} is a roster file: --game, --name and --dry-run are for army "
                                   "lists (.ros, .rosz, New Recruit .json); its rosters say their own game and "
                                   "name.")  # fmt: skip
        if file.stat().st_size > MAX_ROSTER_FILE_BYTES:
            raise RosterError(f"{file.name} is over {MAX_ROSTER_FILE_BYTES // 1024} KiB.", token=file.name)
        rosters = parse_roster_file(file.read_text(encoding="utf-8", errors="replace"), source=file.name)
    else:
        import_samples(str(samples_of), replace=replace)
        return
    try:
        saved = with_store(lambda store: store.rosters.save_many(LOCAL_USER, rosters, replace=replace))
    except RosterExists as error:  # nothing was imported: the file is imported whole or not at all
        raise RosterExists(f"{error.message} Nothing was imported; 'referee roster import {path} --replace' "
                           "overwrites yours with the file's.") from None  # fmt: skip
    say(f"Imported {len(saved)} roster{'s' if len(saved) != 1 else ''}: {named(saved)}.")


def import_samples(game: str, *, replace: bool) -> None:
    """The shipped samples of ``game`` (or 'all') saved as rosters: each that is new, every one with ``replace``;
    a roster of the same name is kept otherwise, and named."""
    samples = shipped_rosters(None if game == "all" else game)

    async def save(store: Store) -> tuple[list[SavedRoster], list[RosterInput]]:
        mine = {(r.game, r.name) for r in await store.rosters.visible_to(LOCAL_USER)}
        kept = [] if replace else [s for s in samples if (s.game, s.name) in mine]
        new = [s for s in samples if s not in kept]
        return await store.rosters.save_many(LOCAL_USER, new, replace=replace), kept

    saved, kept = with_store(save)
    say(f"Imported {len(saved)} roster{'s' if len(saved) != 1 else ''}{': ' + named(saved) if saved else ''}.")
    if kept:
        say(f"Skipped {len(kept)} you already have: {named(kept)} (yours are kept; 'referee roster import --samples "
            f"{game} --replace' overwrites them with the samples).")  # fmt: skip


def say(line: str) -> None:
    """A line that may hold many rosters' names, wrapped at the terminal's width between words."""
    print_wrapped(Console(highlight=False), Text(line))


def named(rosters: Sequence[RosterInput | SavedRoster]) -> str:
    return ", ".join(f"{roster.name} ({roster.game})" for roster in rosters)


def only_roster_named(name: str) -> SavedRoster:
    """The one roster of yours named ``name``, whatever its game; an error naming the games when several are."""
    found = [r for r in with_store(lambda store: store.rosters.visible_to(LOCAL_USER)) if r.name == name]
    if not found:
        raise RosterNotFound(f"You have no roster named '{name}'. 'referee roster list' lists yours.")
    if len(found) > 1:
        games = [r.game for r in found]
        raise RosterNotFound(f"You have rosters named '{name}' for {', '.join(games[:-1])} and {games[-1]}: say "
                             f"which, e.g. 'referee roster show {name} --game {games[0]}'.")  # fmt: skip
    return found[0]


@roster_group.command("export")
@click.option("--game", default=None, help="Only this game's rosters.")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None, help="Write to a file.")
def roster_export(game: str | None, output: str | None) -> None:
    """Write your rosters as a roster file (re-import it with 'referee roster import')."""
    game_id = get_game(game).id if game else None
    rosters = with_store(lambda store: store.rosters.visible_to(LOCAL_USER, game=game_id))
    text = dump_roster_file(rosters)
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"Wrote {len(rosters)} roster{'s' if len(rosters) != 1 else ''} to {output}.")
