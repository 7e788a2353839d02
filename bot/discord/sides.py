"""The two sides of a combat command, as every command that takes them (the combats, the odds) reads them: the
user's and the guild's rosters offered as the player types, and the sides parsed with @roster references replaced."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.data import catalogue
from bot.discord.client import BotServices
from bot.discord.interactions import guild_of, settings_channel
from bot.discord.options import DESCRIPTION
from bot.render.markdown import cut
from bot.rosters import expand_all
from bot.server_settings.model import apply_house_rules
from rules_core import parse_given
from rules_core.registry import Game
from rules_core.spec import split_units


def roster_choices(bot: BotServices, game: Game) -> Any:
    """Autocomplete for a side: the user's and the guild's rosters of ``game``, and each of their units."""

    async def choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        guild = guild_of(interaction)
        rosters = await bot.store.rosters.visible_to(str(interaction.user.id), game=game.id, guild_id=guild)
        wanted = current.lower().lstrip("@")
        found: list[app_commands.Choice[str]] = []
        for roster in rosters:
            names = [f"@{roster.name}"] + [f"@{roster.name}/{n}" for n in range(1, len(split_units(roster.spec)) + 1)]
            for label in names:
                if wanted in label.lower() and len(found) < 25:
                    found.append(app_commands.Choice(name=cut(label, DESCRIPTION), value=label))
        return found

    return choices


async def sides_and_options(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, attacker: str, defender: str, *,
    options: dict[str, Any],
) -> tuple[tuple[Any, Any], dict[str, Any], tuple[str, ...]]:  # fmt: skip
    """The two sides parsed (@roster references replaced: the user's rosters, then the guild's), the options (those
    given, then the house rules of the server or channel for the rest) and the names of the options that came from
    house rules; a bad spec or an unknown roster raises here, before anything is answered."""
    owner = str(interaction.user.id)
    guild = guild_of(interaction)

    async def lookup(game_id: str, name: str) -> Any:
        return await bot.store.rosters.get(owner, game_id, name, guild_id=guild)

    chosen = {name: value for name, value in options.items() if value is not None}
    attacker, defender, chosen = await expand_all(game, attacker, defender, chosen, lookup)
    chosen, house = with_house_rules(bot, interaction, game, chosen)
    bound = catalogue().game(game)
    # Parsed once per spec text (the catalogue's cache); a spec in error is shown back marked, corrected if certain.
    sides = tuple(
        parse_given(bound, text, which, parse=partial(catalogue().parsed_side, game.id))
        for text, which in ((attacker, "attacker"), (defender, "defender"))
    )
    return (sides[0], sides[1]), chosen, house


def with_house_rules(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, chosen: dict[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The options of one command in a server: the player's explicit ones (``chosen``, rosters' included) win, the
    house rules of its channel (in a thread: the thread's channel), else of its server, fill the rest. From the
    bot's settings cache, never a query, so the first answer does not wait; direct messages have no server and get
    none. Returns the options and the names of those that came from house rules (the record keeps them; the summary
    says them)."""
    house = bot.server_settings.effective(guild_of(interaction), settings_channel(interaction)).house_for(game.id)
    if not house:
        return chosen, ()
    return apply_house_rules(game, chosen, house)


__all__ = ["roster_choices", "sides_and_options", "with_house_rules"]
