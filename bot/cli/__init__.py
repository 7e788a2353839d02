"""The offline `referee` command: resolve procedures in the terminal, print their JSON, explain the games.

This module holds the root group, puts the command groups together (one module each in this package: ``games``,
``records``, ``rosters``, ``leagues``, ``odds``, ``guide``, ``privacy``, ``settings``, ``admin``; what they share is in
``common``) and runs it: ``main`` is the console script ``referee`` (``python -m bot.cli`` runs it too).

Quick rulings start fast: the games' commands and the guide are loaded with the group, every other command's
module only when that command is used (``LAZY``), so ``referee help`` or ``referee assault 40k`` never imports
Discord, the odds' plotting nor, until a combat is recorded, the storage stack.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Sequence

_COLLECTING = gc.isenabled()
gc.disable()  # while the group's modules load (see bot.cli.common.importing); on again below

import click  # noqa: E402

from bot.cli.common import EXIT_BAD_INPUT, EXIT_STORAGE, TERMINAL, GameGroup, error_text  # noqa: E402
from bot.cli.games import add_game_commands, assault  # noqa: E402
from bot.cli.guide import games_command, help_command, samples_command  # noqa: E402
from rules_core import ENGINE_VERSION, RefereeError, all_games  # noqa: E402
from rules_core.options import OptionSpec, near_miss, near_names  # noqa: E402


@click.group(cls=GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ENGINE_VERSION, prog_name="referee")
def cli() -> None:
    """A dice referee for tabletop wargames: close combat resolved with real, auditable dice."""


# The commands whose modules load when they are used: (group, name, module:command, the first paragraph of its
# help, which is all the group's --help shows of it; tests/bot/test_cli_imports.py checks each is the command's own).
LAZY: tuple[tuple[GameGroup, str, str, str], ...] = (
    (assault, "continue", "bot.cli.records:assault_continue", "Fight the next round of a 40K combat that was drawn "
     "or whose loser held (the survivors, no charge bonus)."),
    (cli, "bot", "bot.cli.admin:bot_command", "Run the Discord bot (settings from the environment or .env: "
     "DISCORD_TOKEN, DATABASE_URL, DEV_GUILD_ID...)."),
    (cli, "sync", "bot.cli.admin:sync_command", "Sync the slash commands globally, once, from one process (they can "
     "take up to an hour to appear)."),
    (cli, "db", "bot.cli.admin:db_group", "The database of combat records and rosters (SQLite file by default, "
     "DATABASE_URL for PostgreSQL)."),
    (cli, "history", "bot.cli.records:history_command", "Recent combat records, newest first."),
    (cli, "replay", "bot.cli.records:replay_command", "Show a stored combat again, exactly as it was resolved."),
    (cli, "verify", "bot.cli.records:verify_command", "Re-run a stored combat from its seed and inputs and check it "
     "gives the very same report."),
    (cli, "void", "bot.cli.records:void_command", "Void a mistaken combat: it stays on record, marked void, with "
     "who, when and why."),
    (cli, "annotate", "bot.cli.records:annotate_command", "Add a note to a combat record (the record itself never "
     "changes)."),
    (cli, "roster", "bot.cli.rosters:roster_group", "Saved rosters: named units for one game, used anywhere a spec "
     "goes as @name or @name/unit."),
    (cli, "data", "bot.cli.privacy:data_group", "Everything stored about one user or one guild: export it, or delete "
     "it (referee docs privacy)."),
    (cli, "league", "bot.cli.leagues:league_group", "Leagues kept by the Discord bot: list them; read standings, "
     "match history and the audit log; export."),
    (cli, "settings", "bot.cli.settings:settings_group", "A Discord server's settings (house rules, visibility, "
     "threads, channels) and every change of them, offline."),
    (cli, "web", "bot.cli.web:web_command", "Serve the web pages: league standings, matches and ratings, and combat "
     "records, of the servers that publish them (settings from the environment or .env: DATABASE_URL, WEB_BASE_URL, "
     "WEB_HOST, WEB_PORT; referee docs web)."),
    (cli, "challenge", "bot.cli.challenges:challenge_group", "Challenge to a combat both players agree to, its "
     "dice drawn and committed to in advance: writes a file for your opponent ('referee accept FILE' resolves it; "
     "referee docs challenges)."),
    (cli, "accept", "bot.cli.challenges:accept_command", "Accept a challenge from its file: resolve it with the "
     "dice committed in advance, record it and reveal the seed and salt that prove it."),
    (cli, "docs", "bot.cli.docs:docs_command", "The documentation, offline: TOPIC's page (a game's rules, web, deploy, "
     "settings...); no TOPIC lists them."),
    (cli, "odds", "bot.cli.odds:odds_group", "Odds before you commit: exact where the game allows, otherwise Monte "
     "Carlo through the referee itself."),
)  # fmt: skip

for _command in (assault, games_command, help_command, samples_command):
    cli.add_command(_command)
add_game_commands(cli)
for _group, _name, _target, _help in LAZY:
    _group.add_lazy(_name, _target, _help)
if _COLLECTING:
    gc.enable()


def _storage_errors() -> tuple[type[BaseException], ...]:
    """The storage's errors, for ``main`` to catch: none when no command loaded the storage stack (nothing else
    raises them), so that catching them never imports it."""
    if "bot.storage" not in sys.modules:
        return ()
    from bot.storage import StorageError  # noqa: PLC0415

    return (StorageError,)


def _usage_example(error: click.UsageError) -> str:
    """The example after a usage error: the command's own (a game's), else its usage line and where its help is."""
    ctx = error.ctx
    if ctx is not None and ctx.command is not None and ctx.command.epilog:
        return " " + ctx.command.epilog
    if ctx is not None and ctx.command is not None and ctx.parent is not None:
        usage = " ".join(ctx.get_usage().split())
        return f" {usage} ('{ctx.command_path} --help' says more)."
    return " 'referee help' lists the games; 'referee --help' lists the commands."


def _near_flags(error: click.NoSuchOption) -> str:
    """`` Did you mean --defender-in-cover or --cover-power-fists?`` for a flag near the command's own (the same
    matching as an unknown option's in rules_core: near spellings, and flags holding all its words), or ''."""
    command = error.ctx.command if error.ctx is not None else None
    missed, _ = near_miss(error.option_name, _game_options(command))
    if missed:  # a name the game declares for one of its options (Bolt Action's --cover), or for a unit token
        return " " + RefereeError(missed).text_of(TERMINAL)
    flags = [flag for param in (command.params if command else []) for flag in getattr(param, "opts", [])]
    near = near_names(error.option_name, tuple(flag.lstrip("-") for flag in flags if flag.startswith("--")))
    if not near:
        return ""
    named = [f"--{name}" for name in near]
    return f" Did you mean {' or '.join([', '.join(named[:-1]), named[-1]] if len(named) > 1 else named)}?"


def _game_options(command: click.Command | None) -> tuple[OptionSpec, ...]:
    """The options of the game ``command`` fights or weighs (its parameters hold every one of them), or none."""
    names = {param.name for param in (command.params if command else [])}
    fitting = [game.options for game in all_games() if game.options and {spec.name for spec in game.options} <= names]
    return max(fitting, key=len, default=())


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: one line naming the problem and a correct example on bad input, exit status 2."""
    err: Callable[[str], None] = lambda text: click.echo(text, err=True)  # noqa: E731
    try:
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="referee", standalone_mode=False)
    except RefereeError as error:  # every error a user can fix, the engine's and the bot's: one line, no traceback
        err(error_text(error))
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message())  # 'referee' alone: the help itself, not an error
        sys.exit(EXIT_BAD_INPUT)
    except click.NoSuchOption as error:
        err(f"error: No such option '{error.option_name}'.{_near_flags(error)}{_usage_example(error)}")
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as error:
        err(f"error: {error.format_message()}{_usage_example(error)}")
        sys.exit(EXIT_BAD_INPUT)
    except _storage_errors() as error:
        err(f"error: {error}")
        sys.exit(EXIT_STORAGE)
    except click.exceptions.Abort:
        err("aborted")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
