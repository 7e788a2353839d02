"""What the referee knows, offline: ``referee games``, ``referee help [GAME]`` and ``referee samples [GAME]``."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from bot.cli.common import command_path, example_command
from bot.cli.docs import pointer
from bot.data import catalogue
from rules_core import all_games, get_game
from rules_core.options import OptionType
from rules_core.registry import games_named, names_of


@click.command("games")
def games_command() -> None:
    """List the games the referee knows."""
    table = Table("game", "aliases", "command", "what it resolves")
    for game in all_games():
        table.add_row(game.id, ", ".join(game.aliases), "referee " + " ".join(command_path(game)), game.title)
    Console().print(table)


@click.command("help")
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
    chosen = catalogue().game(game)
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
    console.print(f"\nEvery rule decision is written down in its page ({pointer(chosen.docs_page)}).")


@click.command("samples")
@click.argument("game", required=False)
def samples_command(game: str | None) -> None:
    """Sample units shipped with the referee, ready to paste after --attacker or --defender, or to import as rosters
    by their names ('referee roster import --samples GAME')."""
    from bot.rosters import shipped_rosters  # noqa: PLC0415 (checks each sample with its game's parser)

    wanted = {known.id for known in games_named(game) or (get_game(game),)} if game else None
    console = Console(highlight=False)
    shown = None
    for sample in shipped_rosters():
        if wanted and sample.game not in wanted:
            continue
        if sample.game != shown:
            console.print(f"[bold]{sample.game}[/bold]")
            shown = sample.game
        console.print(f"  {sample.name}: {sample.description}\n    [cyan]{sample.spec}[/cyan]")
