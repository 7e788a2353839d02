"""The offline `referee` command: resolve procedures in the terminal, print their JSON, explain the games.

Game commands and their flags are generated from each game's declared options
(rules_core.registry), so a new game appears here without changes to this file.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from bot.cli_leagues import league_group
from bot.continuing import POSITIONS_HELP, next_round
from bot.data import data_root, game_with_data, load_samples
from bot.leagues.errors import LeagueError, LeagueNotFound, MatchNotFound
from bot.recording import record_report, with_store
from bot.render.terminal import print_report
from bot.rosters import (
    MAX_ROSTER_FILE_BYTES,
    RosterError,
    check_roster,
    dump_roster_file,
    expand_all,
    has_references,
    parse_roster_file,
)
from bot.storage import LOCAL_USER, StorageError
from bot.storage.db import create_engine, database_url, head_revision, is_sqlite, upgrade
from bot.storage.records import RecordNotFound
from bot.storage.rosters import RosterExists, RosterNotFound
from bot.verification import Verdict, verify
from rules_core import ENGINE_VERSION, RefereeError, all_games, get_game, resolve
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game, games_named, names_of
from rules_core.report import Report

EXIT_BAD_INPUT = 2
EXIT_STORAGE = 3  # the database cannot be used as configured


def example_command(game: Game) -> str:
    words = [
        "referee",
        *command_path(game),
        "--attacker",
        game.example_attacker,
        "--defender",
        game.example_defender,
    ]
    for name, value in game.example_options.items():
        words += ["--" + name.replace("_", "-"), str(value)]
    return shlex.join(words)


def command_path(game: Game) -> list[str]:
    return [game.command, game.id] if game.command == "assault" else [game.command]


def _option_param(spec: OptionSpec) -> click.Option:
    text = spec.help
    if spec.type is OptionType.BOOL:
        if spec.default:
            negative = "--no-" + spec.flag[2:]
            return click.Option([f"{spec.flag}/{negative}", spec.name], default=True, help=text + " [default: on]")
        return click.Option([spec.flag, spec.name], is_flag=True, default=False, help=text)
    if spec.type is OptionType.CHOICE:
        text += f" [{' | '.join(spec.choices)}; default: {spec.default}]"
    elif spec.default is not None:
        text += f" [{spec.describe_range()}; default: {spec.default}]"
    else:
        text += f" [{spec.describe_range()}]"
    # Values reach rules_core as typed text so that its one-line errors (with an example) apply.
    return click.Option([spec.flag, spec.name], default=None, metavar=spec.type.value.upper(), help=text)


def _opponent(name: str | None) -> str | None:
    text = None if name is None else " ".join(name.split())[:100]
    return text or None


def _show_and_record(
    report: Report, as_json: bool, *, continues: int | None = None, opponent: str | None = None
) -> None:
    if as_json:
        click.echo(report.to_json())
    else:
        print_report(report, Console(highlight=False))
    # Shown first, stored second: a failed write never takes the result away.
    recorded = record_report(report, continues=continues, opponent=opponent)
    if recorded.record_id is None:
        click.echo(f"warning: not recorded ({recorded.problem}); the result above stands.", err=True)
        return
    number = recorded.record_id
    click.echo(f"Recorded as #{number}: 'referee replay {number}' shows it again, 'referee verify {number}' re-runs "
               "it from its seed.", err=True)  # fmt: skip
    if any(ev.kind == "continues" for step in report.steps for ev in step.events):
        click.echo(f"The combat goes on: 'referee assault continue {number}' fights the next round.", err=True)


def _game_command(game: Game) -> click.Command:
    def run(attacker: str, defender: str, seed: str | None, as_json: bool, opponent: str | None, **raw: Any) -> None:
        options = {name: value for name, value in raw.items() if value is not None}
        attacker, defender, options = _expand_references(game, attacker, defender, options)
        report = resolve(game_with_data(game), attacker, defender, seed=_seed(seed), **options)
        _show_and_record(report, as_json, opponent=_opponent(opponent))

    params: list[click.Parameter] = [
        click.Option(
            ["--attacker"],
            required=True,
            metavar="SPEC",
            help=f"The attacking side's units (see 'referee help {game.id}').",
        ),
        click.Option(["--defender"], required=True, metavar="SPEC", help="The defending side's units."),
        *(_option_param(spec) for spec in game.options),
        click.Option(["--seed"], default=None, metavar="N", help="Replay with this seed (default: a fresh one)."),
        click.Option(["--json", "as_json"], is_flag=True, default=False, help="Print the report as JSON."),
        click.Option(["--opponent"], default=None, metavar="NAME", help="Who you played, kept on the record."),
    ]
    return click.Command(
        game.id,
        callback=run,
        params=params,
        help=f"{game.title}. {game.summary}",
        epilog=f"Example: {example_command(game)}",
        short_help=game.title,
    )


def _expand_references(
    game: Game, attacker: str, defender: str, options: dict[str, Any]
) -> tuple[str, str, dict[str, Any]]:
    """Replace @roster references (in the sides and in text options such as supporting formations) by their units."""
    if not has_references(game, attacker, defender, options):
        return attacker, defender, options

    async def work(store: Any) -> tuple[str, str, dict[str, Any]]:
        async def lookup(game_id: str, name: str) -> Any:
            return await store.rosters.get(LOCAL_USER, game_id, name)

        return await expand_all(game, attacker, defender, options, lookup)

    result: tuple[str, str, dict[str, Any]] = with_store(work)
    return result


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise RefereeError(
            f"The seed must be a whole number, not {text!r}.", token=text, example="--seed 12345"
        ) from None


class GameGroup(click.Group):
    """A group whose commands include games: any name of a game (its id, an alias, its command path such as
    ``closequarters`` or ``assault 40k``) finds that game's command here, or the command it is fought with."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        found = games_named(cmd_name)
        if len(found) > 1:
            get_game(cmd_name)  # raises: the name is a command several games share (assault): name one
        return self.game_command(found[0]) if found else None

    def game_command(self, game: Game) -> click.Command | None:
        return self.commands.get(game.id) or fight_command(game)


def fight_command(game: Game) -> click.Command | None:
    """The command a game is fought with: ``referee closequarters``, ``referee assault 40k``..."""
    return assault.commands.get(game.id) if game.command == "assault" else cli.commands.get(game.command)


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ENGINE_VERSION, prog_name="referee")
def cli() -> None:
    """A dice referee for tabletop wargames: close combat resolved with real, auditable dice."""


@cli.group(cls=GameGroup)
def assault() -> None:
    """Resolve an assault (40K, and the formation games as they arrive)."""


def _register_game_commands() -> None:
    for game in all_games():
        command = _game_command(game)
        if game.command == "assault":
            assault.add_command(command)
        else:
            command.name = game.command
            cli.add_command(command)


@cli.command("games")
def games_command() -> None:
    """List the games the referee knows."""
    table = Table("game", "aliases", "command", "what it resolves")
    for game in all_games():
        table.add_row(game.id, ", ".join(game.aliases), "referee " + " ".join(command_path(game)), game.title)
    Console().print(table)


@cli.command("help")
@click.argument("game", required=False)
def help_command(game: str | None) -> None:
    """Every spec token and option of GAME, with examples (no GAME: the list of games)."""
    console = Console(highlight=False)
    if game is None:
        console.print("Games (referee help GAME for its tokens and options):")
        for known in all_games():
            console.print(f"  {known.id:<12} referee {' '.join(command_path(known)):<22} {known.title}")
        return
    shared = games_named(game)
    if len(shared) > 1:  # a command several games share (assault): each of them, by its own command
        console.print(f"'{game}' is the command of {len(shared)} games (referee help GAME for one of them):")
        for known in shared:
            console.print(f"  {known.id:<12} referee {' '.join(command_path(known)):<22} {known.title}")
        return
    chosen = game_with_data(get_game(game))
    also = ", ".join(name for name in names_of(chosen) if name != chosen.id)  # aliases, then its command
    console.print(f"[bold]{chosen.title}[/bold] ({chosen.id}; also: {also})")
    console.print(chosen.summary)
    console.print(f"\n[bold]Spec shape[/bold]: {chosen.spec_shape}", soft_wrap=True)
    console.print("\n[bold]Tokens[/bold]")
    for token in chosen.tokens:
        console.print(f"  [cyan]{token.token}[/cyan] ({token.kind}): {token.help}", soft_wrap=True)
        if token.example:
            console.print(f"      e.g. {token.example}", soft_wrap=True)
    console.print("\n[bold]Options[/bold]")
    for spec in chosen.options:
        flag = spec.flag
        if spec.type is OptionType.BOOL and spec.default:
            flag += f" / --no-{spec.flag[2:]}"  # an option that is on by default is turned off with --no-...
        if spec.type is OptionType.BOOL:
            shown = "a flag, on by default" if spec.default else "a flag, off by default"
        elif spec.default is None:
            shown = f"{spec.describe_range()}; not given by default"
        else:
            shown = f"{spec.describe_range()}; default {spec.default}"
        console.print(f"  [cyan]{flag}[/cyan] ({shown}): {spec.help}", soft_wrap=True)
    console.print("  [cyan]--seed N[/cyan]: replay a resolution exactly (default: a fresh seed).", soft_wrap=True)
    console.print("  [cyan]--json[/cyan]: print the report as JSON.", soft_wrap=True)
    console.print(f"\n[bold]Example[/bold]\n  {example_command(chosen)}", soft_wrap=True)
    console.print(f"\nEvery rule decision is written down in {chosen.docs_page}.")


@cli.command("samples")
@click.argument("game", required=False)
def samples_command(game: str | None) -> None:
    """Sample units shipped with the referee, ready to paste after --attacker or --defender."""
    wanted = {known.id for known in games_named(game) or (get_game(game),)} if game else None
    console = Console(highlight=False)
    for sample_file in load_samples():
        if wanted and get_game(sample_file.game).id not in wanted:
            continue
        console.print(f"[bold]{sample_file.game}[/bold]")
        for sample in sample_file.samples:
            console.print(f"  {sample.key}: {sample.description}\n    [cyan]{sample.spec}[/cyan]")


@assault.command("continue")
@click.argument("record_id", type=int)
@click.option("--seed", default=None, metavar="N", help="Replay with this seed (default: a fresh one).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--attacker-positions", default=None, metavar="TEXT", help=POSITIONS_HELP)
@click.option("--defender-positions", default=None, metavar="TEXT", help=POSITIONS_HELP)
def assault_continue(
    record_id: int, seed: str | None, as_json: bool, attacker_positions: str | None, defender_positions: str | None
) -> None:
    """Fight the next round of a 40K combat that was drawn or whose loser held (the survivors, no charge bonus).

    Each unit keeps last round's models in base contact and within 2" (capped by the models left) unless you
    give its positions, e.g. --attacker-positions "Ork Boy=6:4 | Nob=1".
    """

    async def load(store: Any) -> tuple[Any, int | None]:
        return await store.records.get(record_id), await store.records.continued_by(record_id)

    stored, continued = with_store(load)
    attacker, defender, options, positions = next_round(
        stored, continued, attacker_positions=attacker_positions, defender_positions=defender_positions
    )
    next_report = resolve(game_with_data(stored.report.game), attacker, defender, seed=_seed(seed), **options)
    click.echo(positions, err=True)
    _show_and_record(next_report, as_json, continues=record_id)


def _discord(work: str) -> Any:
    """Run ``bot.discord_app.<work>(settings)``. discord.py is imported only here: the offline commands start fast."""
    import discord  # noqa: PLC0415

    from bot import discord_app  # noqa: PLC0415
    from bot.settings import TOKEN_HELP, SettingsError, load_settings  # noqa: PLC0415

    try:
        settings = load_settings()
    except SettingsError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    discord_app.configure_logging(settings.log_level)
    try:
        return asyncio.run(getattr(discord_app, work)(settings))
    except discord.LoginFailure:
        click.echo(f"error: Discord rejected DISCORD_TOKEN (it is wrong, or was reset). {TOKEN_HELP}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return None


@cli.command("bot")
def bot_command() -> None:
    """Run the Discord bot (settings from the environment or .env: DISCORD_TOKEN, DATABASE_URL, DEV_GUILD_ID...)."""
    _discord("run_bot")


@cli.command("sync")
def sync_command() -> None:
    """Sync the slash commands globally, once, from one process (they can take up to an hour to appear)."""
    count = _discord("sync_commands")
    click.echo(f"Synced {count} global commands.")


@cli.group("db")
def db_group() -> None:
    """The database of combat records and rosters (SQLite file by default, DATABASE_URL for PostgreSQL)."""


@db_group.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the database to the latest schema (run once per upgrade, from one process)."""
    url = database_url()

    async def run() -> None:
        engine = create_engine(url)
        try:
            await upgrade(engine)
        finally:
            await engine.dispose()

    asyncio.run(run())
    where = "the SQLite file " + url.split("///", 1)[-1] if is_sqlite(url) else "PostgreSQL"
    click.echo(f"The database ({where}) is at the latest schema ({head_revision()}).")


@cli.command("history")
@click.option("--game", default=None, help="Only this game (id or alias).")
@click.option("--user", "requested_by", default=None, help="Only records requested by this user id ('local' offline).")
@click.option("--guild", default=None, help="Only records of this Discord guild id.")
@click.option("--before", type=int, default=None, help="Page back: records older than this id.")
@click.option("--limit", type=click.IntRange(1, 200), default=20, show_default=True)
@click.option("--hide-voided", is_flag=True, help="Leave voided records out.")
def history_command(  # noqa: PLR0917 (click passes every option positionally by name)
    game: str | None, requested_by: str | None, guild: str | None, before: int | None, limit: int, hide_voided: bool
) -> None:
    """Recent combat records, newest first."""
    game_id = get_game(game).id if game else None
    rows = with_store(
        lambda store: store.records.history(
            game=game_id,
            requested_by=requested_by,
            guild_id=guild,
            before_id=before,
            limit=limit,
            include_voided=not hide_voided,
        )
    )
    if not rows:
        click.echo("No combat records match.")
        return
    table = Table("#", "when (UTC)", "game", "attacker v defender", "outcome", "winner", "by")
    for row in rows:
        outcome = row.outcome + (" [VOID]" if row.voided else "")
        when = row.created_at.strftime("%Y-%m-%d %H:%M")
        table.add_row(str(row.id), when, row.game, f"{row.attacker} v {row.defender}", outcome, row.winner,
                      row.requested_by)  # fmt: skip
    Console(highlight=False).print(table)


def _load(record_id: int) -> Any:
    return with_store(lambda store: store.records.get(record_id))


@cli.command("replay")
@click.argument("record_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the stored report as JSON.")
def replay_command(record_id: int, as_json: bool) -> None:
    """Show a stored combat again, exactly as it was resolved."""
    stored = _load(record_id)
    if as_json:
        click.echo(stored.report.to_json())
        return
    console = Console(highlight=False)
    print_report(stored.report, console)
    console.print(f"Record #{stored.id}, {stored.created_at:%Y-%m-%d %H:%M} UTC, requested by {stored.requested_by}.")
    for note in stored.history:
        label = "VOIDED" if note.kind == "void" else "Note"
        console.print(f"{label} by {note.actor} at {note.at:%Y-%m-%d %H:%M} UTC: {note.reason}", soft_wrap=True)


@cli.command("verify")
@click.argument("record_id", type=int)
def verify_command(record_id: int) -> None:
    """Re-run a stored combat from its seed and inputs and check it gives the very same report."""
    verification = verify(_load(record_id))
    click.echo(verification.message)
    if verification.verdict is not Verdict.IDENTICAL:
        sys.exit(1)


def _note(record_id: int, kind: str, reason: str) -> None:
    text = " ".join(reason.split())
    if not text:
        raise click.UsageError("Give a reason: what was wrong, or what the note says.")
    with_store(lambda store: store.records.add_note(record_id, kind, actor=LOCAL_USER, reason=text[:1000]))


@cli.command("void")
@click.argument("record_id", type=int)
@click.option("--reason", required=True, help="Why the combat does not count (kept in its history).")
def void_command(record_id: int, reason: str) -> None:
    """Void a mistaken combat: it stays on record, marked void, with who, when and why."""
    _note(record_id, "void", reason)
    click.echo(f"Record #{record_id} is void. 'referee replay {record_id}' shows it with its history.")


@cli.command("annotate")
@click.argument("record_id", type=int)
@click.option("--note", "text", required=True, help="The note to add to the record's history.")
def annotate_command(record_id: int, text: str) -> None:
    """Add a note to a combat record (the record itself never changes)."""
    _note(record_id, "note", text)
    click.echo(f"Note added to record #{record_id}.")


@cli.group("roster")
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
@click.option("--game", required=True, help="The game the roster is for.")
def roster_show(name: str, game: str) -> None:
    """Print a roster's units."""
    roster = with_store(lambda store: store.rosters.get(LOCAL_USER, get_game(game).id, name))
    click.echo(f"{roster.name} ({roster.game}){': ' + roster.description if roster.description else ''}")
    for number, unit in enumerate(roster.spec.split("|"), start=1):
        click.echo(f"  {number}. {unit.strip()}")


@roster_group.command("list")
@click.option("--game", default=None, help="Only this game's rosters.")
def roster_list(game: str | None) -> None:
    """Your saved rosters."""
    game_id = get_game(game).id if game else None
    rosters = with_store(lambda store: store.rosters.visible_to(LOCAL_USER, game=game_id))
    if not rosters:
        click.echo("No saved rosters. 'referee roster import' loads the samples in data/rosters/.")
        return
    table = Table("game", "name", "units", "description")
    for roster in rosters:
        table.add_row(roster.game, roster.name, str(roster.spec.count("|") + 1), roster.description)
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
def roster_import(path: str | None, samples_of: str | None, replace: bool) -> None:
    """Import a roster file (schema referee-rosters/1): every roster in it, or none."""
    if (path is None) == (samples_of is None):
        raise click.UsageError("Give a roster file, or --samples GAME (or --samples all).")
    if path is not None:
        file = Path(path)
        if file.stat().st_size > MAX_ROSTER_FILE_BYTES:
            raise RosterError(f"{file.name} is over {MAX_ROSTER_FILE_BYTES // 1024} KiB.", token=file.name)
        rosters = parse_roster_file(file.read_text(encoding="utf-8", errors="replace"), source=file.name)
    else:
        wanted = None if samples_of == "all" else get_game(str(samples_of)).id
        shipped = sorted((data_root() / "rosters").iterdir(), key=lambda f: f.name)
        rosters = [
            roster
            for f in shipped
            if f.name.endswith(".yaml")
            for roster in parse_roster_file(f.read_text(encoding="utf-8"), source=f.name)
            if wanted is None or roster.game == wanted
        ]
    saved = with_store(lambda store: store.rosters.save_many(LOCAL_USER, rosters, replace=replace))
    click.echo(f"Imported {len(saved)} roster{'s' if len(saved) != 1 else ''}: "
               + ", ".join(f"{r.name} ({r.game})" for r in saved) + ".")  # fmt: skip


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


@cli.group("data")
def data_group() -> None:
    """Everything stored about one user or one guild: export it, or delete it (docs/privacy.md)."""


def _subject(user: str | None, guild: str | None) -> dict[str, str | None]:
    if user is not None and guild is not None:
        raise click.UsageError("Give --user or --guild, not both.")
    return {"user": LOCAL_USER, "guild": None} if user is None and guild is None else {"user": user, "guild": guild}


@data_group.command("export")
@click.option("--user", default=None, help="A user id (default: 'local', everything done offline).")
@click.option("--guild", default=None, help="A Discord guild id.")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None, help="Write to a file.")
def data_export(user: str | None, guild: str | None, output: str | None) -> None:
    """Every combat record and roster of a user (or a guild), as JSON."""
    subject = _subject(user, guild)
    exported = with_store(lambda store: store.privacy.export(**subject))
    text = json.dumps(exported, indent=2, ensure_ascii=False)
    if output is None:
        click.echo(text)
        return
    Path(output).write_text(text + "\n", encoding="utf-8")
    click.echo(f"Wrote {len(exported['combat_records'])} combat records and {len(exported['rosters'])} rosters "
               f"to {output}.")  # fmt: skip


@data_group.command("delete")
@click.option("--user", default=None, help="A user id (default: 'local').")
@click.option("--guild", default=None, help="A Discord guild id.")
@click.option("--yes", is_flag=True, help="Really delete: there is no undo (export first if in doubt).")
def data_delete(user: str | None, guild: str | None, yes: bool) -> None:
    """Delete a user's (or a guild's) records and rosters for good."""
    subject = _subject(user, guild)
    who = f"user {subject['user']}" if subject["user"] is not None else f"guild {subject['guild']}"
    if not yes:
        raise click.UsageError(f"This deletes every record and roster of {who} for good: add --yes to go ahead.")
    counts = with_store(lambda store: store.privacy.delete(**subject))
    click.echo(f"Deleted the data of {who}: " + ", ".join(f"{key.replace('_', ' ')} {n}" for key, n in counts.items()))


_register_game_commands()


def _usage_example(error: click.UsageError) -> str:
    """The example after a usage error: the command's own (a game's), else its usage line and where its help is."""
    ctx = error.ctx
    if ctx is not None and ctx.command is not None and ctx.command.epilog:
        return " " + ctx.command.epilog
    if ctx is not None and ctx.command is not None and ctx.parent is not None:
        usage = " ".join(ctx.get_usage().split())
        return f" {usage} ('{ctx.command_path} --help' says more)."
    return " 'referee help' lists the games; 'referee --help' lists the commands."


cli.add_command(league_group)

# Last: `referee odds` reuses this module's option and @roster helpers.
from bot.cli_odds import odds_group  # noqa: E402

cli.add_command(odds_group)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: one line naming the problem and a correct example on bad input, exit status 2."""
    err: Callable[[str], None] = lambda text: click.echo(text, err=True)  # noqa: E731
    try:
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="referee", standalone_mode=False)
    except RefereeError as error:
        err(f"error: {error.one_line()}")
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message())  # 'referee' alone: the help itself, not an error
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as error:
        err(f"error: {error.format_message()}{_usage_example(error)}")
        sys.exit(EXIT_BAD_INPUT)
    except (RecordNotFound, RosterNotFound, RosterExists, LeagueError, LeagueNotFound, MatchNotFound) as error:
        err(f"error: {error}")
        sys.exit(EXIT_BAD_INPUT)
    except StorageError as error:
        err(f"error: {error}")
        sys.exit(EXIT_STORAGE)
    except click.exceptions.Abort:
        err("aborted")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
