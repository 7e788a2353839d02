"""What a user sees when a command cannot do what was asked: a short error embed (with a correct example where
there is one), or, for a bug, an apology with an id to find it in the log."""

from __future__ import annotations

import secrets

import discord

from bot.render.colours import ERROR_COLOUR
from bot.render.embeds import cut
from bot.render.markdown import escape
from rules_core import RefereeError


def error_embed(message: str, example: str | None = None) -> discord.Embed:
    embed = discord.Embed(title="That did not work", description=cut(escape(message), 3000), colour=ERROR_COLOUR)
    if example:
        embed.add_field(name="A correct example", value=cut(f"```\n{example}\n```", 1024), inline=False)
    return embed


def referee_error_embed(error: RefereeError) -> discord.Embed:
    return error_embed(error.message, error.example)


def apology(error_id: str) -> discord.Embed:
    return discord.Embed(
        title="Sorry: something went wrong on our side",
        description=f"The referee hit an unexpected error. Nothing you typed was lost. Error id: `{error_id}` "
        "(give it to the bot's operator).",
        colour=ERROR_COLOUR,
    )


def new_error_id() -> str:
    return secrets.token_hex(4)


__all__ = ["apology", "error_embed", "new_error_id", "referee_error_embed"]
