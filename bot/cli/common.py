"""What the `referee` command groups share: exit codes, option flags from a game's declarations, @roster
expansion, seeds, showing and recording a report, the group that finds a game by any of its names and loads a
command's module only when it is used, and how the terminal writes an error's structured parts (``TERMINAL``:
flags, ``referee`` commands, users by id).

Quick rulings start fast: this module imports neither the storage stack (SQLAlchemy, Alembic) nor the rosters'
module; the functions that need them import them, and a combat's result is on the screen before they are. Those
imports run with the cyclic garbage collector paused (:func:`importing`).
"""

from __future__ import annotations

import gc
import importlib
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console

from bot.access import LOCAL_USER
from bot.render.summary import house_rules_text
from bot.render.terminal import print_report
from rules_core import RefereeError, get_game
from rules_core.errors import Do, Example, Hint, Setting, example
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game, games_like, games_named
from rules_core.report import Report

EXIT_BAD_INPUT = 2
EXIT_STORAGE = 3  # the database cannot be used as configured
EXIT_UNREACHABLE = 4  # Discord cannot be reached (the network, DNS, a proxy): worth retrying


@contextmanager
def importing() -> Iterator[None]:
    """Import a command's modules with the cyclic garbage collector paused: a module makes long-lived objects and
    no garbage, and collections while SQLAlchemy's or the storage's modules load cost about a tenth of their
    import. The collector runs again as before once they are loaded."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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


def option_param(spec: OptionSpec) -> click.Option:
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


def opponent_name(name: str | None) -> str | None:
    text = None if name is None else " ".join(name.split())[:100]
    return text or None


def show_and_record(
    report: Report, as_json: bool, *, continues: int | None = None, opponent: str | None = None,
    house_rules: tuple[str, ...] = (),
) -> None:  # fmt: skip
    if as_json:
        click.echo(report.to_json())
    else:
        print_report(report, Console(highlight=False))
        if house := house_rules_text(report.inputs.options, house_rules):
            click.echo(house)
    # Shown first, stored second: a failed write never takes the result away, and the result is on the screen
    # before the storage stack is even imported (as the bot answers before it records).
    sys.stdout.flush()
    with importing():
        from bot.recording import record_report  # noqa: PLC0415 (the storage stack: only once the result is shown)

    recorded = record_report(report, continues=continues, opponent=opponent, house_rules=house_rules)
    if recorded.record_id is None:
        click.echo(f"warning: not recorded, but the result above stands. {recorded.problem}", err=True)
        return
    number = recorded.record_id
    click.echo(f"Recorded as #{number}: 'referee replay {number}' shows it again, 'referee verify {number}' re-runs "
               "it from its seed.", err=True)  # fmt: skip
    if any(ev.kind == "continues" for step in report.steps for ev in step.events):
        click.echo(f"The combat goes on: 'referee assault continue {number}' fights the next round.", err=True)


def expand_references(
    game: Game, attacker: str, defender: str, options: dict[str, Any]
) -> tuple[str, str, dict[str, Any]]:
    """Replace @roster references (in the sides and in text options such as supporting formations) by their units."""
    with importing():
        from bot.rosters import expand_all, has_references  # noqa: PLC0415 (it imports the rosters' storage)

    if not has_references(game, attacker, defender, options):
        return attacker, defender, options
    with importing():
        from bot.recording import with_store  # noqa: PLC0415 (the storage stack: only for a reference)

    async def work(store: Any) -> tuple[str, str, dict[str, Any]]:
        async def lookup(game_id: str, name: str) -> Any:
            return await store.rosters.get(LOCAL_USER, game_id, name)

        return await expand_all(game, attacker, defender, options, lookup)

    result: tuple[str, str, dict[str, Any]] = with_store(work)
    return result


# The terminal's command for each thing a user can do next, or None where only Discord does it (leagues change
# there); the sentences keep the words both front ends use.
_COMMANDS: dict[Do, str | None] = {
    Do.GAME_HELP: "referee help {subject}",
    Do.LIST_RECORDS: "referee history",
    Do.LIST_ROSTERS: "referee roster list --game {subject}",
    Do.LIST_LEAGUES: "referee league list",
    Do.CREATE_LEAGUE: None,
    Do.JOIN_LEAGUE: None,
    Do.START_SEASON: None,
    Do.LEAGUE_HISTORY: "referee league history LEAGUE",
    Do.REPORT_MATCH: None,
    Do.VOID_MATCH: None,
    Do.FIGHT_AGREED: "referee challenge {subject} --attacker ... --defender ... --opponent NAME --out challenge.json",
    Do.RESOLVE: "referee {command}",  # the game's own command: referee assault 40k, referee duel
    Do.ODDS: "referee odds {subject}",
}
_HINTS = {
    Do.GAME_HELP: "See '{command}'.",
    Do.LIST_RECORDS: "'{command}' lists the recent ones.",
    Do.LIST_ROSTERS: "'{command}' shows yours.",
    Do.LIST_LEAGUES: "'{command}' lists the leagues; organisers create them in Discord.",
    Do.CREATE_LEAGUE: "Organisers create leagues in Discord.",
    Do.JOIN_LEAGUE: "Players join a league in Discord.",
    Do.START_SEASON: "An organiser starts the next season in Discord.",
    Do.LEAGUE_HISTORY: "'{command}' lists the league's matches.",
    Do.REPORT_MATCH: "Players report their games in Discord.",
    Do.VOID_MATCH: "Organisers void matches in Discord.",
    Do.FIGHT_AGREED: "Fight one both players agree to: '{command}', accepted with 'referee accept challenge.json'.",
    Do.RESOLVE: "'{command}' resolves one combat.",
    Do.ODDS: "'{command}' gives the odds of one combat.",
}


def flag_text(setting: Setting) -> str:
    """One option as typed after ``referee``: ``--charge-distance 4.5``, ``--shot-this-turn``, ``--no-perils``."""
    flag = setting.name.replace("_", "-")
    if isinstance(setting.value, bool):
        return f"--{flag}" if setting.value else f"--no-{flag}"
    value = str(setting.value)
    return f'--{flag} "{value}"' if any(c.isspace() for c in value) else f"--{flag} {value}"


class TerminalWords:
    """How the terminal writes an error's structured parts (rules_core.errors.Words)."""

    def literal(self, text: str) -> str:
        return text

    def mention(self, user: str) -> str:
        return user

    def option(self, name: str) -> str:
        return "--" + name.replace("_", "-")

    def command(self, path: str) -> str:
        return f"referee {path}"

    def example(self, example: Example) -> str:
        flags = " ".join(flag_text(setting) for setting in example.settings)
        if example.do is None:
            return flags
        command = _command(example.do, example.subject)
        return self.hint(Hint(example.do)) if command is None else f"{command} {flags}"

    def hint(self, hint: Hint) -> str:
        return _HINTS[hint.do].format(command=_command(hint.do, hint.subject) or "")


def _command(do: Do, subject: str) -> str | None:
    """The terminal's command that does ``do`` about ``subject`` (a game's own command for Do.RESOLVE)."""
    command = _COMMANDS[do]
    if command is None:
        return None
    if do is Do.RESOLVE:
        return command.format(command=" ".join(command_path(get_game(subject))))
    return command.format(subject=subject)


TERMINAL = TerminalWords()
SPEC_COLUMNS = 79  # a spec is shown around its faulty token in lines that fit an 80-column terminal


def error_text(error: RefereeError) -> str:
    """What the terminal prints for an error a user can fix: the message, what to do next and an example on one
    line; for an error in a spec given on the command line, the message, then that spec with a caret line under
    the faulty token, then the spec corrected, to copy, where the fix is certain (else the example)."""
    given = error.given
    if given is None or not given.text:
        return f"error: {error.one_line(TERMINAL)}"
    lines = [f"error: {error.text_of(TERMINAL)}"]
    prefix = f"  {TERMINAL.option(given.option)}: "
    shown, span = given.excerpt(SPEC_COLUMNS - len(prefix))
    lines.append(prefix + shown)
    if span is not None:
        lines.append(" " * (len(prefix) + span[0]) + "^" * max(1, span[1] - span[0]))
    if given.corrected is not None:
        lines.append(f"Corrected, to copy: {TERMINAL.option(given.option)} {shlex.quote(given.corrected)}")
    elif (example_text := error.example_of(TERMINAL)) is not None:
        lines.append(f"Example: {example_text}")
    return "\n".join(lines)


def parse_seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise RefereeError(
            f"The seed must be a whole number, not {text!r}.", token=text, example=example(seed=12345)
        ) from None


@dataclass(frozen=True, slots=True)
class LazyCommand:
    """A command whose module is imported only when the command is used: ``target`` is ``module:attribute``, and
    ``help`` its help's first paragraph, which is all its group's ``--help`` shows of it (a test checks that it is
    the command's own)."""

    target: str
    help: str

    def load(self) -> click.Command:
        module, _, attribute = self.target.partition(":")
        with importing():
            command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), self.target
        return command

    def stand_in(self, name: str) -> click.Command:
        """What the group's help lists before the module is loaded: the same name and the same one-line help."""
        return click.Command(name, help=self.help)


class GameGroup(click.Group):
    """A group whose commands include games: any name of a game (its id, an alias, its command path such as
    ``closequarters`` or ``assault 40k``) finds that game's command here, or the command it is fought with.

    Commands added with :meth:`add_lazy` are listed like the others but their module is imported only when they
    are run (or their own help is asked for): ``referee help`` never loads the storage stack nor Discord."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, LazyCommand] = {}

    def add_lazy(self, name: str, target: str, help_text: str) -> None:
        self.lazy[name] = LazyCommand(target, help_text)

    def list_commands(self, ctx: click.Context) -> list[str]:  # noqa: ARG002 (click's signature)
        return sorted({*self.commands, *self.lazy})

    def load(self, name: str) -> click.Command | None:
        """The lazy command ``name``, imported now and kept (None when there is no such lazy command)."""
        lazy = self.lazy.get(name)
        if lazy is None:
            return None
        command = lazy.load()
        self.add_command(command, name)
        del self.lazy[name]
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's list of commands, with a lazy command's stand-in in its place: listing imports nothing."""
        commands = [
            (name, self.commands.get(name) or self.lazy[name].stand_in(name)) for name in self.list_commands(ctx)
        ]
        commands = [(name, command) for name, command in commands if not command.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in commands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name) or self.load(cmd_name)
        if command is not None:
            return command
        found = games_named(cmd_name)
        if len(found) > 1 or (not found and games_like(cmd_name)):
            get_game(cmd_name)  # raises: a command several games share (assault), or a name that fits games
        return self.game_command(ctx, found[0]) if found else None

    def game_command(self, ctx: click.Context, game: Game) -> click.Command | None:
        return self.commands.get(game.id) or fight_command(ctx.find_root().command, game)


def fight_command(root: click.Command, game: Game) -> click.Command | None:
    """The command a game is fought with under the ``referee`` group ``root``: ``referee closequarters``,
    ``referee assault 40k``..."""
    if not isinstance(root, click.Group):
        return None
    if game.command != "assault":
        return root.commands.get(game.command)
    assault = root.commands.get("assault")
    return assault.commands.get(game.id) if isinstance(assault, click.Group) else None
