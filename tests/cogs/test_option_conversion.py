"""A game's declared options become slash-command parameter types with the same names, choices and ranges."""

from __future__ import annotations

import inspect
import typing

from discord import app_commands

from bot.discord.options import DESCRIPTION, annotation, command_callback
from bot.render.markdown import cut
from rules_core.options import OptionSpec, OptionType
from rules_core.registry import get_game


def test_types_choices_and_ranges() -> None:
    assert annotation(OptionSpec("x", OptionType.BOOL, False, "h")) is bool
    choice = annotation(OptionSpec("x", OptionType.CHOICE, "a", "h", choices=("a", "b")))
    assert typing.get_args(choice) == ("a", "b")
    ranged = annotation(OptionSpec("x", OptionType.INT, 1, "h", minimum=1, maximum=50))
    assert isinstance(ranged, app_commands.transformers.RangeTransformer)
    assert (ranged.min_value, ranged.max_value) == (1, 50)
    text = annotation(OptionSpec("x", OptionType.TEXT, None, "h"))
    assert text.max_value == 4000


def test_the_generated_signature_has_the_sides_every_option_and_the_extras() -> None:
    game = get_game("40k")

    async def handler(*_args: object, **_kwargs: object) -> None:
        return None

    callback = command_callback(game, handler, name="referee_40k")
    names = list(inspect.signature(callback).parameters)
    assert names == [
        "interaction",
        "attacker",
        "defender",
        *(o.name for o in game.options),
        "opponent",
        "private",
        "agree",
    ]
    assert callback.__qualname__ == "referee_40k"  # a plain function for discord.py, not a method
    descriptions = callback.__discord_app_commands_param_description__  # type: ignore[attr-defined]
    assert all(len(text) <= 100 for text in descriptions.values())


def test_descriptions_are_cut_to_discords_limit() -> None:
    assert cut("x" * 150, DESCRIPTION) == "x" * 99 + "…"
    assert cut("short", DESCRIPTION) == "short"
