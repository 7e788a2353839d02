"""The game commands, generated from each game's declared options (rules_core.registry): ``referee duel``,
``referee closequarters``, ``referee assault 40k``... A new game appears here without changes to this file."""

from __future__ import annotations

from typing import Any

import click

from bot.cli.common import (
    GameGroup,
    example_command,
    expand_references,
    opponent_name,
    option_param,
    parse_seed,
    show_and_record,
)
from bot.data import catalogue
from rules_core import all_games, resolve
from rules_core.registry import Game


def input_params(game: Game) -> list[click.Parameter]:
    """The options that say what is fought: the two sides and the game's own options (``referee challenge``
    takes them too)."""
    return [
        click.Option(
            ["--attacker"],
            required=True,
            metavar="SPEC",
            help=f"The attacking side's units (see 'referee help {game.id}').",
        ),
        click.Option(["--defender"], required=True, metavar="SPEC", help="The defending side's units."),
        *(option_param(spec) for spec in game.options),
    ]


def _game_command(game: Game) -> click.Command:
    def run(attacker: str, defender: str, seed: str | None, as_json: bool, opponent: str | None, **raw: Any) -> None:
        options = {name: value for name, value in raw.items() if value is not None}
        attacker, defender, options = expand_references(game, attacker, defender, options)
        report = resolve(catalogue().game(game), attacker, defender, seed=parse_seed(seed), **options)
        show_and_record(report, as_json, opponent=opponent_name(opponent))

    params: list[click.Parameter] = [
        *input_params(game),
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


@click.group(cls=GameGroup)
def assault() -> None:
    """Resolve an assault: name the game after it."""


def add_game_commands(root: click.Group) -> None:
    """Every game's command: under ``assault`` for the assault games, else at the top level as its command."""
    for game in all_games():
        command = _game_command(game)
        if game.command == "assault":
            assault.add_command(command)
        else:
            command.name = game.command
            root.add_command(command)
