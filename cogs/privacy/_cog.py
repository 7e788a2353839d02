"""/privacy info|export|delete-my-data|delete-server-data (see docs/privacy.md)."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.errors import error_embed
from bot.render.colours import INFO_COLOUR

if TYPE_CHECKING:
    from bot.discord.app import RefereeBot

WHAT_IS_STORED = (
    "For every combat: the game, both sides' units, the options and the seed, the full result, who asked for it, "
    "the opponent if one was named, this server and channel, and the time. Voids and notes with who made them. "
    "Your saved rosters. Your /roll results with their dice. In leagues: your membership, your matches and the "
    "changes you made. Nothing else: no messages, names or avatars.\n\n"
    "Records are kept until deleted (leagues rely on them). `/privacy export` sends you everything about you; "
    "`/privacy delete-my-data` deletes it (where you were only someone's opponent, your id is replaced). "
    "A server manager can delete the server's records with `/privacy delete-server-data`."
)


class PrivacyCog(commands.GroupCog, group_name="privacy", group_description="What is stored, and deleting it."):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="info", description="What the referee stores about you, and for how long.")
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="What the referee stores", description=WHAT_IS_STORED, colour=INFO_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="export", description="Everything stored about you, as a JSON file (only you see it).")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        data = await self.bot.store.privacy.export(user=str(interaction.user.id))
        body = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
        await interaction.response.send_message(
            f"{len(data['combat_records'])} combats, {len(data['rosters'])} rosters, {len(data['dice_rolls'])} rolls.",
            file=discord.File(io.BytesIO(body), filename="my-referee-data.json"),
            ephemeral=True,
        )

    @app_commands.command(name="delete-my-data", description="Delete your combats, rosters and rolls for good.")
    @app_commands.describe(confirm="Set to True: there is no undo (export first if in doubt).")
    async def delete_mine(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete your data for good.",
                                  "/privacy delete-my-data confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(user=str(interaction.user.id))
        await interaction.response.send_message(_deleted(counts), ephemeral=True)

    @app_commands.command(name="delete-server-data", description="Delete this server's combats (server managers).")
    @app_commands.describe(confirm="Set to True: there is no undo.")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def delete_server(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                embed=error_embed("Only a server manager can delete the server's data."), ephemeral=True
            )
            return
        if not confirm:
            await interaction.response.send_message(
                embed=error_embed("Nothing deleted: add confirm:True to delete this server's combats for good.",
                                  "/privacy delete-server-data confirm:True"), ephemeral=True)  # fmt: skip
            return
        counts = await self.bot.store.privacy.delete(guild=str(interaction.guild_id))
        await interaction.response.send_message(_deleted(counts), ephemeral=True)


def _deleted(counts: dict[str, int]) -> str:
    return "Deleted: " + ", ".join(f"{key.replace('_', ' ')} {n}" for key, n in counts.items()) + "."
