"""What the referee knows, offline: ``referee games``, ``referee help [GAME]`` and ``referee samples [GAME]``."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.cli.common import command_path, example_command
from bot.cli.docs import pointer
from bot.cli.wrapping import print_wrapped
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
    print_wrapped(console, Text.assemble((chosen.title, "bold"), f" ({chosen.id}; also: {also})"))
    print_wrapped(console, Text(chosen.summary))
    console.print()
    print_wrapped(console, Text.assemble(("Spec shape", "bold"), f": {chosen.spec_shape}"))
    console.print("\n[bold]Tokens[/bold]")
    for token in chosen.tokens:
        print_wrapped(console, Text.assemble("  ", (token.token, "cyan"), f" ({token.kind}): {token.help}"))
        if token.example:
            print_wrapped(console, Text(f"      e.g. {token.example}"))
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
        print_wrapped(console, Text.assemble("  ", (flag, "cyan"), f" ({shown}): {spec.help}"))
    print_wrapped(
        console, Text.assemble("  ", ("--seed N", "cyan"), ": replay a resolution exactly (default: a fresh seed).")
    )
    print_wrapped(console, Text.assemble("  ", ("--json", "cyan"), ": print the report as JSON."))
    console.print("\n[bold]Example[/bold]")
    console.print(Text(f"  {example_command(chosen)}"), soft_wrap=True)  # one line, to paste whole
    console.print()
    print_wrapped(console, Text(f"Every rule decision is written down in its page ({pointer(chosen.docs_page)})."))


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
        print_wrapped(console, Text(f"  {sample.name}: {sample.description}"), hanging=4)
        console.print(Text(f"    {sample.spec}", style="cyan"), soft_wrap=True)  # one line, to paste whole
