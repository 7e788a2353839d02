"""What the commands read off an interaction, written once: the guild it came from, as the store keeps it, and
who acts from where (the ``Actor`` every store call by id takes, bot/access.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot.access import Actor


def guild_of(interaction: discord.Interaction[Any]) -> str | None:
    """The guild id as text, or None in a direct message."""
    return None if interaction.guild_id is None else str(interaction.guild_id)


def settings_channel(interaction: discord.Interaction[Any]) -> str | None:
    """The channel whose settings apply to an interaction: its own, or for a thread the channel it belongs to (a
    thread has no settings of its own; house rules and visibility set on a channel apply in its threads)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return str(channel.parent_id)
    return None if interaction.channel_id is None else str(interaction.channel_id)


def in_thread(interaction: discord.Interaction[Any]) -> bool:
    return isinstance(interaction.channel, discord.Thread)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """The user, the server they act from, and whether Discord resolved Manage Server for them there."""
    guild = guild_of(interaction)
    manager = guild is not None and bool(interaction.permissions.manage_guild)
    return Actor(str(interaction.user.id), guild=guild, manager=manager)


__all__ = ["actor_of", "guild_of", "in_thread", "settings_channel"]
