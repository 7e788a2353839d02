"""A game's declared options as slash-command parameters (one name everywhere, types, choices and ranges), and the
games offered as a choice or an autocomplete: the command plumbing the cogs share."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from bot.ids import ID_MAX
from bot.render.markdown import cut
from rules_core import all_games
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import Game, command_path, names_of

DESCRIPTION = 100  # Discord's limit for command and option descriptions
SPEC_MAX = 4000  # the engine's spec limit
# Every id option (a record, a match, a season): Discord refuses a number the tables cannot hold as it is typed; one
# sent anyway is not found by the store (bot/ids.py).
ID = app_commands.Range[int, 1, ID_MAX]


def annotation(spec: OptionSpec) -> Any:
    """The parameter type discord.py turns into the option's type, choices and range."""
    if spec.type is OptionType.BOOL:
        return bool
    if spec.type is OptionType.CHOICE:
        return Literal.__getitem__(tuple(spec.choices))
    if spec.type is OptionType.TEXT:
        return app_commands.Range[str, 1, SPEC_MAX]
    low = spec.minimum
    high = spec.maximum
    if spec.type is OptionType.INT:
        return app_commands.Range[int, None if low is None else int(low), None if high is None else int(high)]
    return app_commands.Range[float, low, high]


def command_callback(
    game: Game, handler: Callable[..., Awaitable[None]], *, name: str,
    extras: Sequence[inspect.Parameter] | None = None,
) -> Callable[..., Coroutine[Any, Any, None]]:  # fmt: skip
    """A callback whose signature holds the sides, the game's options, then ``extras`` (by default opponent,
    private and agree), for discord.py."""

    async def callback(interaction: discord.Interaction[Any], **arguments: Any) -> None:
        await handler(interaction, **arguments)

    spec_type = app_commands.Range[str, 1, SPEC_MAX]
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        inspect.Parameter("attacker", inspect.Parameter.KEYWORD_ONLY, annotation=spec_type),
        inspect.Parameter("defender", inspect.Parameter.KEYWORD_ONLY, annotation=spec_type),
    ]
    descriptions = {
        "attacker": "The attacking side's units, or @roster / @roster/unit.",
        "defender": "The defending side's units, or @roster / @roster/unit.",
        "opponent": "Who you are playing (kept on the record).",
        "private": "Only you see the answer.",
        "agree": "True: a challenge the opponent accepts (or changes) before the dice are rolled.",
        "method": "auto: exact where the game allows, else Monte Carlo through the referee itself.",
    }
    for option in game.options:
        parameters.append(
            inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation(option), default=None)
        )
        descriptions[option.name] = description_of(option)
    parameters += (
        list(extras)
        if extras is not None
        else [
            inspect.Parameter("opponent", inspect.Parameter.KEYWORD_ONLY, annotation=discord.User, default=None),
            inspect.Parameter("private", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=None),
            inspect.Parameter("agree", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=None),
        ]
    )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = name  # a plain function: discord.py expects no bound instance
    named = {parameter.name for parameter in parameters}
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        name: text for name, text in descriptions.items() if name in named
    }
    return callback


def description_of(option: OptionSpec) -> str:
    """An option's slash-command description: the game's short help, whole (each game keeps it within Discord's
    100 characters: tests/cogs/test_command_payloads.py). A game that has not yet loses whole sentences, never a
    phrase's end, and is cut only if its first sentence alone is too long."""
    text = option.short_help
    if len(text) <= DESCRIPTION:
        return text
    sentences = text.split(". ")
    while len(sentences) > 1:
        sentences.pop()
        kept = ". ".join(sentences) + "."
        if len(kept) <= DESCRIPTION:
            return kept
    return cut(text, DESCRIPTION)


def game_choices() -> list[app_commands.Choice[str]]:
    """One choice per game, its label holding every name it goes by (typing /closequarters or ba finds Bolt
    Action); the value is its id."""
    choices = []
    for game in all_games():
        path = command_path(game)
        others = [name for name in names_of(game) if name not in {game.id, path}]
        label = game.id if path == game.id else f"{game.id} (/{path})"
        if others:
            label += f" · {', '.join(others)}"
        choices.append(app_commands.Choice(name=label[:100], value=game.id))
    return choices


def game_matches(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a free-text game: each game one of whose names holds what was typed, the game it names
    exactly first (at most 25)."""
    typed = " ".join(current.strip().lstrip("/").lower().split())
    found = [game for game in all_games() if any(typed in name.lower() for name in names_of(game))]
    found.sort(key=lambda game: typed not in {name.lower() for name in names_of(game)})
    return [app_commands.Choice(name=game.id, value=game.id) for game in found][:25]
