"""The offline `referee` command: resolve procedures in the terminal, print their JSON, explain the games.

This module holds the root group, puts the command groups together (one module each in this package: ``games``,
``records``, ``rosters``, ``leagues``, ``odds``, ``guide``, ``privacy``, ``admin``; what they share is in
``common``) and runs it: ``main`` is the console script ``referee`` (``python -m bot.cli`` runs it too).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import click

from bot.cli.admin import bot_command, db_group, sync_command
from bot.cli.common import EXIT_BAD_INPUT, EXIT_STORAGE, TERMINAL, GameGroup
from bot.cli.games import add_game_commands, assault
from bot.cli.guide import games_command, help_command, samples_command
from bot.cli.leagues import league_group
from bot.cli.odds import odds_group
from bot.cli.privacy import data_group
from bot.cli.records import (
    annotate_command,
    assault_continue,
    history_command,
    replay_command,
    verify_command,
    void_command,
)
from bot.cli.rosters import roster_group
from bot.data import catalogue
from bot.storage import StorageError
from rules_core import ENGINE_VERSION, RefereeError


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ENGINE_VERSION, prog_name="referee")
def cli() -> None:
    """A dice referee for tabletop wargames: close combat resolved with real, auditable dice."""


# The fixed commands first, then the games' (generated), then the leagues and the odds.
assault.add_command(assault_continue)
for _command in (assault, games_command, help_command, samples_command, bot_command, sync_command, db_group,
                 history_command, replay_command, verify_command, void_command, annotate_command, roster_group,
                 data_group):  # fmt: skip
    cli.add_command(_command)
add_game_commands(cli)
cli.add_command(league_group)
cli.add_command(odds_group)


def _usage_example(error: click.UsageError) -> str:
    """The example after a usage error: the command's own (a game's), else its usage line and where its help is."""
    ctx = error.ctx
    if ctx is not None and ctx.command is not None and ctx.command.epilog:
        return " " + ctx.command.epilog
    if ctx is not None and ctx.command is not None and ctx.parent is not None:
        usage = " ".join(ctx.get_usage().split())
        return f" {usage} ('{ctx.command_path} --help' says more)."
    return " 'referee help' lists the games; 'referee --help' lists the commands."


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: one line naming the problem and a correct example on bad input, exit status 2."""
    err: Callable[[str], None] = lambda text: click.echo(text, err=True)  # noqa: E731
    try:
        catalogue()  # every game bound to its data files once, before any command asks for one
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="referee", standalone_mode=False)
    except RefereeError as error:  # every error a user can fix, the engine's and the bot's: one line, no traceback
        err(f"error: {error.one_line(TERMINAL)}")
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message())  # 'referee' alone: the help itself, not an error
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as error:
        err(f"error: {error.format_message()}{_usage_example(error)}")
        sys.exit(EXIT_BAD_INPUT)
    except StorageError as error:
        err(f"error: {error}")
        sys.exit(EXIT_STORAGE)
    except click.exceptions.Abort:
        err("aborted")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
