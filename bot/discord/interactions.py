"""What the commands read off an interaction, written once: the guild it came from, as the store keeps it."""

from __future__ import annotations

from typing import Any

import discord


def guild_of(interaction: discord.Interaction[Any]) -> str | None:
    """The guild id as text, or None in a direct message."""
    return None if interaction.guild_id is None else str(interaction.guild_id)


__all__ = ["guild_of"]
