"""`referee odds <game>`: the odds of a procedure before fighting it, with the same inputs as the game's command.

The answer comes within ``--time-limit`` seconds (exact when it fits, else Monte Carlo for the trials that fit);
``--trials N`` instead runs exactly N trials and reads no clock, which is how an answer is reproduced.
"""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from bot.cli.common import GameGroup, expand_references, option_param
from bot.cli.wrapping import print_wrapped
from bot.data import catalogue
from bot.render.odds import odds_lines
from rules_core import all_games
from rules_core.odds import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, MAX_TRIALS, METHODS, MIN_TIME_LIMIT, odds
from rules_core.registry import Game


def _odds_command(game: Game) -> click.Command:
    def run(  # noqa: PLR0917 (click passes every option by name)
        attacker: str, defender: str, method: str, trials: int | None, time_limit: float, seed: int, as_json: bool,
        **raw: Any,
    ) -> None:  # fmt: skip
        options = {name: value for name, value in raw.items() if value is not None}
        attacker, defender, options = expand_references(game, attacker, defender, options)
        result = odds(catalogue().game(game), attacker, defender, method=method, trials=trials,
                      time_limit=time_limit, seed=seed, **options)  # fmt: skip
        if as_json:
            click.echo(json.dumps(result.to_dict(), indent=2))
            return
        console = Console(highlight=False)
        for line in odds_lines(result, game.title):
            print_wrapped(console, Text(line))
        if result.time_limit is not None:
            print_wrapped(console, Text(f"  The same answer again: --trials {result.trials} --seed {seed}. A longer "
                                        "--time-limit, or more --trials, narrows the intervals."))  # fmt: skip

    params: list[click.Parameter] = [
        click.Option(["--attacker"], required=True, metavar="SPEC", help="The attacking side's units (or @roster)."),
        click.Option(["--defender"], required=True, metavar="SPEC", help="The defending side's units (or @roster)."),
        *(option_param(spec) for spec in game.options),
        click.Option(
            ["--method"],
            type=click.Choice(METHODS),
            default="auto",
            show_default=True,
            help="auto: exact where the game has an exact calculation, else Monte Carlo.",
        ),
        click.Option(
            ["--time-limit"],
            type=click.FloatRange(MIN_TIME_LIMIT, MAX_TIME_LIMIT),
            default=DEFAULT_TIME_LIMIT,
            show_default=True,
            metavar="SECONDS",
            help="Answer within this time: exact if it fits, else Monte Carlo for as many trials as fit.",
        ),
        click.Option(
            ["--trials"],
            type=click.IntRange(1, MAX_TRIALS),
            default=None,
            help="Exactly this many Monte Carlo trials, whatever the time (overrides --time-limit).",
        ),
        click.Option(
            ["--seed"], type=click.IntRange(0, 2**62), default=1, show_default=True, help="Monte Carlo's first seed."
        ),
        click.Option(["--json", "as_json"], is_flag=True, default=False, help="Print the odds as JSON."),
    ]
    return click.Command(game.id, callback=run, params=params, short_help=game.title,
                         help=f"The odds of {game.title}, before you fight it: who wins, how often the loser "
                              "breaks, and the losses on each side.")  # fmt: skip


@click.group("odds", cls=GameGroup)
def odds_group() -> None:
    """Odds before you commit: exact where the game allows, otherwise Monte Carlo through the referee itself."""


for _game in all_games():
    odds_group.add_command(_odds_command(_game))


__all__ = ["odds_group"]
